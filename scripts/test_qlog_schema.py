#!/usr/bin/python3
"""qlog files of both transports against draft-ietf-quic-qlog-main-schema-13 / quic-events-12.

  test_qlog_schema.py <path to quic-cc-death-spiral> <scratch directory> <transports>

<transports>: "quic-cc" or "quic-cc,ngtcp2" (where the ngtcp2 transport is built).

- quic-cc (cubic with the RFC 9002 pacer, reno without) and ngtcp2 (cubic, bbr) death-spiral
  runs with --qlog: every file passes scripts/quic_cc_qlog_check.py (the JSON Schema
  qlog-main-13-quic-12.schema.json), and holds the events each transport writes: packet_sent,
  recovery_metrics_updated with pacing_rate (bits per second) where the sender paces,
  congestion_state_updated, packet_lost (quic-cc: with its trigger), timer_updated for a PTO;
- with Ecn on, both transports' files validate with ecn_state_updated and the peer's counts;
- files broken one way each (the old 0.3 header, a 0.3 event name, a wrong field type, a trigger
  the schema does not define, a closed map with an extra field, a record without its LF, a time
  going backwards) fail the check, naming the record;
- QlogSchema=V0_3 writes qlog_version 0.3 on both transports (what qvis reads), which the check
  refuses.
"""

import json
import pathlib
import shutil
import subprocess
import sys
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from quic_cc_qlog_check import check_file, load_validators  # noqa: E402

SMALL = ["--runs=1", "--firstRun=1", "--size=2MB", "--timeout=6s", "--lateSample=4s", "--quiet=true"]
CHECKER = HERE / "quic_cc_qlog_check.py"


class QlogSchema(unittest.TestCase):
    example = None
    scratch = None
    transports = ()

    @classmethod
    def setUpClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)
        cls.scratch.mkdir(parents=True)
        cls.validators = load_validators()

    def run_example(self, qlog, args):
        qlog.parent.mkdir(parents=True, exist_ok=True)
        r = subprocess.run([str(self.example), f"--qlog={qlog}", *SMALL, *args],
                           capture_output=True, text=True, timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        files = sorted(qlog.rglob("*.sqlog"))
        self.assertGreater(len(files), 0, f"no qlog files in {qlog}")
        return files

    def events(self, path):
        records = path.read_bytes().split(b"\x1e")[1:]
        return [json.loads(r) for r in records[1:]]

    def assert_valid(self, files):
        for f in files:
            n, problem = check_file(f, self.validators)
            self.assertIsNone(problem, f"{f}: {problem}")
            self.assertGreater(n, 10, f)

    def names(self, path):
        return {e["name"] for e in self.events(path)}

    def test_quic_cc_files_validate(self):
        qlog = self.scratch / "quic-cc"
        files = self.run_example(qlog / "paced", ["--cc=cubic", "--pacing=Rfc9002"])
        files += self.run_example(qlog / "unpaced", ["--cc=reno"])
        self.assert_valid(files)
        r = subprocess.run([sys.executable, str(CHECKER), *map(str, files)], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(len(r.stdout.splitlines()), len(files))
        sender = [f for f in files if "cubic" in str(f.parent) and "-client-" in f.name][0]
        header = json.loads(sender.read_bytes().split(b"\x1e")[1])
        self.assertEqual(header["file_schema"], "urn:ietf:params:qlog:file:sequential")
        self.assertEqual(header["trace"]["event_schemas"], ["urn:ietf:params:qlog:events:quic-12"])
        events = self.events(sender)
        names = {e["name"] for e in events}
        for name in ("quic:packet_sent", "quic:packet_received", "quic:recovery_metrics_updated",
                     "quic:congestion_state_updated", "quic:packet_lost", "quic:timer_updated"):
            self.assertIn(name, names)
        triggers = {e["data"].get("trigger") for e in events if e["name"] == "quic:packet_lost"}
        self.assertTrue(triggers <= {"reordering_threshold", "time_threshold"}, triggers)
        self.assertIn("reordering_threshold", triggers)
        # The pacer's rate, 1.25 x cwnd / smoothed_rtt in bits per second: at each instant where
        # pacing_rate changed, the instant's last values of the three.
        state, at, paced = {}, {}, set()
        for e in events:
            if e["name"] == "quic:recovery_metrics_updated":
                state.update(e["data"])
                at[e["time"]] = dict(state)
                if "pacing_rate" in e["data"]:
                    paced.add(e["time"])
        checked = [at[t] for t in sorted(paced) if "smoothed_rtt" in at[t]]
        self.assertGreater(len(checked), 10)
        for v in checked:
            expected = 1.25 * v["congestion_window"] / (v["smoothed_rtt"] / 1000) * 8
            self.assertAlmostEqual(v["pacing_rate"] / expected, 1.0, places=6, msg=v)
        timers = [e["data"] for e in events if e["name"] == "quic:timer_updated"]
        self.assertTrue(all(t == {"timer_type": "pto", "event_type": "expired"} for t in timers), timers)
        # reno ran without pacing: no pacing_rate (Pacing=Off has no rate).
        reno = [f for f in files if "reno" in str(f.parent) and "-client-" in f.name][0]
        self.assertFalse(any("pacing_rate" in e["data"] for e in self.events(reno)))

    def test_ngtcp2_files_validate(self):
        if "ngtcp2" not in self.transports:
            self.skipTest("this build has no ngtcp2 transport")
        qlog = self.scratch / "ngtcp2"
        files = self.run_example(qlog / "cubic", ["--transport=ngtcp2", "--cc=cubic"])
        files += self.run_example(qlog / "bbr", ["--transport=ngtcp2", "--cc=bbr"])
        self.assertEqual(len(files), 4, files)
        self.assert_valid(files)
        cubic = [f for f in files if "cubic" in str(f.parent) and "-client-" in f.name][0]
        events = self.events(cubic)
        names = {e["name"] for e in events}
        for name in ("quic:parameters_set", "quic:packet_sent", "quic:packet_received",
                     "quic:recovery_metrics_updated", "quic:congestion_state_updated",
                     "quic:packet_lost"):
            self.assertIn(name, names)
        header = json.loads(cubic.read_bytes().split(b"\x1e")[1])
        self.assertEqual(header["trace"]["vantage_point"], {"name": "ngtcp2", "type": "client"})
        pacing = [e["data"]["pacing_rate"] for e in events
                  if e["name"] == "quic:recovery_metrics_updated" and "pacing_rate" in e["data"]]
        self.assertGreater(len(pacing), 10)
        # A stream frame's length is in raw.length (quic-events-12 Section 8.13.8).
        frames = [fr for e in events if e["name"] == "quic:packet_sent" for fr in e["data"].get("frames", [])]
        streams = [fr for fr in frames if fr["frame_type"] == "stream"]
        self.assertTrue(streams and all("length" not in fr and fr["raw"]["length"] > 0 for fr in streams))
        bbr = [f for f in files if "bbr" in str(f.parent) and "-client-" in f.name][0]
        self.assertFalse(any("pacing_rate" in e["data"] for e in self.events(bbr)),
                         "ngtcp2's BBR rate is not public: no pacing_rate")

    def test_ecn_state_and_counts_validate(self):
        """Ecn on both ends (ns3::QuicCcSocketBase::Ecn): the sender's file validates and holds
        quic:ecn_state_updated (testing first, without old) and, for quic-cc, the peer's ECN
        counts on recovery_metrics_updated (ect0 growing); ngtcp2 has the counts in its own ACK
        frames (packet_received)."""
        runs = [("quic-cc", ["--cc=cubic"])]
        if "ngtcp2" in self.transports:
            runs.append(("ngtcp2", ["--transport=ngtcp2", "--cc=cubic"]))
        for transport, args in runs:
            with self.subTest(transport):
                files = self.run_example(self.scratch / f"ecn-{transport}",
                                         [*args, "--ns3::QuicCcSocketBase::Ecn=true"])
                self.assert_valid(files)
                sender = [f for f in files if "-client-" in f.name][0]
                events = self.events(sender)
                states = [e["data"] for e in events if e["name"] == "quic:ecn_state_updated"]
                self.assertEqual(states[0], {"new": "testing"})
                self.assertEqual(states[-1]["new"], "capable")
                if transport == "quic-cc":
                    ect0 = [e["data"]["ect0"] for e in events
                            if e["name"] == "quic:recovery_metrics_updated" and "ect0" in e["data"]]
                else:
                    ect0 = [fr["ect0"] for e in events if e["name"] == "quic:packet_received"
                            for fr in e["data"].get("frames", []) if "ect0" in fr]
                self.assertGreater(len(ect0), 10)
                self.assertEqual(ect0, sorted(ect0))

    def broken(self, name, edit):
        """A copy of a valid quic-cc file with \\p edit applied to its records (a list of bytes)."""
        source = sorted((self.scratch / "broken-source").rglob("*-client-*.sqlog"))[0]
        records = source.read_bytes().split(b"\x1e")[1:]
        edit(records)
        path = self.scratch / f"broken-{name}.sqlog"
        path.write_bytes(b"".join(b"\x1e" + r for r in records))
        return path

    def test_broken_files_fail(self):
        self.run_example(self.scratch / "broken-source", ["--cc=reno"])

        def record(records, i, change):
            value = json.loads(records[i])
            change(value)
            records[i] = json.dumps(value).encode() + b"\n"

        def first(records, name):
            return next(i for i, r in enumerate(records) if json.loads(r).get("name") == name)

        def old_header(records):
            records[0] = b'{"qlog_version":"0.3","qlog_format":"JSON-SEQ","trace":{}}\n'

        def old_name(records):
            record(records, 1, lambda v: v.update(name="transport:packet_sent"))

        def bad_type(records):
            i = first(records, "quic:recovery_metrics_updated")
            record(records, i, lambda v: v["data"].update(congestion_window="large"))

        def bad_trigger(records):
            i = first(records, "quic:packet_lost")
            record(records, i, lambda v: v["data"].update(trigger="bad_luck"))

        def extra_field(records):
            i = first(records, "quic:congestion_state_updated")
            record(records, i, lambda v: v["data"].update(reason="not in the definition"))

        def no_lf(records):
            records[3] = records[3].rstrip(b"\n")

        def backwards(records):
            record(records, len(records) - 1, lambda v: v.update(time=0))

        cases = {"old-header": (old_header, "record 0"), "old-name": (old_name, "record 1"),
                 "bad-type": (bad_type, "congestion_window"), "bad-trigger": (bad_trigger, "trigger"),
                 "extra-field": (extra_field, "reason"), "no-lf": (no_lf, "record 3: does not end with LF"),
                 "backwards": (backwards, "before the previous event")}
        for name, (edit, expected) in cases.items():
            with self.subTest(name):
                path = self.broken(name, edit)
                r = subprocess.run([sys.executable, str(CHECKER), str(path)], capture_output=True, text=True)
                self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
                self.assertIn(expected, r.stdout)

    def test_v0_3_on_request(self):
        runs = [("quic-cc", ["--cc=reno"])]
        if "ngtcp2" in self.transports:
            runs.append(("ngtcp2", ["--transport=ngtcp2", "--cc=cubic"]))
        for transport, args in runs:
            with self.subTest(transport):
                qlog = self.scratch / f"v0_3-{transport}"
                files = self.run_example(qlog, [*args, "--ns3::QuicCcSocketBase::QlogSchema=V0_3"])
                for f in files:
                    header = json.loads(f.read_bytes().split(b"\x1e")[1])
                    self.assertEqual((header["qlog_version"], header["qlog_format"]), ("0.3", "JSON-SEQ"))
                    self.assertIn("recovery:metrics_updated", self.names(f))
                    _, problem = check_file(f, self.validators)
                    self.assertIn("record 0", problem)


if __name__ == "__main__":
    QlogSchema.example = pathlib.Path(sys.argv[1])
    QlogSchema.scratch = pathlib.Path(sys.argv[2])
    QlogSchema.transports = tuple(sys.argv[3].split(","))
    unittest.main(argv=[sys.argv[0]], verbosity=2)
