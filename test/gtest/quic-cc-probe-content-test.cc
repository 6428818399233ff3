/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcSocket::ProbeContent through the packet builder (RFC 9002 Section 6.2.4: a probe SHOULD
 * carry new data when possible, else retransmit, and MAY be a PING): Data (quiche) puts new or
 * the oldest outstanding STREAM data into a probe; Ping sends a PING only, and leaves the stream
 * alone; handshake probes repeat the INITIAL either way.
 */
#include "ns3/packet.h"
#include "ns3/quic-cc-packet-builder.h"
#include "ns3/quic-cc-received-packet-manager.h"
#include "ns3/quic-cc-send-stream.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A connection with 1000 new stream bytes and 300 outstanding ones (offset 0, the oldest
/// outstanding packet), building one packet.
struct ProbeBench
{
    QuicCcSendStream stream{1 << 20};
    QuicCcReceivedPacketManager acks;
    QuicCcPacketBuilder builder{stream, acks};
    QuicCcPacketBuilder::ControlFrames owed;
    QuicCcSentFrames oldest;

    ProbeBench()
    {
        stream.Append(Create<Packet>(1300));
        stream.TakeNewData(300);
        oldest.chunks.push_back({0, 300, false});
    }

    QuicCcPacketBuilder::Filled Build(QuicCcPacket& p, bool probe, bool pingProbe)
    {
        QuicCcPacketBuilder::Context c;
        c.established = true;
        c.pingProbe = pingProbe;
        p = QuicCcPacketBuilder::StartPacket(7, 5, owed, false);
        return builder.Fill(p, 1350, probe, &oldest, owed, c);
    }
};

size_t
Pings(const QuicCcPacket& packet)
{
    return std::count_if(packet.frames.begin(), packet.frames.end(), [](const QuicCcFrame& f) {
        return std::holds_alternative<QuicCcPingFrame>(f);
    });
}

} // namespace

// Data: the probe carries the 1000 new bytes (offset 300), no PING.
TEST(QuicCcProbeContentTest, DataProbeCarriesNewData)
{
    ProbeBench b;
    QuicCcPacket p;
    const auto filled = b.Build(p, true, false);
    ASSERT_EQ(filled.frames.chunks.size(), 1u);
    EXPECT_EQ(filled.frames.chunks[0].offset, 300u);
    EXPECT_EQ(filled.frames.chunks[0].length, 1000u);
    EXPECT_EQ(filled.newBytes, 1000u);
    EXPECT_EQ(Pings(p), 0u);
}

// Ping: the probe is a PING with no STREAM frame; neither the new bytes nor the outstanding ones
// are taken or marked lost, so the next packet sends the new data from offset 300.
TEST(QuicCcProbeContentTest, PingProbeCarriesNoData)
{
    ProbeBench b;
    QuicCcPacket p;
    const auto filled = b.Build(p, true, true);
    EXPECT_TRUE(filled.frames.chunks.empty());
    EXPECT_EQ(filled.newBytes, 0u);
    EXPECT_EQ(Pings(p), 1u);
    EXPECT_TRUE(QuicCcPacketBuilder::IsWorthSending(p, true));
    EXPECT_FALSE(b.stream.HasRetransmission());
    EXPECT_EQ(b.stream.GetNextOffset(), 300u);
}

// The switch concerns probes only: an ordinary packet under Ping still carries the new data.
TEST(QuicCcProbeContentTest, PingLeavesOrdinaryPacketsAlone)
{
    ProbeBench b;
    QuicCcPacket p;
    const auto filled = b.Build(p, false, true);
    ASSERT_EQ(filled.frames.chunks.size(), 1u);
    EXPECT_EQ(filled.newBytes, 1000u);
    EXPECT_EQ(Pings(p), 0u);
}

// A client probe during the handshake repeats the INITIAL under Ping too.
TEST(QuicCcProbeContentTest, HandshakeProbeRepeatsTheInitialUnderPing)
{
    QuicCcSendStream stream{1 << 20};
    QuicCcReceivedPacketManager acks;
    QuicCcPacketBuilder builder{stream, acks};
    QuicCcPacketBuilder::ControlFrames owed;
    QuicCcSentFrames oldest;
    oldest.initial = true;
    QuicCcPacketBuilder::Context c;
    c.clientHandshake = true;
    c.pingProbe = true;
    QuicCcPacket p = QuicCcPacketBuilder::StartPacket(7, 1, owed, false);
    const auto filled = builder.Fill(p, 1350, true, &oldest, owed, c);
    EXPECT_TRUE(filled.frames.initial);
    EXPECT_EQ(QuicCcSerializedSize(p), 1200u) << "padded as an INITIAL (RFC 9000 Section 14.1)";
}
