#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The builds of the ngtcp2 transport against other ngtcp2 releases (NGTCP2_VARIANTS,
cmake/quic-cc-ngtcp2.cmake), run by ctest ("ngtcp2-releases"):

- every examples/ngtcp2-<release>/ directory runs that release: the death spiral's ngtcp2 rows
  name it in ngtcp2_version ("1.25.0", "1.24.0+cubic-bytes-delivered");
- a variant's programs link that variant's transport library only; the default build's
  directory holds links to the default programs, one per example;
- the change of a "+<change>" variant is in its source tree and in no other, and the patch step
  (cmake/quic-cc-ngtcp2-patch.cmake) changes exactly one statement, does nothing the second
  time, and refuses an unknown change or a tree without the statement.

    test_ngtcp2_releases.py <build dir> <source dir> <scratch dir>
"""

import csv
import pathlib
import shutil
import subprocess
import sys
import unittest

BUILD = SOURCE = WORK = None
BEFORE = "bytes_acked = (target - cstat->cwnd) * cstat->max_tx_udp_payload_size;"
AFTER = "bytes_acked = (target - cstat->cwnd) * ack->bytes_delivered;"


def releases():
    """{release: directory} of the build's examples/ngtcp2-* directories."""
    return {d.name[len("ngtcp2-"):]: d for d in sorted((BUILD / "examples").glob("ngtcp2-*"))}


def patch(tree, change="cubic-bytes-delivered"):
    return subprocess.run(["cmake", f"-DSOURCE_DIR={tree}", f"-DPATCH={change}", "-P",
                           str(SOURCE / "cmake" / "quic-cc-ngtcp2-patch.cmake")],
                          capture_output=True, text=True)


class Releases(unittest.TestCase):
    def test_each_directory_runs_its_release(self):
        found = releases()
        self.assertGreaterEqual(len(found), 2, found)  # the default and at least one variant
        for release, d in found.items():
            csv_path = WORK / f"spiral-{release}.csv"
            p = subprocess.run([str(d / "quic-cc-death-spiral"), "--transport=ngtcp2", "--cc=cubic",
                                "--runs=1", "--size=1MB", "--timeout=4s", "--lateSample=3s", "--quiet",
                                f"--csv={csv_path}"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(csv_path, newline="") as f:
                rows = list(csv.DictReader(f))
            self.assertEqual([(r["config"], r["ngtcp2_version"]) for r in rows], [("ngtcp2-cubic", release)])

    def test_programs_link_their_release(self):
        found = releases()
        examples = sorted(p.name for p in (BUILD / "examples").iterdir() if p.is_file())
        self.assertIn("quic-cc-death-spiral", examples)
        links = [d for d in found.values() if all((d / e).is_symlink() for e in examples)]
        self.assertEqual(len(links), 1, "one directory of links: the default build's")
        for e in examples:
            self.assertEqual((links[0] / e).resolve(), (BUILD / "examples" / e).resolve())
        for release, d in found.items():
            if d == links[0]:
                continue
            self.assertEqual(sorted(p.name for p in d.iterdir()), examples)
            needed = subprocess.run(["readelf", "-d", str(d / "quic-cc-death-spiral")], capture_output=True,
                                    text=True, check=True).stdout
            self.assertIn(f"[libns3-quic-cc-ngtcp2-{release}.so]", needed)
            self.assertNotIn("[libns3-quic-cc-ngtcp2.so", needed)

    def test_change_is_in_its_variant_only(self):
        for release in releases():
            tag = release.replace("+", "_")
            src = BUILD / ("ngtcp2" if not (BUILD / f"ngtcp2-{tag}").is_dir() else f"ngtcp2-{tag}")
            text = (src / "src" / "ngtcp2-build" / "lib" / "ngtcp2_cc.c").read_text()
            changed = release.endswith("+cubic-bytes-delivered")
            self.assertEqual((text.count(BEFORE), text.count(AFTER)), (0, 1) if changed else (1, 0), release)

    def test_patch_step(self):
        tree = WORK / "tree"
        shutil.rmtree(tree, ignore_errors=True)
        (tree / "lib").mkdir(parents=True)
        original = (BUILD / "ngtcp2" / "src" / "ngtcp2-build" / "lib" / "ngtcp2_cc.c").read_text()
        (tree / "lib" / "ngtcp2_cc.c").write_text(original)
        p = patch(tree)
        self.assertEqual(p.returncode, 0, p.stderr)
        changed = (tree / "lib" / "ngtcp2_cc.c").read_text()
        self.assertEqual(changed, original.replace(BEFORE, AFTER))
        self.assertEqual(sum(a != b for a, b in zip(original.splitlines(), changed.splitlines())), 1)
        p = patch(tree)  # a second time: nothing to do
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("already", p.stdout)
        self.assertEqual((tree / "lib" / "ngtcp2_cc.c").read_text(), changed)
        p = patch(tree, "faster-cubic")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("unknown ngtcp2 change 'faster-cubic' (known: cubic-bytes-delivered)", " ".join(p.stderr.split()))
        (tree / "lib" / "ngtcp2_cc.c").write_text(original.replace(BEFORE, "/* moved */"))
        p = patch(tree)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("0 time(s)", " ".join(p.stderr.split()))
        self.assertEqual((tree / "lib" / "ngtcp2_cc.c").read_text(), original.replace(BEFORE, "/* moved */"))


if __name__ == "__main__":
    BUILD, SOURCE, WORK = (pathlib.Path(a).resolve() for a in sys.argv[1:4])
    del sys.argv[1:4]
    WORK.mkdir(parents=True, exist_ok=True)
    unittest.main()
