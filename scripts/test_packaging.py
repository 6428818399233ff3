#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Packaging metadata: LICENSE is the GPL-2.0 text every source's SPDX line names, CITATION.cff
names the version CMakeLists.txt builds, and README.md's "how to cite" line agrees.

  test_packaging.py
"""

import pathlib
import re
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE_DIRS = [d for d in ("model", "helper", "study", "examples", "test", "bench") if (ROOT / d).is_dir()]


def cff_field(name):
    m = re.search(rf"^{name}: *\"?([^\"\n]+)\"?$", (ROOT / "CITATION.cff").read_text(), flags=re.M)
    return m.group(1) if m else None


class Packaging(unittest.TestCase):
    def test_license_is_gpl2(self):
        text = (ROOT / "LICENSE").read_text()
        self.assertTrue(text.lstrip().startswith("GNU GENERAL PUBLIC LICENSE\n"))
        self.assertIn("Version 2, June 1991", text.splitlines()[1])
        self.assertIn("END OF TERMS AND CONDITIONS", text)

    def test_sources_say_gpl2_only(self):
        files = [f for d in SOURCE_DIRS for f in (ROOT / d).rglob("*") if f.suffix in (".cc", ".h")]
        self.assertGreater(len(files), 20)
        for f in files:
            self.assertIn("SPDX-License-Identifier: GPL-2.0-only", f.read_text()[:400], f)

    def test_citation_matches_build(self):
        version = re.search(r"project\(quic-cc VERSION ([\d.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)
        self.assertEqual(cff_field("cff-version"), "1.2.0")
        self.assertEqual(cff_field("version"), version)
        self.assertEqual(cff_field("license"), "GPL-2.0-only")
        readme = (ROOT / "README.md").read_text()
        self.assertIn(f"version {version}", readme)
        self.assertIn(cff_field("title").split(":")[0], readme)


if __name__ == "__main__":
    unittest.main(verbosity=2)
