#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The house rules of doc/quic-cc-user.rst ("Maintainer's map"), checked on the sources:

- in model/, only QuicCcConnection schedules events or reads the simulator clock (plus the qlog
  writer, which stamps the trace it records); controllers, recovery and the transport parts take
  time as an argument;
- model/ includes no helper/, study/, example or test header;
- examples include only the public API (ns3/quic-cc-module.h, ns-3 *-module.h headers) and study/.

  test_house_rules.py
"""

import pathlib
import re
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODEL = ROOT / "model"
# The connection is the transport's only scheduler; the qlog writer reads the time of the trace
# callback it is in.
SIMULATOR_ALLOWED = {"quic-cc-connection.cc", "quic-cc-qlog.cc"}
SIMULATOR_USE = re.compile(r"\bSimulator::|#include \"ns3/simulator\.h\"|\bSchedule(?:Now|WithContext)?\(")


def code(path):
    """The file without // and /* */ comments (a comment may name the simulator)."""
    text = path.read_text()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def includes(path):
    return re.findall(r'^#include "([^"]+)"', path.read_text(), flags=re.M)


class HouseRules(unittest.TestCase):
    def test_only_the_connection_uses_the_simulator(self):
        files = sorted(MODEL.glob("*.[ch]*"))
        self.assertGreater(len(files), 30)
        users = {f.name for f in files if SIMULATOR_USE.search(code(f))}
        self.assertIn("quic-cc-connection.cc", users, "the check finds the connection's timers")
        self.assertEqual(users - SIMULATOR_ALLOWED, set(),
                         "model files that call the simulator (time must come in as an argument)")

    def test_model_includes_only_model_and_ns3(self):
        own = {f.name for f in MODEL.glob("*.h")}
        for f in sorted(MODEL.glob("*.[ch]*")):
            for inc in includes(f):
                self.assertTrue(inc in own or (inc.startswith("ns3/") and not inc.startswith("ns3/quic-")),
                                f"{f.name} includes {inc}")

    def test_examples_use_the_public_api(self):
        study = {f.name for f in (ROOT / "study").glob("*.h")}
        examples = sorted((ROOT / "examples").glob("*.cc"))
        self.assertGreaterEqual(len(examples), 5)
        for f in examples:
            for inc in includes(f):
                ok = inc == "ns3/quic-cc-module.h" or inc in study or (
                    inc.startswith("ns3/") and inc.endswith("-module.h") and not inc.startswith("ns3/quic-"))
                self.assertTrue(ok, f"{f.name} includes {inc}: examples use ns3/quic-cc-module.h and study/")


if __name__ == "__main__":
    unittest.main(verbosity=2)
