#!/usr/bin/python3
"""The ECN study's table from quic-cc-ecn CSV rows (one per run; a campaign's merged.csv or
quic-cc-ecn --csv): one line per cell (rate, RTT, queue, sender), each column's mean over the
runs with its 95 % Student t interval (mean +- t(0.975, n-1) s / sqrt(n); scipy.stats.t),
completion time and goodput over the completed runs, and the senders' ECN states at the end.

  scripts/quic_cc_ecn_table.py campaigns/ecn/merged.csv [--rst]

--rst prints an RST list-table per path (the results document's form). Exit status 2 with one line on
stderr for a missing file or a CSV without the study's columns.
"""

import argparse
import csv
import math
import pathlib
import sys

PROG = pathlib.Path(sys.argv[0]).name
KEY = ("rate_mbps", "rtt_ms", "queue", "row")
# (column, heading, digits)
COLUMNS = (("completion_s", "done s", 2), ("goodput_mbps", "Mbit/s", 2), ("queue_drops", "drops", 0),
           ("lost_packets", "lost", 0), ("ce_marks", "CE marks", 0), ("ecn_events", "CE events", 0),
           ("sojourn_p50_ms", "p50 ms", 1), ("sojourn_p99_ms", "p99 ms", 1))


def fail(message):
    sys.stderr.write(f"{PROG}: {message}\n")
    sys.exit(2)


def interval(values):
    """(mean, half width of the 95 % t interval); half width 0 for one value."""
    try:
        from scipy.stats import t
    except ImportError:
        fail(f"{sys.executable} cannot import scipy: run /usr/bin/python3 with Debian's python3-scipy")
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, t.ppf(0.975, n - 1) * sd / math.sqrt(n)


def cells(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    needed = set(KEY) | {c for c, _, _ in COLUMNS} | {"completed", "ecn_state"}
    if not rows or not needed <= set(rows[0]):
        fail(f"{path}: not quic-cc-ecn rows (columns {', '.join(sorted(needed))})")
    out = {}
    for r in rows:
        out.setdefault(tuple(r[k] for k in KEY), []).append(r)
    return out


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--rst", action="store_true", help="an RST list-table")
    args = ap.parse_args()
    lines = []
    for key, rs in cells(args.csv).items():
        done = [r for r in rs if r["completed"] == "1"]
        fields = [f"{key[0]} Mbit/s, {key[1]} ms", key[2], key[3], f"{len(done)}/{len(rs)}"]
        for column, _, digits in COLUMNS:
            sample = [float(r[column]) for r in (done if column in ("completion_s", "goodput_mbps") else rs)]
            if not sample:
                fields.append("-")
                continue
            mean, half = interval(sample)
            fields.append(f"{mean:.{digits}f} ± {half:.{digits}f}")
        states = {}
        for r in rs:
            states[r["ecn_state"] or "-"] = states.get(r["ecn_state"] or "-", 0) + 1
        fields.append(", ".join(f"{s} {n}" for s, n in sorted(states.items())))
        lines.append(fields)
    head = ["path", "queue", "sender", "done"] + [h for _, h, _ in COLUMNS] + ["ECN state"]
    if args.rst:
        # One table per path, without the path column.
        for path in dict.fromkeys(fields[0] for fields in lines):
            print(f"{path}:\n\n.. list-table::\n   :header-rows: 1\n")
            for fields in [head] + [x for x in lines if x[0] == path]:
                print("\n".join(("   * - " if i == 0 else "     - ") + f for i, f in enumerate(fields[1:])))
            print()
    else:
        widths = [max(len(x[i]) for x in [head] + lines) + 2 for i in range(len(head))]
        for fields in [head] + lines:
            print("".join(f.ljust(w) for f, w in zip(fields, widths)).rstrip())


if __name__ == "__main__":
    main()
