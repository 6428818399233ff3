#!/usr/bin/python3
"""Plots of the CUBIC death spiral from quic-cc-death-spiral output.

  plot-death-spiral.py --qlog results/qlog --run 1 --csv results/death-spiral.csv --out results/

writes
  death-spiral-cwnd.png  cwnd and bytes in flight over time for one RngRun under cubic-LastSent
                         (2020 logic), cubic-LastActivity (2026 fix) and reno, with loss marks and
                         the qlog congestion state as a coloured band
  death-spiral-zoom.png  the 2020-logic run around the end of the loss: the recovery <->
                         congestion-avoidance flips while cwnd stays at 2 x MaxDatagramSize
  death-spiral-cdf.png   completion-time CDF per configuration over the batch (runs that miss the
                         timeout never reach the curve: it tops out at the completed share)
"""

import argparse
import csv
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from quic_cc_qlog import Series, read_records, sender_file  # noqa: E402

STATE_COLOURS = {
    "slow_start": "#d8ecd8",
    "conservative_slow_start": "#e8f4c8",
    "congestion_avoidance": "#ffffff",
    "recovery": "#f6d0d0",
}
CONFIGS = ["cubic-LastSent", "cubic-LastActivity", "reno"]
TITLES = {
    "cubic-LastSent": "CUBIC, 2020 idle restart (LastSent)",
    "cubic-LastActivity": "CUBIC, 2026 fix (LastActivity)",
    "reno": "Reno",
}


def steps(points, end):
    """Step-function coordinates of [(t, v)], held at the last value until \p end."""
    xs, ys = [], []
    for t, v in points:
        if xs:
            xs.append(t)
            ys.append(ys[-1])
        xs.append(t)
        ys.append(v)
    if xs and end > xs[-1]:
        xs.append(end)
        ys.append(ys[-1])
    return xs, ys


def draw(ax, series, t0, t1, title):
    end = max(t for t, _ in series.cwnd + series.bytes_in_flight)
    for a, b, state in series.state_spans(end):
        if b < t0 or a > t1:
            continue
        ax.axvspan(max(a, t0), min(b, t1), color=STATE_COLOURS.get(state, "#eeeeee"), lw=0)
    last = min(t1, end)
    x, y = steps([(t, v / 1000.0) for t, v in series.bytes_in_flight if t <= t1], last)
    ax.plot(x, y, color="tab:orange", lw=0.6, alpha=0.8, label="bytes in flight")
    x, y = steps([(t, v / 1000.0) for t, v in series.cwnd if t <= t1], last)
    ax.plot(x, y, color="tab:blue", lw=1.4, label="cwnd")
    lost = [t for t in series.lost if t0 <= t <= t1]
    if lost:
        top = max([v for _, v in series.cwnd] + [1]) / 1000.0
        ax.plot(lost, [top * 1.02] * len(lost), "|", color="tab:red", ms=6, label="packet lost")
    ax.set_xlim(t0, t1)
    ax.set_ylabel("kB")
    ax.set_title(title, fontsize=10)


def legend_for_states(ax):
    from matplotlib.patches import Patch

    handles, labels = ax.get_legend_handles_labels()
    for state in ("slow_start", "recovery", "congestion_avoidance"):
        handles.append(Patch(facecolor=STATE_COLOURS[state], edgecolor="#999999"))
        labels.append(state.replace("_", " "))
    ax.legend(handles, labels, fontsize=7, loc="upper right", ncol=2)


def plot_cwnd(qlog_dir, run, out, timeout):
    fig, axes = plt.subplots(len(CONFIGS), 1, figsize=(10, 8), sharex=True)
    for ax, config in zip(axes, CONFIGS):
        _, events = read_records(sender_file(qlog_dir / f"{config}-run{run}"))
        draw(ax, Series(events), 0.0, timeout, f"{TITLES[config]}, RngRun {run}")
        ax.set_ylim(bottom=0)
    legend_for_states(axes[0])
    axes[-1].set_xlabel("time (s)")
    fig.suptitle("10 MB download, 30 % loss until 2 s: cwnd and bytes in flight")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_zoom(qlog_dir, run, out, start, width, loss_end):
    _, events = read_records(sender_file(qlog_dir / f"cubic-LastSent-run{run}"))
    series = Series(events)
    if start is None:
        start = loss_end + 1.0
    fig, ax = plt.subplots(figsize=(10, 4))
    draw(ax, series, start, start + width, f"CUBIC 2020 logic, RngRun {run}: {start:.2f}-{start + width:.2f} s")
    flips = [t for t, old, new in series.states
             if start <= t <= start + width and {old, new} == {"recovery", "congestion_avoidance"}]
    # The ACK (-> congestion avoidance) and the send it triggers (-> recovery) share an instant in
    # the simulation, so the avoidance spans have zero width: mark them.
    to_ca = [t for t, old, new in series.states
             if start <= t <= start + width and old == "recovery" and new == "congestion_avoidance"]
    in_window = [v for t, v in series.cwnd + series.bytes_in_flight if start <= t <= start + width]
    held = [v for t, v in series.cwnd if t <= start][-1:]
    top = max(in_window + held + [1]) / 1000.0
    if to_ca:
        ax.plot(to_ca, [top * 1.3] * len(to_ca), "v", color="tab:green", ms=5,
                label="-> congestion avoidance (and back at once)")
    ax.set_ylim(0, top * 2.0)
    ax.set_xlabel(f"time (s); {len(flips)} recovery <-> congestion avoidance transitions in this window")
    legend_for_states(ax)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_cdf(csv_path, out, timeout):
    rows = list(csv.DictReader(open(csv_path)))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    configs = []
    for r in rows:
        if r["config"] not in configs:
            configs.append(r["config"])
    for config in configs:
        mine = [r for r in rows if r["config"] == config]
        done = sorted(float(r["completion_s"]) for r in mine if r["completed"] == "1")
        n = len(mine)
        xs = [0.0] + done + [timeout]
        ys = [0.0] + [(i + 1) / n for i in range(len(done))] + [len(done) / n]
        ax.step(xs, ys, where="post", label=f"{config} ({len(done)}/{n} done)")
    ax.axvline(timeout, color="grey", ls="--", lw=0.8)
    ax.set_xlim(0, timeout * 1.02)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("completion time (s)")
    ax.set_ylabel("share of runs completed")
    ax.set_title("Completion-time CDF over the batch")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--qlog", type=pathlib.Path, help="qlog directory of quic-cc-death-spiral --qlog")
    p.add_argument("--run", type=int, help="RngRun whose qlog files to plot")
    p.add_argument("--csv", type=pathlib.Path, help="CSV of quic-cc-death-spiral --csv")
    p.add_argument("--out", type=pathlib.Path, default=pathlib.Path("."), help="output directory")
    p.add_argument("--timeout", type=float, default=10.0, help="run timeout, seconds")
    p.add_argument("--zoom-start", type=float, default=None,
                   help="zoom window start, seconds (default: --loss-end + 1 s, when a trap has settled)")
    p.add_argument("--loss-end", type=float, default=2.0, help="time the loss stops, seconds")
    p.add_argument("--zoom-width", type=float, default=0.1, help="zoom window width, seconds")
    args = p.parse_args(argv)
    if not args.csv and not (args.qlog and args.run):
        p.error("give --csv and/or --qlog with --run")
    args.out.mkdir(parents=True, exist_ok=True)
    written = []
    if args.qlog and args.run:
        plot_cwnd(args.qlog, args.run, args.out / "death-spiral-cwnd.png", args.timeout)
        plot_zoom(args.qlog, args.run, args.out / "death-spiral-zoom.png", args.zoom_start, args.zoom_width, args.loss_end)
        written += ["death-spiral-cwnd.png", "death-spiral-zoom.png"]
    if args.csv:
        plot_cdf(args.csv, args.out / "death-spiral-cdf.png", args.timeout)
        written.append("death-spiral-cdf.png")
    for name in written:
        print(args.out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
