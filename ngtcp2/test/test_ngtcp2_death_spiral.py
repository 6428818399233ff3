#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The death-spiral example over the real ngtcp2 library (--transport), run by ctest
("ngtcp2-death-spiral"):

- bad --transport / --cc / --idle-restart combinations exit 2 with one line on stderr;
- --transport=ngtcp2 gives exactly the rows ngtcp2-cubic, ngtcp2-reno, ngtcp2-bbr, each run
  once per RngRun; --transport=all adds them after the quic-cc rows of the same runs;
- the table and the CSV name the ngtcp2 version (CSV column ngtcp2_version, quic-cc rows empty);
- determinism: the CSV is byte-identical across two runs and across --jobs=1 and --jobs=2;
- --qlog writes ngtcp2's own qlog of both endpoints, complete (no .part left).

    test_ngtcp2_death_spiral.py <quic-cc-death-spiral> <scratch dir>
"""

import csv
import pathlib
import re
import shutil
import subprocess
import sys
import unittest

BAD = [
    (["--transport=tcp"], "--transport=tcp: must be quic-cc, ngtcp2 or all"),
    # ngtcp2 socket attributes the scenario sets on every socket: refused, never overwritten.
    (["--transport=ngtcp2", "--ns3::QuicCcNgtcp2Socket::MaxAckDelay=5ms"],
     "--ns3::QuicCcNgtcp2Socket::MaxAckDelay=5ms: this example sets it from --maxAckDelay, which "
     "would override it: use --maxAckDelay"),
    (["--transport=ngtcp2", "--ns3::QuicCcNgtcp2Socket::MaxDatagramSize=1200"],
     "--ns3::QuicCcNgtcp2Socket::MaxDatagramSize=1200: this example sets it from --mss, which "
     "would override it: use --mss"),
    (["--transport=ngtcp2", "--ns3::QuicCcNgtcp2Socket::QlogDirectory=q"],
     "--ns3::QuicCcNgtcp2Socket::QlogDirectory=q: this example sets it from --qlog, which would "
     "override it: use --qlog"),
    (["--transport=ngtcp2", "--ns3::QuicCcNgtcp2Socket::UdpPayloadShaping=true"],
     "--ns3::QuicCcNgtcp2Socket::UdpPayloadShaping=true: this example sets this attribute itself, "
     "so the default has no effect"),
    (["--transport=ngtcp2", "--ns3::QuicCcNgtcp2Socket::CongestionControl=Bbr"],
     "--ns3::QuicCcNgtcp2Socket::CongestionControl=Bbr: this example sets this attribute itself, "
     "so the default has no effect"),
    # The ngtcp2 flow-control window beyond the largest varint (ngtcp2 would assert).
    (["--transport=ngtcp2", "--ns3::QuicCcNgtcp2Socket::InitialMaxData=4611686018427387904"],
     re.compile(r"--ns3::QuicCcNgtcp2Socket::InitialMaxData=4611686018427387904: invalid value "
                r".*4611686018427387903.*")),
    # A transport's attributes when none of its rows runs.
    (["--transport=ngtcp2", "--ns3::QuicCcSocket::SndBufSize=1000000"],
     "--ns3::QuicCcSocket::SndBufSize=1000000: has no effect with --transport=ngtcp2 (no quic-cc "
     "row runs; the ngtcp2 rows use ns3::QuicCcNgtcp2Socket)"),
    (["--transport=ngtcp2", "--ns3::QuicCubic::Beta=0.5"],
     "--ns3::QuicCubic::Beta=0.5: has no effect with --transport=ngtcp2 (no quic-cc row runs; the "
     "ngtcp2 rows use ns3::QuicCcNgtcp2Socket)"),
    (["--ns3::QuicCcNgtcp2Socket::SndBufSize=1000000"],
     "--ns3::QuicCcNgtcp2Socket::SndBufSize=1000000: has no effect with --transport=quic-cc (no "
     "ngtcp2 row runs; the quic-cc rows use ns3::QuicCcSocket)"),
    # The ngtcp2 socket's send buffer below one write of the bulk sender: nothing would be sent.
    (["--transport=ngtcp2", "--ns3::QuicCcNgtcp2Socket::SndBufSize=8192"],
     "--ns3::QuicCcNgtcp2Socket::SndBufSize=8192: is below the bulk sender's writes (16384 B, one "
     "Send each): the socket would refuse every write and send nothing"),
    (["--transport=ngtcp2", "--cc=vegas"], "--cc=vegas: must be cubic, reno or bbr"),
    (["--transport=all", "--cc=bbr"], "--cc=bbr: must be cubic or reno"),
    (["--transport=ngtcp2", "--idle-restart=LastSent"],
     "--idle-restart=LastSent: has no effect with --transport=ngtcp2 (ngtcp2 has its own CUBIC)"),
    # Every option of quic-cc's socket and controllers, not only --idle-restart.
    *[(["--transport=ngtcp2", f"--{option}={value}"],
       f"--{option}={value}: has no effect with --transport=ngtcp2 (a quic-cc option; ngtcp2 has "
       "its own)")
      for option, value in (("epoch", "separate"), ("pacing", "Rfc9002"), ("hystart", "false"),
                            ("packetSizing", "FullOnly"), ("persistentCongestion", "true"),
                            ("probeContent", "Ping"), ("maxAckRanges", "1"),
                            ("ackPolicy", "Rfc9000"), ("ackBatchWindow", "5ms"),
                            ("ackThreshold", "4"), ("sendJitter", "1ms"),
                            ("ackDelayJitter", "1ms"))],
]

SMALL = ["--size=2MB", "--timeout=6s", "--lateSample=4s", "--quiet=true"]


class Ngtcp2DeathSpiral(unittest.TestCase):
    binary = None
    scratch = None

    def run_example(self, args):
        return subprocess.run([str(self.binary)] + args, capture_output=True, text=True,
                              timeout=600)

    def test_bad_options_exit_2_with_one_line(self):
        for args, line in BAD:
            with self.subTest(args=args):
                r = self.run_example(args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stdout, "")
                if isinstance(line, re.Pattern):
                    self.assertRegex(r.stderr, f"^quic-cc-death-spiral: {line.pattern}\n$")
                else:
                    self.assertEqual(r.stderr.splitlines(), ["quic-cc-death-spiral: " + line])

    def rows(self, path):
        with open(path, newline="") as f:
            return list(csv.DictReader(f))

    def test_rows_version_and_determinism(self):
        out = self.scratch / "rows"
        out.mkdir(parents=True, exist_ok=True)
        a, b, c = out / "a.csv", out / "b.csv", out / "c.csv"
        args = ["--transport=ngtcp2", "--runs=3"] + SMALL
        r = self.run_example(args + ["--csv=" + str(a), "--jobs=1"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.run_example(args + ["--csv=" + str(b), "--jobs=1"]).returncode, 0)
        self.assertEqual(self.run_example(args + ["--csv=" + str(c), "--jobs=2"]).returncode, 0)
        self.assertEqual(a.read_bytes(), b.read_bytes(), "two runs differ")
        self.assertEqual(a.read_bytes(), c.read_bytes(), "--jobs=1 and --jobs=2 differ")
        rows = self.rows(a)
        keys = sorted((row["config"], row["run"]) for row in rows)
        self.assertEqual(keys, sorted((f"ngtcp2-{cc}", str(run))
                                      for cc in ("cubic", "reno", "bbr") for run in (1, 2, 3)))
        versions = {row["ngtcp2_version"] for row in rows}
        self.assertEqual(len(versions), 1)
        version = versions.pop()
        self.assertRegex(version, r"^1\.\d+\.\d+")
        for row in rows:
            self.assertEqual(row["completed"], "1", row)
            self.assertEqual(row["bytes_received"], "2000000", row)

        table = self.run_example(["--transport=all", "--runs=1", "--size=2MB", "--timeout=6s",
                                  "--lateSample=4s", "--cc=reno"])
        self.assertEqual(table.returncode, 0, table.stderr)
        self.assertIn("ngtcp2 " + version, table.stdout)
        names = [line.split()[0] for line in table.stdout.splitlines()
                 if line.split() and line.split()[0] in ("reno", "ngtcp2-reno")]
        self.assertEqual(names, ["reno", "ngtcp2-reno"])

    def test_qlog_of_both_endpoints(self):
        qlog = self.scratch / "qlog"
        shutil.rmtree(qlog, ignore_errors=True)
        qlog.mkdir(parents=True)
        r = self.run_example(["--transport=ngtcp2", "--cc=bbr", "--runs=1", "--firstRun=2",
                              "--qlog=" + str(qlog)] + SMALL)
        self.assertEqual(r.returncode, 0, r.stderr)
        files = sorted(p.name for p in (qlog / "ngtcp2-bbr-run2").iterdir())
        self.assertEqual(len(files), 2, files)
        self.assertTrue(all(f.endswith(".sqlog") for f in files), files)
        # ngtcp2's qlog mapped to the qlog main schema (the qlog-schema test checks it whole).
        text = (qlog / "ngtcp2-bbr-run2" / files[0]).read_text()
        self.assertIn('"file_schema":"urn:ietf:params:qlog:file:sequential"', text)
        self.assertIn("quic:recovery_metrics_updated", text)


if __name__ == "__main__":
    Ngtcp2DeathSpiral.binary = pathlib.Path(sys.argv[1])
    Ngtcp2DeathSpiral.scratch = pathlib.Path(sys.argv[2])
    unittest.main(argv=[sys.argv[0]], verbosity=2)
