/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcReceivedPacketManager: receive history, the ACK deadline under both policies, and the
 * ACK frame it builds.
 */
#include "ns3/quic-cc-received-packet-manager.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

QuicCcReceivedPacketManager
Manager(QuicCcReceivedPacketManager::Policy policy, uint32_t maxAckRanges = 32)
{
    QuicCcReceivedPacketManager m;
    QuicCcReceivedPacketManager::Config c;
    c.policy = policy;
    c.maxAckRanges = maxAckRanges;
    m.Configure(c);
    return m;
}

/// Receive \p pn at \p now as an ack-eliciting packet; returns "ACK at once".
bool
Receive(QuicCcReceivedPacketManager& m, uint64_t pn, Time now)
{
    const bool outOfOrder = m.OnPacketReceived(pn, now);
    return m.OnAckElicitingReceived(outOfOrder, now);
}

} // namespace

// RFC 9000 Section 13.2.2: the second ack-eliciting packet is acknowledged at once; the first
// within max_ack_delay (25 ms).
TEST(QuicCcReceivedPacketManagerTest, Rfc9000EverySecondPacket)
{
    auto m = Manager(QuicCcReceivedPacketManager::RFC9000);
    EXPECT_FALSE(m.IsAckPending());
    EXPECT_FALSE(Receive(m, 0, MilliSeconds(100)));
    EXPECT_TRUE(m.IsAckPending());
    ASSERT_TRUE(m.GetAckDeadline());
    EXPECT_EQ(*m.GetAckDeadline(), MilliSeconds(125));
    EXPECT_TRUE(Receive(m, 1, MilliSeconds(110)));
    m.OnAckSent();
    EXPECT_FALSE(m.IsAckPending());
    EXPECT_FALSE(m.GetAckDeadline());
    EXPECT_FALSE(Receive(m, 2, MilliSeconds(200))); // the count restarted
    EXPECT_EQ(*m.GetAckDeadline(), MilliSeconds(225));
}

// RFC 9000 Section 13.2.1: a packet out of order is acknowledged at once.
TEST(QuicCcReceivedPacketManagerTest, Rfc9000GapAcknowledgedAtOnce)
{
    auto m = Manager(QuicCcReceivedPacketManager::RFC9000);
    EXPECT_FALSE(Receive(m, 0, MilliSeconds(1)));
    m.OnAckSent();
    EXPECT_TRUE(Receive(m, 2, MilliSeconds(2))); // 1 missing
    m.OnAckSent();
    EXPECT_TRUE(Receive(m, 1, MilliSeconds(3))); // below the largest: out of order too
}

// ReceiveBatch: the batch's first packet sets the deadline (50 us later); later packets of the
// batch do not move it; nothing is ever acknowledged at once.
TEST(QuicCcReceivedPacketManagerTest, ReceiveBatchOneDeadlinePerBatch)
{
    auto m = Manager(QuicCcReceivedPacketManager::RECEIVE_BATCH);
    EXPECT_FALSE(Receive(m, 0, MicroSeconds(1000)));
    EXPECT_EQ(*m.GetAckDeadline(), MicroSeconds(1050));
    EXPECT_FALSE(Receive(m, 1, MicroSeconds(1020)));
    EXPECT_FALSE(Receive(m, 3, MicroSeconds(1040)));
    EXPECT_EQ(*m.GetAckDeadline(), MicroSeconds(1050));
    m.OnAckSent();
    EXPECT_FALSE(Receive(m, 4, MicroSeconds(2000)));
    EXPECT_EQ(*m.GetAckDeadline(), MicroSeconds(2050));
}

// The ACK frame lists the highest ranges first; its delay runs from the largest's arrival.
TEST(QuicCcReceivedPacketManagerTest, AckFrameRangesAndDelay)
{
    auto m = Manager(QuicCcReceivedPacketManager::RECEIVE_BATCH);
    for (uint64_t pn : {0, 1, 2, 3, 4, 6, 9, 8})
    {
        m.OnPacketReceived(pn, MilliSeconds(10 + pn));
    }
    EXPECT_TRUE(m.IsDuplicate(6));
    EXPECT_FALSE(m.IsDuplicate(7));
    EXPECT_EQ(m.GetLargestReceived(), 9u);
    const QuicCcAckFrame ack = m.BuildAckFrame(MilliSeconds(30));
    ASSERT_EQ(ack.ranges.size(), 3u);
    EXPECT_EQ(ack.ranges[0].smallest, 8u);
    EXPECT_EQ(ack.ranges[0].largest, 9u);
    EXPECT_EQ(ack.ranges[1].smallest, 6u);
    EXPECT_EQ(ack.ranges[1].largest, 6u);
    EXPECT_EQ(ack.ranges[2].smallest, 0u);
    EXPECT_EQ(ack.ranges[2].largest, 4u);
    EXPECT_EQ(ack.ackDelay, MilliSeconds(11)); // packet 9 arrived at 19 ms
}

// The history keeps at most 4 x MaxAckRanges ranges (the oldest go); a frame reports at most
// MaxAckRanges of them.
TEST(QuicCcReceivedPacketManagerTest, HistoryIsBounded)
{
    auto m = Manager(QuicCcReceivedPacketManager::RECEIVE_BATCH, 2);
    for (uint64_t pn = 0; pn < 40; pn += 2)
    {
        m.OnPacketReceived(pn, Seconds(1));
    }
    EXPECT_EQ(m.GetRangeCount(), 8u);
    EXPECT_FALSE(m.IsDuplicate(0)); // forgotten
    EXPECT_TRUE(m.IsDuplicate(38));
    const QuicCcAckFrame ack = m.BuildAckFrame(Seconds(1));
    ASSERT_EQ(ack.ranges.size(), 2u);
    EXPECT_EQ(ack.ranges[0].largest, 38u);
    EXPECT_EQ(ack.ranges[1].largest, 36u);
}

// RFC 9000 Section 13.4.1: each codepoint counted once per packet; the ACK frame carries the
// counts (type 0x03) only once one is above zero.
TEST(QuicCcReceivedPacketManagerTest, EcnCountsAndAckType)
{
    QuicCcReceivedPacketManager m = Manager(QuicCcReceivedPacketManager::RECEIVE_BATCH);
    m.OnPacketReceived(0, MilliSeconds(1), QuicCcEcnCodepoint::NOT_ECT);
    EXPECT_FALSE(m.BuildAckFrame(MilliSeconds(2)).ecn.has_value());
    m.OnPacketReceived(1, MilliSeconds(2), QuicCcEcnCodepoint::ECT0);
    m.OnPacketReceived(2, MilliSeconds(3), QuicCcEcnCodepoint::ECT0);
    m.OnPacketReceived(4, MilliSeconds(4), QuicCcEcnCodepoint::CE);
    m.OnPacketReceived(3, MilliSeconds(5), QuicCcEcnCodepoint::ECT1);
    const QuicCcAckFrame ack = m.BuildAckFrame(MilliSeconds(6));
    ASSERT_TRUE(ack.ecn.has_value());
    EXPECT_EQ(*ack.ecn, (QuicCcEcnCounts{2, 1, 1}));
    EXPECT_EQ(m.GetEcnCounts(), (QuicCcEcnCounts{2, 1, 1}));
}

// RFC 9000 Section 13.2.1: an ack-eliciting packet marked CE is acknowledged at once, under
// either policy, where the same packet unmarked waits.
TEST(QuicCcReceivedPacketManagerTest, CeMarkedPacketIsAcknowledgedAtOnce)
{
    for (const auto policy :
         {QuicCcReceivedPacketManager::RFC9000, QuicCcReceivedPacketManager::RECEIVE_BATCH})
    {
        QuicCcReceivedPacketManager m = Manager(policy);
        const bool outOfOrder = m.OnPacketReceived(0, MilliSeconds(1), QuicCcEcnCodepoint::ECT0);
        EXPECT_FALSE(m.OnAckElicitingReceived(outOfOrder, MilliSeconds(1), false)) << policy;
        m.OnAckSent();
        m.OnPacketReceived(1, MilliSeconds(2), QuicCcEcnCodepoint::CE);
        EXPECT_TRUE(m.OnAckElicitingReceived(false, MilliSeconds(2), true)) << policy;
        EXPECT_EQ(m.GetAckDeadline(), MilliSeconds(2)) << policy;
    }
}

TEST(QuicCcReceivedPacketManagerDeathTest, InvalidConfigurationIsNamed)
{
    QuicCcReceivedPacketManager m;
    QuicCcReceivedPacketManager::Config c;
    c.ackElicitingThreshold = 0;
    EXPECT_DEATH(m.Configure(c), "AckElicitingThreshold must be >= 1, got 0");
    c = {};
    c.maxAckRanges = 0;
    EXPECT_DEATH(m.Configure(c), "MaxAckRanges must be >= 1, got 0");
    c = {};
    c.batchWindow = MicroSeconds(-1);
    EXPECT_DEATH(m.Configure(c), "AckBatchWindow must be >= 0");
    EXPECT_DEATH(m.BuildAckFrame(Seconds(0)), "before any packet");
}
