#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of examples/quic-cc-simple: run it, check its cwnd file and FlowMonitor summary, its
argument errors, that README.md links it, and that the user document shows its CMake project
(test/consumer/CMakeLists.txt) as the repository holds it.

  test_simple_example.py <path to quic-cc-simple> <scratch directory>
"""

import os
import pathlib
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAX_BYTES = 1_000_000
INITIAL_WINDOW = 10 * 1350  # InitialWindowPackets x MaxDatagramSize, the socket defaults
LINK_MBPS = 10.0


def run(example, *args):
    return subprocess.run([str(example), *args], capture_output=True, text=True, timeout=300)


def flows(stdout):
    """FlowMonitor blocks of the summary: {(src port, dst port): {field: number}}."""
    out = {}
    for block in re.split(r"^Flow ", stdout, flags=re.M)[1:]:
        head, _, body = block.partition("\n")
        m = re.match(r"\d+ \(([\d.]+):(\d+) -> ([\d.]+):(\d+)\)", head)
        if not m:
            raise AssertionError(f"unparsable flow line: {head}")
        fields = {k.strip(): float(v.split()[0]) for k, v in
                  (line.split(":", 1) for line in body.splitlines() if ":" in line)}
        out[(int(m.group(2)), int(m.group(4)))] = fields
    return out


class SimpleExample(unittest.TestCase):
    example = None
    scratch = None

    @classmethod
    def setUpClass(cls):
        if cls.scratch.exists():
            shutil.rmtree(cls.scratch)
        cls.scratch.mkdir(parents=True)
        cls.cwnd_file = cls.scratch / "simple.cwnd"
        cls.result = run(cls.example, f"--maxBytes={MAX_BYTES}", f"--cwndFile={cls.cwnd_file}")

    def test_runs(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual(self.result.stderr, "")
        self.assertIn(f"Total Bytes Received: {MAX_BYTES}\n", self.result.stdout)
        self.assertEqual(list(self.scratch.glob("*.part")), [], "temporary file left behind")

    def test_cwnd_file(self):
        rows = [line.split("\t") for line in self.cwnd_file.read_text().splitlines()]
        self.assertGreater(len(rows), 5)
        self.assertEqual(rows[0], ["0", "0", str(INITIAL_WINDOW)], "first line: the initial window")
        times = [float(r[0]) for r in rows]
        self.assertEqual(times, sorted(times))
        for before, after in zip(rows, rows[1:]):
            self.assertEqual(after[1], before[2], "each old value is the previous new value")
        self.assertGreater(max(int(r[2]) for r in rows), INITIAL_WINDOW, "slow start grows cwnd")

    def test_flowmonitor_summary(self):
        summary = flows(self.result.stdout)
        self.assertEqual(len(summary), 2, "one flow per direction")
        data = [f for (src, dst), f in summary.items() if dst == 4433]
        acks = [f for (src, dst), f in summary.items() if src == 4433]
        self.assertEqual((len(data), len(acks)), (1, 1))
        data, acks = data[0], acks[0]
        # 1 MB of STREAM data in packets of at most 1350 B UDP payload (+ 28 B UDP/IPv4).
        self.assertGreaterEqual(data["Rx Bytes"], MAX_BYTES)
        self.assertLess(data["Rx Bytes"], MAX_BYTES * 1.15)
        self.assertGreaterEqual(data["Tx Packets"], MAX_BYTES / 1350)
        # No random loss: only the drop-tail queue (100 packets) drops, when slow start overflows it,
        # and the retransmissions make up for it; the ACKs are never dropped.
        for flow in (data, acks):
            self.assertEqual(flow["Rx Packets"] + flow["Lost Packets"], flow["Tx Packets"])
        self.assertLess(data["Lost Packets"], 0.05 * data["Tx Packets"])
        self.assertEqual(acks["Lost Packets"], 0)
        self.assertGreater(data["Throughput"], 0.5 * LINK_MBPS)
        self.assertLessEqual(data["Throughput"], LINK_MBPS)
        self.assertGreater(acks["Tx Packets"], 0)
        self.assertLess(acks["Rx Bytes"] / acks["Rx Packets"], 100, "ACK-only packets are small")

    def test_dry_run(self):
        target = self.scratch / "dry.cwnd"
        r = run(self.example, "--dryRun=true", f"--cwndFile={target}")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        self.assertEqual(sorted(p.name for p in self.scratch.glob("*dry*")), [])  # .dry.cwnd.tmp-*

    def test_full_disk_leaves_no_partial_file(self):
        # A one-page (4 kB) tmpfs (mounting needs root): the 6 kB trace of 1 MB does not fit.
        if os.geteuid() != 0:
            self.skipTest("mounting a tmpfs needs root")
        disk = self.scratch / "full-disk"
        disk.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(disk)], check=True)
        try:
            r = subprocess.run([os.path.abspath(self.example), f"--maxBytes={MAX_BYTES}",
                                f"--cwndFile={disk}/x.cwnd"], capture_output=True, text=True,
                               timeout=300, cwd=self.scratch)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertEqual(r.stderr, f"quic-cc-simple: --cwndFile={disk}/x.cwnd: write failed\n")
            self.assertEqual(sorted(p.name for p in disk.iterdir()), [], "file left behind")
            self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])
        finally:
            subprocess.run(["umount", str(disk)], check=True)

    def test_file_size_limit_is_a_failed_write(self):
        # As a full disk, without root: a 1 kB file size limit (ulimit -f). SIGXFSZ would kill
        # the program with a core dump; the write fails instead (EFBIG): one line, exit 1, no
        # file and no temporary file left.
        target = self.scratch / "limited.cwnd"
        r = subprocess.run([os.path.abspath(self.example), f"--maxBytes={MAX_BYTES}", f"--cwndFile={target}"],
                           capture_output=True, text=True, timeout=300, cwd=self.scratch,
                           preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024)))
        self.assertEqual((r.returncode, r.stderr), (1, f"quic-cc-simple: --cwndFile={target}: write failed\n"))
        self.assertEqual(sorted(p.name for p in self.scratch.glob("*limited.cwnd*")), [])
        self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])

    def test_bad_arguments(self):
        for args, option in ((["--maxBytes=0"], "--maxBytes=0"), (["--maxBytes=-5"], "--maxBytes=-5"),
                             (["--maxBytes=1e6"], "--maxBytes=1e6"),
                             (["--maxBytes=99999999999999999999999"], "--maxBytes=9999"),
                             ([f"--cwndFile={self.scratch}/missing/dir/x"], "--cwndFile=")):
            r = run(self.example, "--dryRun=true", *args)
            self.assertEqual(r.returncode, 2, args)
            self.assertEqual(r.stdout, "")
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertTrue(r.stderr.startswith(f"quic-cc-simple: {option}"), r.stderr)

    def test_bad_paths_and_extra_arguments(self):
        # Checked before the simulation: a directory as --cwndFile ("/.part" is writable by root,
        # the final rename was not), a stray non-option argument (ns-3 ignores it).
        # An empty value, a value-less option and an unknown option: one line and exit 2, not
        # ns-3's whole help text and exit 1.
        for args, expected in (([f"--cwndFile={self.scratch}"], f"--cwndFile={self.scratch}: is a directory"),
                               (["extra"], "extra: not an option (options are --name=value; see --help)"),
                               (["--cwndFile="], "--cwndFile=: needs a value (--cwndFile=VALUE)"),
                               (["--maxBytes="], "--maxBytes=: needs a value (--maxBytes=VALUE)"),
                               (["--maxBytes"], "--maxBytes=: needs a value (--maxBytes=VALUE)"),
                               (["--bogus=1"], "--bogus=1: unknown option (see --help)"),
                               (["--bogus"], "--bogus=: unknown option (see --help)"),
                               (["--RngRun=abc"], None)):
            with self.subTest(args=args):
                r = run(self.example, *args)
                if expected is None:  # the checker's type differs between ns-3 versions
                    self.assertEqual((r.returncode, r.stdout), (2, ""), r.stderr)
                    self.assertRegex(r.stderr, r"^quic-cc-simple: --RngRun=abc: invalid value "
                                               r"'abc' \(uint\d+_t 0:\d+\)\n$")
                    continue
                self.assertEqual((r.returncode, r.stdout, r.stderr), (2, "", f"quic-cc-simple: {expected}\n"))
        # A bare flag is true, as ns-3 reads it.
        r = run(self.example, "--dryRun", f"--cwndFile={self.scratch}/dry.cwnd")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))

    def test_incomplete_transfer_and_interrupt(self):
        # 10 GB cannot arrive in 60 s at 10 Mbps: exit 1 naming what arrived, the trace kept.
        big = self.scratch / "big.cwnd"
        r = run(self.example, "--maxBytes=10000000000", f"--cwndFile={big}")
        received = int(re.search(r"^Total Bytes Received: (\d+)$", r.stdout, re.M).group(1))
        self.assertGreater(received, 0.8 * LINK_MBPS * 1e6 / 8 * 60 * 0.8)  # most of the link's 75 MB
        self.assertLess(received, LINK_MBPS * 1e6 / 8 * 60)
        self.assertEqual((r.returncode, r.stderr),
                         (1, f"quic-cc-simple: --maxBytes=10000000000: only {received} bytes arrived "
                             "within the 60 s simulated\n"))
        self.assertGreater(len(big.read_text().splitlines()), 100)
        # SIGINT mid-run: the default signal status, and no temporary file left behind.
        target = self.scratch / "int.cwnd"
        p = subprocess.Popen([str(self.example), "--maxBytes=10000000000", f"--cwndFile={target}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        self.assertEqual(p.wait(timeout=60), -signal.SIGINT)
        p.stderr.close()
        self.assertEqual(sorted(x.name for x in self.scratch.glob("*int.cwnd*")), [])  # .int.cwnd.tmp-*

    def test_bad_attribute_defaults(self):
        # ns-3 aborts on text a value type cannot read (double.cc), ignores an out-of-range or
        # unknown NS_ATTRIBUTE_DEFAULT item, and no single checker sees MinRttThresh > Max.
        beta = "invalid value '{}' for attribute Beta of ns3::QuicCubic (double in (0, 1))"
        cases = [
            ({}, ["--ns3::QuicCubic::Beta=abc"], "--ns3::QuicCubic::Beta=abc: " + beta.format("abc")),
            ({}, ["--ns3::QuicCubic::Beta=5"], "--ns3::QuicCubic::Beta=5: " + beta.format("5")),
            ({}, ["--ns3::QuicCcSocket::MaxDatagramSize=abc"],
             "--ns3::QuicCcSocket::MaxDatagramSize=abc: invalid value 'abc' for attribute "
             "MaxDatagramSize of ns3::QuicCcSocket (uint64_t 1200:65527)"),
            ({}, ["--ns3::QuicCcSocket::MaxDatagramSize=70000"],
             "--ns3::QuicCcSocket::MaxDatagramSize=70000: invalid value '70000' for attribute "
             "MaxDatagramSize of ns3::QuicCcSocket (uint64_t 1200:65527)"),
            ({}, ["--ns3::QuicCubic::Bogus=1"], "--ns3::QuicCubic::Bogus=1: ns3::QuicCubic has no "
             "attribute 'Bogus'"),
            ({}, ["--ns3::QuicHyStartPlusPlus::MinRttThresh=20ms"],
             "--ns3::QuicHyStartPlusPlus::MinRttThresh=20ms: QuicHyStartPlusPlus: MinRttThresh "
             "(+20ms) exceeds MaxRttThresh (+16ms)"),
            ({}, ["--ns3::QuicHyStartPlusPlus::MinRttThresh=9ms",
                  "--ns3::QuicHyStartPlusPlus::MaxRttThresh=8ms"],
             "--ns3::QuicHyStartPlusPlus::MinRttThresh=9ms "
             "--ns3::QuicHyStartPlusPlus::MaxRttThresh=8ms: QuicHyStartPlusPlus: MinRttThresh "
             "(+9ms) exceeds MaxRttThresh (+8ms)"),
            ({}, ["--ns3::QuicCcSocket::MinimumWindowPackets=11"],
             "--ns3::QuicCcSocket::MinimumWindowPackets=11: QuicCcSocket::MinimumWindowPackets "
             "(11) must not exceed InitialWindowPackets (10)"),
            ({}, ["--ns3::QuicCcSocket::RcvBufSize=1349"],
             "--ns3::QuicCcSocket::RcvBufSize=1349: QuicCcSocket::RcvBufSize (1349) must hold at "
             "least one datagram (MaxDatagramSize 1350)"),
            ({"NS_ATTRIBUTE_DEFAULT": "ns3::QuicCubic::Beta=abc"}, [],
             "NS_ATTRIBUTE_DEFAULT=ns3::QuicCubic::Beta=abc: " + beta.format("abc")),
            ({"NS_ATTRIBUTE_DEFAULT": "ns3::QuicCubic::C=1;ns3::QuicCubic::Beta=2"}, [],
             "NS_ATTRIBUTE_DEFAULT=ns3::QuicCubic::Beta=2: " + beta.format("2")),
            ({"NS_ATTRIBUTE_DEFAULT": "ns3::QuicCubic::Bet=0.5"}, [],
             "NS_ATTRIBUTE_DEFAULT=ns3::QuicCubic::Bet=0.5: ns3::QuicCubic has no attribute 'Bet'"),
            ({"NS_ATTRIBUTE_DEFAULT": "ns3::QuicCubic::Beta"}, [],
             "NS_ATTRIBUTE_DEFAULT=ns3::QuicCubic::Beta: not Name=Value"),
            # The environment wins over the command line in ns-3 (ObjectBase::ConstructSelf), so
            # the constraint is checked on the environment's MaxRttThresh, 2 ms.
            ({"NS_ATTRIBUTE_DEFAULT": "ns3::QuicHyStartPlusPlus::MaxRttThresh=2ms"},
             ["--ns3::QuicHyStartPlusPlus::MaxRttThresh=50ms"],
             "NS_ATTRIBUTE_DEFAULT=ns3::QuicHyStartPlusPlus::MaxRttThresh=2ms: "
             "QuicHyStartPlusPlus: MinRttThresh (+4ms) exceeds MaxRttThresh (+2ms)"),
        ]
        for env, args, expected in cases:
            for dry in ([], ["--dryRun=true"]):
                with self.subTest(env=env, args=args + dry):
                    r = subprocess.run([str(self.example), f"--cwndFile={self.scratch}/bad.cwnd",
                                        "--maxBytes=100000", *args, *dry], capture_output=True,
                                       text=True, timeout=300, cwd=self.scratch,
                                       env={**os.environ, **env})
                    self.assertEqual((r.returncode, r.stdout, r.stderr),
                                     (2, "", f"quic-cc-simple: {expected}\n"))
        self.assertEqual(sorted(p.name for p in self.scratch.glob("bad.cwnd*")), [])
        self.assertEqual(sorted(p.name for p in self.scratch.glob("core*")), [])
        # Good values pass: the edges of the constraints, and the environment's values.
        for env, args in (({}, ["--ns3::QuicHyStartPlusPlus::MinRttThresh=16ms"]),
                          ({"NS_ATTRIBUTE_DEFAULT": "ns3::QuicCubic::Beta=0.5;"
                            "ns3::QuicHyStartPlusPlus::MaxRttThresh=4ms"}, []),
                          ({}, ["--ns3::QuicCcSocket::MinimumWindowPackets=10",
                                "--ns3::QuicCcSocket::RcvBufSize=1350"])):
            with self.subTest(env=env, args=args):
                r = subprocess.run([str(self.example), "--dryRun=true", *args],
                                   capture_output=True, text=True, timeout=300, cwd=self.scratch,
                                   env={**os.environ, **env})
                self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))

    def test_readme_links_the_program_and_the_manual_shows_its_project(self):
        readme = (ROOT / "README.md").read_text()
        self.assertIn("](examples/quic-cc-simple.cc)", readme, "README links the full example")
        # The CMake project a user copies is test/consumer/CMakeLists.txt, which install-consumer
        # builds: the user document shows it as it is.
        project = (ROOT / "test" / "consumer" / "CMakeLists.txt").read_text()
        self.assertEqual(len(project.splitlines()), 6)
        user = (ROOT / "doc" / "quic-cc-user.rst").read_text()
        shown = re.findall(r"^\.\. code-block:: cmake\n\n((?:   .*\n|\n)+)", user, flags=re.M)
        self.assertIn(project, ["".join(line[3:] + "\n" for line in block.rstrip("\n").splitlines()) for block in shown],
                      "doc/quic-cc-user.rst shows test/consumer/CMakeLists.txt")

if __name__ == "__main__":
    SimpleExample.example = pathlib.Path(sys.argv[1])
    SimpleExample.scratch = pathlib.Path(sys.argv[2])
    unittest.main(argv=sys.argv[:1], verbosity=2)
