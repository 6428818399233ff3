#!/usr/bin/python3
"""Tests of the quic-cc-dumbbell example and scripts/plot-dumbbell.py.

  test_dumbbell.py <path to quic-cc-dumbbell> <scratch directory>

- bad flow specs (and other bad options) exit with status 2 and one line on stderr naming the
  option and the token, before any simulation runs (--dryRun=false);
- a short QUIC + TCP run with fixed-size transfers writes CSVs whose per-flow byte counts are the
  whole transfer (what each PacketSink received) and whose time series adds up to them;
- the plot script draws both PNGs from those CSVs.
"""

import csv
import pathlib
import subprocess
import sys
import unittest
from collections import defaultdict

HERE = pathlib.Path(__file__).resolve().parent
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TRANSFER = 1_500_000


class DumbbellExample(unittest.TestCase):
    example = None
    scratch = None

    @classmethod
    def setUpClass(cls):
        cls.scratch.mkdir(parents=True, exist_ok=True)
        cls.csv = cls.scratch / "flows.csv"
        cls.ts = cls.scratch / "ts.csv"
        subprocess.run([str(cls.example), "--flows=quic:cubic:1,tcp:TcpNewReno:1", "--duration=20s",
                        "--warmup=1s", f"--transfer={TRANSFER}", "--runs=2", f"--csv={cls.csv}",
                        f"--timeseries={cls.ts}", "--quiet"], check=True, stdout=subprocess.DEVNULL)

    def refused(self, option, value, expect):
        p = subprocess.run([str(self.example), f"--{option}={value}"], capture_output=True, text=True,
                           timeout=30)
        self.assertEqual(p.returncode, 2, p.stderr)
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertTrue(lines[0].startswith(f"quic-cc-dumbbell: --{option}={value}: "), lines[0])
        self.assertIn(expect, lines[0])
        self.assertEqual(p.stdout, "")

    def test_bad_flow_specs(self):
        self.refused("flows", "quic:bbr:2", "'quic:bbr:2': unknown QUIC controller 'bbr'")
        self.refused("flows", "quic:cubic:1,tcp:NoSuch:1", "'tcp:NoSuch:1': unknown TCP congestion control")
        self.refused("flows", "quic:cubic:0", "'quic:cubic:0': count must be")
        self.refused("flows", "quic:reno[Beta=0.5]:1", "ns3::QuicReno has no attribute 'Beta'")

    def test_bad_options(self):
        self.refused("rtts", "40ms,abc", "'abc' is not a time")
        self.refused("queueDisc", "ns3::NoSuchQueueDisc", "unknown queue disc")
        self.refused("loss", "1.5", "loss rate must be in [0, 1)")
        self.refused("csv", "/nonexistent-dir/x.csv", "directory /nonexistent-dir does not exist")

    def test_dry_run(self):
        p = subprocess.run([str(self.example), "--dryRun=true", "--flows=quic:cubic:3"], capture_output=True,
                           text=True, timeout=30)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "", ""))

    def test_byte_counts(self):
        rows = list(csv.DictReader(open(self.csv)))
        self.assertEqual(len(rows), 4)  # 2 runs x 2 flows
        binned = defaultdict(float)
        for r in csv.DictReader(open(self.ts)):
            binned[(r["run"], r["flow"])] += float(r["goodput_mbps"])
        for r in rows:
            self.assertEqual(r["completed"], "1")
            self.assertEqual(int(r["sink_bytes"]), TRANSFER)
            self.assertGreaterEqual(int(r["wire_rx_bytes"]), TRANSFER)
            # bins are 0.5 s: bytes = Mbit/s * 0.5 s * 1e6 / 8
            self.assertAlmostEqual(binned[(r["run"], r["flow"])] * 0.5e6 / 8, TRANSFER, delta=1)
        self.assertEqual({r["transport"] for r in rows}, {"quic", "tcp"})

    def test_plots(self):
        out = self.scratch / "png"
        subprocess.run([sys.executable, str(HERE / "plot-dumbbell.py"), "--timeseries", str(self.ts), "--csv",
                        str(self.csv), "--out", str(out), "--run", "2"], check=True)
        for name in ("dumbbell-throughput.png", "dumbbell-flows.png"):
            data = (out / name).read_bytes()
            self.assertEqual(data[:8], PNG_SIGNATURE, name)
            self.assertGreater(len(data), 15_000, f"{name} looks empty")


if __name__ == "__main__":
    DumbbellExample.example = pathlib.Path(sys.argv[1])
    DumbbellExample.scratch = pathlib.Path(sys.argv[2])
    unittest.main(argv=sys.argv[:1], verbosity=2)
