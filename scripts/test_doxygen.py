#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Doxygen of the public API (doc/Doxyfile, as `make doxygen` runs it): it builds with no warning
(WARN_AS_ERROR), every header of model/, helper/ and ngtcp2/model documents what it declares,
and the quic-cc group shows the layers as its subgroups.

  test_doxygen.py OUT_DIR

Needs Debian's doxygen (in DEB_PACKAGES).
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent
HEADER_DIRS = ["model", "helper", "ngtcp2/model"]
LAYERS = ["quic-cc-controllers", "quic-cc-recovery", "quic-cc-transport", "quic-cc-helper", "quic-cc-ngtcp2",
          "quic-cc-support"]
OUT = None  # set from argv


def doxygen(out, source=ROOT, doxyfile=ROOT / "doc" / "Doxyfile"):
    """Run doxygen on a source tree with the project's Doxyfile; returns (exit status, warnings)."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    p = subprocess.run(["doxygen", str(doxyfile)], cwd=source, capture_output=True, text=True,
                       env={**os.environ, "QUICCC_DOXYGEN_OUT": str(out)})
    log = out / "warnings.log"
    return p.returncode, (log.read_text() if log.exists() else "") + p.stderr


class Doxygen(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not shutil.which("doxygen"):
            raise unittest.SkipTest("doxygen is not installed: make deps")
        cls.status, cls.warnings = doxygen(OUT)

    def test_builds_without_a_warning(self):
        self.assertEqual(self.warnings.strip(), "", self.warnings[:4000])
        self.assertEqual(self.status, 0)
        self.assertTrue((OUT / "html" / "index.html").is_file())

    def test_every_public_header_documents_what_it_declares(self):
        # Each header is the location of at least one documented class, struct, function or
        # variable; doxygen itself (WARN_IF_UNDOCUMENTED) fails on any undocumented member.
        index = ET.parse(OUT / "xml" / "index.xml").getroot()
        located = set()
        for compound in index.findall("compound"):
            tree = ET.parse(OUT / "xml" / f"{compound.get('refid')}.xml").getroot()
            for loc in tree.iter("location"):
                located.add(pathlib.Path(loc.get("file")).as_posix().lstrip("./"))
        headers = sorted(h.relative_to(ROOT).as_posix() for d in HEADER_DIRS for h in (ROOT / d).glob("*.h"))
        self.assertGreaterEqual(len(headers), 30)
        missing = [h for h in headers if not any(loc.endswith(h) for loc in located)]
        self.assertEqual(missing, [], "headers with nothing documented")

    def test_the_module_group_shows_the_layers(self):
        group = ET.parse(OUT / "xml" / "group__quic-cc.xml").getroot()
        inner = [g.text for g in group.iter("innergroup")]
        self.assertEqual(inner, ["Layer 1: congestion controllers", "Layer 2: recovery", "Layer 3: transport",
                                 "Layer 4: helper and output", "The ngtcp2 transport", "Support"])
        for layer in LAYERS:
            page = ET.parse(OUT / "xml" / f"group__{layer}.xml").getroot()
            members = [c.text for c in page.iter("innerclass")] + list(page.iter("memberdef"))
            self.assertTrue(members, f"group {layer} holds nothing")

    def test_an_undocumented_member_fails_the_build(self):
        # The check can fail: a header with an undocumented class makes doxygen exit non-zero.
        with tempfile.TemporaryDirectory(dir=OUT.parent) as d:
            src = pathlib.Path(d) / "src"
            for sub in HEADER_DIRS + ["doc"]:
                (src / sub).mkdir(parents=True)
            shutil.copy(ROOT / "doc" / "quic-cc-groups.dox", src / "doc")
            (src / "model" / "bad.h").write_text("namespace ns3 {\nclass Undocumented\n{\n  public:\n    int x;\n};\n}\n")
            status, warnings = doxygen(pathlib.Path(d) / "out", source=src)
            self.assertNotEqual(status, 0)
            self.assertRegex(warnings, r"Undocumented.*is not documented|Compound ns3::Undocumented is not documented")


if __name__ == "__main__":
    OUT = pathlib.Path(sys.argv.pop(1) if len(sys.argv) > 1 else tempfile.mkdtemp()).resolve()
    unittest.main(verbosity=2)
