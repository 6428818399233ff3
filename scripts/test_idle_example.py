#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""quic-cc-idle's command line and outputs, run by ctest ("idle-example"):

- bad input (zero or negative chunk size, period, think time, fraction, read rate; a share of
  the link above 1, a reader faster than the link; an option of another workload; unknown rows)
  exits 2 with one line on stderr;
- --dryRun checks everything and runs nothing;
- a workload that writes faster than the path drains waits for send-buffer space and completes
  (no abort);
- the slow reader's unread backlog stays within InitialMaxStreamData with --flowControl=on;
- a small batch gives the runs CSV, the pauses CSV and the table with every requested row
  exactly once, identical across two runs and across --jobs=1 and --jobs=2;
- SIGINT while qlog files are written leaves each qlog file whole or absent, and no temporary
  file;
- a qlog write that fails (a full tmpfs, a file size limit) ends the program with status 1 and
  ONE line naming the run and the file, no temporary file, the finished runs' qlog files whole.

    test_idle_example.py <quic-cc-idle> <scratch dir>
"""

import csv
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time
import unittest

from quic_cc_full_disk import assert_fails_on_full_disk, run_with_file_size_limit, whole_qlog

NAME = "quic-cc-idle"

BAD = [
    (["--workload=slow-reader", "--flowControl=on", "--ns3::QuicCcSocket::InitialMaxStreamData=1"],
     "--ns3::QuicCcSocket::InitialMaxStreamData=1 --flowControl=on: QuicCcSocket::InitialMaxStreamData "
     "(1) must hold at least one datagram (MaxDatagramSize 1350) with FlowControl"),
    # A window without flow control would be ignored: refused, named with the option that set it off.
    (["--flowControl=off", "--ns3::QuicCcSocket::InitialMaxData=5000000"],
     "--ns3::QuicCcSocket::InitialMaxData=5000000 --flowControl=off: QuicCcSocket::InitialMaxData "
     "(5000000) has no effect with FlowControl=false (no flow control: no limit is announced)"),
    (["--ns3::QuicCcSocket::InitialMaxStreamData=5000"],
     "--ns3::QuicCcSocket::InitialMaxStreamData=5000: QuicCcSocket::InitialMaxStreamData (5000) has no "
     "effect with FlowControl=false (no flow control: no limit is announced)"),
    # The option's whole text (ns-3 alone would drop the space): refused by the option itself,
    # not first by a constraint checked as if flow control were off.
    (["--flowControl= on", "--ns3::QuicCcSocket::InitialMaxData=5000000"],
     "--flowControl= on: must be on or off"),
    (["--csv=i.csv", "--pauseCsv=i.csv"], "--pauseCsv=i.csv: is also the file of --csv"),
    (["--csv=i.csv", "--qlog=."], "--qlog=.: holds the file of --csv"),
    (["--flowControl=on", "--ns3::QuicCcSocket::FlowControl=false"],
     "--ns3::QuicCcSocket::FlowControl=false: this example sets it from --flowControl, which would "
     "override it: use --flowControl"),
    (["--period=1e9s"], "--period=1e9s: must be at most 1000000s (11.6 days; ns-3's Time wraps at 2^63 ns)"),
    (["--period=1e5s"], "--period=1e5s: makes the workload (and the default --timeout) longer than 1000000s; "
                        "give fewer --pauses or a shorter period"),
    (["--chunk=0"], "--chunk=0: must be a whole number of bytes > 0, e.g. 8000000, 10MB (10,000,000 bytes), 500kB, 1GiB (2^30 bytes)"),
    (["--chunk=-5"], "--chunk=-5: must be a whole number of bytes > 0, e.g. 8000000, 10MB (10,000,000 bytes), 500kB, 1GiB (2^30 bytes)"),
    (["--chunk=200MB"],
     "--chunk=200MB: must be at most the socket's send buffer (SndBufSize), 134217728 bytes"),
    (["--chunk=2MB", "--ns3::QuicCcSocket::SndBufSize=1000000"],
     "--chunk=2MB: must be at most the socket's send buffer (SndBufSize), 1000000 bytes"),
    (["--period=0s"], "--period=0s: must be > 0"),
    (["--period=-1s"], "--period=-1s: must be a time >= 0 with a unit, e.g. 2s, 500ms, 50us"),
    (["--workload=request-response", "--think=0s"], "--think=0s: must be > 0"),
    (["--workload=request-response", "--think=-2s"],
     "--think=-2s: must be a time >= 0 with a unit, e.g. 2s, 500ms, 50us"),
    (["--workload=request-response", "--response=0"],
     "--response=0: must be a whole number of bytes > 0, e.g. 8000000, 10MB (10,000,000 bytes), 500kB, 1GiB (2^30 bytes)"),
    (["--workload=request-response", "--thinkDistribution=normal"],
     "--thinkDistribution=normal: must be fixed or exponential"),
    (["--workload=rate-limited", "--fraction=0"],
     "--fraction=0: must be in (0, 1] (a share of the bottleneck rate; above 1 the sender is not "
     "rate-limited)"),
    (["--workload=rate-limited", "--fraction=1.5"],
     "--fraction=1.5: must be in (0, 1] (a share of the bottleneck rate; above 1 the sender is not "
     "rate-limited)"),
    (["--workload=rate-limited", "--fraction=-0.5"], "--fraction=-0.5: must be a number >= 0"),
    (["--workload=slow-reader", "--readRate=0"],
     "--readRate=0: must be a rate > 0 with a unit, e.g. 1Gbps, 5Mbps, 100kb/s"),
    (["--workload=slow-reader", "--readRate=-5Mbps"],
     "--readRate=-5Mbps: must be a rate > 0 with a unit, e.g. 1Gbps, 5Mbps, 100kb/s"),
    (["--workload=slow-reader", "--readRate=200Mbps"],
     "--readRate=200Mbps: must be below the bottleneck rate --rate=100Mbps (a faster reader never "
     "limits the transfer)"),
    (["--readRate=5Mbps"], "--readRate=5Mbps: has no effect with --workload=chunked"),
    (["--think=3s"], "--think=3s: has no effect with --workload=chunked"),
    (["--workload=onoff", "--chunk=1MB"], "--chunk=1MB: has no effect with --workload=onoff"),
    (["--workload=video"],
     "--workload=video: must be chunked, request-response, rate-limited, slow-reader or onoff"),
    (["--configs=cubic,reno"],
     "--configs=cubic: must be headline, others, all or a row: cubic-<IdleRestart>[-separate]"
     "[-paced], cubic-LastSent-rw, cubic-LastActivity-rw, cubic-Off-rw, reno, reno-paced or reno-rw"),
    (["--lossOn=2s"], "--lossOn=2s: has no effect without --loss"),
    (["--loss=1%", "--lossOff=0s"], "--lossOff=0s: must be > 0"),
    (["--loss=2"], "--loss=2: a fraction must be in [0, 1]: use 30% or 0.3"),
    (["--pauses=0"], "--pauses=0: must be a whole number in 1..100000"),
    (["--buffer=0"], "--buffer=0: must be a BDP multiple > 0 (0.5)"),
    (["--falseIdleRuns=-1"], "--falseIdleRuns=-1: must be a whole number in 0..1000000"),
    (["--flowControl=yes"], "--flowControl=yes: must be on or off"),
    (["--workload=rate-limited", "--fraction=1e-9"],
     "--fraction=1e-9: at fraction x rate, less than one 1350-byte datagram per rate-limited "
     "phase"),
    (["--workload=onoff", "--fraction=1e-9"],
     "--fraction=1e-9: at fraction x rate, less than one 1350-byte datagram per on period"),
    (["--workload=onoff", "--onTime=1us"],
     "--onTime=1us: at fraction x rate, less than one 1350-byte datagram per on period"),
    # A check that follows a default names what the user wrote, not the default.
    (["--workload=slow-reader", "--rate=10Mbps"],
     "--rate=10Mbps: must be above --readRate's default 20Mbps (a faster reader never limits the "
     "transfer)"),
    (["--ns3::QuicCcSocket::SndBufSize=1000"],
     "--ns3::QuicCcSocket::SndBufSize=1000: is below --chunk's default 2MB (one write per chunk "
     "must fit the send buffer)"),
    (["--buffer=1e-6"],
     "--buffer=1e-6: is 0 packets on this path (BDP 181.422351 packets); it must be 1 to 10^9 "
     "packets"),
    (["--csv=idle-same.csv", "--pauseCsv=./idle-same.csv"],
     "--pauseCsv=./idle-same.csv: is also the file of --csv"),
    (["--pauseCsv=/nonexistent-quic-cc/p.csv"],
     "--pauseCsv=/nonexistent-quic-cc/p.csv: directory /nonexistent-quic-cc does not exist"),
    # MaxDatagramSize is --mss: a default of it is refused, and the constraints use --mss.
    (["--ns3::QuicCcSocket::MaxDatagramSize=1400"],
     "--ns3::QuicCcSocket::MaxDatagramSize=1400: this example sets it from --mss, which would "
     "override it: use --mss"),
    (["--mss=1472", "--ns3::QuicCcSocket::RcvBufSize=1400"],
     "--ns3::QuicCcSocket::RcvBufSize=1400 --mss=1472: QuicCcSocket::RcvBufSize (1400) must hold "
     "at least one datagram (MaxDatagramSize 1472)"),
]

SMALL = ["--configs=cubic-Off,cubic-LastActivity,reno-rw", "--runs=2", "--pauses=2",
         "--chunk=300kB", "--period=0.5s", "--quiet"]


class IdleExample(unittest.TestCase):
    binary = None
    scratch = None

    def run_example(self, args):
        return subprocess.run([str(self.binary)] + args, capture_output=True, text=True,
                              timeout=600)

    def test_bad_input_exits_2_with_one_line(self):
        for args, expected in BAD:
            with self.subTest(args=args):
                r = self.run_example(args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stdout, "")
                self.assertEqual(r.stderr, f"{NAME}: {expected}\n")

    def test_writes_wait_for_send_buffer_space(self):
        """A workload that writes faster than the path drains (each write fits the send buffer,
        but not beside what is still unacknowledged) waits for space, as a real application
        blocks, and completes: no abort, no core file. It aborted the worker (SIGABRT)."""
        cases = [
            # 120 MB chunks every 2 s at 100 Mbps: the second is due with ~95 MB unacknowledged.
            (["--chunk=120MB", "--period=2s", "--pauses=1"], 2.0),
            # The same with a small buffer: 900 kB every 50 ms (144 Mbps) into a 1 MB buffer.
            (["--chunk=900kB", "--period=50ms", "--pauses=4",
              "--ns3::QuicCcSocket::SndBufSize=1000000"], 0.05),
            # The bulk write after the rate-limited phase, its writes still unacknowledged.
            (["--workload=rate-limited", "--fraction=1", "--limitedFor=1s", "--bulk=1MB",
              "--ns3::QuicCcSocket::SndBufSize=1000000"], None),
        ]
        for args, period in cases:
            out = self.scratch / "wait-for-space.csv"
            with self.subTest(args=args):
                r = subprocess.run([str(self.binary), "--configs=reno", "--runs=1", "--quiet",
                                    f"--csv={out}"] + args, capture_output=True, text=True,
                                   timeout=600, cwd=self.scratch)
                self.assertEqual((r.returncode, r.stderr), (0, ""))
                row = list(csv.DictReader(out.read_text().splitlines()))[0]
                self.assertEqual(row["completed"], "1", row)
                if period is not None:
                    # A chunk that waited: its completion counts from when it was due.
                    self.assertGreater(float(row["completion_s_max"]), period, row)
                self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])

    def test_other_workloads_options_not_checked(self):
        """Only the selected workload's sizes and rates are checked, against the sockets used."""
        for args in (["--rate=10Mbps"],
                     ["--workload=request-response", "--response=1MB",
                      "--ns3::QuicCcSocket::SndBufSize=5000000"],
                     ["--chunk=1MB", "--ns3::QuicCcSocket::SndBufSize=1500000"]):
            with self.subTest(args=args):
                r = self.run_example(["--dryRun"] + args)
                self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))

    def test_output_not_a_regular_file(self):
        """--csv naming a FIFO or a symbolic link is refused: the atomic rename would replace it."""
        fifo = self.scratch / "fifo.csv"
        link = self.scratch / "link.csv"
        for p in (fifo, link):
            p.unlink(missing_ok=True)
        os.mkfifo(fifo)
        link.symlink_to(self.scratch / "target.csv")
        for p in (fifo, link):
            with self.subTest(path=p.name):
                r = self.run_example(["--dryRun", f"--csv={p}"])
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stderr, f"{NAME}: --csv={p}: exists and is not a regular file "
                                 "(a device, FIFO, socket or symbolic link); the output replaces "
                                 "the file at this path\n")
        self.assertTrue(fifo.is_fifo() and link.is_symlink())

    def test_onoff_pauses_as_asked(self):
        """--pauses=N gives N pauses with onoff too (not the idle before the first on period)."""
        pauses = self.scratch / "onoff-pauses.csv"
        r = self.run_example(["--workload=onoff", "--onTime=300ms", "--offTime=300ms", "--pauses=3",
                              "--configs=reno", "--runs=1", "--quiet", f"--pauseCsv={pauses}"])
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = list(csv.DictReader(pauses.read_text().splitlines()))
        self.assertEqual([row["pause"] for row in rows], ["1", "2", "3"])

    def test_dry_run_runs_nothing(self):
        out = self.scratch / "dry.csv"
        r = self.run_example(["--dryRun", "--configs=all", f"--csv={out}", "--falseIdleRuns=100"])
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        self.assertFalse(out.exists())

    def test_loss_phases_vary_with_the_run(self):
        out = self.scratch / "loss.csv"
        r = self.run_example(["--configs=cubic-LastActivity", "--runs=3", "--pauses=2", "--chunk=300kB",
                              "--period=0.5s", "--loss=2%", "--lossOn=0.3s", "--lossOff=0.2s", "--quiet",
                              f"--csv={out}"])
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = list(csv.DictReader(out.read_text().splitlines()))
        self.assertEqual([row["run"] for row in rows], ["1", "2", "3"])
        self.assertGreater(sum(int(row["lost_packets"]) for row in rows), 0, "loss phases lose packets")
        self.assertGreater(len({row["lost_packets"] for row in rows}), 1, "runs differ")
        # A run's loss phases are its own: the same rows with one worker, and run 3 alone.
        one = self.scratch / "loss-jobs1.csv"
        alone = self.scratch / "loss-run3.csv"
        for extra, path in ((["--runs=3", "--jobs=1"], one), (["--runs=1", "--firstRun=3"], alone)):
            args = ["--configs=cubic-LastActivity", "--pauses=2", "--chunk=300kB",
                    "--period=0.5s", "--loss=2%", "--lossOn=0.3s", "--lossOff=0.2s", "--quiet",
                    f"--csv={path}"] + extra
            self.assertEqual(self.run_example(args).returncode, 0)
        self.assertEqual(one.read_bytes(), out.read_bytes(), "--jobs=1 and --jobs=2 differ")
        self.assertEqual(alone.read_text().splitlines()[1], out.read_text().splitlines()[3],
                         "run 3 alone differs from run 3 after runs 1 and 2")

    @unittest.skipUnless(pathlib.Path("/usr/bin/python3").exists(), "needs Debian's python3")
    def test_plot_of_one_pause(self):
        qlog = self.scratch / "qlog"
        pauses = self.scratch / "plot-pauses.csv"
        png = self.scratch / "idle.png"
        r = self.run_example(["--configs=cubic-Off,cubic-LastActivity", "--runs=1", "--pauses=2",
                              "--chunk=300kB", "--period=0.5s", "--quiet", f"--qlog={qlog}",
                              f"--pauseCsv={pauses}"])
        self.assertEqual(r.returncode, 0, r.stderr)
        plot = pathlib.Path(__file__).resolve().parent / "plot-idle.py"
        p = subprocess.run(["/usr/bin/python3", str(plot), f"--qlog={qlog}", f"--pauses={pauses}",
                            "--pause=2", f"--out={png}"], capture_output=True, text=True, timeout=300)
        if p.returncode == 2 and "cannot import matplotlib" in p.stderr:
            self.skipTest(p.stderr.strip())
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(png.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")
        p = subprocess.run(["/usr/bin/python3", str(plot), f"--qlog={qlog}", f"--pauses={pauses}",
                            "--pause=9", f"--out={png}"], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 2)
        self.assertIn("no pause 9 of run 1", p.stderr)

    def test_slow_reader_table(self):
        r = self.run_example(["--workload=slow-reader", "--bulk=1MB", "--readRate=20Mbps",
                              "--configs=cubic-LastActivity,reno", "--runs=1", "--quiet"])
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = [line.split() for line in r.stdout.splitlines()
                if line.split()[:1] in (["cubic-LastActivity"], ["reno"])]
        self.assertEqual([row[0] for row in rows], ["cubic-LastActivity", "reno"])
        for row in rows:
            self.assertEqual(row[1:3], ["1", "1"], "one run, completed")
            self.assertGreater(float(row[3]), 1e6 * 8 / 20e6 * 1e3, "at the reader's pace")

    def test_slow_reader_backlog_bounded_by_flow_control(self):
        """--flowControl=on: the unread backlog stays within InitialMaxStreamData (1 MB); off it
        grows past it (RFC 9000 Section 4 is what bounds the receiver's memory)."""
        backlog = {}
        for setting in ("on", "off"):
            out = self.scratch / f"slow-reader-{setting}.csv"
            r = self.run_example(["--workload=slow-reader", "--bulk=2MB", "--readRate=20Mbps",
                                  "--configs=cubic-LastActivity", "--runs=1",
                                  f"--flowControl={setting}", f"--csv={out}"])
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("flow control on" if setting == "on" else "no receiver flow control",
                          r.stdout)
            rows = list(csv.DictReader(out.read_text().splitlines()))
            self.assertEqual([row["completed"] for row in rows], ["1"])
            backlog[setting] = int(rows[0]["peak_backlog"])
        self.assertLessEqual(backlog["on"], 1_000_000, "bounded by the stream window")
        self.assertGreater(backlog["on"], 500_000, "the reader fell behind")
        self.assertGreater(backlog["off"], 1_200_000, "without flow control the backlog grows")

    def test_interrupt_leaves_no_partial_qlog(self):
        # SIGINT to the program alone (its workers die with it) while runs write their qlog.
        qlog = self.scratch / "qlog-interrupted"
        shutil.rmtree(qlog, ignore_errors=True)
        p = subprocess.Popen([str(self.binary), "--configs=cubic-Off,reno", "--runs=1000",
                              "--pauses=2", "--chunk=300kB", "--period=0.5s", "--quiet",
                              "--jobs=2", f"--qlog={qlog}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 120
        while time.time() < deadline and len(list(qlog.glob("*/*.sqlog"))) < 4:
            time.sleep(0.05)
        time.sleep(0.2)
        p.send_signal(signal.SIGINT)
        self.assertEqual(p.wait(timeout=60), -signal.SIGINT)
        p.stderr.close()
        finished = sorted(qlog.glob("*/*.sqlog"))
        self.assertGreaterEqual(len(finished), 4)
        # The workers remove their temporary files as they die (SIGTERM when the parent dies).
        deadline = time.time() + 30
        while time.time() < deadline and list(qlog.glob("*/.*")):
            time.sleep(0.1)
        self.assertEqual(list(qlog.glob("*/.*")), [], "temporary qlog files left")
        for f in finished:
            data = f.read_bytes()
            self.assertTrue(data.startswith(b"\x1e") and data.endswith(b"\n"), f)
            records = data.split(b"\x1e")[1:]
            header = json.loads(records[0])
            self.assertEqual(header["file_schema"], "urn:ietf:params:qlog:file:sequential", f)
            json.loads(records[-1])  # the last record is whole

    def test_qlog_on_full_disk_fails_the_run(self):
        """The qlog directory on a 1500 kB tmpfs: runs 1 and 2 (about 600 kB of qlog each) fit,
        run 3 fills it. Exit 1, one line naming run 3 and its file, no temporary file, the first
        two runs' qlog files whole (the worker aborted and left its temporary files)."""
        disk = self.scratch / "full-disk"
        out = self.scratch / "full-disk.csv"
        r, left = assert_fails_on_full_disk(
            self, [self.binary, "--configs=cubic-Off,reno", "--runs=2", "--pauses=2",
                   "--chunk=300kB", "--period=0.5s", "--quiet", "--jobs=1", f"--qlog={disk}/q",
                   f"--csv={out}"], disk, 1500 * 1024,
            rf"^{NAME}: run 3 of 4 \(cubic-Off, RngRun 2\): cannot write {disk}/q/cubic-Off-run2/"
            r"quic-cc-node[01]-(client|server)-[0-9a-f]+\.sqlog: No space left on device\n$",
            ["q/cubic-Off-run1", "q/reno-run1"])
        failed = pathlib.Path(r.stderr.split(": ")[2].removeprefix("cannot write "))
        self.assertFalse((left / failed.relative_to(disk)).exists())
        self.assertFalse(out.exists())
        self.assertEqual(sorted(p.name for p in self.scratch.glob(f".{out.name}*")), [])
        self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])

    def test_qlog_over_file_size_limit_fails_the_run(self):
        """The same without a tmpfs: a 100 kB file size limit, so the first run's client qlog
        (about 400 kB) cannot be written: one line naming run 1 and the file, "File too large"."""
        qlog = self.scratch / "qlog-limited"
        shutil.rmtree(qlog, ignore_errors=True)
        r = run_with_file_size_limit([self.binary, "--configs=cubic-Off,reno", "--runs=2",
                                      "--pauses=2", "--chunk=300kB", "--period=0.5s", "--quiet",
                                      "--jobs=2", f"--qlog={qlog}"], 100_000, cwd=self.scratch)
        self.assertEqual((r.returncode, r.stdout), (1, ""), r.stderr)
        self.assertRegex(r.stderr, rf"^{NAME}: run [1-4] of 4 \((cubic-Off|reno), RngRun [12]\): "
                                   rf"cannot write {qlog}/\S+\.sqlog: File too large\n$")
        self.assertEqual(sorted(p.name for p in qlog.rglob(".*")), [], "temporary files left")
        for f in qlog.rglob("*.sqlog"):
            self.assertTrue(whole_qlog(f), f)
        self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])

    def test_outputs_complete_and_deterministic(self):
        results = []
        for tag, jobs in (("a", "1"), ("b", "1"), ("c", "2")):
            runs = self.scratch / f"runs-{tag}.csv"
            pauses = self.scratch / f"pauses-{tag}.csv"
            r = self.run_example(SMALL + [f"--jobs={jobs}", f"--csv={runs}", f"--pauseCsv={pauses}"])
            self.assertEqual(r.returncode, 0, r.stderr)
            results.append((runs.read_bytes(), pauses.read_bytes(), r.stdout))
        self.assertEqual(results[0], results[1], "two runs with --jobs=1 differ")
        self.assertEqual(results[0], results[2], "--jobs=1 and --jobs=2 differ")
        rows = list(csv.DictReader((self.scratch / "runs-a.csv").read_text().splitlines()))
        self.assertEqual(sorted((row["config"], row["run"]) for row in rows),
                         sorted((c, str(n)) for c in ("cubic-Off", "cubic-LastActivity", "reno-rw")
                                for n in (1, 2)))
        for row in rows:
            self.assertEqual(row["completed"], "1")
            self.assertEqual(row["pauses"], "2")
        pauses = list(csv.DictReader((self.scratch / "pauses-a.csv").read_text().splitlines()))
        self.assertEqual(len(pauses), 12)
        for p in pauses:
            self.assertGreater(float(p["idle_s"]), 0.1)
            if p["config"] == "reno-rw" and p["pause"] == "2":
                self.assertEqual(p["cwnd_after"], "13500", "restart window: 10 x 1350 B")
        table = results[0][2].splitlines()
        for c in ("cubic-Off", "cubic-LastActivity", "reno-rw"):
            self.assertEqual(sum(1 for line in table if line.split()[:1] == [c]), 1, c)


if __name__ == "__main__":
    IdleExample.binary = pathlib.Path(sys.argv[1])
    IdleExample.scratch = pathlib.Path(sys.argv[2])
    IdleExample.scratch.mkdir(parents=True, exist_ok=True)
    for old in IdleExample.scratch.glob("*.csv"):
        old.unlink()
    unittest.main(argv=sys.argv[:1], verbosity=2)
