/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: the datagram parser (packet header and every frame type) on arbitrary bytes.
 * Besides "never crashes, never reads out of bounds" (ASan/UBSan), it checks the parser's
 * contract: exactly one of packet/error is set, a parsed packet keeps the ACK range invariants
 * documented in quic-cc-frames.h, and a parsed packet re-serializes to bytes that parse back to
 * the same packet (non-shortest varints and STREAM frames without OFF/LEN make the bytes differ
 * from the input, so the round trip is checked on the packet, not on the bytes).
 */
#include "ns3/quic-cc-frames.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace ns3;

namespace
{

void
Fail(const char* what)
{
    std::fprintf(stderr, "fuzz-frames: %s\n", what);
    std::abort();
}

/// The documented ACK frame invariants of a parsed packet.
void
CheckAckRanges(const QuicCcAckFrame& ack)
{
    if (ack.ranges.empty() || ack.ackDelay.IsStrictlyNegative())
    {
        Fail("ACK frame without ranges or with a negative ack delay");
    }
    for (size_t i = 0; i < ack.ranges.size(); ++i)
    {
        if (ack.ranges[i].smallest > ack.ranges[i].largest)
        {
            Fail("ACK range with smallest > largest");
        }
        if (i > 0 && ack.ranges[i].largest + 2 > ack.ranges[i - 1].smallest)
        {
            Fail("ACK ranges not descending, disjoint and non-adjacent");
        }
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QuicCcParseResult result = QuicCcParse(data, size);
    if (result.packet.has_value() == !result.error.empty())
    {
        Fail("exactly one of packet and error must be set");
    }
    if (!result.packet)
    {
        return 0;
    }
    const QuicCcPacket& packet = *result.packet;
    if (packet.frames.empty())
    {
        Fail("a parsed packet has no frames");
    }
    for (const QuicCcFrame& frame : packet.frames)
    {
        if (const auto* ack = std::get_if<QuicCcAckFrame>(&frame))
        {
            CheckAckRanges(*ack);
        }
    }
    const std::vector<uint8_t> bytes = QuicCcSerialize(packet);
    if (bytes.size() != QuicCcSerializedSize(packet))
    {
        Fail("QuicCcSerialize size differs from QuicCcSerializedSize");
    }
    const QuicCcParseResult again = QuicCcParse(bytes.data(), bytes.size());
    if (!again.packet || *again.packet != packet)
    {
        Fail("a parsed packet does not survive serialize + parse");
    }
    return 0;
}
