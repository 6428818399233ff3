#!/usr/bin/python3
"""Plot tests: run one death-spiral RngRun with qlog, draw the three figures, check them.

  test_plots.py <path to quic-cc-death-spiral> <scratch directory>
"""

import csv
import pathlib
import subprocess
import sys
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from quic_cc_qlog import Series, read_records, sender_file  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class DeathSpiralPlots(unittest.TestCase):
    example = None
    scratch = None

    @classmethod
    def setUpClass(cls):
        cls.scratch.mkdir(parents=True, exist_ok=True)
        cls.qlog = cls.scratch / "qlog"
        cls.csv = cls.scratch / "runs.csv"
        subprocess.run([str(cls.example), "--runs=1", "--firstRun=1", f"--qlog={cls.qlog}",
                        f"--csv={cls.csv}", "--quiet"], check=True, stdout=subprocess.DEVNULL)
        cls.out = cls.scratch / "png"
        subprocess.run([sys.executable, str(HERE / "plot-death-spiral.py"), "--qlog", str(cls.qlog), "--run", "1",
                        "--csv", str(cls.csv), "--out", str(cls.out)], check=True, stdout=subprocess.DEVNULL)

    def test_three_pngs(self):
        for name in ("death-spiral-cwnd.png", "death-spiral-zoom.png", "death-spiral-cdf.png"):
            data = (self.out / name).read_bytes()
            self.assertEqual(data[:8], PNG_SIGNATURE, name)
            self.assertGreater(len(data), 20_000, f"{name} looks empty")

    def test_csv_columns(self):
        rows = list(csv.DictReader(open(self.csv)))
        self.assertEqual([r["config"] for r in rows], ["cubic-LastSent", "cubic-LastActivity", "reno"])
        for column in ("run", "completed", "completion_s", "handshake_s", "loss_end_s", "cwnd_at_loss_end",
                       "late_sample_s", "cwnd_at_late_sample", "transitions", "cycle_period_s"):
            self.assertIn(column, rows[0])
        self.assertEqual([(r["loss_end_s"], r["late_sample_s"]) for r in rows], [("2", "7")] * 3)
        self.assertEqual(rows[0]["completed"], "0")
        self.assertEqual(rows[0]["cwnd_at_late_sample"], "2700")
        self.assertEqual([r["completed"] for r in rows[1:]], ["1", "1"])
        # Runs that completed before the late sample have no value there (not the cwnd at completion).
        for r in rows[1:]:
            self.assertLess(float(r["completion_s"]), 7)
            self.assertEqual(r["cwnd_at_late_sample"], "")
        # RngRun 1 completes its handshake during the loss phase.
        for r in rows:
            self.assertLess(float(r["handshake_s"]), 2)

    def test_trapped_series_as_plotted(self):
        header, events = read_records(sender_file(self.qlog / "cubic-LastSent-run1"))
        self.assertEqual(header["qlog_format"], "JSON-SEQ")
        series = Series(events)
        late = [v for t, v in series.cwnd if t >= 3.0]
        last_before = [v for t, v in series.cwnd if t < 3.0][-1]
        self.assertEqual(last_before, 2700)
        self.assertTrue(all(v == 2700 for v in late))
        self.assertEqual([t for t in series.lost if t >= 3.0], [])
        spans = series.state_spans(10.0)
        self.assertEqual(spans[-1][2], "recovery")

    def test_fixed_logic_grows(self):
        _, events = read_records(sender_file(self.qlog / "cubic-LastActivity-run1"))
        series = Series(events)
        self.assertGreater(max(v for _, v in series.cwnd), 100_000)


if __name__ == "__main__":
    DeathSpiralPlots.example = pathlib.Path(sys.argv[1])
    DeathSpiralPlots.scratch = pathlib.Path(sys.argv[2])
    unittest.main(argv=sys.argv[:1], verbosity=2)
