/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicHyStartPlusPlus alone (quiche hystart.rs tests, RFC 9406 thresholds) and inside CUBIC
 * (quiche cubic.rs HyStart++ tests), mss 1200 B.
 */
#include "cc-test-driver.h"

#include "ns3/boolean.h"
#include "ns3/quic-cubic.h"
#include "ns3/quic-hystart-plus-plus.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

// Scenario: quiche "start_round": StartRound(100) on a fresh object.
TEST(QuicHyStartTest, StartRound)
{
    Ptr<QuicHyStartPlusPlus> h = CreateObject<QuicHyStartPlusPlus>();
    h->StartRound(100);
    EXPECT_EQ(h->GetWindowEnd(), 100u);
    EXPECT_FALSE(h->GetCurrentRoundMinRtt().has_value()); // infinity
    h->StartRound(200);                                   // a round is open: no change
    EXPECT_EQ(h->GetWindowEnd(), 100u);
}

// Scenario: quiche "css_cwnd_inc": CSS increment for one mss of 1200 B.
TEST(QuicHyStartTest, CssIncrement)
{
    Ptr<QuicHyStartPlusPlus> h = CreateObject<QuicHyStartPlusPlus>();
    EXPECT_EQ(h->CssCwndIncrement(1200), 300u); // 1200 / 4
}

// Scenario: quiche "congestion_event": StartRound(100), then a congestion event.
TEST(QuicHyStartTest, CongestionEventClearsRound)
{
    Ptr<QuicHyStartPlusPlus> h = CreateObject<QuicHyStartPlusPlus>();
    h->StartRound(100);
    EXPECT_EQ(h->GetWindowEnd(), 100u);
    h->CongestionEvent();
    EXPECT_FALSE(h->GetWindowEnd().has_value());
}

// Scenario: RFC 9406 Section 4.2 RttThresh = clamp(lastRoundMinRTT / 8, 4 ms, 16 ms).
TEST(QuicHyStartTest, RttThresholdClamp)
{
    Ptr<QuicHyStartPlusPlus> h = CreateObject<QuicHyStartPlusPlus>();
    EXPECT_EQ(h->RttThreshold(MilliSeconds(20)), MilliSeconds(4));      // 2.5 ms -> 4 ms
    EXPECT_EQ(h->RttThreshold(MilliSeconds(100)), MicroSeconds(12500)); // 12.5 ms
    EXPECT_EQ(h->RttThreshold(MilliSeconds(200)), MilliSeconds(16));    // 25 ms -> 16 ms
}

/// One round of 8 samples of \p rtt on a bare HyStart++ object, packets firstPn .. firstPn + 7.
bool
FeedRound(QuicHyStartPlusPlus& h, uint64_t firstPn, Time rtt, Time now)
{
    bool exit = false;
    h.StartRound(firstPn + 7);
    for (uint64_t pn = firstPn; pn < firstPn + 8; ++pn)
    {
        exit |= h.OnPacketAcked(pn, rtt, now);
    }
    return exit;
}

// Scenario: with a previous round at 100 ms, CSS starts only at a round minimum of
// 100 + 12.5 ms or more (after 8 samples).
TEST(QuicHyStartTest, CssEntryAtThreshold)
{
    Ptr<QuicHyStartPlusPlus> below = CreateObject<QuicHyStartPlusPlus>();
    FeedRound(*below, 0, MilliSeconds(100), T0());
    FeedRound(*below, 8, MicroSeconds(112499), T0());
    EXPECT_FALSE(below->InCss());

    Ptr<QuicHyStartPlusPlus> at = CreateObject<QuicHyStartPlusPlus>();
    FeedRound(*at, 0, MilliSeconds(100), T0());
    FeedRound(*at, 8, MicroSeconds(112500), T0() + Seconds(1));
    EXPECT_TRUE(at->InCss());
    EXPECT_EQ(at->GetCssStartTime(), T0() + Seconds(1));
    EXPECT_EQ(at->GetCssBaselineMinRtt(), MicroSeconds(112500));
    EXPECT_EQ(at->GetCssRoundCount(), 1u);  // the entry round counts
    EXPECT_EQ(at->GetRttSampleCount(), 8u); // not reset on entry

    // 4 more CSS rounds at the baseline: the 5th CSS round ends CSS.
    for (uint64_t round = 2; round <= 4; ++round)
    {
        EXPECT_FALSE(FeedRound(*at, 8 * round, MicroSeconds(112500), T0() + Seconds(2)));
    }
    EXPECT_TRUE(FeedRound(*at, 40, MicroSeconds(112500), T0() + Seconds(2)));
    EXPECT_FALSE(at->InCss());
    EXPECT_TRUE(at->InPostCssExit());
    EXPECT_EQ(at->GetCssStartTime(), T0() + Seconds(1)); // kept: CUBIC's epoch
    EXPECT_EQ(at->GetCssRoundCount(), 0u);
}

// Scenario: reference "cubic HyStart CSS->SS": rounds 1-2 enter CSS at 31200; round 3 with a
// lower RTT (80 ms < baseline 100 ms) returns to slow start after its 8th sample: 33600.
TEST(QuicHyStartTest, CubicCssBackToSlowStart)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>(); // HyStart++ on by default
    CcTestDriver d(cubic);
    Ptr<QuicHyStartPlusPlus> h = cubic->GetHyStart();

    RunCssEntryRounds(d);
    // Round 1: 12000 + 8 * 1200 = 21600; round 2: its 8th sample completes the round's 8
    // samples: min 100 ms >= 50 ms + clamp(50 / 8 = 6.25 ms, 4, 16): CSS, after a full step.
    EXPECT_TRUE(h->InCss());
    EXPECT_EQ(h->GetLastRoundMinRtt(), MilliSeconds(50));
    EXPECT_EQ(h->GetCssBaselineMinRtt(), MilliSeconds(100));
    EXPECT_EQ(h->GetCssStartTime(), T0() + MilliSeconds(150));
    EXPECT_EQ(d.Cwnd(), 31200u); // 21600 + 8 * 1200
    EXPECT_EQ(cubic->GetCongestionState(d.Now()), QUIC_CC_CONSERVATIVE_SLOW_START);

    d.Advance(MilliSeconds(80));
    d.SendRound(8);
    d.Rtt(MilliSeconds(80));
    d.Ack(8);
    EXPECT_FALSE(h->GetCssStartTime().has_value()); // back to slow start
    EXPECT_FALSE(h->GetCssBaselineMinRtt().has_value());
    EXPECT_EQ(d.Cwnd(), 33600u); // 31200 + 8 * 300
    EXPECT_EQ(cubic->GetCongestionState(d.Now()), QUIC_CC_SLOW_START);
}

// Scenario: reference "cubic HyStart CSS->CA": after CSS entry (CSS round count 1), 5 manual
// rounds at 100 ms with no time advance: 33600, 36000, 38400, 40800 (4th round ends CSS:
// ssthresh = 40800), 5th round in CA with the CSS start as epoch (cwnd_inc gains 1133 B).
TEST(QuicHyStartTest, CubicCssToCongestionAvoidance)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    CcTestDriver d(cubic);
    Ptr<QuicHyStartPlusPlus> h = cubic->GetHyStart();
    RunCssEntryRounds(d);
    ASSERT_EQ(d.Cwnd(), 31200u);
    EXPECT_EQ(h->GetCssRoundCount(), 1u);

    d.Advance(MilliSeconds(100));
    for (uint64_t expected : {33600u, 36000u, 38400u, 40800u})
    {
        d.SendRound(8);
        d.Rtt(MilliSeconds(100));
        d.Ack(8);
        EXPECT_EQ(d.Cwnd(), expected); // + 8 * 300 per CSS round
    }
    EXPECT_EQ(d.Ssthresh(), 40800u);
    EXPECT_TRUE(h->InPostCssExit());

    d.SendRound(8);
    d.Rtt(MilliSeconds(100));
    d.Ack(8);
    EXPECT_EQ(d.Cwnd(), 40800u);
    EXPECT_EQ(d.Ssthresh(), 40800u);
    // Epoch = CSS start (t0 + 150 ms): W_max = W_est = 40800, K = 0. W_est passes W_max at the
    // first ack (alpha -> 1) and every ack is Reno-friendly, adding the whole gap
    // floor(W_est) - cwnd: 18 + 53 + 89 + 124 + 159 + 195 + 230 + 265 = 1133.
    EXPECT_EQ(cubic->GetCwndIncrement(), 1133u);
    EXPECT_DOUBLE_EQ(cubic->GetWMax(), 40800.0);
    EXPECT_DOUBLE_EQ(cubic->GetK(), 0.0);
    EXPECT_FALSE(d.RecoveryStart().has_value()); // R stays unset until the first loss
    EXPECT_EQ(cubic->GetCongestionState(d.Now()), QUIC_CC_CONGESTION_AVOIDANCE);
}

// Scenario: the CSS->CA test with rounds opened automatically at each burst's first packet:
// the round that enters CSS has already ended, so it is not counted; CSS ends at the first ack
// of the 5th burst: 31200 + 4 * 2400 + 300 = 41100.
TEST(QuicHyStartTest, CubicCssToCongestionAvoidanceAutomaticRounds)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    CcTestDriver d(cubic);
    Ptr<QuicHyStartPlusPlus> h = cubic->GetHyStart();
    d.SendN(8); // the first send opens the round
    cubic->SetAppLimited(false);
    d.Advance(MilliSeconds(50));
    d.Rtt(MilliSeconds(50));
    d.Ack(8);
    d.Advance(MilliSeconds(100));
    d.SendN(8); // the first send opens the round
    cubic->SetAppLimited(false);
    for (int64_t r : {100, 204, 412, 828, 1660, 3324, 6652, 13308})
    {
        d.Rtt(MilliSeconds(r));
        d.Ack(1);
    }
    ASSERT_TRUE(h->InCss());
    EXPECT_EQ(h->GetCssRoundCount(), 0u);
    d.Advance(MilliSeconds(100));
    for (int round = 0; round < 5; ++round)
    {
        d.SendN(8); // the first send opens the round
        cubic->SetAppLimited(false);
        d.Rtt(MilliSeconds(100));
        d.Ack(8);
    }
    EXPECT_EQ(d.Cwnd(), 41100u);
    EXPECT_EQ(d.Ssthresh(), 41100u);
}

// Scenario: a loss during CSS: the window is cut (31200 * 0.7 = 21840) and HyStart++ leaves CSS
// and closes its round; the next acks are in congestion avoidance (cwnd == ssthresh).
TEST(QuicHyStartTest, LossDuringCss)
{
    ExpectCssEndsOnCongestion([](CcTestDriver& d) { d.Lose(1); });
}

// Scenario: a loss in plain slow start (not CSS) leaves HyStart++'s open round alone (quiche
// clears HyStart++ only in CSS or after it).
TEST(QuicHyStartTest, LossInSlowStartKeepsRound)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    CcTestDriver d(cubic);
    d.SendN(10); // the first send opens a round at packet 0
    EXPECT_EQ(cubic->GetHyStart()->GetWindowEnd(), 0u);
    d.Advance(MilliSeconds(10));
    d.Lose(1);
    EXPECT_EQ(d.Cwnd(), 8400u);
    EXPECT_EQ(cubic->GetHyStart()->GetWindowEnd(), 0u);
}

// Scenario: HyStart attribute false: the same samples never enter CSS and rounds are never
// opened by sends: round 3 grows by full steps (31200 + 8 * 1200 = 40800).
TEST(QuicHyStartTest, DisabledNeverEntersCss)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    cubic->SetAttribute("HyStart", BooleanValue(false));
    CcTestDriver d(cubic);
    d.SendN(10);
    EXPECT_FALSE(cubic->GetHyStart()->GetWindowEnd().has_value());
    d.Ack(10);
    EXPECT_EQ(d.Cwnd(), 24000u);

    Ptr<QuicCubic> manual = CreateObject<QuicCubic>();
    manual->SetAttribute("HyStart", BooleanValue(false));
    CcTestDriver m(manual);
    RunCssEntryRounds(m);
    EXPECT_FALSE(manual->GetHyStart()->InCss());
    EXPECT_EQ(m.Cwnd(), 31200u);
    m.Advance(MilliSeconds(80));
    m.SendRound(8);
    m.Rtt(MilliSeconds(80));
    m.Ack(8);
    EXPECT_EQ(m.Cwnd(), 40800u);
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
