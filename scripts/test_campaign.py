#!/usr/bin/python3
"""Tests of quic-cc-campaign: backends give byte-identical merges, faults, bad specs, phase diagram.

  test_campaign.py <directory of the example binaries> <scratch directory> <TestClass>

TestClass: BadSpecs, BadOptions, LocalBackend, ParallelBackend, SlurmBackend, Fault, Shards,
Interrupt, Installed, Statistics, PhaseDiagram, OtherExamples, Ngtcp2Releases (one ctest entry each).
Every campaign here is small: 2 configurations x 2 cells x 10 runs of quic-cc-death-spiral.
"""

import atexit
import csv
import importlib.machinery
import math
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import types
import unittest
from unittest import mock

HERE = pathlib.Path(__file__).resolve().parent
TOOL = HERE / "quic-cc-campaign"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SMALL = """
[campaign]
name = "small"
example = "quic-cc-death-spiral"
runs = 10
chunk = {chunk}
[parameters]
cc = ["cubic", "reno"]
loss = ["20%", "40%"]
"""
SLURM_PACKAGES = "slurmctld slurmd slurm-client munge"
BATCH = ["runs", "firstRun", "jobs", "csv"]


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def load_tool():
    """quic-cc-campaign as a module (its functions, without a subprocess)."""
    tool = types.ModuleType("campaign_tool")
    tool.__file__ = str(TOOL)
    importlib.machinery.SourceFileLoader("campaign_tool", str(TOOL)).exec_module(tool)
    return tool


def one_line(test, p, status, *words):
    """p exited with status, printed nothing on stdout and one line on stderr holding words."""
    test.assertEqual(p.returncode, status, p.stderr)
    test.assertNotIn("Traceback", p.stderr)
    lines = p.stderr.strip().splitlines()
    test.assertEqual(len(lines), 1, p.stderr)
    for w in words:
        test.assertIn(w, lines[0])
    return lines[0]


class CampaignTest(unittest.TestCase):
    bin_dir = None
    scratch = None

    @classmethod
    def setUpClass(cls):
        cls.work = cls.scratch / cls.__name__
        shutil.rmtree(cls.work, ignore_errors=True)
        cls.work.mkdir(parents=True)

    @classmethod
    def tool(cls, *args, check=True, env=None, tool=TOOL, timeout=None):
        p = subprocess.run([sys.executable, str(tool), *map(str, args)], capture_output=True, text=True,
                           env=env, timeout=timeout)
        if check and p.returncode != 0:
            raise AssertionError(f"quic-cc-campaign {' '.join(map(str, args))} exited {p.returncode}:\n"
                                 f"{p.stdout}\n{p.stderr}")
        return p

    @classmethod
    def spec(cls, name, text):
        path = cls.work / f"{name}.toml"
        path.write_text(text)
        return path

    @classmethod
    def run_campaign(cls, name, chunk, backend, *extra, env=None):
        d = cls.work / name
        cls.last_run = cls.tool("run", cls.spec(name, SMALL.format(chunk=chunk)), "--bin-dir", cls.bin_dir,
                                f"--backend={backend}", "--dir", d, *extra, env=env)
        cls.tool("merge", d)
        return d

    @classmethod
    def start_run(cls, name, spec=None, workers=1, bin_dir=None):
        """`run` of spec (SMALL in tasks of 5 runs by default) in the background, in its own session
        (as a shell's job: a Ctrl-C goes to its process group)."""
        d = cls.work / name
        # stderr to a file: the tasks inherit it, and a pipe would stay open while they run
        with open(cls.work / f"{name}.stderr", "w") as err:
            p = subprocess.Popen([sys.executable, str(TOOL), "run", str(cls.spec(name, spec or SMALL.format(chunk=5))),
                                  "--bin-dir", str(bin_dir or cls.bin_dir), "--backend=local", f"--workers={workers}",
                                  "--dir", str(d)], stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
        return d, p

    @classmethod
    def fake_example(cls, name, options, reject=None, gate=None):
        """A stand-in batch example (a Python script in the scratch directory): --PrintHelp lists
        options; reject: it refuses that option; otherwise it waits for the file gate (if given),
        then writes one row per run. Returns a spec sweeping its --rate over two values."""
        script = cls.work / name
        script.write_text(f"""#!{sys.executable}
import pathlib, sys, time
if "--PrintHelp" in sys.argv:
    print("{name} [Program Options] [General Arguments]\\n\\nProgram Options:")
    print("\\n".join(f"    --{{o}}:  {{o}} [1]" for o in {list(options)!r}))
    print("\\nGeneral Arguments:\\n    --PrintHelp:  Print this help message.")
    sys.exit(0)
args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
if {reject!r} in args:
    sys.exit(print("{name}: --{reject}=" + args[{reject!r}] + ": unknown option", file=sys.stderr) or 2)
if args.get("dryRun") == "true":
    sys.exit(0)
while {str(gate) if gate else ""!r} and not pathlib.Path({str(gate) if gate else ""!r}).exists():
    time.sleep(0.05)
first, runs = int(args["firstRun"]), int(args["runs"])
pathlib.Path(args["csv"]).write_text("config,run,rate\\n" + "".join(f"fake,{{r}},{{args['rate']}}\\n"
                                                                      for r in range(first, first + runs)))
""")
        script.chmod(0o755)
        return f'[campaign]\nname = "{name}"\nexample = "{name}"\nruns = 4\nchunk = 1\n[parameters]\nrate = ["1Mbps", "2Mbps"]\n'

    @staticmethod
    def wait_for(what, timeout=120):
        deadline = time.time() + timeout
        while time.time() < deadline:
            v = what()
            if v:
                return v
            time.sleep(0.02)
        raise AssertionError(f"timed out waiting for {what.__doc__ or what}")

    @classmethod
    def reference(cls):
        """The local backend, one task per cell (chunk = runs); run once per test class."""
        if (cls.work / "reference" / "merged.csv").exists():
            return cls.work / "reference"
        return cls.run_campaign("reference", 10, "local", "--workers=2")

    def assert_same_merge(self, d, ref):
        merged = (d / "merged.csv").read_bytes()
        self.assertEqual(merged, (ref / "merged.csv").read_bytes())
        self.assertEqual((d / "summary.txt").read_bytes(), (ref / "summary.txt").read_bytes())
        rows = read_csv(d / "merged.csv")
        # 2 configurations x 2 loss rates x 10 runs, each run once, in (cc, loss, run) order.
        self.assertEqual(len(rows), 40)
        self.assertEqual([(r["cc"], r["loss"], r["config"]) for r in rows[::10]],
                         [("cubic", "20%", "cubic-LastActivity"), ("cubic", "40%", "cubic-LastActivity"),
                          ("reno", "20%", "reno"), ("reno", "40%", "reno")])
        self.assertEqual([int(r["run"]) for r in rows[:10]], list(range(1, 11)))


class BadSpecs(CampaignTest):
    """Each bad spec is one line on stderr at plan time naming the parameter and the value, exit 2."""

    def plan_error(self, text):
        p = self.tool("plan", self.spec("bad", text), "--bin-dir", self.bin_dir, check=False, timeout=30)
        line = one_line(self, p, 2)
        self.assertEqual(p.stdout, "")
        self.assertTrue(line.startswith("quic-cc-campaign: plan: "), line)
        return line

    HEAD = '[campaign]\nexample = "quic-cc-death-spiral"\nruns = 2\n'

    def test_unknown_parameter(self):
        line = self.plan_error(self.HEAD + "[parameters]\nlossRate = [10, 20]\n")
        self.assertIn("unknown parameter 'lossRate'", line)
        self.assertIn("lossDuration", line)  # lists the example's options

    def test_rejected_value(self):
        line = self.plan_error(self.HEAD + '[parameters]\nackPolicy = ["ReceiveBatch", "Bogus"]\n')
        self.assertIn("ackPolicy=Bogus", line)
        self.assertIn("rejects", line)
        line = self.plan_error(self.HEAD + '[parameters]\nloss = ["10%", "150%"]\n')
        self.assertIn("loss=150%", line)

    def test_empty_cross_product(self):
        line = self.plan_error(self.HEAD + "[parameters]\nloss = [10]\ndelay = []\n")
        self.assertIn("empty cross product: parameter 'delay' has no values", line)

    def test_reserved_and_structure(self):
        self.assertIn("'runs' is set by quic-cc-campaign",
                      self.plan_error(self.HEAD + "[parameters]\nruns = [1, 2]\n"))
        self.assertIn("campaign.runs=0", self.plan_error('[campaign]\nexample = "quic-cc-death-spiral"\nruns = 0\n'))
        # Named as the spec spells the value (TOML's true, a quoted string), not Python's repr.
        self.assertIn("campaign.runs=true: must be a positive integer",
                      self.plan_error('[campaign]\nexample = "quic-cc-death-spiral"\nruns = true\n'))
        self.assertIn('campaign.runs="2": must be a positive integer',
                      self.plan_error('[campaign]\nexample = "quic-cc-death-spiral"\nruns = "2"\n'))
        self.assertIn("campaign.runs=1979-05-27: must be a positive integer",
                      self.plan_error('[campaign]\nexample = "quic-cc-death-spiral"\nruns = 1979-05-27\n'))
        self.assertIn("example binary 'no-such-example' not found",
                      self.plan_error('[campaign]\nexample = "no-such-example"\nruns = 1\n'))
        self.assertIn("unknown section [params]", self.plan_error(self.HEAD + "[params]\nloss = [1]\n"))

    def test_not_utf8(self):
        """TOML is UTF-8: a spec that is not is one line naming the file and the first bad byte."""
        path = self.work / "binary.toml"
        path.write_bytes(b"\xff\xfe[campaign]\n")
        p = self.tool("plan", path, "--bin-dir", self.bin_dir, check=False)
        one_line(self, p, 2, f"quic-cc-campaign: plan: {path}: not valid TOML: byte 0 is not UTF-8")
        path.write_bytes(b'[campaign]\nname = "caf\xe9"\n')  # Latin-1, byte 22
        p = self.tool("plan", path, "--bin-dir", self.bin_dir, check=False)
        one_line(self, p, 2, f"quic-cc-campaign: plan: {path}: not valid TOML: byte 22 is not UTF-8")

    def test_too_many_tasks(self):
        """The task count is computed from the spec before any list is made: above 99999 tasks
        (the five digits of task-NNNNN) it is one line at once (10^8 one-run tasks used to be a
        list growing past 2 GB); 99999 tasks plan."""
        head = '[campaign]\nexample = "quic-cc-death-spiral"\nruns = {runs}\nchunk = 1\n[parameters]\n'
        spec = self.spec("limit", head.format(runs=99999) + 'cc = ["reno"]\n')
        p = self.tool("plan", spec, "--bin-dir", self.bin_dir, "--no-pilot", "--runs", 100000, check=False,
                      timeout=30)
        one_line(self, p, 2, "--runs=100000, campaign.chunk=1: 1 parameter combination(s) x 100000 task(s) each = "
                 "100000 tasks, more than 99999")
        p = self.tool("plan", spec, "--bin-dir", self.bin_dir, "--no-pilot", timeout=30)
        self.assertIn("1 parameter combination(s) x runs 1..99999 = 99999 invocation-runs, 99999 task(s) of up to "
                      "1 run(s)", p.stdout)
        line = self.plan_error(head.format(runs=100000000) + 'cc = ["reno", "cubic"]\n')
        self.assertTrue(line.endswith("campaign.runs=100000000, campaign.chunk=1: 2 parameter combination(s) x "
                                      "100000000 task(s) each = 200000000 tasks, more than 99999 "
                                      "(raise chunk or lower runs)"), line)
        # a cross product of 10^6 configurations is counted, not listed, either
        six = "".join(f"p{i} = [{', '.join(map(str, range(10)))}]\n" for i in range(6))
        line = self.plan_error(head.format(runs=1) + six)
        self.assertIn(": 1000000 parameter combination(s) x 1 task(s) each = 1000000 tasks, more than 99999", line)

    def test_attribute_names_and_values(self):
        """ns-3 attributes as parameters: names and values checked by the example (--dryRun)."""
        line = self.plan_error(self.HEAD + '[parameters]\n"ns3::QuicCubic::Nope" = [1, 2]\n')
        self.assertIn("rejects ns3::QuicCubic::Nope=1", line)
        self.assertIn("has no attribute 'Nope'", line)
        line = self.plan_error(self.HEAD + '[fixed]\n"ns3::QuicCubic::Beta" = "abc"\n[parameters]\nloss = ["10%"]\n')
        self.assertIn("rejects ns3::QuicCubic::Beta=abc", line)
        line = self.plan_error(self.HEAD + '[parameters]\n"ns3::QuicCubic" = [1]\n')
        self.assertIn("parameter 'ns3::QuicCubic' is not an ns-3 attribute name (ns3::Type::Attribute)", line)

    def test_batch_options_named(self):
        """An example without the shared batch options, or one refusing one: the error names the
        option the tool passes, not a parameter."""
        spec = self.fake_example("fake-no-jobs", ["rate", "runs", "firstRun", "csv", "dryRun"])
        p = self.tool("plan", self.spec("nojobs", spec), "--bin-dir", self.work, "--no-pilot", check=False)
        one_line(self, p, 2, "fake-no-jobs does not take --jobs: quic-cc-campaign passes the batch options "
                 "--firstRun --runs --jobs --csv to every task")
        spec = self.fake_example("fake-rejects", ["rate", *BATCH, "dryRun"], reject="jobs")
        p = self.tool("plan", self.spec("rejects", spec), "--bin-dir", self.work, "--no-pilot", check=False)
        line = one_line(self, p, 2, "fake-rejects rejects --jobs, which quic-cc-campaign passes to every task")
        self.assertNotIn("rate=", line)

    def test_where_it_looked(self):
        env = dict(os.environ, QUICCC_BIN_DIR=str(self.work / "nowhere"))
        spec = self.spec("nobin", '[campaign]\nexample = "no-such-example"\nruns = 1\n')
        p = self.tool("plan", spec, check=False, env=env)
        one_line(self, p, 2, "example binary 'no-such-example' not found in",
                 f"{self.work / 'nowhere'} ($QUICCC_BIN_DIR), {HERE} (quic-cc-campaign's directory) or PATH")
        # --bin-dir is the only place looked in when given (no other build picked up silently)
        p = self.tool("plan", self.spec("elsewhere", SMALL.format(chunk=5)), "--bin-dir", self.work, check=False)
        one_line(self, p, 2, f"example binary 'quic-cc-death-spiral' not found in --bin-dir {self.work}")

    def test_spec_with_utf8_bom_plans(self):
        """A spec saved with a UTF-8 byte-order mark (as some Windows editors do) is the same spec."""
        path = self.spec("bom", SMALL.format(chunk=3))
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
        p = self.tool("plan", path, "--bin-dir", self.bin_dir)
        self.assertIn("16 task(s) of up to 3 run(s)", p.stdout)

    def test_help_lists_the_public_commands(self):
        p = self.tool("--help")
        self.assertIn("{plan,run,resume,status,merge,plot}", p.stdout)
        self.assertNotIn("SUPPRESS", p.stdout)
        self.assertNotIn("task", [l.split()[0] for l in p.stdout.splitlines() if l.startswith("    ")])

    def test_good_spec_plans(self):
        p = self.tool("plan", self.spec("good", SMALL.format(chunk=3)), "--bin-dir", self.bin_dir)
        self.assertIn("4 parameter combination(s) x runs 1..10 = 40 invocation-runs, 16 task(s) of up to 3 run(s)",
                      p.stdout)
        self.assertIn("CPU-s per row", p.stdout)


class BadOptions(CampaignTest):
    """Bad options and paths: one line, exit 2 (1 for a file system that refuses), nothing made."""

    def run_error(self, status, *args, words=()):
        p = self.tool("run", self.spec("small", SMALL.format(chunk=5)), "--bin-dir", self.bin_dir, *args, check=False)
        return one_line(self, p, status, *words)

    def test_hosts_file_missing(self):
        d = self.work / "hosts"
        self.run_error(2, "--backend=parallel", "--hosts", "/nonexistent", "--dir", d,
                       words=["--hosts=/nonexistent: No such file or directory"])
        self.assertFalse(d.exists())
        empty = self.work / "empty-hosts"
        empty.write_text("# no host\n")
        self.run_error(2, "--backend=parallel", "--hosts", empty, "--dir", d, words=["no host in it"])
        self.run_error(2, "--backend=local", "--hosts", empty, "--dir", d,
                       words=["--hosts is an option of --backend=parallel, not of --backend=local"])
        self.run_error(2, "--backend=slurm", "--workers=2", "--dir", d, words=["--workers is an option of"])
        self.assertFalse(d.exists())

    def test_dir_parent_missing(self):
        self.run_error(2, "--backend=local", "--dir", "/nonexistent/a/b",
                       words=["--dir=/nonexistent/a/b: /nonexistent/a does not exist (quic-cc-campaign creates only "
                              "the last component"])
        self.assertFalse(pathlib.Path("/nonexistent").exists())
        nested = self.work / "a" / "b"
        self.run_error(2, "--backend=local", "--dir", nested, words=[f"{self.work / 'a'} does not exist"])
        self.assertFalse((self.work / "a").exists())

    def test_empty_values(self):
        """An empty value is one line naming the option: --dir "" is not campaigns/<name>,
        --bin-dir "" not the search of $QUICCC_BIN_DIR, the tool's directory and PATH."""
        spec = self.spec("small", SMALL.format(chunk=5))
        env = dict(os.environ, QUICCC_BIN_DIR=str(self.bin_dir))  # where an ignored --bin-dir "" would look
        for args, line in ((["run", spec, "--bin-dir", self.bin_dir, "--backend=local", "--dir", ""],
                            "quic-cc-campaign run: argument --dir: empty value"),
                           (["run", spec, "--bin-dir", "", "--backend=local", "--dir", self.work / "empty-bin"],
                            "quic-cc-campaign run: argument --bin-dir: empty value"),
                           (["plan", spec, "--bin-dir=", "--no-pilot"],
                            "quic-cc-campaign plan: argument --bin-dir: empty value"),
                           (["run", spec, "--bin-dir", self.bin_dir, "--backend=slurm", "--time=",
                             "--dir", self.work / "empty-time"],
                            "quic-cc-campaign run: argument --time: empty value")):
            p = subprocess.run([sys.executable, str(TOOL), *map(str, args)], capture_output=True, text=True,
                               env=env, cwd=self.work, timeout=120)
            self.assertEqual(one_line(self, p, 2), line)
            self.assertEqual(p.stdout, "")
        self.assertFalse((self.work / "campaigns").exists())
        self.assertFalse((self.work / "empty-bin").exists())
        self.assertFalse((self.work / "empty-time").exists())

    def test_dir_read_only(self):
        """--dir on a read-only file system (a tmpfs mounted read-only in a private mount namespace)."""
        ro = self.work / "ro"
        ro.mkdir(exist_ok=True)
        p = subprocess.run(["unshare", "--map-root-user", "--mount", "sh", "-c",
                            'mount -t tmpfs -o ro,size=1m none "$0" && exec "$@"', str(ro),
                            sys.executable, str(TOOL), "run", str(self.spec("small", SMALL.format(chunk=5))),
                            "--bin-dir", str(self.bin_dir), "--backend=local", "--dir", str(ro / "c")],
                           capture_output=True, text=True)
        if p.returncode != 0 and "mount" in p.stderr and "quic-cc-campaign" not in p.stderr:
            raise AssertionError(f"cannot mount a read-only tmpfs here (unshare/mount): {p.stderr}")
        one_line(self, p, 1, f"--dir={ro / 'c'}: cannot write in {ro}: Read-only file system")

    def test_status_into_closed_pipe(self):
        """`status DIR | head` whose reader left: no traceback, quiet, exit 141 (128 + SIGPIPE) as cat."""
        d = self.work / "pipe"
        spec = self.spec("pipe", '[campaign]\nexample = "quic-cc-death-spiral"\nruns = 2\nchunk = 1\n'
                         '[parameters]\ncc = ["reno"]\n')
        self.tool("run", spec, "--bin-dir", self.bin_dir, "--backend=local", "--dir", d)
        r, w = os.pipe()
        os.close(r)
        p = subprocess.run([sys.executable, str(TOOL), "status", str(d)], stdout=w, stderr=subprocess.PIPE,
                           text=True)
        os.close(w)
        self.assertEqual(p.returncode, 141, p.stderr)
        self.assertEqual(p.stderr, "")
        shell = subprocess.run(["sh", "-c", '"$0" "$1" status "$2" | head -n 1', sys.executable, str(TOOL), str(d)],
                               capture_output=True, text=True)
        self.assertTrue(shell.stdout.startswith("campaign pipe: quic-cc-death-spiral"), shell.stdout)
        self.assertNotIn("Traceback", shell.stderr)


class LocalBackend(CampaignTest):
    def test_attribute_sweep(self):
        """An ns-3 attribute default as a swept parameter reaches the example: its default value
        gives the example's own rows, another value other rows."""
        spec = self.spec("beta", '[campaign]\nname = "beta"\nexample = "quic-cc-death-spiral"\nruns = 3\n'
                         '[fixed]\ncc = "cubic"\n[parameters]\n"ns3::QuicCubic::Beta" = [0.7, 0.5]\n')
        d = self.work / "beta"
        self.tool("run", spec, "--bin-dir", self.bin_dir, "--backend=local", "--workers=2", "--dir", d)
        self.tool("merge", d)
        rows = read_csv(d / "merged.csv")
        self.assertEqual([r["ns3::QuicCubic::Beta"] for r in rows], ["0.7"] * 3 + ["0.5"] * 3)
        direct = self.work / "beta-direct.csv"
        subprocess.run([str(self.bin_dir / "quic-cc-death-spiral"), "--cc=cubic", "--runs=3", "--jobs=1", "--quiet",
                        f"--csv={direct}"], check=True, stdout=subprocess.DEVNULL)
        strip = [{k: v for k, v in r.items() if k != "ns3::QuicCubic::Beta"} for r in rows]
        self.assertEqual(strip[:3], read_csv(direct))
        self.assertNotEqual([r["cwnd_at_loss_end"] for r in strip[3:]], [r["cwnd_at_loss_end"] for r in strip[:3]])

    def test_waits_without_spinning(self):
        """The coordinator sleeps while its workers run: one wake-up per second or per finished task.

        (It once passed finished futures back to concurrent.futures.wait, which then returned at
        once: after the first task the loop spun, about half a core for the whole campaign.)"""
        tool = load_tool()
        tool.task_argv = lambda camp, tid: ["sleep", "0.5" if tid == 1 else "2"]
        wakeups = []

        class Counting:
            def show(self, final=False):
                wakeups.append(time.monotonic())

        start = time.monotonic()
        camp = types.SimpleNamespace(mark_started=lambda tid: None, lock_fds=lambda: ())
        tool.backend_local(camp, [1, 2, 3], types.SimpleNamespace(workers=2), Counting())
        wall = time.monotonic() - start
        self.assertGreaterEqual(wall, 2.5)  # tasks 1 + 3 in one worker, task 2 in the other
        self.assertLessEqual(len(wakeups), 2 * (wall + 1) + 3, f"{len(wakeups)} wake-ups in {wall:.1f} s")


class ParallelBackend(CampaignTest):
    def assert_progress_lines(self, stderr, tasks, runs):
        """stderr not a terminal (a log): one line per finished task with the count and an ETA."""
        lines = [l for l in stderr.splitlines() if l.startswith("small: ")]
        done = [int(l.split()[1].split("/")[0]) for l in lines]
        self.assertEqual(done, sorted(set(done)), lines)  # a line only when a task finished
        self.assertEqual(done[-1], tasks)
        self.assertGreaterEqual(len(done), 2, lines)
        self.assertRegex(lines[0], rf"^small: \d+/{tasks} tasks done \(\d+/{runs} runs\), \d+m\d\ds elapsed, "
                                   r"ETA \d+m\d\ds$")
        self.assertTrue(all(", ETA " in l for l in lines[:-1]), lines)
        self.assertRegex(lines[-1], rf"^small: {tasks}/{tasks} tasks done \({runs}/{runs} runs\), \d+m\d\ds elapsed$")

    def test_parallel_equals_local(self):
        ref = self.reference()
        self.assert_progress_lines(self.last_run.stderr, 4, 40)
        d = self.run_campaign("parallel", 3, "parallel", "--workers=2")
        self.assert_progress_lines(self.last_run.stderr, 16, 40)
        self.assert_same_merge(d, ref)
        joblog = (d / "parallel-1.joblog").read_text().splitlines()
        self.assertEqual(len(joblog), 1 + 16)  # header + one line per task
        self.assertTrue(all(line.split("\t")[6] == "0" for line in joblog[1:]), joblog)  # Exitval column


class Fault(CampaignTest):
    """A SIGKILLed worker: status names the task, merge refuses, resume completes it. A full
    disk: one line per failed write naming the file, exit 1, and resume completes it."""

    def test_full_disk_then_resume(self):
        if os.geteuid() != 0:
            self.skipTest("mounting a tmpfs needs root")
        ref = self.reference()
        disk = self.work / "full-disk"
        disk.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32k", "tmpfs", str(disk)], check=True)
        try:
            d = disk / "c"
            spec = self.spec("full", SMALL.format(chunk=5))
            p = subprocess.run([sys.executable, str(TOOL), "run", str(spec), "--bin-dir", str(self.bin_dir),
                                "--backend=local", "--workers=2", "--dir", str(d)],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 1, p.stderr)
            failures = [line for line in p.stderr.splitlines() if "No space left on device" in line]
            self.assertGreater(len(failures), 0, p.stderr)
            for line in failures:  # each names the file it could not write, under the campaign
                self.assertRegex(line, rf"^quic-cc-campaign: (run|task): {re.escape(str(d))}/\S+: "
                                       r"No space left on device$")
            self.assertNotIn("Traceback", p.stderr)
            subprocess.run(["mount", "-o", "remount,size=4m", str(disk)], check=True)
            self.tool("resume", d, "--workers=2")
            self.tool("merge", d)
            self.assert_same_merge(d, ref)
        finally:
            subprocess.run(["umount", str(disk)], check=True)

    def test_killed_task_then_resume(self):
        ref = self.reference()
        d = self.work / "fault"
        spec = self.spec("fault", SMALL.format(chunk=5))
        run = subprocess.Popen([sys.executable, str(TOOL), "run", str(spec), "--bin-dir", str(self.bin_dir),
                                "--backend=local", "--workers=1", "--dir", str(d)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        killed = None
        try:
            deadline = time.time() + 120
            while killed is None and time.time() < deadline and run.poll() is None:
                for started in sorted((d / "status").glob("task-*.started")) if (d / "status").exists() else []:
                    tid = int(started.name[5:10])
                    if tid < 3:
                        continue  # let a few tasks finish first
                    try:
                        wrapper = json.loads(started.read_text())["pid"]
                        children = pathlib.Path(f"/proc/{wrapper}/task/{wrapper}/children").read_text().split()
                    except (OSError, KeyError, ValueError):
                        continue
                    if children:
                        os.kill(int(children[0]), signal.SIGKILL)  # the example process of task tid
                        killed = tid
                        break
                time.sleep(0.01)
            out, err = run.communicate(timeout=300)
        finally:
            if run.poll() is None:
                run.kill()
        self.assertIsNotNone(killed, "no running task was found to kill")
        self.assertEqual(run.returncode, 1, err)
        self.assertIn("1 task(s) without a shard", err)
        # the runs count holds the runs of the tasks that succeeded, not the killed task's
        self.assertRegex(err, r"(?m)^small: 7/8 tasks done \(35/40 runs\), 1 failed, \d+m\d\ds elapsed$")
        self.assertNotIn("(40/40 runs), 1 failed", err)
        self.assertFalse((d / "shards" / f"task-{killed:05d}.csv").exists())
        self.assertEqual(list((d / "shards").glob(".*")), [])  # no partial shard left behind

        status = self.tool("status", d, check=False)
        self.assertEqual(status.returncode, 1)
        self.assertIn("8 tasks: 7 done, 1 failed", status.stdout)
        self.assertIn(f"FAILED task {killed} (", status.stdout)
        self.assertIn("killed by SIGKILL", status.stdout)

        merge = self.tool("merge", d, check=False)
        one_line(self, merge, 1, f"1 of 8 task(s) have no shard, first task {killed}")
        self.assertFalse((d / "merged.csv").exists())
        partial = self.tool("merge", d, "--partial")
        self.assertIn("INCOMPLETE (--partial): 1 task(s) missing", partial.stdout)
        self.assertRegex(partial.stdout, rf"\n  task {killed} \(.*\): no shard\n")

        resume = self.tool("resume", d)
        self.assertIn(f"re-running 1 of 8 task(s): {killed}", resume.stderr)
        self.assertIn("8 tasks: 8 done", self.tool("status", d).stdout)
        self.tool("merge", d)
        self.assert_same_merge(d, ref)
        self.assertIn("nothing to do", self.tool("resume", d).stderr)


def nth_line(data, n):
    """Byte offset of the start of line n (0-based)."""
    pos = 0
    for _ in range(n):
        pos = data.index(b"\n", pos) + 1
    return pos


def drop_line(data, n):
    a, b = nth_line(data, n), nth_line(data, n + 1)
    return data[:a] + data[b:]


def repeat_line(data, n):
    a, b = nth_line(data, n), nth_line(data, n + 1)
    return data[:b] + data[a:b] + data[b:]


class Shards(CampaignTest):
    """Every kind of damaged shard: `status` and `merge` name the shard and the defect in one line
    (exit 1, no traceback), `merge` writes nothing, `resume` re-runs that task only."""

    DAMAGE = {
        "truncated mid-row": (lambda b, other: b[:b.index(b"\n", len(b) // 3) + 6], "last line incomplete"),
        "truncated at a line end": (lambda b, other: b[:nth_line(b, 3)], "no trailer line"),
        "row deleted": (lambda b, other: drop_line(b, 3), "run 3 (a deleted row)"),
        "row duplicated": (lambda b, other: repeat_line(b, 2), "line 4 repeats line 3"),
        "garbage line": (lambda b, other: b[:nth_line(b, 2)] + b"hello, world\n" + b[nth_line(b, 2):],
                         "line 3 has 2 field(s)"),
        "run number garbled": (lambda b, other: b.replace(b"-LastActivity,2,", b"-LastActivity,2x,", 1),
                               "line 3: run '2x' is not a run number"),
        "value changed": (lambda b, other: b.replace(b"-LastActivity,2,1,", b"-LastActivity,2,0,", 1),
                          "SHA-256 of its rows differs from the trailer's"),
        "empty file": (lambda b, other: b"", "empty file"),
        "binary file": (lambda b, other: bytes(range(128, 256)) * 8, "not text (byte 0 is not UTF-8)"),
        "binary with NUL bytes": (lambda b, other: b[:40] + bytes(64) + b[40:], "binary data (a NUL byte at offset 40)"),
        "another task's shard": (lambda b, other: other, "trailer is for task 4 runs 6..10"),
    }

    def test_each_damage(self):
        ref = self.run_campaign("reference", 5, "local", "--workers=2")
        self.assertIn("8 tasks: 8 done", self.tool("status", ref).stdout)
        shard = ref / "shards" / "task-00003.csv"
        good = shard.read_bytes()
        self.assertTrue(good.decode().splitlines()[-1].startswith('#quic-cc-campaign-shard {"task": 3, '
                                                                  '"first_run": 1, "last_run": 5, "rows": 5, '))
        other = (ref / "shards" / "task-00004.csv").read_bytes()
        for kind, (damage, words) in self.DAMAGE.items():
            with self.subTest(kind):
                d = self.work / kind.replace(" ", "-").replace("'", "")
                shutil.copytree(ref, d)
                (d / "merged.csv").unlink()
                bad = damage(good, other)
                self.assertNotEqual(bad, good)
                (d / "shards" / shard.name).write_bytes(bad)
                status = self.tool("status", d, check=False)
                self.assertEqual(status.returncode, 1, status.stderr)
                self.assertEqual(status.stderr, "")
                self.assertIn("8 tasks: 1 defective, 7 done", status.stdout)
                defects = [l for l in status.stdout.splitlines() if l.startswith("DEFECTIVE")]
                self.assertEqual(len(defects), 1, status.stdout)
                self.assertTrue(defects[0].startswith(f"DEFECTIVE task 3 (cc=cubic loss=40%, runs 1..5): "
                                                      f"{d / 'shards' / shard.name}: "), defects[0])
                self.assertIn(words, defects[0])
                merge = self.tool("merge", d, check=False)
                one_line(self, merge, 1, f"merge: {d / 'shards' / shard.name}: ", words,
                         f"`quic-cc-campaign resume {d}` re-runs task 3")
                self.assertEqual(merge.stdout, "")
                self.assertFalse((d / "merged.csv").exists())
        # A shard removed after its task finished: LOST (with where it ran), not "never ran".
        d = self.work / "shard-removed"
        shutil.copytree(ref, d)
        (d / "shards" / shard.name).unlink()
        status = self.tool("status", d, check=False)
        self.assertIn("8 tasks: 7 done, 1 lost", status.stdout)
        lost = [l for l in status.stdout.splitlines() if l.startswith("LOST")]
        self.assertEqual(len(lost), 1, status.stdout)
        self.assertIn(f"LOST task 3 (cc=cubic loss=40%, runs 1..5): finished on ", lost[0])
        self.assertIn(f"with 5 rows, but its shard {d / 'shards' / shard.name} is gone (resume runs it again)",
                      lost[0])
        self.assertNotIn("never ran", status.stdout)
        self.assertIn("re-running 1 of 8 task(s): 3\n", self.tool("resume", d).stderr)
        # resume re-runs just the damaged task; the merge is the undamaged one, byte for byte
        for kind in ("row deleted", "binary file"):
            d = self.work / kind.replace(" ", "-")
            resume = self.tool("resume", d)
            self.assertIn("re-running 1 of 8 task(s): 3\n", resume.stderr)
            self.assertEqual([p.name[:14] for p in (d / "defective").iterdir()], ["task-00003.csv"])
            self.tool("merge", d)
            self.assertEqual((d / "merged.csv").read_bytes(), (ref / "merged.csv").read_bytes())


    def test_rows_without_key_columns(self):
        """A CSV with 'run' first and several rows per run (the dumbbell: one per flow)."""
        tool = load_tool()
        t = {"id": 1, "first_run": 1, "runs": 2}
        good = "run,flow,goodput\n1,0,5.1\n1,1,4.9\n2,0,5.0\n2,1,5.2\n"
        self.assertEqual(len(tool.check_rows(good, t)[1]), 4)
        for bad, words in ((good.replace("2,1,5.2\n", ""), "run 2 has 1 row(s), run 1 2 (a deleted row)"),
                           (good + "2,1,5.2\n", "line 6 repeats line 5"),
                           (good.replace("2,0", "3,0"), "line 4: run 3 is not one of the task's runs 1..2"),
                           (good.replace("2,0,5.0\n2,1,5.2\n", ""), "run 2 has 0 row(s)")):
            with self.assertRaises(tool.ShardDefect) as e:
                tool.check_rows(bad, t)
            self.assertIn(words, str(e.exception))
        # No 'run' column (the response function, one run per point): the task's run goes in front.
        table = "cc,p,measured_window\nreno,0.01,10.8\ncubic,0.01,11.4\n"
        self.assertEqual(tool.with_run_column(table, {"first_run": 7, "runs": 1}),
                         "run,cc,p,measured_window\n7,reno,0.01,10.8\n7,cubic,0.01,11.4\n")
        self.assertEqual(tool.with_run_column(good, t), good)
        with self.assertRaises(tool.ShardDefect) as e:
            tool.with_run_column(table, t)
        self.assertIn("header has no 'run' column, so a task can hold one run only (it has 2: set chunk = 1)",
                      str(e.exception))


def children(pid):
    """Child PIDs of every thread of pid."""
    out = []
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


class Interrupt(CampaignTest):
    """Ctrl-C, a killed coordinator (with and without its tasks) and the directory lock."""

    def in_flight(self, d, after=1):
        """A task (id > after) whose example is running: (task id, its wrapper's PID)."""
        for started in sorted((d / "status").glob("task-*.started")) if (d / "status").exists() else []:
            tid = int(started.name[5:10])
            try:
                pid = json.loads(started.read_text())["pid"]
            except (OSError, ValueError):
                continue
            if tid > after and pid and children(pid):
                return tid, pid
        return None

    def test_lock_and_ctrl_c(self):
        """A second writer while `run` runs, then Ctrl-C. The tasks run a stand-in example that
        waits for a file, so two of them are surely in flight when the signal comes."""
        gate = self.work / "ctrl-c-gate"
        spec = self.fake_example("fake-ctrl-c", ["rate", *BATCH, "dryRun"], gate=gate)
        d, run = self.start_run("ctrl-c", spec, workers=2, bin_dir=self.work)
        try:
            self.wait_for(lambda: self.in_flight(d, after=0) and self.in_flight(d, after=1))
            in_flight = {int(p.name[5:10]) for p in (d / "status").glob("task-*.started")}
            resume = self.tool("resume", d, check=False)
            one_line(self, resume, 2, f"campaign directory {d} is in use by `quic-cc-campaign run` (pid {run.pid} on ",
                     "one `run` or `resume` at a time")
            again = self.tool("run", self.spec("again", spec), "--bin-dir", self.work, "--backend=local", "--dir", d,
                              check=False)
            one_line(self, again, 2, f"--dir={d}: exists and is not empty")
            os.killpg(run.pid, signal.SIGINT)  # what a terminal does on Ctrl-C
            run.wait(timeout=120)
            err = (self.work / "ctrl-c.stderr").read_text()
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
        self.assertEqual(run.returncode, 130, err)
        self.assertNotIn("Traceback", err)
        own = [l for l in err.splitlines() if not l.startswith(("fake-ctrl-c: ", "campaign fake-ctrl-c: "))]
        self.assertEqual(own, [f"quic-cc-campaign: run: stopped by SIGINT: 0 of 8 tasks done; "
                               f"`quic-cc-campaign resume {d}` runs the rest"], err)
        status = self.tool("status", d, check=False)
        self.assertEqual(status.returncode, 1)
        self.assertIn("8 tasks: 2 interrupted, 6 missing\n", status.stdout)
        interrupted = {int(l.split()[2]) for l in status.stdout.splitlines() if l.startswith("INTERRUPTED")}
        self.assertEqual(interrupted, in_flight)
        self.assertIn("stopped by SIGTERM on", status.stdout)  # the coordinator stops its tasks with SIGTERM
        self.assertEqual(list((d / "shards").glob(".*")), [])  # no temporary file left
        gate.touch()
        self.tool("resume", d)
        self.tool("merge", d)
        self.assertEqual([(r["--rate"], r["run"]) for r in read_csv(d / "merged.csv")],
                         [(rate, str(run)) for rate in ("1Mbps", "2Mbps") for run in range(1, 5)])

    def test_killed_with_its_tasks(self):
        """SIGKILL of the coordinator, its tasks and their examples (a crashed node, an OOM kill):
        the tasks that were in flight are "interrupted", only the others "never ran"."""
        d, run = self.start_run("killed", workers=2)
        try:
            self.wait_for(lambda: self.in_flight(d))
            os.kill(run.pid, signal.SIGSTOP)  # no new task from here on
            wrappers = children(run.pid)
            for pid in [c for w in wrappers for c in children(w)] + wrappers + [run.pid]:
                os.kill(pid, signal.SIGKILL)
            run.wait()
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
        in_flight = {int(p.name[5:10]) for p in (d / "status").glob("task-*.started")
                     if not (d / "shards" / f"{p.stem}.csv").exists()}  # (one may have just finished)
        self.assertTrue(in_flight)
        status = self.tool("status", d, check=False)
        self.assertEqual(status.returncode, 1)
        interrupted = {int(l.split()[2]) for l in status.stdout.splitlines() if l.startswith("INTERRUPTED")}
        never = {int(l.split()[2]) for l in status.stdout.splitlines() if l.startswith("MISSING")}
        self.assertEqual(interrupted, in_flight, status.stdout)
        self.assertFalse(never & in_flight)
        self.assertIn("no result: its coordinator was killed", status.stdout)
        self.assertIn(f"{len(in_flight)} interrupted", status.stdout)
        self.tool("resume", d)
        self.assertIn("8 tasks: 8 done", self.tool("status", d).stdout)
        self.assertEqual(list((d / "shards").glob(".*")), [])

    def test_coordinator_killed_tasks_go_on(self):
        """SIGKILL of the coordinator alone: its tasks go on and keep the directory locked meanwhile
        ("running", and `resume` waits its turn). The tasks run a stand-in example that waits for
        a file, so they are surely running while this is checked."""
        gate = self.work / "orphans-gate"
        spec = self.fake_example("fake-waits", ["rate", *BATCH, "dryRun"], gate=gate)
        d, run = self.start_run("orphans", spec, workers=2, bin_dir=self.work)
        try:
            self.wait_for(lambda: self.in_flight(d, after=0) and self.in_flight(d, after=1))
            os.kill(run.pid, signal.SIGKILL)
            run.wait()
            status = self.tool("status", d, check=False)
            self.assertEqual(status.returncode, 1)
            self.assertIn("8 tasks: 6 missing, 2 running\n", status.stdout)
            self.assertNotIn("INTERRUPTED", status.stdout)
            resume = self.tool("resume", d, check=False)
            one_line(self, resume, 2, f"(pid {run.pid} on ", "which is gone: tasks it started are still running")
        finally:
            gate.touch()
            if run.poll() is None:
                run.kill()
                run.wait()
        tool = load_tool()
        self.wait_for(lambda: not tool.DirectoryLock(d).held_elsewhere())
        self.assertIn("8 tasks: 2 done, 6 missing", self.tool("status", d, check=False).stdout)
        self.tool("resume", d)
        self.tool("merge", d)
        # rate is a parameter and a column of the stand-in's CSV: the parameter's column is "--rate"
        with open(d / "merged.csv") as f:
            self.assertEqual(f.readline(), "--rate,config,run,rate\n")
        self.assertEqual([(r["--rate"], r["run"], r["rate"]) for r in read_csv(d / "merged.csv")],
                         [(rate, str(run), rate) for rate in ("1Mbps", "2Mbps") for run in range(1, 5)])


class Installed(CampaignTest):
    """`cmake --install`: the tool and the examples it runs, found next to it without --bin-dir."""

    def test_installed_tool_finds_its_examples(self):
        prefix = self.work / "prefix"
        install = subprocess.run([shutil.which("cmake"), "--install", str(self.bin_dir.parent), "--prefix", str(prefix)],
                                 capture_output=True, text=True)
        self.assertEqual(install.returncode, 0, install.stdout + install.stderr)
        bindir = prefix / "bin"
        for example in ("quic-cc-death-spiral", "quic-cc-hystart-lab", "quic-cc-idle", "quic-cc-dumbbell",
                        "quic-cc-response-function"):
            self.assertTrue(os.access(bindir / example, os.X_OK), example)
        env = {k: v for k, v in os.environ.items() if k not in ("QUICCC_BIN_DIR", "LD_LIBRARY_PATH")}
        env["PATH"] = "/usr/bin:/bin"
        spec = self.spec("installed", '[campaign]\nexample = "quic-cc-death-spiral"\nruns = 4\nchunk = 2\n'
                         '[parameters]\ncc = ["reno"]\n')
        d = self.work / "installed"
        self.tool("run", spec, "--backend=local", "--dir", d, env=env, tool=bindir / "quic-cc-campaign")
        self.assertEqual(json.loads((d / "campaign.json").read_text())["binary"], str(bindir / "quic-cc-death-spiral"))
        self.tool("merge", d, env=env, tool=bindir / "quic-cc-campaign")
        self.assertEqual([int(r["run"]) for r in read_csv(d / "merged.csv")], [1, 2, 3, 4])


class Statistics(CampaignTest):
    """The tool's Wilson intervals (statsmodels) and quantiles (numpy) agree with
    study/quic-cc-report.cc's on the same data (quic-cc-report-dump)."""

    def test_missing_library_is_one_line(self):
        """An interpreter without statsmodels or numpy (a virtualenv's python3): the error names
        the Debian package, exit status 1, instead of a ModuleNotFoundError traceback."""
        tool = load_tool()
        for module, package, call in (("statsmodels.stats.proportion", "python3-statsmodels",
                                       lambda: tool.wilson(1, 2)),
                                      ("numpy", "python3-numpy", lambda: tool.quantile([1.0, 2.0], 0.5))):
            with self.subTest(module=module), mock.patch.dict(sys.modules, {module: None}):
                with self.assertRaises(tool.CampaignError) as caught:
                    call()
                self.assertEqual(caught.exception.status, 1)
                self.assertIn(f"has no module {module.split('.')[0]}: install the Debian package {package}",
                              str(caught.exception))

    def test_python_agrees_with_cpp(self):
        import random
        tool = load_tool()
        rng = random.Random(29)
        wilson = [(k, n) for n in (0, 1, 2, 3, 7, 10, 30, 60, 100, 1000, 43200)
                  for k in sorted({0, 1, n // 3, n // 2, n - 1, n}) if 0 <= k <= n]
        samples = [[rng.choice([rng.uniform(0, 10), rng.randint(0, 5)]) for _ in range(rng.randint(1, 40))]
                   for _ in range(60)] + [[3.0], [1.0, 1.0, 2.0], [5.0, 4.0, 3.0, 2.0, 1.0]]
        quantiles = [(q, v) for v in samples for q in (0.01, 0.1, 0.2, 0.21, 0.25, 0.5, 0.9, 0.95, 0.99, 1.0)]
        queries = [f"wilson {k} {n}" for k, n in wilson] + [f"quantile {q!r} " + " ".join(map(repr, v))
                                                            for q, v in quantiles]
        dump = subprocess.run([str(self.bin_dir.parent / "quic-cc-report-dump")], input="\n".join(queries) + "\n",
                              capture_output=True, text=True, check=True).stdout.splitlines()
        self.assertEqual(len(dump), len(queries))
        for (k, n), line in zip(wilson, dump):
            cpp = [float(x) for x in line.split()]
            py = tool.wilson(k, n)
            for a, b in zip(py, cpp):
                self.assertTrue(math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15), f"wilson({k}, {n}): {py} vs {cpp}")
        self.assertEqual(tool.wilson(0, 0), (0.0, 1.0))
        self.assertLess(tool.wilson(3, 10)[0], 0.3)  # a real interval around 0.3
        self.assertGreater(tool.wilson(3, 10)[1], 0.3)
        for (q, v), line in zip(quantiles, dump[len(wilson):]):
            self.assertEqual(tool.quantile(v, q), float(line), f"quantile {q} of {v}")
        self.assertIsNone(tool.quantile([], 0.5))

    def test_summary_skips_missing_times(self):
        """A completed row without a completion time (quic-cc-idle's on-off workload) counts as
        completed and adds no time: no traceback, the median of the others or '-'."""
        tool = load_tool()
        camp = types.SimpleNamespace(meta={"name": "x", "example": "e", "first_run": 1, "runs": 3, "spec_runs": 3})
        header = ["w", "config", "run", "completed", "completion_s"]
        rows = [["a", "c", "1", "1", "2.5"], ["a", "c", "2", "1", ""], ["a", "c", "3", "0", "0"],
                ["b", "c", "1", "1", ""], ["b", "c", "2", "1", ""], ["b", "c", "3", "1", ""]]
        lines = tool.summarize(camp, header, rows, 1, 1, []).splitlines()
        self.assertRegex(lines[4], r"^a\s+c\s+3\s+2/3\s+33\.3\s+\[\S+, \S+\]\s+2\.50\s+2\.50$")
        self.assertRegex(lines[5], r"^b\s+c\s+3\s+3/3\s+0\.0\s+\[0\.0, \S+\]\s+-\s+-$")


def reserve_ports(count, low=10000, high=30000):
    """\p count TCP ports in [low, high) (below Linux's ephemeral range, 32768 up), each free now
    and held by an flock on /tmp/quic-cc-slurm-ports/<n>.lock while the returned files stay open,
    so that test processes running at once never pick the same port."""
    import fcntl
    import random
    lock_dir = pathlib.Path(tempfile.gettempdir()) / "quic-cc-slurm-ports"
    lock_dir.mkdir(exist_ok=True)
    candidates = list(range(low, high))
    random.shuffle(candidates)
    ports, locks = [], []
    for port in candidates:
        lock = open(lock_dir / f"{port}.lock", "a")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("", port))
            except OSError:
                lock.close()
                continue
        ports.append(port)
        locks.append(lock)
        if len(ports) == count:
            return ports, locks
    raise AssertionError(f"no {count} free ports in {low}..{high - 1}")


def die_with_parent():
    """preexec_fn: the daemon gets SIGTERM if the test process dies (even by SIGKILL)."""
    import ctypes
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class SlurmCluster:
    """Its own munged (key, socket, PID and log in a temporary directory; slurm.conf's
    AuthInfo=socket=... points the daemons and the clients at it), slurmctld and slurmd on ports
    reserved for this process: clusters of concurrent test runs share nothing. Every daemon is a
    child started in the foreground and stopped by its PID (and killed with the test process)."""

    def __init__(self):
        missing = [p for p in ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo") if not shutil.which(p)]
        if missing:
            raise AssertionError(f"SLURM test needs {', '.join(missing)}: install the Debian packages "
                                 f"{SLURM_PACKAGES} (`make deps` does)")
        self.procs = []
        self.port_locks = []
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="quic-cc-slurm-"))
        atexit.register(self.stop)
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(s, self._on_signal)

    def _on_signal(self, signum, _frame):
        self.stop()
        sys.exit(128 + signum)

    def spawn(self, argv, name, env=None):
        """Start \p argv in the foreground, its stderr in log/<name>.stderr; stopped by PID."""
        with open(self.dir / "log" / f"{name}.stderr", "w") as err:
            self.procs.append(subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=err,
                                               preexec_fn=die_with_parent))
        return self.procs[-1]

    def stderr_of(self, proc):
        return (self.dir / "log" / f"{pathlib.Path(proc.args[0]).name}.stderr").read_text()

    def start(self):
        d = self.dir
        for sub in ("state", "spool", "log"):
            (d / sub).mkdir()
        host = socket.gethostname().split(".")[0]
        (ctld_port, d_port), self.port_locks = reserve_ports(2)
        self.munge_socket = self.start_munged()
        conf = d / "slurm.conf"
        conf.write_text(f"""ClusterName=qcctest
SlurmctldHost={host}
AuthType=auth/munge
AuthInfo=socket={self.munge_socket}
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmUser=root
SlurmdUser=root
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/log/ctld.log
SlurmdLogFile={d}/log/d.log
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
NodeName={host} CPUs={os.cpu_count()} State=UNKNOWN
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP
""")
        self.env = dict(os.environ, SLURM_CONF=str(conf))
        for daemon in ("slurmctld", "slurmd"):
            # -D: in the foreground, so the PID is the child's; -c: no state from any earlier run.
            self.spawn([daemon, "-D", "-f", str(conf)] + (["-c"] if daemon == "slurmctld" else []), daemon,
                       self.env)
            time.sleep(1)
        deadline = time.time() + 60
        while time.time() < deadline:
            for p in self.procs:
                if p.poll() is not None:
                    raise AssertionError(f"{p.args[0]} exited with {p.returncode}: {self.stderr_of(p)}")
            s = subprocess.run(["sinfo", "-h", "-o", "%T"], env=self.env, capture_output=True, text=True)
            if s.returncode == 0 and s.stdout.strip() == "idle":
                return
            time.sleep(0.5)
        raise AssertionError(f"single-node cluster not idle after 60 s: {s.stdout} {s.stderr}")

    def start_munged(self):
        """This cluster's munged, as root in the foreground, with a fresh key; returns its socket.
        munged wants execute permission for all on the socket's directories."""
        m = self.dir / "munge"
        m.mkdir(mode=0o711)
        self.dir.chmod(0o711)
        key = m / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o600)
        sock = m / "munge.socket"
        proc = self.spawn(["munged", "--foreground", f"--socket={sock}", f"--key-file={key}",
                           f"--pid-file={m}/munged.pid", f"--log-file={m}/munged.log",
                           f"--seed-file={m}/munged.seed"], "munged")
        deadline = time.time() + 20
        while time.time() < deadline:
            if proc.poll() is not None:
                raise AssertionError(f"munged exited with {proc.returncode}: {self.stderr_of(proc)}")
            ping = subprocess.run(["sh", "-c", f"munge -S {sock} -n | unmunge -S {sock}"], capture_output=True)
            if ping.returncode == 0:
                return sock
            time.sleep(0.2)
        raise AssertionError(f"munged not answering on {sock} after 20 s: {self.stderr_of(proc)}")

    def stop(self):
        # slurmd, slurmctld, then munged (the daemons talk to it while they stop).
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()  # by PID (Popen)
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.procs = []
        for lock in self.port_locks:
            lock.close()
        self.port_locks = []
        shutil.rmtree(self.dir, ignore_errors=True)


class SlurmBackend(CampaignTest):
    def test_slurm_array_equals_local(self):
        ref = self.reference()
        cluster = SlurmCluster()
        try:
            cluster.start()
            # This cluster's own munged, not the system's /run/munge one.
            self.assertIn(f"AuthInfo=socket={cluster.munge_socket}\n", pathlib.Path(cluster.env["SLURM_CONF"]).read_text())
            self.assertEqual(cluster.procs[0].args[0], "munged")
            self.assertIsNone(cluster.procs[0].poll())
            d = self.run_campaign("slurm", 3, "slurm", "--poll=0.5", "--time=10", env=cluster.env)
            script = (d / "slurm" / "array-1.sh").read_text()
            self.assertIn("#SBATCH --array=1-16\n", script)
            self.assertIn("#SBATCH --time=10\n", script)
            self.assert_same_merge(d, ref)
            self.assertEqual(len(list((d / "logs").glob("slurm-*_*.out"))), 16)  # one per array element
        finally:
            cluster.stop()


class OtherExamples(CampaignTest):
    """The tool drives every batch example: the death spiral (the classes above), the HyStart++ lab
    (its own key columns before 'run'), the idle study, the dumbbell (rows per flow, 'run' first)
    and the response function (no 'run' column, one run per point); a campaign's rows are the
    example's."""

    def campaign_rows(self, name, spec):
        d = self.work / name
        self.tool("run", self.spec(name, spec), "--bin-dir", self.bin_dir, "--backend=local", "--workers=2",
                  "--dir", d)
        merge = self.tool("merge", d)
        return read_csv(d / "merged.csv"), merge.stdout

    def direct_rows(self, example, *args):
        out = self.work / f"{example}-direct.csv"
        subprocess.run([str(self.bin_dir / example), *args, "--jobs=1", "--quiet", f"--csv={out}"], check=True,
                       stdout=subprocess.DEVNULL)
        return read_csv(out)

    def test_dumbbell(self):
        rows, summary = self.campaign_rows("dumbbell", '[campaign]\nexample = "quic-cc-dumbbell"\nruns = 2\n'
                                           'chunk = 1\n[fixed]\nduration = "3s"\nwarmup = "1s"\n'
                                           '[parameters]\nflows = ["quic:cubic:2", "quic:reno:2"]\n')
        self.assertEqual([(r["flows"], r["run"], r["flow"]) for r in rows],
                         [(f, str(run), str(flow)) for f in ("quic:cubic:2", "quic:reno:2") for run in (1, 2)
                          for flow in (0, 1)])
        for flows in ("quic:cubic:2", "quic:reno:2"):
            own = self.direct_rows("quic-cc-dumbbell", f"--flows={flows}", "--duration=3s", "--warmup=1s", "--runs=2")
            self.assertEqual([{k: v for k, v in r.items() if k != "flows"} for r in rows if r["flows"] == flows], own)
        self.assertRegex(summary, r"\nquic:cubic:2\s+2\s+4\n")  # runs, rows of the cell

    def test_hystart_lab(self):
        # The lab's own columns buffer, buffer_packets, loss_percent and config come before 'run';
        # the swept parameter 'buffer' is also a column of the lab's CSV, so the campaign's is "--buffer".
        fixed = {"configs": "cubic,cubic-hystart", "size": "1MB", "loss": "0,1%"}
        rows, summary = self.campaign_rows("hystart", '[campaign]\nexample = "quic-cc-hystart-lab"\nruns = 2\n'
                                           'chunk = 1\n[fixed]\n' + "".join(f'{k} = "{v}"\n' for k, v in fixed.items()) +
                                           '[parameters]\nbuffer = ["1", "2"]\n')
        self.assertEqual([(r["--buffer"], r["loss_percent"], r["config"], r["run"]) for r in rows],
                         [(b, loss, c, str(run)) for b in ("1", "2") for loss in ("0", "1")
                          for c in ("cubic", "cubic-hystart") for run in (1, 2)])
        for b in ("1", "2"):
            own = self.direct_rows("quic-cc-hystart-lab", f"--buffer={b}", "--runs=2",
                                   *[f"--{k}={v}" for k, v in fixed.items()])
            merged = [{k: v for k, v in r.items() if k != "--buffer"} for r in rows if r["--buffer"] == b]
            self.assertEqual(sorted(merged, key=lambda r: (r["loss_percent"], r["config"], r["run"])),
                             sorted(own, key=lambda r: (r["loss_percent"], r["config"], r["run"])))
        self.assertRegex(summary, r"\n1\s+1\s+28\s+0\s+cubic\s+2\s+2/2\s+0\.0\s")

    def test_idle(self):
        fixed = {"configs": "cubic-LastSent,reno", "pauses": "2", "chunk": "500kB"}
        rows, summary = self.campaign_rows("idle", '[campaign]\nexample = "quic-cc-idle"\nruns = 2\nchunk = 1\n'
                                           '[fixed]\n' + "".join(f'{k} = "{v}"\n' for k, v in fixed.items()) +
                                           '[parameters]\nperiod = ["1s", "1.5s"]\n')
        self.assertEqual([(r["period"], r["config"], r["run"]) for r in rows],
                         [(p, c, str(run)) for p in ("1s", "1.5s") for c in ("cubic-LastSent", "reno")
                          for run in (1, 2)])
        for period in ("1s", "1.5s"):
            own = self.direct_rows("quic-cc-idle", f"--period={period}", "--runs=2",
                                   *[f"--{k}={v}" for k, v in fixed.items()])
            self.assertEqual([{k: v for k, v in r.items() if k != "period"} for r in rows if r["period"] == period],
                             own)
            self.assertEqual({(r["completed"], r["pauses"]) for r in own}, {("1", "2")})
        self.assertRegex(summary, r"\n1s\s+cubic-LastSent\s+2\s+2/2\s+0\.0\s")

    def test_response_function(self):
        rows, summary = self.campaign_rows("response", '[campaign]\nexample = "quic-cc-response-function"\n'
                                           'runs = 1\n[fixed]\ncycles = 3\nwarmupCycles = 1\nrtt = "50ms"\n'
                                           '[parameters]\np = ["0.01", "0.001"]\n')
        # The parameter p is also a column of the example's CSV: the campaign's is "--p".
        self.assertEqual([(r["--p"], r["run"], r["cc"]) for r in rows],
                         [(p, "1", cc) for p in ("0.01", "0.001") for cc in ("reno", "cubic")])
        for p in ("0.01", "0.001"):
            own = self.direct_rows("quic-cc-response-function", f"--p={p}", "--cycles=3", "--warmupCycles=1",
                                   "--rtt=50ms")
            self.assertEqual([{k: v for k, v in r.items() if k not in ("--p", "run")} for r in rows if r["--p"] == p],
                             own)
        self.assertIn("runs 1..1 per cell", summary)


    def test_transport_swept(self):
        """--transport as a swept parameter: a quic-cc and an ngtcp2 cell of the death spiral, the
        ngtcp2 one with its extra ngtcp2_version column (empty in the quic-cc cell's rows)."""
        probe = subprocess.run([str(self.bin_dir / "quic-cc-death-spiral"), "--transport=ngtcp2",
                                "--dryRun=true"], capture_output=True, text=True)
        if probe.returncode != 0:
            self.skipTest("built without the ngtcp2 transport")
        fixed = {"cc": "reno", "size": "1MB", "timeout": "4s", "lateSample": "3s"}
        rows, _ = self.campaign_rows("transport", '[campaign]\nexample = "quic-cc-death-spiral"\nruns = 2\n'
                                     'chunk = 2\n[fixed]\n' + "".join(f'{k} = "{v}"\n' for k, v in fixed.items()) +
                                     '[parameters]\ntransport = ["quic-cc", "ngtcp2"]\n')
        self.assertEqual([(r["transport"], r["config"], r["run"]) for r in rows],
                         [("quic-cc", "reno", "1"), ("quic-cc", "reno", "2"),
                          ("ngtcp2", "ngtcp2-reno", "1"), ("ngtcp2", "ngtcp2-reno", "2")])
        args = [f"--{k}={v}" for k, v in fixed.items()] + ["--runs=2"]
        for transport in ("quic-cc", "ngtcp2"):
            own = self.direct_rows("quic-cc-death-spiral", f"--transport={transport}", *args)
            merged = [{k: v for k, v in r.items() if k != "transport"} for r in rows if r["transport"] == transport]
            if transport == "quic-cc":
                self.assertEqual({r.pop("ngtcp2_version") for r in merged}, {""})
            else:
                self.assertRegex(merged[0]["ngtcp2_version"], r"^1\.\d+\.\d+")
            self.assertEqual(merged, own)


class Ngtcp2Releases(CampaignTest):
    """The parameter "ngtcp2": one campaign over the builds of several ngtcp2 releases
    (examples/ngtcp2-<release>/, NGTCP2_VARIANTS), merged rows per release, each checked against
    the release the example reports; a release without a build, a build that reports another
    release and a sweep without ngtcp2 rows are refused before the first task."""

    FIXED = {"transport": "ngtcp2", "cc": "cubic", "size": "1MB", "timeout": "4s", "lateSample": "3s"}

    @classmethod
    def releases(cls):
        return [d.name[len("ngtcp2-"):] for d in sorted(cls.bin_dir.glob("ngtcp2-*"))]

    def release_spec(self, releases, fixed=None):
        fixed = self.FIXED if fixed is None else fixed
        return ('[campaign]\nexample = "quic-cc-death-spiral"\nruns = 2\nchunk = 2\n[fixed]\n' +
                "".join(f'{k} = "{v}"\n' for k, v in fixed.items()) +
                "[parameters]\nngtcp2 = [" + ", ".join(f'"{r}"' for r in releases) + "]\n")

    def test_sweep_over_releases(self):
        releases = self.releases()
        if len(releases) < 2:
            self.skipTest("one ngtcp2 build only (NGTCP2_VARIANTS is empty)")
        d = self.work / "sweep"
        plan = self.tool("plan", self.spec("sweep", self.release_spec(releases)), "--bin-dir", self.bin_dir,
                         "--no-pilot").stdout
        for r in releases:
            self.assertIn(f"ngtcp2 {r}: ", plan)
        self.tool("run", self.work / "sweep.toml", "--bin-dir", self.bin_dir, "--backend=local", "--workers=2",
                  "--dir", d)
        self.tool("merge", d)
        rows = read_csv(d / "merged.csv")
        self.assertEqual([(r["ngtcp2"], r["config"], r["run"]) for r in rows],
                         [(rel, "ngtcp2-cubic", str(run)) for rel in releases for run in (1, 2)])
        for r in rows:
            self.assertEqual(r["ngtcp2_version"], r["ngtcp2"])
        meta = json.loads((d / "campaign.json").read_text())
        self.assertEqual(sorted(meta["ngtcp2_binaries"]), sorted(releases))
        for rel in releases:
            out = self.work / f"direct-{rel}.csv"
            subprocess.run([str(self.bin_dir / f"ngtcp2-{rel}" / "quic-cc-death-spiral"),
                            *[f"--{k}={v}" for k, v in self.FIXED.items()], "--runs=2", "--jobs=1", "--quiet",
                            f"--csv={out}"], check=True, capture_output=True)
            self.assertEqual([{k: v for k, v in r.items() if k != "ngtcp2"} for r in rows if r["ngtcp2"] == rel],
                             read_csv(out))

    def test_release_without_a_build(self):
        p = self.tool("plan", self.spec("none", self.release_spec(["9.9.9"])), "--bin-dir", self.bin_dir,
                      check=False)
        line = one_line(self, p, 2, "ngtcp2=9.9.9: no build of that release in", "configure with NGTCP2_VARIANTS")
        for r in self.releases():
            self.assertIn(r, line.split("built: ", 1)[1])

    def test_not_a_release(self):
        p = self.tool("plan", self.spec("latest", self.release_spec(["latest"])), "--bin-dir", self.bin_dir,
                      check=False)
        one_line(self, p, 2, "ngtcp2='latest': not an ngtcp2 release")

    def test_build_of_another_release(self):
        """A directory named for one release whose program runs another: refused at the pilot."""
        bins = self.work / "bins"
        (bins / "ngtcp2-7.7.7").mkdir(parents=True)
        (bins / "quic-cc-death-spiral").symlink_to(self.bin_dir / "quic-cc-death-spiral")
        (bins / "ngtcp2-7.7.7" / "quic-cc-death-spiral").symlink_to(self.bin_dir / "quic-cc-death-spiral")
        p = self.tool("run", self.spec("other", self.release_spec(["7.7.7"])), "--bin-dir", bins, "--backend=local",
                      "--dir", self.work / "other", check=False)
        one_line(self, p, 2, "ngtcp2=7.7.7", "but the task runs the build of ngtcp2 7.7.7")
        self.assertFalse((self.work / "other").exists())

    def test_sweep_without_ngtcp2_rows(self):
        release = self.releases()[0]
        p = self.tool("plan", self.spec("quic", self.release_spec([release], dict(self.FIXED, transport="quic-cc"))),
                      "--bin-dir", self.bin_dir, "--no-pilot", check=False)
        one_line(self, p, 2, f"ngtcp2={release}", "no ngtcp2 row", "has no effect")


class PhaseDiagram(CampaignTest):
    """A small phase diagram (4 cells x 3 configurations x 10 runs): table and heatmaps."""

    def test_small_phase_diagram(self):
        spec = (pathlib.Path(HERE).parent / "examples" / "campaigns" / "death-spiral-phase.toml").read_text()
        spec = spec.replace('loss = ["5%", "10%", "20%", "30%", "40%", "50%"]', 'loss = ["5%", "30%"]')
        spec = spec.replace('lossDuration = ["0.5s", "1s", "2s", "4s"]', 'lossDuration = ["0.5s", "2s"]')
        spec = spec.replace('delay = ["1ms", "5ms", "25ms"]', 'delay = ["5ms"]')
        spec = spec.replace('ackPolicy = ["ReceiveBatch", "Rfc9000"]', 'ackPolicy = ["ReceiveBatch"]')
        d = self.work / "phase"
        self.tool("run", self.spec("phase", spec), "--bin-dir", self.bin_dir, "--backend=local", "--workers=2",
                  "--runs=10", "--chunk=5", "--dir", d)
        merge = self.tool("merge", d)
        self.assertIn("runs 1..10 per cell (the spec asks for 100)", merge.stdout)
        self.assertIn("Common random numbers: run r of every configuration uses RngRun r", merge.stdout)
        rows = read_csv(d / "merged.csv")
        self.assertEqual(len(rows), 4 * 3 * 10)
        # The campaign's cell (30 %, 2 s, 5 ms) is the example's default scenario: its rows are
        # exactly what the example writes for runs 1..10 in one invocation.
        direct = self.work / "direct.csv"
        table = subprocess.run([str(self.bin_dir / "quic-cc-death-spiral"), "--runs=10", "--jobs=1", "--quiet",
                                f"--csv={direct}"], check=True, capture_output=True, text=True).stdout
        cell = [{k: v for k, v in r.items() if k not in ("loss", "lossDuration", "delay", "ackPolicy")}
                for r in rows if r["loss"] == "30%" and r["lossDuration"] == "2s"]
        self.assertEqual(cell, read_csv(direct))
        # Its summary line carries the fail count of those rows with the Wilson interval.
        failed = sum(1 for r in cell if r["config"] == "cubic-LastSent" and r["completed"] == "0")
        self.assertGreater(failed, 0)  # the 2020 logic is trapped in this cell
        line = next(l for l in merge.stdout.splitlines() if l.startswith("30") and " 2s " in l
                    and "cubic-LastSent" in l)
        self.assertIn(f"{10 - failed}/10", line)
        self.assertIn(f"{100 * failed / 10:.1f}", line)
        self.assertTrue(all(r["completed"] == "1" for r in cell if r["config"] == "reno"))
        # Same data, same statistics: the example's own table (study/quic-cc-report.cc) and the
        # campaign's (statsmodels, numpy) agree on every configuration of the cell.
        stats = re.compile(r"(?:^|\s)(cubic-LastSent|cubic-LastActivity|reno)\s+(\d+)\s+(\d+/\d+)\s+(\S+)\s+"
                           r"(\[\S+, \S+\])\s+(\S+)\s+(\S+)")
        own = [stats.search(l).groups() for l in table.splitlines() if stats.search(l)]
        ours = [stats.search(l).groups() for l in merge.stdout.splitlines()
                if l.startswith("30") and " 2s " in l and stats.search(l)]
        self.assertEqual(len(own), 3, table)
        self.assertEqual(ours, own)
        self.assertIn(("cubic-LastSent", "10", f"{10 - failed}/10"), [o[:3] for o in own])
        plots = self.tool("plot", d).stdout.split()
        self.assertEqual([pathlib.Path(p).name for p in plots], ["heatmap-ReceiveBatch.png", "completion-cdf.png"])
        for p in plots:
            data = pathlib.Path(p).read_bytes()
            self.assertEqual(data[:8], PNG_SIGNATURE)
            self.assertGreater(len(data), 20_000, p)


if __name__ == "__main__":
    CampaignTest.bin_dir = pathlib.Path(sys.argv[1]).resolve()
    CampaignTest.scratch = pathlib.Path(sys.argv[2]).resolve()
    unittest.main(argv=[sys.argv[0], "-v", *sys.argv[3:]])
