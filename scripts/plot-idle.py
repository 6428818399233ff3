#!/usr/bin/python3
"""cwnd around one pause of quic-cc-idle, one panel per configuration (same RngRun).

  quic-cc-idle --configs=cubic-LastSent,cubic-LastActivity,cubic-Off,reno --runs=1 \\
      --qlog=out/qlog --pauseCsv=out/pauses.csv
  plot-idle.py --qlog out/qlog --pauses out/pauses.csv --pause 5 --out out/idle-cwnd.png

writes one PNG: for each configuration in the pauses CSV, the data sender's cwnd and bytes in
flight (from its qlog) from --before seconds before to --after seconds after the resume of pause
--pause of run --run (time 0 at the resume), packet losses marked, the cwnd when the pipe
emptied as a dotted line. The data sender is node 0 (the QUIC client), or node 1 for the
request-response workload (--sender-node 1).
"""

import argparse
import csv
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from quic_cc_plot import pyplot  # noqa: E402

plt = pyplot()
from quic_cc_qlog import Series, read_records  # noqa: E402


def fail(message):
    sys.stderr.write(f"{pathlib.Path(sys.argv[0]).name}: {message}\n")
    sys.exit(2)


def pauses_of(path, run, pause):
    """{config: row} for the pause, configurations in file order."""
    out = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["run"] == str(run) and row["pause"] == str(pause):
                out.setdefault(row["config"], row)
    return out


def window(points, t0, t1):
    return [(t, v) for t, v in points if t0 <= t <= t1]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qlog", required=True, help="the --qlog directory of quic-cc-idle")
    ap.add_argument("--pauses", required=True, help="the --pauseCsv file of the same invocation")
    ap.add_argument("--run", type=int, default=1)
    ap.add_argument("--pause", type=int, default=2)
    ap.add_argument("--before", type=float, default=0.05, help="seconds before the resume")
    ap.add_argument("--after", type=float, default=0.3, help="seconds after the resume")
    ap.add_argument("--sender-node", type=int, default=0)
    ap.add_argument("--out", required=True, help="PNG to write")
    a = ap.parse_args(argv)
    if not pathlib.Path(a.pauses).is_file():
        fail(f"--pauses={a.pauses}: no such file")
    rows = pauses_of(a.pauses, a.run, a.pause)
    if not rows:
        fail(f"--pause={a.pause}: no pause {a.pause} of run {a.run} in {a.pauses}")
    out = pathlib.Path(a.out)
    if not out.parent.is_dir():
        fail(f"--out={a.out}: directory {out.parent} does not exist")
    fig, axes = plt.subplots(len(rows), 1, figsize=(8, 2.2 * len(rows)), sharex=True, squeeze=False)
    for ax, (config, row) in zip(axes[:, 0], rows.items()):
        run_dir = pathlib.Path(a.qlog) / f"{config}-run{a.run}"
        files = sorted(run_dir.glob(f"quic-cc-node{a.sender_node}-*.sqlog"))
        if not files:
            fail(f"--qlog={a.qlog}: no sender qlog in {run_dir}")
        series = Series(read_records(files[0])[1])
        resume = float(row["idle_start_s"]) + float(row["idle_s"])
        t0, t1 = resume - a.before, resume + a.after
        cwnd = window(series.cwnd, t0, t1)
        flight = window(series.bytes_in_flight, t0, t1)
        ax.step([t - resume for t, _ in cwnd], [v / 1e3 for _, v in cwnd], where="post", label="cwnd")
        ax.step([t - resume for t, _ in flight], [v / 1e3 for _, v in flight], where="post",
                lw=0.7, alpha=0.7, label="bytes in flight")
        ax.axhline(float(row["cwnd_before"]) / 1e3, ls=":", color="grey", lw=0.8)
        lost = [t - resume for t in series.lost if t0 <= t <= t1]
        if lost:
            ax.plot(lost, [0] * len(lost), "rx", ms=4, label="lost")
        ax.set_title(f"{config}: idle {float(row['idle_s']):.2f} s, peak/pre {float(row['peak_ratio']):.2f}, "
                     f"lost in RTT 1: {row['lost_first_rtt']}", fontsize=9)
        ax.set_ylabel("kB")
        ax.set_xlim(-a.before, a.after)
    axes[0, 0].legend(fontsize=7, loc="upper left")
    axes[-1, 0].set_xlabel(f"time from the resume of pause {a.pause} (run {a.run}), s")
    fig.tight_layout()
    tmp = out.with_name(f".{out.name}.tmp")
    fig.savefig(tmp, format="png", dpi=110)
    tmp.replace(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
