/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Persistent congestion (RFC 9002 Section 7.6), QuicLossDetection driving a real QuicCubic
 * (mss 1200 B, cwnd 12000 B, HyStart++ off), with the three failure modes reported against
 * other stacks as regression tests:
 * - the first lost packet must count toward the span (counting from the second one, an
 *   off-by-one, made persistent congestion never fire in one stack);
 * - ONE reduction: the congestion event's 0.7, then the minimum window; ssthresh is not reduced
 *   twice (0.7 x 0.7, a second stack);
 * - R must be cleared, or the ACKs of packets sent before the collapse stay "in recovery" and
 *   cwnd stays stuck at the minimum (a third stack).
 *
 * Scenario: pn 0 at t0, acked at t0 + 100 ms (first RTT sample: srtt 100 ms, rttvar 50 ms; slow
 * start, but app-limited: cwnd stays 12000 B). pn 1 at t0 + 100 ms, pn 2 at t0 + 600 ms, pn 3 at t0
 * + 1050 ms, pn 4 at t0 + 1100 ms; the ACK of pn 4 alone at t0 + 1200 ms (RTT 100 ms: rttvar 37.5
 * ms, so the duration is (100 + 4 x 37.5 + 0) x 3 = 750 ms) declares pn 1 lost by packet threshold
 * and pn 2, 3 by time (loss delay 112.5 ms). Span first -> last: 1050 - 100 = 950 ms > 750 ms;
 * without the first packet: 1050 - 600 = 450 ms < 750 ms.
 */
#include "ns3/boolean.h"
#include "ns3/nstime.h"
#include "ns3/quic-cubic.h"
#include "ns3/quic-loss-detection.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

constexpr uint64_t kBytes = 1200;

Time
Ms(int64_t ms)
{
    return Seconds(10) + MilliSeconds(ms);
}

struct Outcome
{
    uint64_t cwnd;
    uint64_t ssthresh;
    std::optional<Time> r;
    uint64_t pcCount;
    Time duration;
    uint64_t cwndAfterNextAck; //!< after sending pn 5 at t0 + 1200 ms, acked at t0 + 1300 ms
};

/// The scenario above; \p firstSentAt is pn 1's send time (ms after t0).
Outcome
RunScenario(bool persistentCongestion, int64_t firstSentAt = 100)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    cubic->SetAttribute("HyStart", BooleanValue(false));
    cubic->Configure(kBytes);
    QuicLossDetection ld(cubic, QuicRttStats());
    ld.SetPersistentCongestion(persistentCongestion);
    ld.OnPacketSent(Ms(0), 0, kBytes, true);
    if (firstSentAt < 100)
    {
        ld.OnPacketSent(Ms(firstSentAt), 1, kBytes, true);
    }
    ld.OnAckReceived(Ms(100), {{0, 0}}, Time(0));
    if (firstSentAt >= 100)
    {
        ld.OnPacketSent(Ms(firstSentAt), 1, kBytes, true);
    }
    ld.OnPacketSent(Ms(600), 2, kBytes, true);
    ld.OnPacketSent(Ms(1050), 3, kBytes, true);
    ld.OnPacketSent(Ms(1100), 4, kBytes, true);
    const QuicLossDetection::AckResult ack = ld.OnAckReceived(Ms(1200), {{4, 4}}, Time(0));
    EXPECT_EQ(ack.lost, (std::vector<uint64_t>{1, 2, 3}));
    Outcome o{cubic->GetCongestionWindow(),
              cubic->GetSlowStartThreshold(),
              cubic->GetRecoveryStartTime(),
              ld.GetPersistentCongestionCount(),
              ld.GetPersistentCongestionDuration(),
              0};
    ld.OnPacketSent(Ms(1200), 5, kBytes, true);
    cubic->SetAppLimited(false); // the sender has more data but no window (socket behaviour)
    ld.OnAckReceived(Ms(1300), {{5, 5}}, Time(0));
    o.cwndAfterNextAck = cubic->GetCongestionWindow();
    return o;
}

TEST(QuicPersistentCongestionTest, DurationFromRttAndMaxAckDelay)
{
    EXPECT_EQ(RunScenario(true).duration, MilliSeconds(750));
}

// Regression (off-by-one): only with the first lost packet does the span (950 ms) exceed
// 750 ms; persistent congestion must be established.
TEST(QuicPersistentCongestionTest, FirstLostPacketCountsTowardTheSpan)
{
    const Outcome o = RunScenario(true);
    EXPECT_EQ(o.pcCount, 1u);
    EXPECT_EQ(o.cwnd, 2400u); // minimum window, 2 x mss
}

// Regression (double reduction): ssthresh = 12000 x 0.7 = 8400 from the one congestion event,
// not 12000 x 0.7 x 0.7 = 5880; cwnd the minimum window.
TEST(QuicPersistentCongestionTest, OneReduction)
{
    const Outcome on = RunScenario(true);
    EXPECT_EQ(on.ssthresh, 8400u);
    EXPECT_EQ(on.cwnd, 2400u);
    const Outcome off = RunScenario(false);
    EXPECT_EQ(off.pcCount, 0u);
    EXPECT_EQ(off.ssthresh, 8400u);
    EXPECT_EQ(off.cwnd, 8400u);
}

// Regression (R left set): R is cleared, so pn 5, sent at the collapse instant (t0 + 1200 ms),
// is not "in recovery" and its ACK grows cwnd by one mss in slow start (2400 -> 3600). Without
// persistent congestion R = t0 + 1200 ms and the same ACK is a recovery ACK (no growth).
TEST(QuicPersistentCongestionTest, RecoveryStartCleared)
{
    const Outcome on = RunScenario(true);
    EXPECT_FALSE(on.r.has_value());
    EXPECT_EQ(on.cwndAfterNextAck, 3600u);
    const Outcome off = RunScenario(false);
    EXPECT_EQ(off.r, Ms(1200));
    EXPECT_EQ(off.cwndAfterNextAck, 8400u);
}

// RFC 9002 Section 7.6.2: packets sent before the first RTT sample do not count. pn 1 sent at
// t0 + 50 ms (before the sample at t0 + 100 ms): the span is 450 ms, no persistent congestion.
TEST(QuicPersistentCongestionTest, NeedsAPriorRttSample)
{
    const Outcome o = RunScenario(true, 50);
    EXPECT_EQ(o.pcCount, 0u);
    EXPECT_EQ(o.cwnd, 8400u);
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
