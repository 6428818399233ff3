/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcPacketBuilder: budgets, INITIAL padding, ACK trimming, STREAM frames within the budget
 * (lost data first), and PTO probe contents.
 */
#include "ns3/packet.h"
#include "ns3/quic-cc-packet-builder.h"
#include "ns3/quic-cc-received-packet-manager.h"
#include "ns3/quic-cc-send-stream.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A builder over its own stream and received-packet manager.
struct Bench
{
    QuicCcSendStream stream{1 << 20};
    QuicCcReceivedPacketManager acks;
    QuicCcPacketBuilder builder{stream, acks};
    QuicCcPacketBuilder::ControlFrames owed;

    QuicCcPacketBuilder::Context Established() const
    {
        QuicCcPacketBuilder::Context c;
        c.established = true;
        c.now = MilliSeconds(10);
        return c;
    }
};

template <typename F>
size_t
Count(const QuicCcPacket& packet)
{
    size_t n = 0;
    for (const auto& f : packet.frames)
    {
        n += std::holds_alternative<F>(f) ? 1 : 0;
    }
    return n;
}

} // namespace

TEST(QuicCcPacketBuilderTest, Budgets)
{
    EXPECT_EQ(QuicCcPacketBuilder::WindowBudget(1350, 100000), 1350u);
    EXPECT_EQ(QuicCcPacketBuilder::WindowBudget(1350, 700), 700u);
    EXPECT_EQ(QuicCcPacketBuilder::ProbeBudget(1350), 1350u);
    const QuicCcPacket p = QuicCcPacketBuilder::StartPacket(7, 0, {}, false);
    // header 1 + 8 + 1 (packet number 0), STREAM frame 1 + 1 + 1 for one byte at offset 0.
    EXPECT_TRUE(QuicCcPacketBuilder::FitsStreamData(p, 0, 14));
    EXPECT_FALSE(QuicCcPacketBuilder::FitsStreamData(p, 0, 13));
}

// The client's INITIAL: PING padded to exactly 1200 bytes (RFC 9000 Section 14.1), owed no more.
TEST(QuicCcPacketBuilderTest, InitialIsPaddedTo1200)
{
    Bench b;
    b.owed.initial = true;
    QuicCcPacket p = QuicCcPacketBuilder::StartPacket(7, 0, b.owed, false);
    EXPECT_EQ(p.type, QuicCcPacketType::INITIAL);
    QuicCcPacketBuilder::Context c;
    c.clientHandshake = true;
    const auto filled = b.builder.Fill(p, 1350, false, nullptr, b.owed, c);
    EXPECT_FALSE(b.owed.initial);
    EXPECT_TRUE(filled.frames.initial);
    EXPECT_EQ(Count<QuicCcPingFrame>(p), 1u);
    EXPECT_EQ(QuicCcSerializedSize(p), 1200u);
    EXPECT_TRUE(QuicCcPacketBuilder::IsWorthSending(p, false));
}

// A server owing HANDSHAKE_DONE sends it in a HANDSHAKE packet, with the owed ACK.
TEST(QuicCcPacketBuilderTest, ServerHandshakeCarriesAckAndHandshakeDone)
{
    Bench b;
    b.acks.Configure({});
    b.acks.OnPacketReceived(0, MilliSeconds(1));
    b.acks.OnAckElicitingReceived(false, MilliSeconds(1));
    b.owed.handshakeDone = true;
    QuicCcPacket p = QuicCcPacketBuilder::StartPacket(7, 0, b.owed, true);
    EXPECT_EQ(p.type, QuicCcPacketType::HANDSHAKE);
    QuicCcPacketBuilder::Context c = b.Established();
    c.server = true;
    const auto filled = b.builder.Fill(p, 1350, false, nullptr, b.owed, c);
    EXPECT_TRUE(filled.frames.handshakeDone);
    EXPECT_FALSE(b.owed.handshakeDone);
    EXPECT_EQ(Count<QuicCcAckFrame>(p), 1u);
    EXPECT_EQ(Count<QuicCcHandshakeDoneFrame>(p), 1u);
    EXPECT_EQ(std::get<QuicCcAckFrame>(p.frames.front()).ackDelay, MilliSeconds(9));
}

// STREAM data fills the budget without exceeding it; lost data goes first.
TEST(QuicCcPacketBuilderTest, StreamFramesFillTheBudgetLostDataFirst)
{
    Bench b;
    b.stream.Append(Create<Packet>(5000));
    QuicCcPacket first = QuicCcPacketBuilder::StartPacket(7, 0, b.owed, false);
    const auto f1 = b.builder.Fill(first, 1350, false, nullptr, b.owed, b.Established());
    ASSERT_EQ(f1.frames.chunks.size(), 1u);
    EXPECT_EQ(f1.frames.chunks[0].offset, 0u);
    EXPECT_EQ(f1.newBytes, f1.frames.chunks[0].length);
    EXPECT_LE(QuicCcSerializedSize(first), 1350u);
    EXPECT_GE(QuicCcSerializedSize(first), 1348u); // full up to the varint estimate

    b.stream.OnLost({100, 50, false});
    QuicCcPacket second = QuicCcPacketBuilder::StartPacket(7, 1, b.owed, false);
    const auto f2 = b.builder.Fill(second, 1350, false, nullptr, b.owed, b.Established());
    ASSERT_EQ(f2.frames.chunks.size(), 2u);
    EXPECT_EQ(f2.frames.chunks[0].offset, 100u);
    EXPECT_EQ(f2.frames.chunks[0].length, 50u);
    EXPECT_EQ(f2.frames.chunks[1].offset, f1.frames.chunks[0].length);
    EXPECT_EQ(f2.newBytes, f2.frames.chunks[1].length);
    EXPECT_LE(QuicCcSerializedSize(second), 1350u);
}

// Nothing to send: not worth a packet unless it is a probe, which then is a PING.
TEST(QuicCcPacketBuilderTest, EmptyPacketOnlyAsProbePing)
{
    Bench b;
    QuicCcPacket p = QuicCcPacketBuilder::StartPacket(7, 0, b.owed, false);
    b.builder.Fill(p, 1350, false, nullptr, b.owed, b.Established());
    EXPECT_FALSE(QuicCcPacketBuilder::IsWorthSending(p, false));
    QuicCcPacket probe = QuicCcPacketBuilder::StartPacket(7, 0, b.owed, false);
    const auto filled = b.builder.Fill(probe, 1350, true, nullptr, b.owed, b.Established());
    EXPECT_EQ(Count<QuicCcPingFrame>(probe), 1u);
    EXPECT_TRUE(filled.frames.chunks.empty());
    EXPECT_TRUE(QuicCcPacketBuilder::IsWorthSending(probe, true));
}

// A probe with nothing new re-carries what the oldest outstanding packet carried
// (RFC 9002 Section 6.2.4).
TEST(QuicCcPacketBuilderTest, ProbeRepeatsTheOldestOutstandingPacket)
{
    Bench b;
    b.stream.Append(Create<Packet>(300));
    b.stream.TakeNewData(300);
    QuicCcSentFrames oldest;
    oldest.chunks.push_back({0, 300, false});
    QuicCcPacket probe = QuicCcPacketBuilder::StartPacket(7, 5, b.owed, false);
    const auto filled = b.builder.Fill(probe, 1350, true, &oldest, b.owed, b.Established());
    ASSERT_EQ(filled.frames.chunks.size(), 1u);
    EXPECT_EQ(filled.frames.chunks[0].offset, 0u);
    EXPECT_EQ(filled.frames.chunks[0].length, 300u);
    EXPECT_EQ(filled.newBytes, 0u);
    EXPECT_EQ(Count<QuicCcPingFrame>(probe), 0u);
}

// An ACK frame is trimmed (highest ranges kept) to fit the budget, never below 200 bytes.
TEST(QuicCcPacketBuilderTest, AckIsTrimmedToTheBudget)
{
    Bench b;
    QuicCcReceivedPacketManager::Config c;
    c.maxAckRanges = 256;
    b.acks.Configure(c);
    for (uint64_t pn = 0; pn < 400; pn += 2)
    {
        b.acks.OnPacketReceived(pn, MilliSeconds(1));
    }
    b.acks.OnAckElicitingReceived(true, MilliSeconds(1));
    QuicCcPacket p = QuicCcPacketBuilder::StartPacket(7, 0, b.owed, false);
    ASSERT_TRUE(b.builder.AppendAck(p, 100, MilliSeconds(2)));
    const auto& ack = std::get<QuicCcAckFrame>(p.frames.front());
    EXPECT_LT(ack.ranges.size(), 200u);
    EXPECT_EQ(ack.ranges.front().largest, 398u);
    EXPECT_LE(QuicCcSerializedSize(p), 200u);
    EXPECT_GT(QuicCcSerializedSize(p), 190u); // one more range would not fit
}
