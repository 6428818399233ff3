"""Read quic-cc qlog files (JSON-SEQ .sqlog) into time series.

A small reader for the files QuicCcQlogWriter writes: RS-separated JSON records, the first one
the qlog header, then events with "time" (ms), "name" and "data". Both schemas the sockets'
QlogSchema attribute offers are read: the main schema (draft-ietf-quic-qlog-main-schema-13 with
draft-ietf-quic-qlog-quic-events-12: quic:recovery_metrics_updated, quic:packet_lost, ...) and
qlog 0.3 (recovery:metrics_updated, recovery:packet_lost, ...).
"""

import json
import pathlib

RECORD_SEPARATOR = "\x1e"


def read_records(path):
    """Return (header, events) of one .sqlog file; every record must be valid JSON."""
    text = pathlib.Path(path).read_text()
    records = [r for r in text.split(RECORD_SEPARATOR) if r.strip()]
    if not records:
        raise ValueError(f"{path}: empty qlog")
    parsed = [json.loads(r) for r in records]
    return parsed[0], parsed[1:]


# The 0.3 event names and their main-schema names (quic-events-12 Sections 5.5, 7.2-7.4).
EVENT_NAMES = {
    "recovery:metrics_updated": "quic:recovery_metrics_updated",
    "recovery:packet_lost": "quic:packet_lost",
    "recovery:congestion_state_updated": "quic:congestion_state_updated",
    "transport:packet_sent": "quic:packet_sent",
    "transport:packet_received": "quic:packet_received",
}


def event_name(event):
    """The event's main-schema name (a 0.3 name translated)."""
    return EVENT_NAMES.get(event["name"], event["name"])


class Series:
    """Time series of one connection (times in seconds)."""

    def __init__(self, events):
        self.cwnd = []            # (t, bytes)
        self.bytes_in_flight = []  # (t, bytes)
        self.ssthresh = []        # (t, bytes)
        self.lost = []            # t of each packet_lost
        self.states = []          # (t, old, new)
        self.sent = 0
        for e in events:
            t = e["time"] / 1000.0
            name = event_name(e)
            data = e["data"]
            if name == "quic:recovery_metrics_updated":
                if "congestion_window" in data:
                    self.cwnd.append((t, data["congestion_window"]))
                if "bytes_in_flight" in data:
                    self.bytes_in_flight.append((t, data["bytes_in_flight"]))
                if "ssthresh" in data:
                    self.ssthresh.append((t, data["ssthresh"]))
            elif name == "quic:packet_lost":
                self.lost.append(t)
            elif name == "quic:congestion_state_updated":
                self.states.append((t, data["old"], data["new"]))
            elif name == "quic:packet_sent":
                self.sent += 1

    def recovery_entries(self):
        """Times of every entry into recovery (a congestion_state_updated to "recovery")."""
        return [t for t, _old, new in self.states if new == "recovery"]

    def state_spans(self, end_time):
        """[(start, end, state)] covering the run, from the congestion_state_updated events."""
        spans = []
        current, since = "slow_start", 0.0
        for t, _old, new in self.states:
            if t > since:
                spans.append((since, t, current))
            current, since = new, t
        if end_time > since:
            spans.append((since, end_time, current))
        return spans


def sender_file(run_directory):
    """The qlog of the data sender in a death-spiral run directory (node 0, the QUIC client)."""
    files = sorted(pathlib.Path(run_directory).glob("quic-cc-node0-*.sqlog"))
    if not files:
        raise FileNotFoundError(f"no sender qlog (quic-cc-node0-*.sqlog) in {run_directory}")
    return files[0]
