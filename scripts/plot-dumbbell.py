#!/usr/bin/python3
"""Plots of quic-cc-dumbbell output.

  plot-dumbbell.py --timeseries ts.csv --csv flows.csv --out DIR [--run N] [--title TEXT]

writes
  dumbbell-throughput.png  goodput of every flow over time for one RngRun (--run, default: the
                           first in the file), one line per flow, the measurement window shaded
  dumbbell-flows.png       mean goodput of every flow over the runs in --csv, with the sample
                           standard deviation as an error bar; Jain's index in the title
Output files are written through a temporary file and a rename.
"""

import argparse
import csv
import math
import os
import pathlib
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def mean_sd(values):
    m = sum(values) / len(values)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
    return m, sd


def save(fig, path):
    tmp = path.with_suffix(".tmp.png")
    fig.savefig(tmp, dpi=120)
    plt.close(fig)
    os.replace(tmp, path)


def plot_throughput(ts_rows, flow_rows, run, title, out):
    series = defaultdict(lambda: ([], []))
    labels = {}
    for r in ts_rows:
        if int(r["run"]) != run:
            continue
        flow = int(r["flow"])
        series[flow][0].append(float(r["time_s"]))
        series[flow][1].append(float(r["goodput_mbps"]))
        labels[flow] = r["group"]
    if not series:
        sys.exit(f"plot-dumbbell.py: --run={run}: no rows of this run in the time series")
    rtts = {int(r["flow"]): r["rtt_ms"] for r in flow_rows if int(r["run"]) == run}
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for flow in sorted(series):
        t, y = series[flow]
        rtt = f", {rtts[flow]} ms" if flow in rtts else ""
        ax.plot(t, y, drawstyle="steps-pre", label=f"flow {flow}: {labels[flow]}{rtt}")
    starts = [float(r["start_s"]) for r in flow_rows if int(r["run"]) == run]
    ax.set_xlabel("time (s)")
    ax.set_ylabel("goodput (Mbit/s)")
    ax.set_title(f"{title} (RngRun {run})" if title else f"RngRun {run}")
    ax.set_xlim(left=min(starts) if starts else 0)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper right")
    fig.tight_layout()
    save(fig, out / "dumbbell-throughput.png")


def plot_flows(flow_rows, title, out):
    goodput = defaultdict(list)
    labels = {}
    jains = {}
    for r in flow_rows:
        flow = int(r["flow"])
        goodput[flow].append(float(r["goodput_mbps"]))
        labels[flow] = f"{flow}: {r['group']}\n{r['rtt_ms']} ms"
        if r["jain_index"]:  # empty: undefined, every goodput of the run was 0
            jains[int(r["run"])] = float(r["jain_index"])
    flows = sorted(goodput)
    stats = [mean_sd(goodput[f]) for f in flows]
    fig, ax = plt.subplots(figsize=(max(5, 1.3 * len(flows) + 2), 4.5))
    ax.bar(range(len(flows)), [m for m, _ in stats], yerr=[sd for _, sd in stats], capsize=4,
           color="#4c78a8")
    ax.set_xticks(range(len(flows)))
    ax.set_xticklabels([labels[f] for f in flows], fontsize="small")
    ax.set_ylabel("goodput over the window (Mbit/s)")
    runs = len({int(r["run"]) for r in flow_rows})
    head = f"{title}: " if title else ""
    if jains:
        jm, jsd = mean_sd(list(jains.values()))
        ax.set_title(f"{head}{runs} run(s), Jain index {jm:.3f} ± {jsd:.3f}")
    else:
        ax.set_title(f"{head}{runs} run(s), Jain index undefined (no goodput)")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    save(fig, out / "dumbbell-flows.png")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeseries", required=True, type=pathlib.Path, help="quic-cc-dumbbell --timeseries CSV")
    parser.add_argument("--csv", required=True, type=pathlib.Path, help="quic-cc-dumbbell --csv CSV")
    parser.add_argument("--out", required=True, type=pathlib.Path, help="output directory (created)")
    parser.add_argument("--run", type=int, help="RngRun of the throughput plot (default: first)")
    parser.add_argument("--title", default="", help="title prefix")
    args = parser.parse_args()
    for option, path in (("timeseries", args.timeseries), ("csv", args.csv)):
        if not path.is_file():
            sys.exit(f"plot-dumbbell.py: --{option}={path}: no such file")
    ts_rows = read_rows(args.timeseries)
    flow_rows = read_rows(args.csv)
    if not ts_rows or not flow_rows:
        sys.exit("plot-dumbbell.py: empty input")
    args.out.mkdir(parents=True, exist_ok=True)
    run = args.run if args.run is not None else int(ts_rows[0]["run"])
    plot_throughput(ts_rows, flow_rows, run, args.title, args.out)
    plot_flows(flow_rows, args.title, args.out)


if __name__ == "__main__":
    main()
