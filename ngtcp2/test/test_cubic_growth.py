#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The CUBIC growth study across ngtcp2 releases, reduced, run by ctest
("golden-cubic-growth-reduced"): the campaign spec examples/campaigns/cubic-growth.toml with the
one-loss part only (3 s), ACK ratios 1 and 10 and three stacks, run with quic-cc-campaign over
every release it names, merged, and

- compared value for value with test/golden/cubic-growth-reduced.csv (scripts/golden_compare.py);
- checked for what the study shows: at an ACK every 10 packets ngtcp2 1.24.0 and 1.25.0 gain
  less than 0.75 x RFC 9438's cwnd per RTT, the build with the change (commit 42d626f8) within
  10 % of it (the results document's tolerance), every release within 10 % at an ACK every
  packet; quic-cc's ngtcp2 profile shows the same bias, quiche's CUBIC none; 1.25.0's rows are
  1.24.0's (same CUBIC code); quic-cc's rows are the same in every release's block.

    test_cubic_growth.py <directory of the example binaries> <source dir> <scratch dir>

Regenerating the golden (only when a change of behaviour is intended and explained): run this
test, then copy <scratch dir>/campaign/merged.csv to test/golden/cubic-growth-reduced.csv.
"""

import csv
import pathlib
import shutil
import subprocess
import sys
import unittest

BIN = SOURCE = WORK = None
KEY = "ngtcp2,ackRatios,part,stack,ack_ratio,run"


def reduced_spec():
    text = (SOURCE / "examples" / "campaigns" / "cubic-growth.toml").read_text()
    for old, new in [('stacks = "all"', 'stacks = "ngtcp2,ngtcp2-profile,quiche"\nparts = "oneloss"\n'
                      'duration = "3s"'),
                     ('ackRatios = ["1", "2", "10"]', 'ackRatios = ["1", "10"]'),
                     ('parts = ["oneloss", "periodic"]\n', '')]:
        if old not in text:
            raise AssertionError(f"examples/campaigns/cubic-growth.toml lacks {old!r}")
        text = text.replace(old, new)
    return text


class CubicGrowth(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        shutil.rmtree(WORK, ignore_errors=True)
        WORK.mkdir(parents=True)
        spec = WORK / "cubic-growth.toml"
        spec.write_text(reduced_spec())
        tool = [sys.executable, str(SOURCE / "scripts" / "quic-cc-campaign")]
        cls.dir = WORK / "campaign"
        for args in (["run", str(spec), "--bin-dir", str(BIN), "--backend=local", "--workers=2", "--dir",
                      str(cls.dir)], ["merge", str(cls.dir)]):
            p = subprocess.run(tool + args, capture_output=True, text=True)
            if p.returncode != 0:
                raise AssertionError(f"quic-cc-campaign {args[0]}: {p.stderr}")
        with open(cls.dir / "merged.csv", newline="") as f:
            cls.rows = list(csv.DictReader(f))

    def row(self, release, stack, ratio):
        found = [r for r in self.rows if (r["ngtcp2"], r["stack"], r["ack_ratio"]) == (release, stack, ratio)]
        self.assertEqual(len(found), 1, (release, stack, ratio))
        return found[0]

    def test_golden(self):
        p = subprocess.run([sys.executable, str(SOURCE / "scripts" / "golden_compare.py"),
                            str(SOURCE / "test" / "golden" / "cubic-growth-reduced.csv"),
                            str(self.dir / "merged.csv"), "--key", KEY], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_bias_and_the_change(self):
        releases = sorted({r["ngtcp2"] for r in self.rows})
        self.assertIn("1.24.0", releases)
        for release in releases:
            for ratio in ("1", "10"):
                r = self.row(release, "ngtcp2", ratio)
                self.assertEqual(r["ngtcp2_version"], release)
                share = float(r["gain_per_rtt"]) / float(r["rfc_gain_per_rtt"])
                if ratio == "10" and "+cubic-bytes-delivered" not in release:
                    self.assertLess(share, 0.75, (release, ratio))
                else:
                    # The results document's tolerance: within 10 % of the formula's gain.
                    self.assertLess(abs(share - 1), 0.10, (release, ratio, share))
        if "1.25.0" in releases:
            for ratio in ("1", "10"):
                same = {k: v for k, v in self.row("1.25.0", "ngtcp2", ratio).items() if k not in ("ngtcp2", "ngtcp2_version")}
                self.assertEqual(same, {k: v for k, v in self.row("1.24.0", "ngtcp2", ratio).items()
                                        if k not in ("ngtcp2", "ngtcp2_version")})

    def test_profile_reproduces_the_bias(self):
        # The ngtcp2 profile's per-ACK-frame step is 1.24.0's: the same bias at an ACK every 10
        # packets, none at every packet; quiche's per-packet step has none at either.
        release = self.rows[0]["ngtcp2"]
        for stack, ratio, biased in (("ngtcp2-profile", "1", False), ("ngtcp2-profile", "10", True),
                                     ("quiche", "1", False), ("quiche", "10", False)):
            r = self.row(release, stack, ratio)
            share = float(r["gain_per_rtt"]) / float(r["rfc_gain_per_rtt"])
            if biased:
                self.assertLess(share, 0.75, (stack, ratio, share))
            else:
                self.assertLess(abs(share - 1), 0.10, (stack, ratio, share))

    def test_model_rows_do_not_depend_on_the_release(self):
        for stack in ("ngtcp2-profile", "quiche"):
            blocks = {}
            for r in self.rows:
                if r["stack"] == stack:
                    blocks.setdefault(r["ngtcp2"], []).append({k: v for k, v in r.items() if k != "ngtcp2"})
            self.assertGreaterEqual(len(blocks), 2)
            self.assertEqual(len({str(b) for b in blocks.values()}), 1, stack)


if __name__ == "__main__":
    BIN, SOURCE, WORK = (pathlib.Path(a).resolve() for a in sys.argv[1:4])
    del sys.argv[1:4]
    unittest.main()
