#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Command-line contract of the examples, run by ctest ("examples-cli"):

- a bad option exits with status 2, nothing on stdout and exactly one line on stderr,
  "<example>: --<option>=<value>: <reason>";
- --dryRun=true checks every option and output path, prints nothing and exits 0;
- --csv into a missing directory fails at once, before any run;
- determinism: the CSV of a small batch is byte-identical across two runs and across --jobs=1
  and --jobs=2.

    test_examples_cli.py <quic-cc-death-spiral> <quic-cc-hystart-lab> <scratch dir>
"""

import pathlib
import subprocess
import sys
import time
import unittest

DS = "quic-cc-death-spiral"
HL = "quic-cc-hystart-lab"

# (example, arguments, the one line expected on stderr)
BAD = [
    (DS, ["--runs=-1"], "--runs=-1: must be a whole number in 1..1000000"),
    (DS, ["--runs=abc"], "--runs=abc: must be a whole number in 1..1000000"),
    (DS, ["--runs"], "--runs=: needs a value (--runs=VALUE)"),
    (DS, ["--jobs=-1"], "--jobs=-1: must be a whole number in 0..4096"),
    (DS, ["--seed=0"], "--seed=0: must be a whole number in 1..4294967295"),
    (DS, ["--mss=100"], "--mss=100: must be a whole number in 1200..1472"),
    (DS, ["--size=0"], "--size=0: must be a size > 0 in bytes, e.g. 10MB (10,000,000 bytes), 500kB or 8000000"),
    (DS, ["--timeout=0s"], "--timeout=0s: must be > 0"),
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
    (DS, ["--rate=fast"], "--rate=fast: must be a rate > 0 such as 1Gbps, 5Mbps, 100kb/s"),
    (DS, ["--lateSample=12s"],
     "--lateSample=12s: must be at or after --lossDuration (2s) and before --timeout (10s)"),
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
     "--qlog=/nonexistent-quic-cc/q: cannot be created: /nonexistent-quic-cc is not a writable directory"),
    (HL, ["--runs=-1"], "--runs=-1: must be a whole number in 1..1000000"),
    (HL, ["--loss=0,2"], "--loss=2: a fraction must be in [0, 1]: use 30% or 0.3"),
    (HL, ["--loss=0,,1%"], "--loss=0,,1%: empty item in the comma-separated list"),
    (HL, ["--buffer=0"], "--buffer=0: must be a BDP multiple > 0 (0.5) or packets with a 'p' suffix (1000p)"),
    (HL, ["--buffer=0p"], "--buffer=0p: packets must be a whole number >= 1 before the 'p' (1000p)"),
    (HL, ["--configs=cubic,foo"],
     "--configs=foo: must be tcp-cubic, reno, reno-hystart, cubic, cubic-hystart or all"),
    (HL, ["--mss=100"], "--mss=100: must be a whole number in 1200..1472"),
    (HL, ["--ackPolicy=Rfc9000", "--ackBatchWindow=1ms"],
     "--ackBatchWindow=1ms: has no effect with --ackPolicy=Rfc9000 (only ReceiveBatch uses it)"),
    (HL, ["--packetSizing=Half"], "--packetSizing=Half: must be FreeWindow or FullOnly"),
    (HL, ["--hystartL=-1"], "--hystartL=-1: must be a whole number in 0..4294967295"),
    (HL, ["--csv=/nonexistent-quic-cc/lab.csv"],
     "--csv=/nonexistent-quic-cc/lab.csv: directory /nonexistent-quic-cc does not exist"),
]

# Small, quick batches for the determinism check.
SMALL = {
    DS: ["--runs=3", "--size=2MB", "--lossDuration=1s", "--lateSample=2s", "--timeout=4s",
         "--idle-restart=all"],
    HL: ["--runs=2", "--size=300kB", "--buffer=1,1000p", "--loss=0,2%",
         "--configs=tcp-cubic,reno,cubic-hystart"],
}


class ExamplesCommandLine(unittest.TestCase):
    binaries = {}
    scratch = None

    def run_example(self, name, args):
        return subprocess.run([str(self.binaries[name])] + args, capture_output=True, text=True,
                              timeout=600)

    def test_bad_options_exit_2_with_one_line(self):
        for name, args, expected in BAD:
            with self.subTest(example=name, args=args):
                r = self.run_example(name, args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stdout, "")
                self.assertEqual(r.stderr, f"{name}: {expected}\n")

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

    def test_csv_into_missing_directory_fails_before_running(self):
        for name in (DS, HL):
            start = time.monotonic()
            r = self.run_example(name, [f"--csv={self.scratch}/missing/out.csv"])  # default batch
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertLess(time.monotonic() - start, 10, "checked only after running")

    def test_csv_identical_across_runs_and_jobs(self):
        for name in (DS, HL):
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
    ExamplesCommandLine.binaries = {DS: pathlib.Path(sys.argv[1]), HL: pathlib.Path(sys.argv[2])}
    ExamplesCommandLine.scratch = pathlib.Path(sys.argv[3])
    ExamplesCommandLine.scratch.mkdir(parents=True, exist_ok=True)
    for old in ExamplesCommandLine.scratch.glob("*.csv"):
        old.unlink()
    unittest.main(argv=sys.argv[:1], verbosity=2)
