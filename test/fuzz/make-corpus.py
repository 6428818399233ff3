#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes the seed corpus of the quic-cc fuzz targets (test/fuzz/corpus/<target>/).

Wire format as documented in model/quic-cc-frames.h: header = type byte, 8-byte connection id,
varint packet number; frames after it. Run from anywhere; rewrites the seed files in place.
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
CID = 0x0102030405060708  # the connection id fuzz-socket-recv's INITIAL uses


def varint(v, size=None):
    if size is None:
        size = 1 if v < 1 << 6 else 2 if v < 1 << 14 else 4 if v < 1 << 30 else 8
    prefix = {1: 0, 2: 1, 4: 2, 8: 3}[size]
    b = bytearray(v.to_bytes(size, "big"))
    b[0] |= prefix << 6
    return bytes(b)


def header(ptype, pn, cid=CID):
    return bytes([ptype]) + cid.to_bytes(8, "big") + varint(pn)


def ack(ranges, delay_us=0, ecn=None):
    """ranges: descending (smallest, largest) pairs; ecn: (ECT(0), ECT(1), CE) counts, type 0x03."""
    out = varint(0x02 if ecn is None else 0x03) + varint(ranges[0][1]) + varint(delay_us >> 3)
    out += varint(len(ranges) - 1) + varint(ranges[0][1] - ranges[0][0])
    for prev, cur in zip(ranges, ranges[1:]):
        out += varint(prev[0] - cur[1] - 2) + varint(cur[1] - cur[0])
    if ecn is not None:
        out += b"".join(varint(c) for c in ecn)
    return out


VARINT_MAX = (1 << 62) - 1


def stream(offset, data, fin=False, off=True, length=True):
    t = 0x08 | (0x04 if off else 0) | (0x02 if length else 0) | (0x01 if fin else 0)
    out = varint(t)
    if off:
        out += varint(offset)
    if length:
        out += varint(len(data))
    return out + data


def close(code, reason):
    return varint(0x1c) + varint(code) + varint(0) + varint(len(reason)) + reason


PING, HANDSHAKE_DONE = varint(0x01), varint(0x1e)


def padding(n):
    return bytes(n)


FRAME_SEEDS = {
    "ping": header(3, 1) + PING,
    "initial-padded": header(1, 0) + PING + padding(1180),
    "handshake-done": header(2, 0) + ack([(0, 0)], 800) + HANDSHAKE_DONE,
    "ack-one-range": header(3, 7) + ack([(3, 9)], 25000),
    "ack-many-ranges": header(3, 8) + ack([(90, 100), (70, 80), (10, 50), (0, 5)], 1000),
    "stream-off-len": header(3, 2) + stream(0, b"hello, quic-cc"),
    "stream-fin": header(3, 3) + stream(1350, b"tail", fin=True),
    "stream-no-len": header(3, 4) + stream(20, b"runs to the end", length=False),
    "stream-no-off": header(3, 5) + stream(0, b"offset zero", off=False),
    "connection-close": header(3, 6) + close(0x0a, b"bye"),
    "mixed": header(3, 9) + ack([(0, 4)]) + stream(100, b"x" * 40) + PING + padding(10),
    "long-varints": bytes([3]) + CID.to_bytes(8, "big") + varint(5, 8) + varint(0x01) + ack([(1, 2)]),
    "ack-ecn": header(3, 10) + ack([(3, 9)], 25000, ecn=(6, 0, 1)),
    "ack-ecn-max-counts": header(3, 11) + ack([(0, 2)], ecn=(VARINT_MAX,) * 3),
    "ack-ecn-truncated": header(3, 12) + ack([(0, 2)], ecn=(5, 0, 1))[:-1],
}


def datagrams(*packets):
    return b"".join(len(p).to_bytes(2, "big") + p for p in packets)


SOCKET_SEEDS = {
    "ack-server-data": datagrams(header(3, 1) + ack([(0, 5)], 100), header(3, 2) + ack([(0, 20)], 100)),
    "stream-in-order": datagrams(header(3, 1) + stream(0, b"a" * 500), header(3, 2) + stream(500, b"b" * 500, fin=True)),
    "stream-reordered": datagrams(header(3, 2) + stream(300, b"later", fin=True), header(3, 1) + stream(0, b"c" * 300)),
    "duplicate": datagrams(header(3, 1) + PING, header(3, 1) + PING, header(3, 1) + stream(0, b"dup")),
    "ack-gaps": datagrams(header(3, 3) + ack([(10, 12), (4, 6), (0, 1)], 5000) + stream(0, b"d" * 100)),
    "close": datagrams(header(3, 1) + stream(0, b"e" * 10), header(3, 2) + close(0, b"done")),
    "handshake-again": datagrams(header(1, 0) + PING + padding(1180), header(2, 1) + HANDSHAKE_DONE),
    "wrong-cid": datagrams(header(3, 1, cid=7) + PING),
    "garbage": datagrams(b"\x03\x01\x02", b"\xff" * 30),
    "ack-future": datagrams(header(3, 1) + ack([(0, 100000)])),
    # ACK_ECN counts as RFC 9000 Section 13.4.2.1 says a sender must not trust: going backwards,
    # beyond the packets sent, at the varint maximum, ECT(1) never sent, CE rising.
    "ack-ecn-backwards": datagrams(header(3, 1) + ack([(0, 3)], 100, ecn=(4, 0, 2)),
                                   header(3, 2) + ack([(0, 6)], 100, ecn=(3, 0, 1))),
    "ack-ecn-beyond-sent": datagrams(header(3, 1) + ack([(0, 5)], 100, ecn=(1000, 0, 0))),
    "ack-ecn-overflow": datagrams(header(3, 1) + ack([(0, 5)], 100, ecn=(VARINT_MAX,) * 3)),
    "ack-ecn-ect1": datagrams(header(3, 1) + ack([(0, 5)], 100, ecn=(5, 1, 0))),
    "ack-ecn-ce-rise": datagrams(header(3, 1) + ack([(0, 3)], 100, ecn=(3, 0, 1)),
                                 header(3, 2) + ack([(0, 8)], 100, ecn=(6, 0, 3))),
}


def write(target, seeds):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


def main():
    write("frames", FRAME_SEEDS)
    write("socket-recv", SOCKET_SEEDS)
    # fuzz-connection-recv: the same datagrams and a last byte picking the configuration (0x00:
    # Reno, ReceiveBatch, no pacing; 0x7f: CUBIC, Rfc9000 ACKs, pacing, 1 ms ACK processing delay,
    # persistent congestion, PING probes, full-only sizing).
    write("connection-recv", {f"{name}-config-{config:02x}": data + bytes([config])
                              for name, data in SOCKET_SEEDS.items() for config in (0x00, 0x7f)})
    # fuzz-loss-detection reads its input with FuzzedDataProvider (a program of send / ACK /
    # timer steps): any bytes are valid, so the seeds are fixed pseudo-random strings.
    rng = random.Random(13)
    write("loss-detection", {f"random-{i}": bytes(rng.getrandbits(8) for _ in range(64 << (i % 5)))
                             for i in range(10)})


if __name__ == "__main__":
    main()
