#!/usr/bin/python3
"""Compare an example's CSV with a golden baseline, value for value, by column meaning.

    golden_compare.py GOLDEN.csv NEW.csv --key config,run [--subset] [--ns3-version 3.48]

Rows are matched by the key columns. Every golden column must be found in NEW.csv with exactly
the same text in every matched row: under its own name, under a known alias (ALIASES), or, after
a header rename, as the one new column whose values equal it in every row (the match is
reported). Columns only in NEW.csv (added measurements) are ignored. --subset: NEW.csv may hold
fewer rows (a reduced run); otherwise both must hold the same rows. Exit 0 if equal, 1 with a
report of the first differences otherwise, 2 on bad input.

The baselines were made with ns-3 3.37 (Debian bookworm). Two things in them are ns-3's, not
quic-cc's: the simulator's event count (column `events`: ns-3 >= 3.44 schedules more events for
the same packets, see README.md "Supported ns-3 versions") and the rows of ns-3's own TCP
(`config` starting with `tcp-`; ns-3 changed TcpCubic and PRR between 3.37 and 3.48). With
--ns3-version other than the baselines' (--baseline-ns3-version, 3.37), both are compared and
reported on their own lines without failing; every other column of every quic-cc row must be
equal, on every ns-3 version.

Regenerating the baselines (only when a change of behaviour is intended and explained):
    build/examples/quic-cc-death-spiral --runs=100 --idle-restart=all --csv=test/golden/death-spiral-all.csv
    build/examples/quic-cc-hystart-lab --loss=0 --csv=test/golden/hystart-lab-0pct.csv
and, with flow control on (QuicCcSocket::FlowControl; the default is off), the first two runs with
--ns3::QuicCcSocket::FlowControl=true written to death-spiral-all-flowcontrol.csv and
hystart-lab-0pct-flowcontrol.csv. Each .txt beside a .csv is the table its run printed. The ECN study's reduced batch (test/golden/ecn-reduced.csv, its .txt the table):
    build/examples/quic-cc-ecn --queues=droptail,codel,fqcodel-step --rows=quic-reno-ecn,quic-cubic,quic-cubic-ecn --transfer=1MB --runs=2 --jobs=1 --csv=test/golden/ecn-reduced.csv
The real ngtcp2 library's rows:
    build/examples/quic-cc-death-spiral --runs=100 --transport=ngtcp2 --csv=test/golden/death-spiral-ngtcp2.csv
"""
import argparse
import csv
import sys

# Known renames: golden column -> names it may carry in newer CSVs.
ALIASES = {
    "config": ["configuration"],
    "run": ["rng_run", "rngrun"],
    "cwnd_at_7s": ["cwnd_at_late_sample"],
}

# Samples that newer CSVs leave empty when the run ended before the sample time (the baseline
# held the cwnd at completion there): golden column -> (sample time column of NEW, its default).
EMPTY_AFTER_COMPLETION = {
    "cwnd_at_7s": ("late_sample_s", 7.0),
}


def equal(name, golden_row, new_row, new_value):
    """Same text, or an empty late sample of a run that completed before the sample time."""
    if golden_row[name] == new_value:
        return True
    if name in EMPTY_AFTER_COMPLETION and new_value == "" and golden_row.get("completed") == "1":
        column, default = EMPTY_AFTER_COMPLETION[name]
        sample = float(new_row.get(column) or default)
        return float(golden_row["completion_s"]) < sample
    return False


def read(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        print(f"golden_compare.py: {path}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    if not rows:
        print(f"golden_compare.py: {path}: empty file", file=sys.stderr)
        sys.exit(2)
    header, body = rows[0], rows[1:]
    return header, [dict(zip(header, r)) for r in body]


def find_column(name, new_header, golden_rows, new_rows, pairs):
    for candidate in [name] + ALIASES.get(name, []):
        if candidate in new_header:
            return candidate
    # A renamed column: the single new column equal to the golden one in every matched row.
    matches = [c for c in new_header if all(equal(name, g, n, n.get(c)) for g, n in pairs)]
    return matches[0] if len(matches) == 1 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("golden")
    parser.add_argument("new")
    parser.add_argument("--key", required=True, help="comma-separated key columns (golden names)")
    parser.add_argument("--subset", action="store_true", help="NEW may hold fewer rows")
    parser.add_argument("--extra-rows", action="store_true",
                        help="rows of NEW whose key the baseline lacks (configurations added "
                             "after it was made) are skipped, with a note")
    parser.add_argument("--ns3-version", help="the ns-3 release NEW.csv was made with "
                        "(default: the baselines' own)")
    parser.add_argument("--baseline-ns3-version", default="3.37",
                        help="the ns-3 release the baselines were made with (3.37)")
    args = parser.parse_args()
    ns3_dependent = args.ns3_version not in (None, args.baseline_ns3_version)

    golden_header, golden_rows = read(args.golden)
    new_header, new_rows = read(args.new)
    keys = args.key.split(",")
    for k in keys:
        if k not in golden_header:
            print(f"golden_compare.py: --key={k}: not a column of {args.golden}", file=sys.stderr)
            sys.exit(2)
    new_keys = []
    for k in keys:
        c = next((c for c in [k] + ALIASES.get(k, []) if c in new_header), None)
        if c is None:
            print(f"FAIL: key column '{k}' missing from {args.new}")
            return 1
        new_keys.append(c)

    golden_by_key = {tuple(r[k] for k in keys): r for r in golden_rows}
    pairs = []
    skipped = 0
    for n in new_rows:
        key = tuple(n[k] for k in new_keys)
        if key not in golden_by_key:
            if args.extra_rows:
                skipped += 1
                continue
            print(f"FAIL: row {dict(zip(keys, key))} of {args.new} is not in the baseline")
            return 1
        pairs.append((golden_by_key[key], n))
    if skipped:
        print(f"note: {skipped} rows of {args.new} have no baseline row (newer configurations)")
    new_rows = [n for _, n in pairs]
    if not pairs:
        print(f"FAIL: {args.new} has no rows")
        return 1
    if not args.subset and len(pairs) != len(golden_rows):
        print(f"FAIL: {len(pairs)} rows, the baseline has {len(golden_rows)}")
        return 1

    failures = 0
    reported = []  # ns-3-dependent differences: (what, count of rows that differ, detail)
    for name in golden_header:
        column = find_column(name, new_header, golden_rows, new_rows, pairs)
        if column is None:
            print(f"FAIL: column '{name}' not found (no new column equals it in every row)")
            failures += 1
            continue
        if column != name:
            print(f"note: golden column '{name}' compared with '{column}'")
        if ns3_dependent and name in NS3_DEPENDENT_COLUMNS:
            reported.append(describe_column(name, column, pairs))
            continue
        tcp_differs = 0
        for g, n in pairs:
            if not equal(name, g, n, n[column]):
                if ns3_dependent and is_ns3_row(g):
                    tcp_differs += 1
                    continue
                key = {k: g[k] for k in keys}
                print(f"FAIL: {key} {name}: baseline {g[name]!r}, now {n[column]!r}")
                failures += 1
                break
        if tcp_differs:
            reported.append(f"{name}: {tcp_differs} of {sum(is_ns3_row(g) for g, _ in pairs)} "
                            "ns-3 TCP rows differ")
    for line in reported:
        print(f"ns-3 {args.ns3_version} vs {args.baseline_ns3_version} (reported, not compared): {line}")
    if failures:
        return 1
    what = "columns" if not ns3_dependent else "columns (quic-cc's behaviour)"
    print(f"OK: {len(pairs)} rows x {len(golden_header)} {what} equal to {args.golden}")
    return 0


# What belongs to ns-3 rather than to quic-cc (see the module docstring).
NS3_DEPENDENT_COLUMNS = {"events"}


def is_ns3_row(golden_row):
    """A row of ns-3's own TCP (config tcp-cubic, tcp-newreno, ...)."""
    return golden_row.get("config", "").startswith("tcp-")


def describe_column(name, column, pairs):
    """How a numeric ns-3-dependent column moved: rows that differ and the ratio of the sums."""
    differ = sum(g[name] != n[column] for g, n in pairs)
    try:
        ratio = sum(float(n[column]) for _, n in pairs) / sum(float(g[name]) for g, _ in pairs)
        return f"{name}: {differ} of {len(pairs)} rows differ, total now {ratio:.3f} x the baseline's"
    except (ValueError, ZeroDivisionError):
        return f"{name}: {differ} of {len(pairs)} rows differ"


if __name__ == "__main__":
    sys.exit(main())
