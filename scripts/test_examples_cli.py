#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Command-line contract of the examples, run by ctest ("examples-cli"):

- a bad option exits with status 2, nothing on stdout and exactly one line on stderr,
  "<example>: --<option>=<value>: <reason>";
- --dryRun=true checks every option and output path, prints nothing and exits 0;
- --csv into a missing directory fails at once, before any run;
- determinism: the CSV of a small batch is byte-identical across two runs and across --jobs=1
  and --jobs=2, and with or without progress;
- stderr not a terminal (a log): progress as plain lines, "<example>: N/M runs done, S s
  elapsed", one per tenth of the runs reached, no carriage return; --quiet prints nothing.

- an attribute value ns-3 cannot read or its checker rejects (--ns3::Type::Attr=V, flow-spec
  attributes) is the same one line and exit 2 in every batch example, never an abort in ns-3;
- a write failure of an output file (a file size limit, as a full disk) is one line and exit
  status 1, the finished rows kept in <csv>.partial, no temporary file and no core file left;
  a run that fails (its qlog on a full tmpfs) likewise: one line naming the run and the file,
  the rows of the runs before it in <csv>.partial, their qlog files whole;
- empty values, rates without a unit, size units, derived defaults, attributes the example sets
  itself, the dumbbell's Jain index over zero throughputs.

    test_examples_cli.py <directory of the example programs> <scratch dir>
"""

import os
import re
import pathlib
import resource
import subprocess
import sys
import time
import unittest

from quic_cc_full_disk import assert_fails_on_full_disk

DS = "quic-cc-death-spiral"
HL = "quic-cc-hystart-lab"
DB = "quic-cc-dumbbell"
RF = "quic-cc-response-function"
CG = "quic-cc-cubic-growth"
IO = "quic-cc-interop"
SA = "quic-cc-satellite"
EC = "quic-cc-ecn"
BATCH = (DS, HL, DB, RF, CG, IO, SA, EC)

SIZE = ("must be a whole number of bytes > 0, e.g. 8000000, 10MB (10,000,000 bytes), 500kB, "
        "1GiB (2^30 bytes)")
BETA = "invalid value '{}' for attribute Beta of ns3::QuicCubic (double in (0, 1))"

# A send buffer below the bulk sender's write: every Send would be refused and nothing sent.
SMALL_BUFFER = ("--ns3::QuicCcSocket::SndBufSize=8192: is below the bulk {}' writes (16384 B, one "
                "Send each): the socket would refuse every write and send nothing")

TIME_CAP = "must be at most 1000000s (11.6 days; ns-3's Time wraps at 2^63 ns)"

# (example, arguments, the one line expected on stderr)
BAD = [
    # Attributes the scenario sets itself on every socket: a default would be overwritten.
    (DS, ["--ns3::QuicCcSocket::CongestionControl=ns3::QuicReno"],
     "--ns3::QuicCcSocket::CongestionControl=ns3::QuicReno: this example sets this attribute "
     "itself, so the default has no effect"),
    (DB, ["--ns3::QuicCcSocket::CongestionControl=ns3::QuicReno"],
     "--ns3::QuicCcSocket::CongestionControl=ns3::QuicReno: this example sets this attribute "
     "itself, so the default has no effect"),
    # Outputs that collide, found before the first run.
    (DB, ["--csv=x.csv", "--timeseries=x.csv"], "--timeseries=x.csv: is also the file of --csv"),
    (DB, ["--csv=x.csv", "--timeseries=./x.csv"], "--timeseries=./x.csv: is also the file of --csv"),
    (DS, ["--csv=ds.csv", "--qlog=."], "--qlog=.: holds the file of --csv"),
    (DS, ["--csv=ds.csv", "--qlog=ds.csv"], "--qlog=ds.csv: holds the file of --csv"),
    (RF, ["--csv=rf.csv", "--qlog=."], "--qlog=.: holds the file of --csv"),
    # Times that a Time would wrap (2^63 ns), or whose sums would.
    (DS, ["--lossDuration=1e14s"], "--lossDuration=1e14s: " + TIME_CAP),
    (DS, ["--timeout=1e12s"], "--timeout=1e12s: " + TIME_CAP),
    (DS, ["--delay=1e10s"], "--delay=1e10s: " + TIME_CAP),
    (DS, ["--lossDuration=1e400s"], "--lossDuration=1e400s: " + TIME_CAP),
    (DB, ["--duration=1e12s"], "--duration=1e12s: " + TIME_CAP),
    # A bin per interval and flow: 1ns bins over 30 s would need 240 GB a flow (it hung).
    (DB, ["--interval=1ns"], "--interval=1ns: interval cuts the duration (+30s) into more than "
     "1000000 goodput bins"),
    (HL, ["--timeout=2000000s"], "--timeout=2000000s: " + TIME_CAP),
    (DS, ["--ns3::QuicCcSocket::SndBufSize=8192"], SMALL_BUFFER.replace("{}'", "sender's")),
    (HL, ["--ns3::QuicCcSocket::SndBufSize=8192"], SMALL_BUFFER.replace("{}'", "sender's")),
    (DB, ["--ns3::QuicCcSocket::SndBufSize=8192"], SMALL_BUFFER.replace("{}'", "senders'")),
    (RF, ["--ns3::QuicCcSocket::SndBufSize=8192"], SMALL_BUFFER.replace("{}'", "sender's")),
    (DS, ["--runs=-1"], "--runs=-1: must be a whole number in 1..1000000"),
    (DS, ["--runs=abc"], "--runs=abc: must be a whole number in 1..1000000"),
    (DS, ["--runs"], "--runs=: needs a value (--runs=VALUE)"),
    (DS, ["--jobs=-1"], "--jobs=-1: must be a whole number in 0..4096"),
    (DS, ["--seed=0"], "--seed=0: must be a whole number in 1..4294967295"),
    (DS, ["--mss=100"], "--mss=100: must be a whole number in 1200..1472"),
    (DS, ["--size=0"], "--size=0: " + SIZE),
    (DS, ["--size=1.5B"], "--size=1.5B: " + SIZE),
    (DS, ["--size=1Mb"], "--size=1Mb: " + SIZE),
    (DS, ["--timeout=0s"], "--timeout=0s: must be after the end of the loss (2s)"),
    (DS, ["--timeout=1s", "--lossDuration=1s"],
     "--timeout=1s: must be after --lossDuration=1s"),
    (DS, ["--delay=5"], "--delay=5: must be a time >= 0 with a unit, e.g. 2s, 500ms, 50us"),
    (DS, ["--ackPolicy=Foo"], "--ackPolicy=Foo: must be ReceiveBatch or Rfc9000"),
    (DS, ["--cc=bbr"], "--cc=bbr: must be cubic or reno"),
    (DS, ["--idle-restart=Never"],
     "--idle-restart=Never: must be LastSent, LastActivity, LastSentClamped, Off, AckGap, "
     "AppLimitedTime, EpochReset or all"),
    (DS, ["--epoch=bogus"], "--epoch=bogus: must be shared or separate"),
    (DS, ["--pacing=On"], "--pacing=On: must be Off or Rfc9002"),
    (DS, ["--handshakeLoss=maybe"], "--handshakeLoss=maybe: must be true or false"),
    (DS, ["--probeContent=Nothing"], "--probeContent=Nothing: must be Data or Ping"),
    (DS, ["--maxAckRanges=0"], "--maxAckRanges=0: must be a whole number in 1..4294967295"),
    (DS, ["--maxAckDelay=25"],
     "--maxAckDelay=25: must be a time >= 0 with a unit, e.g. 2s, 500ms, 50us"),
    (DS, ["--cc=reno", "--idle-restart=LastSent"],
     "--idle-restart=LastSent: has no effect with --cc=reno (IdleRestart is a CUBIC attribute)"),
    (DS, ["--ackThreshold=3"],
     "--ackThreshold=3: has no effect with --ackPolicy=ReceiveBatch (only Rfc9000 uses it)"),
    (DS, ["--loss=30"], "--loss=30: a fraction must be in [0, 1]: use 30% or 0.3"),
    (DS, ["--loss=150%"], "--loss=150%: a percentage must be in 0%..100%"),
    (DS, ["--loss=lots"], "--loss=lots: must be a loss rate: use 30% or 0.3"),
    (DS, ["--rate=fast"], "--rate=fast: must be a rate > 0 with a unit, e.g. 1Gbps, 5Mbps, 100kb/s"),
    (DS, ["--rate=1000"], "--rate=1000: must be a rate > 0 with a unit, e.g. 1Gbps, 5Mbps, 100kb/s"),
    # Only what the user wrote is named; a default by what it is and its value.
    (DS, ["--lateSample=12s"],
     "--lateSample=12s: must be at or after the end of the loss (2s) and before the timeout (10s)"),
    (DS, ["--lateSample=12s", "--timeout=11s"],
     "--lateSample=12s: must be at or after the end of the loss (2s) and before --timeout=11s"),
    (DS, ["--quiet=maybe"], "--quiet=maybe: must be true or false"),
    (DS, ["--bogus=1"], "--bogus=1: unknown option (see --help)"),
    (DS, ["stray"], "stray: not an option (options are --name=value; see --help)"),
    (DS, ["--ns3::QuicCubic::RenoFriendly=Bogus"],
     "--ns3::QuicCubic::RenoFriendly=Bogus: invalid value 'Bogus' for attribute RenoFriendly of "
     "ns3::QuicCubic (one of Quiche|Rfc9438)"),
    (DS, ["--ns3::QuicCubic::Nope=1"],
     "--ns3::QuicCubic::Nope=1: ns3::QuicCubic has no attribute 'Nope'"),
    (DS, ["--ns3::NoSuchType::X=1"], "--ns3::NoSuchType::X=1: no TypeId named ns3::NoSuchType"),
    (DS, ["--ns3::QuicCubic::RestartWindow=true"],
     "--ns3::QuicCubic::RestartWindow=true: RestartWindow is declared by "
     "ns3::QuicCongestionController: use --ns3::QuicCongestionController::RestartWindow"),
    (DS, ["--csv=/nonexistent-quic-cc/out.csv"],
     "--csv=/nonexistent-quic-cc/out.csv: directory /nonexistent-quic-cc does not exist"),
    (DS, ["--qlog=/nonexistent-quic-cc/q"],
     "--qlog=/nonexistent-quic-cc/q: cannot be created: /nonexistent-quic-cc is not a directory"),
    (HL, ["--runs=-1"], "--runs=-1: must be a whole number in 1..1000000"),
    # ns-3 reads a value up to the first space or newline; the examples take the whole text.
    (HL, ["--runs=1 2"], "--runs=1 2: must be a whole number in 1..1000000"),
    (HL, ["--loss=0,2"], "--loss=2: a fraction must be in [0, 1]: use 30% or 0.3"),
    (HL, ["--loss=0,,1%"], "--loss=0,,1%: empty item in the comma-separated list"),
    (HL, ["--buffer=0"], "--buffer=0: must be a BDP multiple > 0 (0.5) or packets with a 'p' suffix (1000p)"),
    # A BDP multiple whose packet count wrapped to 0 in the worker (an abort and a core).
    (HL, ["--buffer=1e30"], "--buffer=1e30: is 27777777777777778767978431512576 packets on this "
     "path (BDP 27.8 packets); it must be 1 to 999999999 packets"),
    (HL, ["--buffer=0.0001"], "--buffer=0.0001: is 0 packets on this path (BDP 27.8 packets); "
     "it must be 1 to 999999999 packets"),
    (HL, ["--buffer=0p"], "--buffer=0p: packets must be a whole number >= 1 before the 'p' (1000p)"),
    (HL, ["--configs=cubic,foo"],
     "--configs=foo: must be tcp-cubic, reno, reno-hystart, cubic, cubic-hystart, ngtcp2-cubic, ngtcp2-reno, ngtcp2-bbr or all"),
    (HL, ["--mss=100"], "--mss=100: must be a whole number in 1200..1472"),
    (HL, ["--ackPolicy=Rfc9000", "--ackBatchWindow=1ms"],
     "--ackBatchWindow=1ms: has no effect with --ackPolicy=Rfc9000 (only ReceiveBatch uses it)"),
    (HL, ["--packetSizing=Half"], "--packetSizing=Half: must be FreeWindow or FullOnly"),
    (HL, ["--hystartL=-1"], "--hystartL=-1: must be a whole number in 0..4294967295"),
    (HL, ["--csv=/nonexistent-quic-cc/lab.csv"],
     "--csv=/nonexistent-quic-cc/lab.csv: directory /nonexistent-quic-cc does not exist"),
    # Attribute values ns-3 cannot read (it aborts in double.cc) or its checker rejects.
    *[(name, [f"--ns3::QuicCubic::Beta={v}"], f"--ns3::QuicCubic::Beta={v}: " + BETA.format(v))
      for name in BATCH for v in ("abc", "5", "0", "1", "0.5x")],
    # An attribute that names an object: ns-3 crashed (a segmentation fault) on an unknown TypeId.
    *[(name, ["--ns3::QuicCcSocket::SendDelay=abc"],
       "--ns3::QuicCcSocket::SendDelay=abc: invalid value 'abc' for attribute SendDelay of "
       "ns3::QuicCcSocket (ns3::Ptr< ns3::RandomVariableStream >)") for name in (HL, DB)],
    (DS, ["--ns3::QuicCubic::C=-1"],
     "--ns3::QuicCubic::C=-1: invalid value '-1' for attribute C of ns3::QuicCubic "
     "(double in (0, inf))"),
    (HL, ["--ns3::QuicCubic::SendIdleTimeout=5x"],
     "--ns3::QuicCubic::SendIdleTimeout=5x: invalid value '5x' for attribute SendIdleTimeout of "
     "ns3::QuicCubic (Time +1ns:+9.22337e+18ns)"),
    (DS, ["--ns3::QuicHyStartPlusPlus::CssGrowthDivisor=1"],
     "--ns3::QuicHyStartPlusPlus::CssGrowthDivisor=1: invalid value '1' for attribute "
     "CssGrowthDivisor of ns3::QuicHyStartPlusPlus (uint32_t 2:4294967295)"),
    *[(name, ["--ns3::QuicCcSocket::MaxDatagramSize=abc"],
       "--ns3::QuicCcSocket::MaxDatagramSize=abc: invalid value 'abc' for attribute "
       "MaxDatagramSize of ns3::QuicCcSocket (uint64_t 1200:65527)") for name in BATCH],
    (DB, ["--flows=quic:cubic[Beta=abc]:1"],
     "--flows=quic:cubic[Beta=abc]:1: 'quic:cubic[Beta=abc]:1': " + BETA.format("abc")),
    (DB, ["--flows=quic:cubic[Beta=2]:1"],
     "--flows=quic:cubic[Beta=2]:1: 'quic:cubic[Beta=2]:1': " + BETA.format("2")),
    (DB, ["--flows=quic:cubic[C=-1]:1"],
     "--flows=quic:cubic[C=-1]:1: 'quic:cubic[C=-1]:1': invalid value '-1' for attribute C of "
     "ns3::QuicCubic (double in (0, inf))"),
    # ns-3's own checker names the range, which differs between releases (TcpCubic's Beta:
    # 0:1.79769e+308 on 3.37, 0:1 on 3.48): a pattern.
    (DB, ["--flows=tcp:TcpCubic[Beta=abc]:1"],
     re.compile(re.escape("--flows=tcp:TcpCubic[Beta=abc]:1: 'tcp:TcpCubic[Beta=abc]:1': invalid "
                          "value 'abc' for attribute Beta of ns3::TcpCubic (double 0:")
                + r"(1|1\.79769e\+308)\)")),
    # Constraints between attributes that pass their checkers one by one: checked before the
    # first run (the workers would abort), naming the values given.
    *[(name, ["--ns3::QuicHyStartPlusPlus::MinRttThresh=20ms"],
       "--ns3::QuicHyStartPlusPlus::MinRttThresh=20ms: QuicHyStartPlusPlus: MinRttThresh "
       "(+20ms) exceeds MaxRttThresh (+16ms)") for name in BATCH],
    (HL, ["--ns3::QuicHyStartPlusPlus::MaxRttThresh=3ms"],
     "--ns3::QuicHyStartPlusPlus::MaxRttThresh=3ms: QuicHyStartPlusPlus: MinRttThresh (+4ms) "
     "exceeds MaxRttThresh (+3ms)"),
    (DS, ["--ns3::QuicCcSocket::MinimumWindowPackets=11"],
     "--ns3::QuicCcSocket::MinimumWindowPackets=11: QuicCcSocket::MinimumWindowPackets (11) must "
     "not exceed InitialWindowPackets (10)"),
    # An attribute the example sets from an option (or itself) would be overridden silently.
    (DS, ["--ns3::QuicCcSocket::MaxDatagramSize=65000"],
     "--ns3::QuicCcSocket::MaxDatagramSize=65000: this example sets it from --mss, which would "
     "override it: use --mss"),
    (HL, ["--ns3::QuicCcSocket::MaxDatagramSize=1400"],
     "--ns3::QuicCcSocket::MaxDatagramSize=1400: this example sets it from --mss, which would "
     "override it: use --mss"),
    (DB, ["--ns3::QuicCcSocket::MaxDatagramSize=1400"],
     "--ns3::QuicCcSocket::MaxDatagramSize=1400: this example sets this attribute itself, so the "
     "default has no effect"),
    (RF, ["--ns3::QuicCubic::C=0.5"],
     "--ns3::QuicCubic::C=0.5: this example sets it from --C, which would override it: use --C"),
    # Empty values: one line, not ns-3's help text and exit 1.
    *[(name, [f"--{opt}="], f"--{opt}=: needs a value (--{opt}=VALUE)")
      for name in BATCH for opt in ("runs", "csv", "jobs", "firstRun", "dryRun")],
    (DB, ["--flows="], "--flows=: needs a value (--flows=VALUE)"),
    (HL, ["--configs="], "--configs=: needs a value (--configs=VALUE)"),
    (DS, ["--ns3::QuicCubic::Beta="], "--ns3::QuicCubic::Beta=: needs a value (--ns3::QuicCubic::Beta=VALUE)"),
    (RF, ["--runs=2"],
     "--runs=2: must be 1: the periodic loss draws no random number, so every run of a point is "
     "the same"),
    # The constraints between attributes are checked with the values the runs use: --mss, not
    # the socket's default MaxDatagramSize.
    *[(name, ["--mss=1472", "--ns3::QuicCcSocket::RcvBufSize=1400"],
       "--ns3::QuicCcSocket::RcvBufSize=1400 --mss=1472: QuicCcSocket::RcvBufSize (1400) must hold "
       "at least one datagram (MaxDatagramSize 1472)") for name in (DS, HL)],
    (DS, ["--ns3::QuicCcSocket::RcvBufSize=1300"],
     "--ns3::QuicCcSocket::RcvBufSize=1300: QuicCcSocket::RcvBufSize (1300) must hold at least one "
     "datagram (MaxDatagramSize 1350)"),
    # RTTs too short for the response function's path, and no point at all to run.
    (RF, ["--rtt=1ns"],
     "--rtt=1ns: '1ns' is shorter than 1ms, the shortest RTT this path models (RFC 9438's tables "
     "use 10ms and 100ms)"),
    (RF, ["--rtt=100ms,500us"],
     "--rtt=100ms,500us: '500us' is shorter than 1ms, the shortest RTT this path models (RFC "
     "9438's tables use 10ms and 100ms)"),
    (RF, ["--rtt=0s"],
     "--rtt=0s: '0s' is shorter than 1ms, the shortest RTT this path models (RFC 9438's tables "
     "use 10ms and 100ms)"),
    (RF, ["--maxWindow=3"],
     "--maxWindow=3: must be >= 4 (points whose RFC window is below 4 packets are skipped)"),
    (RF, ["--cc=reno", "--p=0.5"],
     "--p=0.5: no point has an RFC window of 4..2000 packets (--maxWindow) at these loss rates and "
     "RTTs"),
    (CG, ["--ackRatios=0"], "--ackRatios=0: must be a whole number in 1..1000"),
    (CG, ["--stacks=quiche,all"], "--stacks=quiche,all: names quiche twice"),
    (CG, ["--parts=twoloss"], "--parts=twoloss: must be oneloss or periodic"),
    (CG, ["--measureFrom=80s"], "--measureFrom=80s: must be before the end (--periodicDuration=72s)"),
    # The ngtcp2 profile's settings are the profile rows' own.
    (CG, ["--ns3::QuicCubic::IdleRestart=Off"],
     "--ns3::QuicCubic::IdleRestart=Off: this example sets it from --stacks, which would override "
     "it: use --stacks"),
    (CG, ["--ns3::QuicCcSocket::AckElicitingThreshold=4"],
     "--ns3::QuicCcSocket::AckElicitingThreshold=4: this example sets it from --ackRatios, which "
     "would override it: use --ackRatios"),
    (IO, ["--measurements=X"], "--measurements=X: must be G or C"),
    (IO, ["--queue=0"], "--queue=0: must be a whole number in 1..1000000"),
    (IO, ["--stacks=tcp-reno"],
     "--stacks=tcp-reno: must be quic-cc-reno, quic-cc-cubic, ngtcp2-reno, ngtcp2-cubic, "
     "ngtcp2-bbr, tcp-cubic or all"),
    (IO, ["--ns3::PfifoFastQueueDisc::MaxSize=10p"],
     "--ns3::PfifoFastQueueDisc::MaxSize=10p: this example sets it from --queue, which would "
     "override it: use --queue"),
    (IO, ["--goodputSize=0"], "--goodputSize=0: " + SIZE),
    (SA, ["--lossPeriods=1"], "--lossPeriods=1: must be 0 (none) or >= 2"),
    (SA, ["--maxAckDelays=20s"],
     "--maxAckDelays=20s: must be > 0 and below 2^14 ms (RFC 9000 Section 18.2)"),
    (SA, ["--ns3::QuicCcSocket::AckElicitingThreshold=4"],
     "--ns3::QuicCcSocket::AckElicitingThreshold=4: this example sets it from --ackRatios, which "
     "would override it: use --ackRatios"),
    (SA, ["--size=0"], "--size=0: " + SIZE),
    (SA, ["--configs=cubic,all"], "--configs=cubic,all: names cubic twice"),
    # The ECN study: names checked against its tables, the cell's values, the ECN switches the
    # scenario sets itself.
    (EC, ["--queues=red,foo"],
     "--queues=foo: must be droptail, red, pie, codel, fqcodel or fqcodel-step"),
    (EC, ["--buffer=0p"], "--buffer=0p: buffer must be a queue size > 0 like 50p or 12500B"),
    (EC, ["--queues=fqcodel", "--buffer=25000B"],
     "--buffer=25000B: buffer is refused as MaxSize by ns3::FqCoDelQueueDisc (queue fqcodel; "
     "FqCoDelQueueDisc takes packets only)"),
    (EC, ["--stepThreshold=0s"], "--stepThreshold=0s: must be > 0"),
    (EC, ["--crossTraffic=1"],
     "--crossTraffic=1: cross traffic must be a fraction of the rate in [0, 1)"),
    (EC, ["--ns3::QuicCcSocketBase::Ecn=true"],
     "--ns3::QuicCcSocketBase::Ecn=true: this example sets this attribute itself, so the default "
     "has no effect"),
]

# Accepted: --dryRun exits 0 with nothing printed (units, derived defaults, the batch options).
GOOD = [
    *[(DS, [f"--size={v}"]) for v in ("1GB", "1G", "1GiB", "1000MB", "1MiB", "1.5MB", "10M", "8000000", "500kB", "500KB")],
    (DS, ["--timeout=6s"]),           # the late sample follows: 2 + 4 x 5/8 = 4.5 s
    (DS, ["--lossDuration=20s"]),     # the timeout follows (28 s), and the late sample (25 s)
    (DS, ["--lossDuration=1s", "--timeout=3s"]),
    *[(name, ["--runs=1", "--firstRun=3", "--jobs=2", "--seed=2", "--quiet"]) for name in BATCH],
    (DB, ["--duration=3s"]),          # the warm-up follows (0.5 s)
    (DB, ["--transfer=2MB"]),
    # MaxDatagramSize 1200 from --mss fits a 1250-byte receive buffer.
    *[(name, ["--mss=1200", "--ns3::QuicCcSocket::RcvBufSize=1250"]) for name in (DS, HL)],
    (RF, ["--rtt=1ms"]),
]

# Small, quick batches for the determinism check.
SMALL = {
    DS: ["--runs=3", "--size=2MB", "--lossDuration=1s", "--lateSample=2s", "--timeout=4s",
         "--idle-restart=all"],
    HL: ["--runs=2", "--size=300kB", "--buffer=1,1000p", "--loss=0,2%",
         "--configs=tcp-cubic,reno,cubic-hystart"],
    DB: ["--flows=quic:cubic:1,tcp:TcpCubic:1", "--runs=3", "--duration=4s"],
    CG: ["--parts=oneloss", "--duration=3s", "--stacks=quiche,ngtcp2-profile", "--ackRatios=2,10"],
    IO: ["--measurements=C", "--stacks=quic-cc-reno", "--crossSize=1MiB", "--runs=3"],
    SA: ["--configs=cubic,reno", "--size=5MB", "--ackRatios=2,10"],
}


class ExamplesCommandLine(unittest.TestCase):
    binaries = {}
    scratch = None

    def has_ngtcp2(self):
        """Whether the examples were built with the ngtcp2 transport (without it, a run that
        needs it is one line and exit 2, which the dumbbell and options tests check)."""
        r = self.run_example(DS, ["--dryRun", "--transport=ngtcp2"])
        if r.returncode == 2:
            self.assertRegex(r.stderr, r"needs the ngtcp2 transport, which this build lacks")
            return False
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        return True

    def run_example(self, name, args):
        return subprocess.run([str(self.binaries[name])] + args, capture_output=True, text=True,
                              timeout=600, cwd=self.scratch)

    def test_bad_options_exit_2_with_one_line(self):
        for name, args, expected in BAD:
            for dry in ([], ["--dryRun"]):  # checked before the first run, --dryRun or not
                with self.subTest(example=name, args=args + dry):
                    r = self.run_example(name, args + dry)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertEqual(r.stdout, "")
                    if isinstance(expected, re.Pattern):
                        self.assertRegex(r.stderr, f"^{re.escape(name)}: {expected.pattern}\n$")
                    else:
                        self.assertEqual(r.stderr, f"{name}: {expected}\n")
        self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])

    def test_bad_global_value_is_one_line(self):
        # ns-3's UintegerValue aborts on "abc"; the checker's type differs between ns-3 versions.
        for name in BATCH:
            with self.subTest(example=name):
                r = self.run_example(name, ["--RngRun=abc", "--dryRun"])
                self.assertEqual((r.returncode, r.stdout), (2, ""), r.stderr)
                self.assertRegex(r.stderr,
                                 rf"^{name}: --RngRun=abc: invalid value 'abc' \(uint\d+_t 0:\d+\)\n$")

    def test_bad_environment_default_is_one_line(self):
        # NS_ATTRIBUTE_DEFAULT: ns-3 aborts on 'abc' and ignores an out-of-range value or an
        # unknown name; the examples reject each before the first run, --dryRun or not.
        cases = [("ns3::QuicCubic::Beta=abc", "NS_ATTRIBUTE_DEFAULT=ns3::QuicCubic::Beta=abc: "
                  + BETA.format("abc")),
                 ("ns3::QuicCubic::Beta=2", "NS_ATTRIBUTE_DEFAULT=ns3::QuicCubic::Beta=2: "
                  + BETA.format("2")),
                 ("ns3::QuicCubic::Bogus=1", "NS_ATTRIBUTE_DEFAULT=ns3::QuicCubic::Bogus=1: "
                  "ns3::QuicCubic has no attribute 'Bogus'"),
                 ("ns3::QuicHyStartPlusPlus::MaxRttThresh=1ms",
                  "NS_ATTRIBUTE_DEFAULT=ns3::QuicHyStartPlusPlus::MaxRttThresh=1ms: "
                  "QuicHyStartPlusPlus: MinRttThresh (+4ms) exceeds MaxRttThresh (+1ms)")]
        for name in BATCH:
            for env, expected in cases:
                for dry in ([], ["--dryRun"]):
                    with self.subTest(example=name, env=env, dry=dry):
                        r = subprocess.run([str(self.binaries[name]), *dry], capture_output=True,
                                           text=True, timeout=600, cwd=self.scratch,
                                           env={**os.environ, "NS_ATTRIBUTE_DEFAULT": env})
                        self.assertEqual((r.returncode, r.stdout, r.stderr),
                                         (2, "", f"{name}: {expected}\n"))
        self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])

    def test_environment_default_a_run_would_not_honour(self):
        # NS_ATTRIBUTE_DEFAULT wins over the command line, so it is held to the same rules: an
        # attribute the example sets itself, a transport that does not run, a send buffer below
        # one write, a conflicting option; one line naming the item, before the first run.
        idle = "quic-cc-idle"
        cases = [
            (DS, [], "ns3::QuicCcSocket::SndBufSize=8192", "is below the bulk sender's writes "
             "(16384 B, one Send each): the socket would refuse every write and send nothing"),
            (DB, [], "ns3::QuicCcSocket::SndBufSize=8192", "is below the bulk senders' writes "
             "(16384 B, one Send each): the socket would refuse every write and send nothing"),
            (idle, ["--transport=ngtcp2"], "ns3::QuicCcNgtcp2Socket::SndBufSize=8192",
             "is below --chunk's default 2MB (one write per chunk must fit the send buffer)"),
            (DS, [], "ns3::QuicCcSocket::CongestionControl=ns3::QuicReno",
             "this example sets this attribute itself, so the default has no effect"),
            (HL, [], "ns3::QuicCcSocket::MaxDatagramSize=1400",
             "this example sets it from --mss, which would override it: use --mss"),
            (DS, [], "ns3::QuicCcNgtcp2Socket::MaxAckDelay=50ms",
             "this example sets it from --maxAckDelay, which would override it: use --maxAckDelay"),
            (DS, ["--transport=ngtcp2"], "ns3::QuicCcSocket::InitialWindowPackets=20",
             "has no effect with --transport=ngtcp2 (no quic-cc row runs; the ngtcp2 rows use "
             "ns3::QuicCcNgtcp2Socket)"),
            (idle, ["--flowControl=on"], "ns3::QuicCcSocket::FlowControl=false",
             "this example sets it from --flowControl, which would override it: use --flowControl"),
        ]
        ngtcp2 = self.has_ngtcp2()
        for name, args, env, reason in cases:
            if not ngtcp2 and ("--transport=ngtcp2" in args or "Ngtcp2" in env):
                continue  # the ngtcp2 transport's own attributes and runs
            binary = str(self.binaries[DS]).replace(DS, name)
            for dry in ([], ["--dryRun"]):
                with self.subTest(example=name, env=env, dry=dry):
                    r = subprocess.run([binary, "--runs=1", *args, *dry], capture_output=True,
                                       text=True, timeout=600, cwd=self.scratch,
                                       env={**os.environ, "NS_ATTRIBUTE_DEFAULT": env})
                    self.assertEqual((r.returncode, r.stdout, r.stderr),
                                     (2, "", f"{name}: NS_ATTRIBUTE_DEFAULT={env}: {reason}\n"))
        self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])

    def test_good_options_pass_dry_run(self):
        for name, args in GOOD:
            with self.subTest(example=name, args=args):
                r = self.run_example(name, args + ["--dryRun"])
                self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))

    def run_limited(self, name, args, limit):
        """Run with a file size limit of \p limit bytes (as a full disk: write() fails)."""
        def set_limit():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        return subprocess.run([str(self.binaries[name])] + args, capture_output=True, text=True,
                              timeout=600, cwd=self.scratch, preexec_fn=set_limit)

    def assert_no_core_and_no_temporary(self, csv):
        self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])
        self.assertEqual(sorted(p.name for p in csv.parent.glob(f".{csv.name}*")), [])

    def test_write_failure_keeps_finished_rows(self):
        cases = [
            (DS, SMALL[DS] + ["--jobs=2"], 1),  # a row per run
            (HL, SMALL[HL] + ["--jobs=2"], 1),
            (DB, SMALL[DB] + ["--jobs=2"], 2),  # a row per flow: 2 per run
        ]
        for name, args, rows_per_run in cases:
            csv = self.scratch / f"{name}-full.csv"
            partial = pathlib.Path(f"{csv}.partial")
            reference = self.scratch / f"{name}-reference.csv"
            r = self.run_example(name, args + [f"--csv={reference}", "--quiet"])
            self.assertEqual(r.returncode, 0, r.stderr)
            lines = reference.read_bytes().splitlines(keepends=True)
            header = lines[0]
            # Room for the header and two and a half runs' rows: the third run's write fails.
            limit = len(header) + sum(len(x) for x in lines[1:1 + 2 * rows_per_run]) + \
                len(lines[1 + 2 * rows_per_run]) // 2
            with self.subTest(example=name, limit=limit):
                r = self.run_limited(name, args + [f"--csv={csv}", "--quiet"], limit)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertEqual(
                    r.stderr,
                    f"{name}: cannot write {csv}: File too large; the {2 * rows_per_run} row(s) "
                    f"written before it are in {partial}\n")
                self.assertFalse(csv.exists())
                # Exactly the finished rows, complete, as the full run writes them.
                self.assertEqual(partial.read_bytes(), b"".join(lines[:1 + 2 * rows_per_run]))
                self.assert_no_core_and_no_temporary(csv)
                partial.unlink()
            with self.subTest(example=name, limit="header only"):
                r = self.run_limited(name, args + [f"--csv={csv}", "--quiet"], len(header) + 3)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertEqual(r.stderr, f"{name}: cannot write {csv}: File too large\n")
                self.assertFalse(csv.exists())
                self.assertFalse(partial.exists())
                self.assert_no_core_and_no_temporary(csv)

    def test_failed_run_keeps_finished_rows(self):
        """--qlog on a 2000 kB tmpfs: runs 1 and 2 (about 730 kB of qlog each) fit, run 3 fills
        it. Exit 1, one line naming run 3, its file, and the 2 rows kept in <csv>.partial."""
        disk = self.scratch / "full-disk"
        csv = self.scratch / "ds-full-disk.csv"
        partial = pathlib.Path(f"{csv}.partial")
        partial.unlink(missing_ok=True)
        args = ["--runs=3", "--cc=reno", "--size=2MB", "--lossDuration=1s", "--lateSample=2s",
                "--timeout=4s", "--quiet", "--jobs=1"]
        reference = self.scratch / "ds-full-disk-reference.csv"
        r = self.run_example(DS, args + [f"--csv={reference}"])
        self.assertEqual(r.returncode, 0, r.stderr)
        assert_fails_on_full_disk(
            self, [self.binaries[DS], *args, f"--qlog={disk}/q", f"--csv={csv}"], disk,
            2000 * 1024,
            rf"^{DS}: run 3 of 3 \(reno, RngRun 3\): cannot write {disk}/q/reno-run3/"
            r"quic-cc-node[01]-(client|server)-[0-9a-f]+\.sqlog: No space left on device; the 2 "
            rf"row\(s\) written before it are in {re.escape(str(partial))}\n$",
            ["q/reno-run1", "q/reno-run2"])
        self.assertEqual(partial.read_bytes(),
                         b"".join(reference.read_bytes().splitlines(keepends=True)[:3]))
        self.assert_no_core_and_no_temporary(csv)
        partial.unlink()

    def test_death_spiral_header_keeps_long_sample_times_apart(self):
        r = self.run_example(DS, ["--runs=2", "--size=200kB", "--lateSample=37.875s", "--timeout=40s",
                                  "--idle-restart=LastActivity"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"pinned +cwnd@2s +cwnd@37\.875s +transitions")

    def test_idle_help_lists_every_workload(self):
        r = subprocess.run([str(self.binaries[DS]).replace(DS, "quic-cc-idle"), "--PrintHelp"],
                           capture_output=True, text=True, timeout=60)
        line = [l for l in r.stdout.splitlines() if l.strip().startswith("--workload:")]
        self.assertEqual(len(line), 1, r.stdout)
        for workload in ("chunked", "request-response", "rate-limited", "slow-reader", "onoff"):
            self.assertIn(workload, line[0])

    def test_dumbbell_jain_index_undefined_without_goodput(self):
        csv = self.scratch / "starved.csv"
        r = self.run_example(DB, ["--flows=quic:cubic:2", "--loss=0.999", "--duration=3s",
                                  "--warmup=1s", f"--csv={csv}"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Jain index undefined (no flow had goodput)", r.stdout)
        self.assertIn("  Jain index undefined (no flow had goodput in any run)\n", r.stdout)
        rows = csv.read_text().splitlines()
        self.assertEqual(len(rows), 3)
        jain = rows[0].split(",").index("jain_index")
        for row in rows[1:]:
            fields = row.split(",")
            self.assertEqual(float(fields[7]), 0.0)  # goodput_mbps
            self.assertEqual(fields[jain], "")       # undefined

    def test_dry_run_prints_nothing_and_writes_nothing(self):
        for name in (DS, HL):
            csv = self.scratch / f"{name}-dry.csv"
            for args in (["--dryRun=true"], ["--dryRun"], ["--dryRun", f"--csv={csv}", "--loss=0.3"]):
                with self.subTest(example=name, args=args):
                    r = self.run_example(name, args)
                    self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
                    self.assertFalse(csv.exists())
        r = self.run_example(DS, ["--dryRun", f"--qlog={self.scratch}/new-qlog-dir", "--loss=30%"])
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        self.assertFalse((self.scratch / "new-qlog-dir").exists())

    def test_qlog_directory_that_cannot_be_made_fails_before_running(self):
        # /proc passes access(W_OK) for root, yet nothing can be created there: the check makes
        # (and removes) a directory instead of trusting the permission bits, new or existing.
        for qlog, reason in (("/proc/quic-cc-qlog", "cannot be created: "),
                             ("/proc", "directory is not writable: ")):
            for dry in ([], ["--dryRun"]):
                with self.subTest(qlog=qlog, dry=dry):
                    r = self.run_example(DS, [f"--qlog={qlog}", "--runs=1", *dry])
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertRegex(r.stderr, rf"^quic-cc-death-spiral: --qlog={qlog}: {reason}[^\n]+\n$")
                    self.assertEqual(r.stdout, "")
        # A new directory written with a trailing slash is created as without it (and removed).
        r = self.run_example(DS, [f"--qlog={self.scratch}/slash-dir/", "--dryRun"])
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        self.assertFalse((self.scratch / "slash-dir").exists())

    def test_output_path_with_spaces_is_taken_whole(self):
        csv = self.scratch / "my results.csv"
        r = self.run_example(DS, [f"--csv={csv}", "--runs=1", "--size=100kB", "--cc=reno", "--quiet"])
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        self.assertTrue(csv.exists())
        self.assertFalse((self.scratch / "my").exists())

    def test_csv_into_missing_directory_fails_before_running(self):
        for name in BATCH:
            start = time.monotonic()
            r = self.run_example(name, [f"--csv={self.scratch}/missing/out.csv"])  # default batch
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertLess(time.monotonic() - start, 10, "checked only after running")

    def test_progress_in_a_log_is_plain_lines(self):
        for name in (DS, HL, DB):
            quiet = self.scratch / f"{name}-progress-quiet.csv"
            shown = self.scratch / f"{name}-progress-shown.csv"
            r = self.run_example(name, SMALL[name] + ["--jobs=2", f"--csv={quiet}", "--quiet"])
            self.assertEqual((r.returncode, r.stderr), (0, ""))
            r = self.run_example(name, SMALL[name] + ["--jobs=2", f"--csv={shown}"])
            with self.subTest(example=name):
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertNotIn("\r", r.stderr)
                self.assertTrue(r.stderr.endswith("\n"), r.stderr)
                lines = r.stderr.splitlines()
                done = []
                for line in lines:
                    m = re.fullmatch(rf"{name}: (\d+)/(\d+) runs done, \d+ s elapsed", line)
                    self.assertIsNotNone(m, line)
                    done.append((int(m[1]), int(m[2])))
                total = done[-1][1]
                self.assertEqual(done[-1][0], total)
                tenths = [n * 10 // total for n, _ in done]
                self.assertEqual(tenths, sorted(set(tenths)), lines)  # at most one per tenth
                self.assertEqual(shown.read_bytes(), quiet.read_bytes())

    def test_csv_identical_across_runs_and_jobs(self):
        for name in (DS, HL, DB, CG, IO, SA):
            outputs = []
            for tag, jobs in (("a", "1"), ("b", "1"), ("c", "2")):
                csv = self.scratch / f"{name}-{tag}.csv"
                r = self.run_example(name, SMALL[name] + [f"--jobs={jobs}", f"--csv={csv}", "--quiet"])
                self.assertEqual(r.returncode, 0, r.stderr)
                outputs.append(csv.read_bytes())
                # Atomic write: no temporary file is left next to the CSV.
                self.assertEqual(sorted(p.name for p in self.scratch.glob(f".{csv.name}*")), [])
            with self.subTest(example=name):
                self.assertGreater(outputs[0].count(b"\n"), 3)
                self.assertEqual(outputs[0], outputs[1], "two runs with --jobs=1 differ")
                self.assertEqual(outputs[0], outputs[2], "--jobs=1 and --jobs=2 differ")


if __name__ == "__main__":
    ExamplesCommandLine.binaries = {name: pathlib.Path(sys.argv[1]).resolve() / name
                                    for name in BATCH}
    ExamplesCommandLine.scratch = pathlib.Path(sys.argv[2]).resolve()
    ExamplesCommandLine.scratch.mkdir(parents=True, exist_ok=True)
    for old in ExamplesCommandLine.scratch.glob("*.csv*"):
        old.unlink()
    unittest.main(argv=sys.argv[:1], verbosity=2)
