/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What fuzz-socket-recv and fuzz-connection-recv share: the input format (a sequence of
 * datagrams) and the client's INITIAL the harness sends first.
 */
#ifndef QUIC_CC_FUZZ_DATAGRAMS_H
#define QUIC_CC_FUZZ_DATAGRAMS_H

#include "ns3/quic-cc-frames.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace quiccc_fuzz
{

/// The connection ID of the harness's INITIAL (test/fuzz/make-corpus.py's seeds use it too).
constexpr uint64_t kConnectionId = 0x0102030405060708;
/// Bytes the server writes once the connection is accepted: within the initial window, so all
/// are in flight when the input's ACK frames arrive.
constexpr uint32_t kServerBytes = 12000;

/// The client's INITIAL: PING + PADDING to 1200 bytes (RFC 9000 Section 14.1).
inline std::vector<uint8_t>
Initial()
{
    ns3::QuicCcPacket initial;
    initial.type = ns3::QuicCcPacketType::INITIAL;
    initial.connectionId = kConnectionId;
    initial.packetNumber = 0;
    initial.frames.emplace_back(ns3::QuicCcPingFrame{});
    initial.frames.emplace_back(ns3::QuicCcPaddingFrame{1200 - ns3::QuicCcSerializedSize(initial)});
    return ns3::QuicCcSerialize(initial);
}

/// Splits an input into at most 64 datagrams, each a 2-byte big-endian length followed by that
/// many bytes (a short last one takes what is left).
inline std::vector<std::vector<uint8_t>>
Datagrams(const uint8_t* data, size_t size)
{
    std::vector<std::vector<uint8_t>> out;
    size_t pos = 0;
    while (pos + 2 <= size && out.size() < 64)
    {
        const size_t len =
            std::min<size_t>((size_t{data[pos]} << 8) | data[pos + 1], size - pos - 2);
        pos += 2;
        out.emplace_back(data + pos, data + pos + len);
        pos += len;
    }
    return out;
}

} // namespace quiccc_fuzz

#endif // QUIC_CC_FUZZ_DATAGRAMS_H
