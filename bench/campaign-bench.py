#!/usr/bin/python3
"""Campaign throughput: death-spiral runs per CPU-second through quic-cc-campaign, and the wall-time
speed-up of the local backend from 1 to 2 workers (`make bench` calls this via run-bench.sh).

  bench/campaign-bench.py BUILD_DIR MARKDOWN_OUT [RUNS]

One campaign = the death-spiral example's default scenario (three configurations) for RUNS runs
(default 40), chunked into tasks of 5 runs; it runs once with --workers=1 and once with
--workers=2. CPU is what the tasks' example processes used (wait4), wall the campaign's elapsed time.
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
TOOL = HERE.parent / "scripts" / "quic-cc-campaign"


def main():
    build = pathlib.Path(sys.argv[1]).resolve()
    out = pathlib.Path(sys.argv[2])
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    load = os.getloadavg()
    results = {}
    with tempfile.TemporaryDirectory(prefix="campaign-bench-") as tmp:
        spec = pathlib.Path(tmp) / "bench.toml"
        spec.write_text(f'[campaign]\nname = "bench"\nexample = "quic-cc-death-spiral"\nruns = {runs}\nchunk = 5\n')
        for workers in (1, 2):
            d = pathlib.Path(tmp) / f"w{workers}"
            subprocess.run([sys.executable, str(TOOL), "run", str(spec), "--bin-dir", str(build / "examples"),
                            "--backend=local", f"--workers={workers}", "--dir", str(d)], check=True,
                           stderr=subprocess.DEVNULL)
            sub = json.loads((d / "submissions.json").read_text())[0]
            rows = sum(json.loads(p.read_text())["rows"] for p in (d / "status").glob("task-*.json"))
            results[workers] = (rows, sub["cpu_s"], sub["wall_s"], sub["tasks"])
            subprocess.run([sys.executable, str(TOOL), "merge", str(d)], check=True, capture_output=True)
            results[workers] += ((d / "merged.csv").read_bytes(),)
    (rows1, cpu1, wall1, tasks, csv1), (rows2, cpu2, wall2, _, csv2) = results[1], results[2]
    lines = [
        "## Campaign throughput (bench/campaign-bench.py)",
        "",
        f"quic-cc-campaign, local backend: the death-spiral example's default scenario (cubic-LastSent, "
        f"cubic-LastActivity, reno), runs 1..{runs} = {rows1} runs in {tasks} tasks of 5 runs (--jobs=1 each). "
        f"Machine: {os.cpu_count()} CPUs; load average when the measurement started: "
        f"{load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} (1 / 5 / 15 min).",
        "",
        "| workers | runs | CPU of the examples (s) | runs per CPU-second | wall (s) | runs per wall-second |",
        "|---|---|---|---|---|---|",
        f"| 1 | {rows1} | {cpu1:.2f} | {rows1 / cpu1:.2f} | {wall1:.2f} | {rows1 / wall1:.2f} |",
        f"| 2 | {rows2} | {cpu2:.2f} | {rows2 / cpu2:.2f} | {wall2:.2f} | {rows2 / wall2:.2f} |",
        "",
        f"Local backend speed-up from 1 to 2 workers (wall): {wall1 / wall2:.2f}x. Merged CSVs of the two "
        f"runs byte-identical: {'yes' if csv1 == csv2 else 'NO'}.",
        "",
    ]
    out.write_text("\n".join(lines))


if __name__ == "__main__":
    main()
