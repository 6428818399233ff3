/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The controllers' response to ECN-CE (RFC 9002 Section 7.1, Appendix B.7 ProcessECN): one
 * congestion event for the send time of the largest acknowledged packet, entering recovery as a
 * loss does (Reno's halving, CUBIC's beta with W_max and K, HyStart++ leaving CSS, PRR's send
 * count), counting no loss, and never rolled back (quiche's spurious-congestion rollback looks at
 * losses only). Driven through CcTestDriver::AckWithCe, the call QuicLossDetection makes.
 */
#include "cc-test-driver.h"

#include "ns3/boolean.h"
#include "ns3/quic-cubic.h"
#include "ns3/quic-hystart-plus-plus.h"
#include "ns3/quic-reno.h"

#include <functional>
#include <gtest/gtest.h>

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

// Scenario: 10 packets at t0, one ACK frame for all of them 100 ms later with a higher CE count:
// cwnd 12000 -> 6000 (RFC 9002 Appendix B.6: halved), R = now; the acks (all sent at t0 <= R)
// grow nothing; no packet counts as lost.
TEST(QuicEcnResponseTest, RenoHalvesOnCeAsOnALoss)
{
    Ptr<QuicReno> reno = CreateWithoutHyStart<QuicReno>();
    CcTestDriver d(reno);
    d.SendN(10);
    d.Advance(MilliSeconds(100));
    d.AckWithCe(10);
    EXPECT_EQ(d.Cwnd(), 6000u);
    EXPECT_EQ(d.Ssthresh(), 6000u);
    EXPECT_EQ(d.RecoveryStart(), T0() + MilliSeconds(100));
    EXPECT_EQ(reno->GetLostCount(), 0u);
    EXPECT_EQ(reno->GetCongestionState(d.Now()), QUIC_CC_RECOVERY);

    // The same frame without the mark: slow start, +1200 per packet.
    Ptr<QuicReno> plain = CreateWithoutHyStart<QuicReno>();
    CcTestDriver p(plain);
    p.SendN(10);
    p.Advance(MilliSeconds(100));
    p.Ack(10);
    EXPECT_EQ(p.Cwnd(), 24000u);
}

// Scenario: CUBIC's reduction from a CE mark equals its reduction from a loss at the same time:
// cwnd = ssthresh = trunc(12000 * 0.7) = 8400, W_max = 12000, the same K.
TEST(QuicEcnResponseTest, CubicReducesOnCeAsOnALoss)
{
    Ptr<QuicCubic> marked = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver m(marked);
    m.SendN(10);
    m.Advance(MilliSeconds(100));
    m.AckWithCe(1);

    Ptr<QuicCubic> lost = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver l(lost);
    l.SendN(10);
    l.Advance(MilliSeconds(100));
    l.Lose(1);

    EXPECT_EQ(m.Cwnd(), 8400u);
    EXPECT_EQ(m.Cwnd(), l.Cwnd());
    EXPECT_EQ(m.Ssthresh(), l.Ssthresh());
    EXPECT_DOUBLE_EQ(marked->GetWMax(), 12000.0);
    EXPECT_DOUBLE_EQ(marked->GetK(), lost->GetK());
    EXPECT_EQ(m.RecoveryStart(), l.RecoveryStart());
    EXPECT_EQ(marked->GetLostCount(), 0u);
    EXPECT_EQ(lost->GetLostCount(), 1u);
}

// Scenario: RFC 9002 Section 7.3.2 applies to marks too: a CE rise reported for packets sent
// before R belongs to the episode (no second cut); one for a packet sent after R starts a new one.
TEST(QuicEcnResponseTest, OneReductionPerEpisode)
{
    Ptr<QuicReno> reno = CreateWithoutHyStart<QuicReno>();
    CcTestDriver d(reno);
    d.SendN(10);
    d.Advance(MilliSeconds(100));
    d.AckWithCe(5); // 12000 -> 6000, R = t0 + 100 ms
    d.Advance(MilliSeconds(10));
    d.AckWithCe(5); // sent at t0 <= R: same episode
    EXPECT_EQ(d.Cwnd(), 6000u);
    d.SendN(5); // at t0 + 110 ms, after R
    d.Advance(MilliSeconds(100));
    d.AckWithCe(5);
    EXPECT_EQ(d.Cwnd(), 3000u);
    EXPECT_EQ(d.RecoveryStart(), T0() + MilliSeconds(210));
}

// Scenario: the reference CSS entry (31200 B in CSS), then a CE mark: HyStart++ leaves CSS and
// closes its round exactly as for the loss of QuicHyStartTest.LossDuringCss (21840 B).
TEST(QuicEcnResponseTest, CeDuringCssEndsHyStart)
{
    ExpectCssEndsOnCongestion([](CcTestDriver& d) { d.AckWithCe(1); });
}

// Scenario: PRR (RFC 6937) paces the recovery a mark starts, as a loss's: 10 packets in flight,
// a CE mark on the ACK of the first: RecoverFS 12000, ssthresh 8400, pipe 12000 > ssthresh, so
// sndcnt = ceil(1200 * 8400 / 12000) - 0 = 840 B beyond cwnd - bytes in flight (8400 - 10800 < 0).
TEST(QuicEcnResponseTest, PrrPacesTheRecoveryOfAMark)
{
    for (const bool prr : {true, false})
    {
        Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
        cubic->SetAttribute("Prr", BooleanValue(prr));
        CcTestDriver d(cubic);
        d.SendN(10);
        d.Advance(MilliSeconds(100));
        d.AckWithCe(1);
        EXPECT_EQ(d.BytesInFlight(), 10800u);
        EXPECT_EQ(cubic->GetBytesAvailable(d.BytesInFlight()), prr ? 840u : 0u) << prr;
    }
}

/**
 * Common part of the rollback scenarios (CUBIC, HyStart++ off, rollback on): a first loss puts
 * cwnd in congestion avoidance (8400 B, ssthresh 8400 B); 7 packets sent 1 ms after it (so that
 * the pipe never empties: no idle restart moves R) are acked after the rest of the first flight;
 * then, 10 packets later and 10 ms on, \p congestion (a loss or a mark) starts a second episode.
 * Returns cwnd before that episode.
 */
uint64_t
SecondEpisode(CcTestDriver& d, Ptr<QuicCubic> cubic, const std::function<void()>& congestion)
{
    d.SendN(10);
    d.Rtt(MilliSeconds(100));
    d.Advance(MilliSeconds(100));
    d.Lose(1);
    d.Advance(MilliSeconds(1));
    d.SendN(7);
    cubic->SetAppLimited(false);
    d.Advance(MilliSeconds(100));
    d.Ack(9);
    d.Ack(7);
    const uint64_t before = d.Cwnd();
    d.SendN(10);
    d.Advance(MilliSeconds(10));
    congestion();
    EXPECT_EQ(d.Cwnd(), static_cast<uint64_t>(static_cast<double>(before) * 0.7));
    return before;
}

/// After the second episode: one packet sent after R (the pipe still full), then the acks of
/// what was left of the flight (in recovery) and of that packet.
void
AckAfterRecovery(CcTestDriver& d, Ptr<QuicCubic> cubic, size_t left)
{
    d.Advance(MilliSeconds(1));
    d.SendN(1);
    cubic->SetAppLimited(false);
    d.Advance(MilliSeconds(100));
    if (left > 0)
    {
        d.Ack(left);
    }
    d.Ack(1);
}

// Scenario: quiche's rollback heuristic undoes the second loss episode (1 loss < max(20 % of
// cwnd, 2)) at the first ack after its recovery: cwnd is back where it was. A mark instead of the
// loss is never undone: it takes no checkpoint.
TEST(QuicEcnResponseTest, MarkIsNeverRolledBack)
{
    Ptr<QuicCubic> lossCubic = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver loss(lossCubic);
    const uint64_t lossBefore = SecondEpisode(loss, lossCubic, [&loss]() { loss.Lose(1); });
    AckAfterRecovery(loss, lossCubic, 9);
    EXPECT_EQ(loss.Cwnd(), lossBefore); // rolled back

    Ptr<QuicCubic> markCubic = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver mark(markCubic);
    const uint64_t markBefore = SecondEpisode(mark, markCubic, [&mark]() { mark.AckWithCe(1); });
    AckAfterRecovery(mark, markCubic, 9);
    EXPECT_EQ(markBefore, lossBefore);
    EXPECT_LT(mark.Cwnd(), markBefore * 8 / 10); // still reduced (plus one CA step at most)
}

// Scenario: a mark inside a loss episode confirms the congestion: no second cut, but the loss's
// checkpoint is discarded, so the heuristic no longer undoes the episode at the first ack after
// it (where it undoes the same episode without the mark).
TEST(QuicEcnResponseTest, MarkInsideALossEpisodeKeepsItsReduction)
{
    for (const bool mark : {true, false})
    {
        Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
        CcTestDriver d(cubic);
        const uint64_t before = SecondEpisode(d, cubic, [&d]() { d.Lose(1); });
        const uint64_t reduced = d.Cwnd();
        d.Advance(MilliSeconds(1));
        d.SendN(1); // after R, the pipe still full
        cubic->SetAppLimited(false);
        d.Advance(MilliSeconds(100));
        if (mark)
        {
            d.AckWithCe(9); // sent before R: in the episode
        }
        else
        {
            d.Ack(9);
        }
        EXPECT_EQ(d.Cwnd(), reduced) << mark;
        d.Ack(1);
        if (mark)
        {
            EXPECT_LT(d.Cwnd(), before * 8 / 10);
        }
        else
        {
            EXPECT_EQ(d.Cwnd(), before); // rolled back
        }
    }
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
