#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The HyStart++ lab and the idle study over the real ngtcp2 library (--transport), run by ctest
("ngtcp2-scenarios"):

- quic-cc-only options with --transport=ngtcp2 (HyStart++ rows and L, the ACK policy, --configs
  of the idle study) exit 2 with one line on stderr;
- lab, 4 MB over the deep (1000-packet) queue at 0 % loss: every ngtcp2 row completes and names
  the ngtcp2 version; ngtcp2-bbr loses nothing and its peak cwnd stays below half of
  ngtcp2-cubic's (BBR sizes cwnd from its bandwidth and min-RTT estimates, CUBIC's slow start
  fills the queue); ngtcp2-reno, without HyStart++, overflows the queue (losses > 0) while
  ngtcp2-cubic, with it, does not;
- idle study, chunked, 3 pauses: the ngtcp2 rows record every pause with the cwnd before it, a
  burst at the resume and each chunk's completion, W_max, K and the epoch empty;
- idle study, chunks overrunning ngtcp2's send buffer: they wait for space, every row completes;
- a qlog write of ngtcp2's socket that fails (a full tmpfs, a file size limit) ends the program
  with status 1 and ONE line naming the run and the file, no temporary (.part) file, the
  finished runs' qlog files whole;
- determinism: both examples' CSVs are byte-identical across two runs and --jobs=1 / --jobs=2.

    test_ngtcp2_scenarios.py <quic-cc-hystart-lab> <quic-cc-idle> <scratch dir>
"""

import csv
import pathlib
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
from quic_cc_full_disk import assert_fails_on_full_disk, run_with_file_size_limit  # noqa: E402

LAB_BAD = [
    (["--transport=ngtcp2", "--configs=cubic-hystart"],
     "--configs=cubic-hystart: has no effect with --transport=ngtcp2 (only the ngtcp2 rows run; "
     "--transport=all runs both)"),
    (["--transport=ngtcp2", "--hystartL=8"],
     "--hystartL=8: has no effect with --transport=ngtcp2 (a quic-cc option; ngtcp2 has its own)"),
    (["--transport=ngtcp2", "--ackPolicy=Rfc9000"],
     "--ackPolicy=Rfc9000: has no effect with --transport=ngtcp2 (a quic-cc option; ngtcp2 has "
     "its own)"),
    (["--configs=ngtcp2-bbr"],
     "--configs=ngtcp2-bbr: is a row of the ngtcp2 library: add --transport=all or "
     "--transport=ngtcp2"),
    (["--transport=quic"], "--transport=quic: must be quic-cc, ngtcp2 or all"),
]

IDLE_BAD = [
    (["--transport=ngtcp2", "--configs=reno"],
     "--configs=reno: has no effect with --transport=ngtcp2 (it selects quic-cc rows; the ngtcp2 "
     "rows are ngtcp2-cubic, ngtcp2-reno and ngtcp2-bbr)"),
    (["--transport=ngtcp2", "--flowControl=on"],
     "--flowControl=on: has no effect with --transport=ngtcp2 (ngtcp2 always applies its own flow "
     "control)"),
]

LAB = ["--transport=ngtcp2", "--buffer=1000p", "--loss=0", "--runs=1", "--size=4MB",
       "--quiet=true"]
IDLE = ["--transport=ngtcp2", "--pauses=3", "--runs=2", "--chunk=1MB", "--quiet=true"]


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Ngtcp2Scenarios(unittest.TestCase):
    lab = None
    idle = None
    scratch = None

    def run_example(self, binary, args):
        return subprocess.run([str(binary)] + args, capture_output=True, text=True, timeout=900)

    def check_bad(self, binary, name, cases):
        for args, line in cases:
            with self.subTest(args=args):
                r = self.run_example(binary, args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stdout, "")
                self.assertEqual(r.stderr.splitlines(), [name + ": " + line])

    def test_bad_options_exit_2_with_one_line(self):
        self.check_bad(self.lab, "quic-cc-hystart-lab", LAB_BAD)
        self.check_bad(self.idle, "quic-cc-idle", IDLE_BAD)

    def deterministic(self, binary, args, name):
        """Run twice with --jobs=1 and once with --jobs=2; the CSVs must be equal; the first."""
        out = self.scratch / name
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / f"{i}.csv" for i in range(3)]
        for path, jobs in zip(paths, ("1", "1", "2")):
            r = self.run_example(binary, args + ["--csv=" + str(path), "--jobs=" + jobs])
            self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(paths[0].read_bytes(), paths[1].read_bytes(), "two runs differ")
        self.assertEqual(paths[0].read_bytes(), paths[2].read_bytes(), "--jobs=1 and 2 differ")
        return paths[0]

    def test_lab_rows(self):
        by = {row["config"]: row for row in rows(self.deterministic(self.lab, LAB, "lab"))}
        self.assertEqual(sorted(by), ["ngtcp2-bbr", "ngtcp2-cubic", "ngtcp2-reno"])
        version = {row["ngtcp2_version"] for row in by.values()}
        self.assertEqual(len(version), 1)
        self.assertRegex(version.pop(), r"^1\.\d+\.\d+")
        for name, row in by.items():
            self.assertEqual(row["completed"], "1", name)
            self.assertEqual(row["bytes_received"], "4000000", name)
            self.assertGreater(int(row["peak_cwnd_bytes"]), 0, name)
        bbr, cubic, reno = by["ngtcp2-bbr"], by["ngtcp2-cubic"], by["ngtcp2-reno"]
        self.assertEqual(bbr["lost_packets"], "0")
        self.assertEqual(bbr["queue_drops"], "0")
        self.assertLess(2 * int(bbr["peak_cwnd_bytes"]), int(cubic["peak_cwnd_bytes"]))
        self.assertEqual(cubic["lost_packets"], "0")
        self.assertGreater(int(reno["lost_packets"]), 0)
        self.assertGreater(int(reno["queue_drops"]), 0)

    def test_idle_qlog_of_every_row(self):
        """--qlog with ngtcp2 rows: the run directories are made and each holds both ends' qlog
        (the idle study once aborted: nothing created <dir>/<config>-run<N>/)."""
        qlog = self.scratch / "idle-qlog"
        shutil.rmtree(qlog, ignore_errors=True)
        r = self.run_example(self.idle, ["--transport=all", "--configs=reno", "--runs=1",
                                         "--pauses=1", "--chunk=100kB", "--period=0.5s",
                                         "--quiet=true", "--qlog=" + str(qlog)])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(p.name for p in qlog.iterdir()),
                         ["ngtcp2-bbr-run1", "ngtcp2-cubic-run1", "ngtcp2-reno-run1", "reno-run1"])
        for cc in ("bbr", "cubic", "reno"):
            files = sorted(p.name for p in (qlog / f"ngtcp2-{cc}-run1").iterdir())
            self.assertEqual([f.split("-")[2] for f in files], ["client", "server"], files)
            self.assertTrue(all(f.endswith(".sqlog") for f in files), files)

    def test_idle_chunks_wait_for_send_buffer_space(self):
        """16 MiB chunks (ngtcp2's whole SndBufSize) every second at 100 Mbps: the second is due
        with most of the first unacknowledged; it waits for space and every row completes (the
        worker aborted, SIGABRT)."""
        out = self.scratch / "idle-wait.csv"
        r = subprocess.run([str(self.idle), "--transport=ngtcp2", "--chunk=16MiB", "--period=1s",
                            "--pauses=1", "--runs=1", "--quiet=true", "--csv=" + str(out)],
                           capture_output=True, text=True, timeout=900, cwd=self.scratch)
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        for row in rows(out):
            self.assertEqual(row["completed"], "1", row)
            self.assertGreater(float(row["completion_s_max"]), 1.0, row)
        self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])

    def test_idle_qlog_on_full_disk_fails_the_run(self):
        """ngtcp2's qlog on a 450 kB tmpfs: ngtcp2-cubic and ngtcp2-reno (about 205 kB each) fit,
        ngtcp2-bbr fills it. Exit 1, one line naming run 3 and its file, no temporary file, the
        first two runs' qlog files whole (the worker aborted and left .sqlog.part files)."""
        disk = self.scratch / "full-disk"
        _, left = assert_fails_on_full_disk(
            self, [self.idle, "--transport=ngtcp2", "--runs=1", "--pauses=1", "--chunk=100kB",
                   "--period=0.5s", "--quiet=true", "--jobs=1", f"--qlog={disk}/q"],
            disk, 450 * 1024,
            r"^quic-cc-idle: run 3 of 3 \(ngtcp2-bbr, RngRun 1\): cannot write "
            rf"{disk}/q/ngtcp2-bbr-run1/ngtcp2-node[01]-(client|server)-\d+-\d+\.sqlog: "
            r"No space left on device\n$",
            ["q/ngtcp2-cubic-run1", "q/ngtcp2-reno-run1"])
        self.assertEqual(list((left / "q/ngtcp2-bbr-run1").glob("*")), [])
        self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])

    def test_idle_qlog_over_file_size_limit_fails_the_run(self):
        """The same without a tmpfs: a 50 kB file size limit, below every ngtcp2 qlog file."""
        qlog = self.scratch / "qlog-limited"
        shutil.rmtree(qlog, ignore_errors=True)
        r = run_with_file_size_limit([self.idle, "--transport=ngtcp2", "--runs=1", "--pauses=1",
                                      "--chunk=100kB", "--period=0.5s", "--quiet=true", "--jobs=1",
                                      f"--qlog={qlog}"], 50_000, cwd=self.scratch)
        self.assertEqual((r.returncode, r.stdout), (1, ""), r.stderr)
        self.assertRegex(r.stderr, r"^quic-cc-idle: run 1 of 3 \(ngtcp2-cubic, RngRun 1\): cannot "
                                   rf"write {qlog}/ngtcp2-cubic-run1/\S+\.sqlog: File too large\n$")
        self.assertEqual(sorted(p.name for p in qlog.rglob(".*")), [], "temporary files left")
        self.assertEqual(sorted(p.name for p in qlog.rglob("*.part")), [])
        self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])

    def test_idle_rows(self):
        pauses = self.scratch / "idle-pauses.csv"
        runs = rows(self.deterministic(self.idle, IDLE + ["--pauseCsv=" + str(pauses)], "idle"))
        self.assertEqual(sorted((r["config"], r["run"]) for r in runs),
                         sorted((f"ngtcp2-{cc}", run) for cc in ("cubic", "reno", "bbr")
                                for run in ("1", "2")))
        for r in runs:
            self.assertEqual(r["completed"], "1", r)
            self.assertEqual(r["pauses"], "3", r)
        per_pause = rows(pauses)
        self.assertEqual(len(per_pause), 3 * 2 * 3)
        for p in per_pause:
            with self.subTest(config=p["config"], run=p["run"], pause=p["pause"]):
                for empty in ("wmax_before", "k_before", "epoch_before", "wmax_after", "k_after",
                              "epoch_after"):
                    self.assertEqual(p[empty], "", empty)
                self.assertGreater(int(p["cwnd_before"]), 0)
                self.assertGreater(int(p["burst_1ms"]), 0)
                self.assertGreaterEqual(int(p["peak_cwnd_3rtt"]), int(p["cwnd_before"]))
                # A 1 MB chunk at 100 Mbps takes at least its serialization time, 80 ms.
                self.assertGreater(float(p["completion_s"]), 0.08)
                self.assertGreater(float(p["idle_s"]), 1.0)


if __name__ == "__main__":
    Ngtcp2Scenarios.lab = pathlib.Path(sys.argv[1])
    Ngtcp2Scenarios.idle = pathlib.Path(sys.argv[2])
    Ngtcp2Scenarios.scratch = pathlib.Path(sys.argv[3])
    Ngtcp2Scenarios.scratch.mkdir(parents=True, exist_ok=True)
    unittest.main(argv=[sys.argv[0]], verbosity=2)
