#!/usr/bin/python3
"""Plot tests: run one death-spiral RngRun with qlog, draw the three figures, check them.

  test_plots.py <path to quic-cc-death-spiral> <scratch directory>
"""

import csv
import importlib.util
import pathlib
import subprocess
import sys
import unittest

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from quic_cc_qlog import Series, read_records, sender_file  # noqa: E402
from quic_cc_qlog_check import check_file  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def load_plot_module():
    """scripts/plot-death-spiral.py as a module (its name has dashes)."""
    spec = importlib.util.spec_from_file_location("plot_death_spiral", HERE / "plot-death-spiral.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
        path = sender_file(self.qlog / "cubic-LastSent-run1")
        self.assertEqual(check_file(path)[1], None, "in the qlog main schema")
        header, events = read_records(path)
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

    def test_overview_marks_flips_and_scales(self):
        plot = load_plot_module()
        fig, panels = plot.plot_cwnd(self.qlog, 1, self.scratch / "overview.png", 10.0)
        try:
            self.assertEqual(list(panels), ["cubic-LastSent", "cubic-LastActivity", "reno"])
            tops = set()
            for config, (ax, strip) in panels.items():
                texts = [t.get_text() for t in ax.texts]
                top = ax.get_ylim()[1]
                tops.add(round(top))
                self.assertIn(f"own y-scale: 0-{top:.0f} kB", texts, config)
                # The strip's bars are the entries into recovery per 100 ms bin.
                heights = [bar.get_height() for bar in strip.patches]
                self.assertEqual(len(heights), 100, config)
                self.assertEqual(sum(heights), len(Series(read_records(
                    sender_file(self.qlog / f"{config}-run1"))[1]).recovery_entries()), config)
                late = heights[30:]  # 3 s .. 10 s
                if config == "cubic-LastSent":
                    # Trapped: one entry per round trip (10.3 ms), about 10 per 100 ms, throughout.
                    self.assertTrue(all(8 <= h <= 11 for h in late), late)
                else:
                    self.assertEqual(sum(late), 0, config)
            self.assertGreater(len(tops), 1, "the scales do differ, so saying so is needed")
            self.assertIn("y-scales differ", fig._suptitle.get_text())
        finally:
            plt.close(fig)

    def test_cdf_labels_timeout_and_separates_overlapping_curves(self):
        plot = load_plot_module()
        fig, ax = plot.plot_cdf(self.csv, self.scratch / "cdf.png", 10.0)
        try:
            self.assertIn("timeout 10 s", [t.get_text() for t in ax.texts])
            lines = {line.get_label().split(" ")[0]: line for line in ax.get_lines()}
            self.assertIn("timeout", lines)
            self.assertEqual(lines["timeout"].get_xdata()[0], 10.0)
            fix, reno = lines["cubic-LastActivity"], lines["reno"]
            # Both complete every run at nearly the same times: the fix is wide below, Reno dashed on top.
            self.assertGreater(fix.get_linewidth(), 2 * reno.get_linewidth())
            self.assertNotEqual(fix.get_linestyle(), reno.get_linestyle())
            self.assertGreater(reno.get_zorder(), fix.get_zorder())
        finally:
            plt.close(fig)

    def test_missing_matplotlib_is_one_line_exit_2(self):
        # -S: no site directories, so this interpreter cannot import matplotlib.
        r = subprocess.run([sys.executable, "-S", str(HERE / "plot-death-spiral.py"), "--help"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stdout, "")
        self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
        self.assertIn("cannot import matplotlib", r.stderr)
        self.assertIn("/usr/bin/python3", r.stderr)
        self.assertIn("apt-get install python3-matplotlib", r.stderr)


if __name__ == "__main__":
    DeathSpiralPlots.example = pathlib.Path(sys.argv[1])
    DeathSpiralPlots.scratch = pathlib.Path(sys.argv[2])
    unittest.main(argv=sys.argv[:1], verbosity=2)
