#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""How the standalone build finds the ngtcp2 library and says what is off (cmake/quic-cc-ngtcp2.cmake,
cmake/quic-cc-optional.cmake), configure steps only: a download whose SHA-256 matches is built,
one that does not match or cannot be fetched leaves the part off with the reason and the command
in the optional-parts block (printed at configure time and written for `make test` to print at
its end), and an NGTCP2_ARCHIVE that is not a file is a configure error naming it. Other releases
(NGTCP2_VARIANTS) are named by the version their archive holds; none is said in the block, and a
missing archive, an unknown change or a release built twice is a configure error.

  test_optional_parts.py WORK_DIR

The "download" is a file:// URL of a small stand-in archive: the logic is the same for https.
"""

import hashlib
import pathlib
import shutil
import subprocess
import sys
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
WORK = None


def configure(name, *args):
    """cmake configure of this tree in WORK/name with ngtcp2 forced through the download path."""
    build = WORK / name
    shutil.rmtree(build, ignore_errors=True)
    r = subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DQUICCC_BUILD_BENCH=OFF",
                        "-DNGTCP2_ARCHIVE=", *args], capture_output=True, text=True, timeout=300)
    block = build / "quic-cc-optional-parts.txt"
    return r, (block.read_text() if block.exists() else None), build


def stand_in(name, version):
    """A small archive shaped as an ngtcp2 release (top folder, CMakeLists.txt naming its version):
    configure reads the version from it; nothing here builds it."""
    top = WORK / f"ngtcp2-{version}"
    top.mkdir(parents=True, exist_ok=True)
    (top / "CMakeLists.txt").write_text(f"cmake_minimum_required(VERSION 3.16)\nproject(ngtcp2 VERSION {version} LANGUAGES C)\n")
    archive = WORK / name
    subprocess.run(["tar", "cJf", str(archive), "-C", str(WORK), top.name], check=True)
    return archive


class OptionalParts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        WORK.mkdir(parents=True, exist_ok=True)
        cls.archive = stand_in("stand-in.tar.xz", "9.9.9")
        cls.sha = hashlib.sha256(cls.archive.read_bytes()).hexdigest()

    def test_matching_download_is_used(self):
        r, block, build = configure("match", f"-DNGTCP2_URL=file://{self.archive}",
                                    f"-DNGTCP2_SHA256={self.sha}",
                                    f"-DNGTCP2_VARIANTS={stand_in('other.tar.xz', '9.9.10')}")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("ngtcp2 transport with ngtcp2 9.9.9 built from", r.stdout)
        self.assertIn("ngtcp2 9.9.10 from", r.stdout)
        self.assertEqual(block, "quic-cc: every optional part is built.\n")
        kept = build / "ngtcp2-download" / "ngtcp2.tar.xz"
        self.assertEqual(kept.read_bytes(), self.archive.read_bytes())
        # The default release's programs are found by release too (links made at configure time).
        self.assertTrue((build / "examples" / "ngtcp2-9.9.9" / "quic-cc-death-spiral").is_symlink())

    def test_no_other_release_says_so(self):
        r, block, _ = configure("one-release", f"-DNGTCP2_URL=file://{self.archive}",
                                f"-DNGTCP2_SHA256={self.sha}")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("ngtcp2 releases beside 9.9.9", block)
        self.assertIn("NGTCP2_VARIANTS is empty", block)
        self.assertIn("Turn it on: make test NGTCP2_VARIANTS=", block)

    def test_bad_variants_are_errors(self):
        url = [f"-DNGTCP2_URL=file://{self.archive}", f"-DNGTCP2_SHA256={self.sha}"]
        other = stand_in("other.tar.xz", "9.9.10")
        for name, entry, message in [
                ("not-a-file", f"{WORK / 'nowhere.tar.xz'}", f"'{WORK / 'nowhere.tar.xz'}' is not a file"),
                ("unknown-change", f"{other}+faster", "unknown change 'faster' (known: cubic-bytes-delivered)"),
                ("same-as-default", f"{self.archive}", "ngtcp2 9.9.9 is built already (the default build is 9.9.9)"),
                ("twice", f"{other};{other}", "ngtcp2 9.9.10 is built already"),
                ("not-ngtcp2", f"{WORK / 'plain.tar.xz'}", "is not an ngtcp2 source archive")]:
            with self.subTest(name):
                if name == "not-ngtcp2":
                    plain = WORK / "plain"
                    plain.mkdir(exist_ok=True)
                    (plain / "README").write_text("not ngtcp2\n")
                    subprocess.run(["tar", "cJf", str(WORK / "plain.tar.xz"), "-C", str(WORK), "plain"], check=True)
                r, _, _ = configure(f"variant-{name}", *url, f"-DNGTCP2_VARIANTS={entry}")
                self.assertNotEqual(r.returncode, 0)
                self.assertIn(message, " ".join(r.stderr.split()))

    def test_wrong_hash_is_off_with_reason(self):
        r, block, build = configure("mismatch", f"-DNGTCP2_URL=file://{self.archive}",
                                    "-DNGTCP2_SHA256=" + "0" * 64)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"the download's SHA-256 {self.sha} is not NGTCP2_SHA256", block)
        self.assertIn("Turn it on: make test NGTCP2_ARCHIVE=", block)
        self.assertIn("optional parts that are OFF", r.stdout)  # the same block at configure time
        self.assertEqual(list((build / "ngtcp2-download").iterdir()), [])  # nothing partial kept

    def test_failed_download_is_off_with_reason(self):
        missing = WORK / "no-such-archive.tar.xz"
        r, block, _ = configure("offline", f"-DNGTCP2_URL=file://{missing}")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"the download of file://{missing} failed", block)
        self.assertIn("no system libngtcp2 >= 1.0", block)

    def test_no_download_says_so(self):
        r, block, _ = configure("no-download", "-DQUICCC_NGTCP2_DOWNLOAD=OFF")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("QUICCC_NGTCP2_DOWNLOAD=OFF", block)

    def test_archive_that_is_not_a_file_is_an_error(self):
        r, _, _ = configure("bad-archive", f"-DNGTCP2_ARCHIVE={WORK / 'nowhere.tar.xz'}")
        self.assertNotEqual(r.returncode, 0)
        message = " ".join(r.stderr.split())  # CMake wraps its error messages
        self.assertIn(f"NGTCP2_ARCHIVE '{WORK / 'nowhere.tar.xz'}' is not a file", message)


if __name__ == "__main__":
    WORK = pathlib.Path(sys.argv.pop(1)).resolve()
    unittest.main()
