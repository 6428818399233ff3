#!/usr/bin/python3
"""Plots of the CUBIC death spiral from quic-cc-death-spiral output.

  plot-death-spiral.py --qlog results/qlog --run 1 --csv results/death-spiral.csv --out results/

writes
  death-spiral-cwnd.png  cwnd and bytes in flight of the data sender over time for one RngRun
                         under cubic-LastSent (2020 logic), cubic-LastActivity (2026 fix) and reno,
                         with loss marks, the qlog congestion state as a coloured band and, under
                         each panel, a strip counting the entries into recovery per 100 ms (the
                         returns to congestion avoidance last zero simulated time, so the band
                         alone shows solid recovery); each panel has its own y-scale, said on it
  death-spiral-zoom.png  the 2020-logic run around the end of the loss: the recovery <->
                         congestion-avoidance flips while cwnd stays at 2 x MaxDatagramSize
  death-spiral-cdf.png   completion-time CDF per configuration over the batch (runs that miss the
                         timeout never reach the curve: it tops out at the completed share); the
                         timeout line is labelled, and each configuration has its own line style
                         so that overlapping curves (the fix and Reno) stay visible
"""

import argparse
import csv
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from quic_cc_plot import pyplot  # noqa: E402

plt = pyplot()
from quic_cc_qlog import Series, read_records, sender_file  # noqa: E402

STATE_COLOURS = {
    "slow_start": "#d8ecd8",
    "conservative_slow_start": "#e8f4c8",
    "congestion_avoidance": "#ffffff",
    "recovery": "#f6d0d0",
}
CONFIGS = ["cubic-LastSent", "cubic-LastActivity", "reno"]
# CDF line styles: the fix is drawn wide and pale under Reno's dashed line, so either stays
# visible where the two coincide.
CDF_STYLES = {
    "cubic-LastSent": dict(color="tab:blue", lw=1.6, zorder=3),
    "cubic-LastActivity": dict(color="tab:orange", lw=4.0, alpha=0.55, zorder=2),
    "reno": dict(color="tab:green", lw=1.4, ls="--", zorder=4),
}
OTHER_CDF_STYLES = [dict(color=c, lw=1.2, ls=ls, zorder=3)
                    for c, ls in (("tab:purple", "-."), ("tab:brown", ":"), ("tab:grey", "-"))]
FLIP_BIN = 0.1  # seconds per bar of the recovery-entry strip
TITLES = {
    "cubic-LastSent": "CUBIC, 2020 idle restart (LastSent)",
    "cubic-LastActivity": "CUBIC, 2026 fix (LastActivity)",
    "reno": "Reno",
}


def steps(points, end):
    """Step-function coordinates of [(t, v)], held at the last value until end."""
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


def flip_counts(series, t1, width=FLIP_BIN):
    """Entries into recovery per bin of width seconds over [0, t1): (bin starts, counts)."""
    bins = int(round(t1 / width))
    counts = [0] * bins
    for t in series.recovery_entries():
        i = int(t / width)
        if 0 <= i < bins:
            counts[i] += 1
    return [i * width for i in range(bins)], counts


def draw_flips(ax, series, t1, top):
    starts, counts = flip_counts(series, t1)
    ax.bar(starts, counts, width=FLIP_BIN, align="edge", color="tab:red", lw=0)
    ax.set_ylim(0, top)
    ax.set_ylabel(f"into\nrecovery\nper {FLIP_BIN * 1000:.0f} ms", fontsize=7)
    ax.tick_params(labelsize=7)
    total = sum(counts)
    ax.text(0.005, 0.9, f"{total} entries into recovery",
            transform=ax.transAxes, ha="left", va="top", fontsize=7,
            bbox=dict(facecolor="white", edgecolor="none", alpha=0.85, pad=1))


def plot_cwnd(qlog_dir, run, out, timeout):
    """The overview; returns the figure's (cwnd axes, strip axes) per configuration, for tests."""
    fig = plt.figure(figsize=(10, 10))
    outer = fig.add_gridspec(len(CONFIGS), 1, hspace=0.3)
    series = {c: Series(read_records(sender_file(qlog_dir / f"{c}-run{run}"))[1]) for c in CONFIGS}
    strip_top = max(max(flip_counts(s, timeout)[1] + [1]) for s in series.values()) * 1.25
    panels = {}
    first = None
    for i, config in enumerate(CONFIGS):
        inner = outer[i].subgridspec(2, 1, height_ratios=[4, 1], hspace=0.08)
        ax = fig.add_subplot(inner[0], sharex=first)
        first = first or ax
        strip = fig.add_subplot(inner[1], sharex=first)
        draw(ax, series[config], 0.0, timeout, f"{TITLES[config]}, RngRun {run}")
        ax.set_ylim(bottom=0)
        ax.text(0.005, 0.95, f"own y-scale: 0-{ax.get_ylim()[1]:.0f} kB", transform=ax.transAxes,
                ha="left", va="top", fontsize=8, bbox=dict(facecolor="white", edgecolor="#999999", lw=0.5))
        ax.tick_params(labelbottom=False)
        draw_flips(strip, series[config], timeout, strip_top)
        if i < len(CONFIGS) - 1:
            strip.tick_params(labelbottom=False)
        panels[config] = (ax, strip)
    legend_for_states(panels[CONFIGS[0]][0])
    panels[CONFIGS[-1]][1].set_xlabel("time (s)")
    fig.suptitle("10 MB transfer, 30 % loss until 2 s: the data sender's cwnd and bytes in flight "
                 "(y-scales differ)\nEach return to congestion avoidance lasts 0 s, so the band shows solid "
                 "recovery; the red strips count\nthe entries into recovery: 10 per 100 ms = one per 10 ms "
                 "round trip", fontsize=10)
    fig.subplots_adjust(left=0.08, right=0.98, top=0.9, bottom=0.055)
    fig.savefig(out, dpi=110)
    return fig, panels


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
    """The completion-time CDF; returns the figure and its axes, for tests."""
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    configs = []
    for r in rows:
        if r["config"] not in configs:
            configs.append(r["config"])
    others = iter(OTHER_CDF_STYLES * len(configs))
    for config in configs:
        mine = [r for r in rows if r["config"] == config]
        done = sorted(float(r["completion_s"]) for r in mine if r["completed"] == "1")
        n = len(mine)
        xs = [0.0] + done + [timeout]
        ys = [0.0] + [(i + 1) / n for i in range(len(done))] + [len(done) / n]
        style = CDF_STYLES.get(config) or next(others)
        ax.step(xs, ys, where="post", label=f"{config} ({len(done)}/{n} done)", **style)
    ax.axvline(timeout, color="grey", ls=":", lw=1.0, label=f"timeout {timeout:g} s: later runs fail")
    ax.text(timeout, 0.65, f"timeout {timeout:g} s", rotation=90, ha="right", va="center", fontsize=8,
            color="dimgrey")
    ax.set_xlim(0, timeout * 1.02)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("completion time (s)")
    ax.set_ylabel("share of runs completed")
    ax.set_title("Completion-time CDF over the batch")
    ax.legend(fontsize=8, loc="lower right", bbox_to_anchor=(0.95, 0.05))
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return fig, ax


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
        plt.close(plot_cwnd(args.qlog, args.run, args.out / "death-spiral-cwnd.png", args.timeout)[0])
        plot_zoom(args.qlog, args.run, args.out / "death-spiral-zoom.png", args.zoom_start, args.zoom_width, args.loss_end)
        written += ["death-spiral-cwnd.png", "death-spiral-zoom.png"]
    if args.csv:
        plt.close(plot_cdf(args.csv, args.out / "death-spiral-cdf.png", args.timeout)[0])
        written.append("death-spiral-cdf.png")
    for name in written:
        print(args.out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
