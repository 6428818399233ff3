/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicRttStats against RFC 9002 Section 5 as quiche's rtt.rs computes it
 * (cloudflare/quiche, quiche/src/recovery/rtt.rs, RttStats::update_rtt).
 * Every expected value is a literal worked out by hand in the comment beside it, in exact
 * nanoseconds where truncation matters: rtt.rs multiplies before it divides
 * (smoothed_rtt * 7 / 8 + adjusted_rtt / 8, RFC 9002 Section 5.3); with the integer fraction
 * 7 / 8 * srtt (= 0) the estimates would collapse to 0 ns from the second sample on.
 */
#include "ns3/nstime.h"
#include "ns3/quic-rtt-stats.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

/// An arbitrary sample instant (the estimator only uses differences of these).
Time
At(double seconds)
{
    return Seconds(seconds);
}

// Scenario: a fresh estimator with the RFC 9002 defaults, before any sample.
TEST(QuicRttStatsTest, DefaultsBeforeAnySample)
{
    QuicRttStats rtt;
    EXPECT_FALSE(rtt.HasSample());
    EXPECT_EQ(rtt.GetInitialRtt(), MilliSeconds(333)); // kInitialRtt
    EXPECT_EQ(rtt.GetSmoothedRtt(), MilliSeconds(333));
    EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 166500000); // 333 ms / 2 = 166.5 ms
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(333));          // min = initial before a sample
    EXPECT_EQ(rtt.GetLatestRtt(), Time(0));
    EXPECT_EQ(rtt.GetMaxAckDelay(), Time(0)); // peer's value unknown yet
    // PTO base = 333 + max(4 * 166.5, 1) = 333 + 666 = 999 ms
    EXPECT_EQ(rtt.GetPtoBase(), MilliSeconds(999));
}

// Scenario: a non-default initial RTT with an odd nanosecond count: rttvar truncates.
TEST(QuicRttStatsTest, CustomInitialRtt)
{
    QuicRttStats rtt(NanoSeconds(100000001), MilliSeconds(25));
    EXPECT_EQ(rtt.GetSmoothedRtt().GetNanoSeconds(), 100000001);
    EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 50000000); // 100000001 / 2 = 50000000 (trunc)
    EXPECT_EQ(rtt.GetMinRtt().GetNanoSeconds(), 100000001);
    EXPECT_EQ(rtt.GetMaxAckDelay(), MilliSeconds(25));
    // 100000001 + 4 * 50000000 = 300000001 ns
    EXPECT_EQ(rtt.GetPtoBase().GetNanoSeconds(), 300000001);
}

// Scenario: the first sample sets everything, and its ack delay is ignored even when it is
// within max_ack_delay and the handshake is confirmed.
TEST(QuicRttStatsTest, FirstSampleIgnoresAckDelay)
{
    QuicRttStats rtt(MilliSeconds(333), MilliSeconds(25));
    EXPECT_TRUE(rtt.Update(MilliSeconds(100), MilliSeconds(20), At(1), true));
    EXPECT_TRUE(rtt.HasSample());
    EXPECT_EQ(rtt.GetLatestRtt(), MilliSeconds(100));
    EXPECT_EQ(rtt.GetSmoothedRtt(), MilliSeconds(100)); // not 100 - 20
    EXPECT_EQ(rtt.GetRttVar(), MilliSeconds(50));       // 100 / 2
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(100));
    // PTO base = 100 + 4 * 50 = 300 ms
    EXPECT_EQ(rtt.GetPtoBase(), MilliSeconds(300));
}

// Scenario: 100 ms, 200 ms, then 50 ms, ack delay 0 (then 10 ms), in exact nanoseconds.
// An integer-fraction implementation (3 / 4 * rttvar ...) would give 0 ns here.
TEST(QuicRttStatsTest, ThreeSamplesInExactNanoseconds)
{
    QuicRttStats rtt(MilliSeconds(333), MilliSeconds(25));
    rtt.Update(MilliSeconds(100), Time(0), At(1), true);
    // smoothed 100 ms, rttvar 50 ms, min 100 ms

    EXPECT_TRUE(rtt.Update(MilliSeconds(200), Time(0), At(2), true));
    // adjusted = 200 ms (no ack delay)
    // rttvar   = 50e6 * 3 / 4 + |100e6 - 200e6| / 4 = 37500000 + 25000000 = 62500000 ns
    // smoothed = 100e6 * 7 / 8 + 200e6 / 8 = 87500000 + 25000000 = 112500000 ns
    EXPECT_EQ(rtt.GetLatestRtt().GetNanoSeconds(), 200000000);
    EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 62500000);
    EXPECT_EQ(rtt.GetSmoothedRtt().GetNanoSeconds(), 112500000);
    EXPECT_EQ(rtt.GetMinRtt().GetNanoSeconds(), 100000000);
    // PTO base = 112500000 + 4 * 62500000 = 362500000 ns
    EXPECT_EQ(rtt.GetPtoBase().GetNanoSeconds(), 362500000);

    EXPECT_TRUE(rtt.Update(MilliSeconds(50), MilliSeconds(10), At(3), true));
    // min_rtt becomes 50 ms first; 50 >= 50 + 10 is false, so the delay is not subtracted
    // rttvar   = 62500000 * 3 / 4 + |112500000 - 50000000| / 4 = 46875000 + 15625000 = 62500000
    // smoothed = 112500000 * 7 / 8 + 50000000 / 8 = 98437500 + 6250000 = 104687500
    EXPECT_EQ(rtt.GetMinRtt().GetNanoSeconds(), 50000000);
    EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 62500000);
    EXPECT_EQ(rtt.GetSmoothedRtt().GetNanoSeconds(), 104687500);
}

// Scenario: odd nanosecond values where the truncation order matters. quiche (rtt.rs) divides
// each term on its own: rttvar * 3 / 4 + diff / 4 and smoothed * 7 / 8 + adjusted / 8.
TEST(QuicRttStatsTest, TruncatesEachTermLikeQuiche)
{
    QuicRttStats rtt;
    rtt.Update(NanoSeconds(100000002), Time(0), At(1), true);
    // smoothed 100000002, rttvar 100000002 / 2 = 50000001
    EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 50000001);

    rtt.Update(NanoSeconds(100000005), Time(0), At(2), true);
    // diff = 3
    // rttvar   = 50000001 * 3 / 4 + 3 / 4 = 150000003 / 4 + 0 = 37500000 + 0 = 37500000
    //            (one division, (150000003 + 3) / 4, would give 37500001)
    // smoothed = 100000002 * 7 / 8 + 100000005 / 8 = 700000014 / 8 + 12500000
    //          = 87500001 + 12500000 = 100000001
    //            (one division, 800000019 / 8, would give 100000002)
    EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 37500000);
    EXPECT_EQ(rtt.GetSmoothedRtt().GetNanoSeconds(), 100000001);
}

// Scenario: handshake confirmed, max_ack_delay 25 ms: an ack delay of 30 ms is clamped to 25.
TEST(QuicRttStatsTest, AckDelayClampedToMaxAckDelayWhenHandshakeConfirmed)
{
    QuicRttStats rtt(MilliSeconds(333), MilliSeconds(25));
    rtt.Update(MilliSeconds(100), Time(0), At(1), true);
    rtt.Update(MilliSeconds(200), MilliSeconds(30), At(2), true);
    // delay = min(30, 25) = 25; 200 >= 100 + 25, so adjusted = 175 ms
    // rttvar   = 37.5 + |100 - 175| / 4 = 37.5 + 18.75 = 56.25 ms
    // smoothed = 87.5 + 175 / 8 = 87.5 + 21.875 = 109.375 ms
    EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 56250000);
    EXPECT_EQ(rtt.GetSmoothedRtt().GetNanoSeconds(), 109375000);
    EXPECT_EQ(rtt.GetLatestRtt(), MilliSeconds(200)); // latest keeps the raw sample
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(100));    // min ignores the ack delay
}

// Scenario: same samples, handshake not confirmed: the full 30 ms is subtracted.
TEST(QuicRttStatsTest, AckDelayNotClampedBeforeHandshakeConfirmed)
{
    QuicRttStats rtt(MilliSeconds(333), MilliSeconds(25));
    rtt.Update(MilliSeconds(100), Time(0), At(1), false);
    rtt.Update(MilliSeconds(200), MilliSeconds(30), At(2), false);
    // adjusted = 200 - 30 = 170 ms
    // rttvar   = 37.5 + 70 / 4 = 37.5 + 17.5 = 55 ms
    // smoothed = 87.5 + 170 / 8 = 87.5 + 21.25 = 108.75 ms
    EXPECT_EQ(rtt.GetRttVar(), MilliSeconds(55));
    EXPECT_EQ(rtt.GetSmoothedRtt().GetNanoSeconds(), 108750000);
}

// Scenario: max_ack_delay 0 (peer's value unknown) and handshake confirmed: the delay is clamped
// to 0, so nothing is subtracted.
TEST(QuicRttStatsTest, AckDelayClampedToZeroWhenMaxAckDelayUnknown)
{
    QuicRttStats rtt;
    rtt.Update(MilliSeconds(100), Time(0), At(1), true);
    rtt.Update(MilliSeconds(200), MilliSeconds(30), At(2), true);
    // adjusted = 200: same numbers as ThreeSamplesInExactNanoseconds
    EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 62500000);
    EXPECT_EQ(rtt.GetSmoothedRtt().GetNanoSeconds(), 112500000);
}

// Scenario: the ack delay is subtracted only if latest >= min_rtt + ack_delay (boundary
// included), so the adjusted sample never drops below min_rtt.
TEST(QuicRttStatsTest, AckDelaySubtractedOnlyAboveMinRttPlusDelay)
{
    {
        QuicRttStats rtt(MilliSeconds(333), MilliSeconds(25));
        rtt.Update(MilliSeconds(100), Time(0), At(1), true);
        rtt.Update(MilliSeconds(110), MilliSeconds(20), At(2), true);
        // 110 >= 100 + 20 is false: adjusted = 110
        // rttvar = 37.5 + 10 / 4 = 40 ms; smoothed = 87.5 + 110 / 8 = 87.5 + 13.75 = 101.25 ms
        EXPECT_EQ(rtt.GetRttVar(), MilliSeconds(40));
        EXPECT_EQ(rtt.GetSmoothedRtt().GetNanoSeconds(), 101250000);
    }
    {
        QuicRttStats rtt(MilliSeconds(333), MilliSeconds(25));
        rtt.Update(MilliSeconds(100), Time(0), At(1), true);
        rtt.Update(MilliSeconds(120), MilliSeconds(20), At(2), true);
        // 120 >= 100 + 20 is true: adjusted = 100
        // rttvar = 37.5 + 0 = 37.5 ms; smoothed = 87.5 + 100 / 8 = 100 ms
        EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 37500000);
        EXPECT_EQ(rtt.GetSmoothedRtt(), MilliSeconds(100));
    }
}

// Scenario: a negative ack delay counts as 0.
TEST(QuicRttStatsTest, NegativeAckDelayCountsAsZero)
{
    QuicRttStats rtt(MilliSeconds(333), MilliSeconds(25));
    rtt.Update(MilliSeconds(100), Time(0), At(1), false);
    EXPECT_TRUE(rtt.Update(MilliSeconds(200), MilliSeconds(-30), At(2), false));
    // adjusted = 200 (not 230): rttvar 62.5 ms, smoothed 112.5 ms
    EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 62500000);
    EXPECT_EQ(rtt.GetSmoothedRtt().GetNanoSeconds(), 112500000);
}

// Scenario: zero and negative samples are refused and change nothing, before and after the
// first sample.
TEST(QuicRttStatsTest, ZeroOrNegativeSampleIgnored)
{
    QuicRttStats rtt;
    EXPECT_FALSE(rtt.Update(Time(0), Time(0), At(1)));
    EXPECT_FALSE(rtt.Update(MilliSeconds(-5), Time(0), At(1)));
    EXPECT_FALSE(rtt.HasSample());
    EXPECT_EQ(rtt.GetSmoothedRtt(), MilliSeconds(333));
    EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 166500000);
    EXPECT_EQ(rtt.GetLatestRtt(), Time(0));

    EXPECT_TRUE(rtt.Update(MilliSeconds(100), Time(0), At(2)));
    EXPECT_FALSE(rtt.Update(Time(0), Time(0), At(3)));
    EXPECT_FALSE(rtt.Update(NanoSeconds(-1), Time(0), At(3)));
    EXPECT_EQ(rtt.GetLatestRtt(), MilliSeconds(100));
    EXPECT_EQ(rtt.GetSmoothedRtt(), MilliSeconds(100));
    EXPECT_EQ(rtt.GetRttVar(), MilliSeconds(50));
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(100));

    // 1 ns is the smallest sample taken: rttvar = 3/4 * 50 ms + |100 ms - 1 ns| / 4
    //   = 37500000 + 99999999 / 4 = 37500000 + 24999999 = 62499999 ns
    EXPECT_TRUE(rtt.Update(NanoSeconds(1), Time(0), At(4)));
    EXPECT_EQ(rtt.GetMinRtt().GetNanoSeconds(), 1);
    EXPECT_EQ(rtt.GetRttVar().GetNanoSeconds(), 62499999);
    // smoothed = 100000000 * 7 / 8 + 1 / 8 = 87500000 + 0
    EXPECT_EQ(rtt.GetSmoothedRtt().GetNanoSeconds(), 87500000);
}

// Scenario: min_rtt follows the smallest sample while the window lasts.
TEST(QuicRttStatsTest, MinRttIsSmallestSampleInWindow)
{
    QuicRttStats rtt;
    rtt.Update(MilliSeconds(100), Time(0), At(1));
    rtt.Update(MilliSeconds(150), Time(0), At(2));
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(100));
    rtt.Update(MilliSeconds(80), Time(0), At(3));
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(80));
    rtt.Update(MilliSeconds(90), Time(0), At(4));
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(80));
}

// Scenario: the 300 s window. The 50 ms minimum taken at t = 1 s is still valid at
// t = 301 s (300 s old, not more) and gone 1 ns later.
TEST(QuicRttStatsTest, MinRttExpiresAfterWindow)
{
    QuicRttStats rtt;
    rtt.Update(MilliSeconds(50), Time(0), At(1));
    rtt.Update(MilliSeconds(120), Time(0), At(301)); // 301 - 1 = 300 s: not > window
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(50));
    rtt.Update(MilliSeconds(130), Time(0), At(301) + NanoSeconds(1));
    // 50 ms is 300 s + 1 ns old: the best choice left in the window is 120 ms (t = 301 s)
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(120));
}

// Scenario: rising samples (Kathleen Nichols' filter, quiche minmax.rs). After half a window
// without a new minimum, the third choice is taken from the current sample; timings are
// measured from the best choice's time.
//   t =   0 s: 100 ms  -> all three choices (100, 0)
//   t =  80 s: 150 ms  -> 80 > 300/4 since the best: 2nd = 3rd = (150, 80)
//   t = 160 s: 200 ms  -> 160 > 300/2 since the best: 3rd = (200, 160)
//   t = 301 s: 250 ms  -> best is 301 s old: shift: (150, 80), (200, 160), (250, 301)
//   t = 381 s: 260 ms  -> best is 301 s old: shift: (200, 160), (250, 301), (260, 381)
// So min_rtt = 200 ms at 381 s, which is also the true minimum of the samples of the last
// 300 s (200 at 160 s, 250 at 301 s, 260 at 381 s).
TEST(QuicRttStatsTest, MinRttWindowKeepsThirdChoiceFromSecondHalf)
{
    QuicRttStats rtt;
    rtt.Update(MilliSeconds(100), Time(0), At(0));
    rtt.Update(MilliSeconds(150), Time(0), At(80));
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(100));
    rtt.Update(MilliSeconds(200), Time(0), At(160));
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(100));
    rtt.Update(MilliSeconds(250), Time(0), At(301));
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(150));
    rtt.Update(MilliSeconds(260), Time(0), At(381));
    EXPECT_EQ(rtt.GetMinRtt(), MilliSeconds(200));
}

// Scenario: PTO base uses kGranularity (1 ms) when 4 * rttvar is smaller.
TEST(QuicRttStatsTest, PtoBaseHasGranularityFloor)
{
    QuicRttStats rtt;
    rtt.Update(MicroSeconds(100), Time(0), At(1));
    // smoothed 100 us, rttvar 50 us, 4 * rttvar = 200 us < 1 ms: 100 us + 1 ms = 1100 us
    EXPECT_EQ(rtt.GetPtoBase(), MicroSeconds(1100));

    QuicRttStats exact;
    exact.Update(MicroSeconds(500), Time(0), At(1));
    // rttvar 250 us, 4 * rttvar = 1 ms = kGranularity: 500 us + 1 ms = 1500 us
    EXPECT_EQ(exact.GetPtoBase(), MicroSeconds(1500));
}

// Scenario: max_ack_delay can be learnt later (transport parameters); 0 is allowed.
TEST(QuicRttStatsTest, SetMaxAckDelay)
{
    QuicRttStats rtt;
    rtt.SetMaxAckDelay(MilliSeconds(25));
    EXPECT_EQ(rtt.GetMaxAckDelay(), MilliSeconds(25));
    rtt.SetMaxAckDelay(Time(0));
    EXPECT_EQ(rtt.GetMaxAckDelay(), Time(0));
    // The PTO base does not include max_ack_delay (the loss detector adds it).
    EXPECT_EQ(rtt.GetPtoBase(), MilliSeconds(999));
}

// Scenario: bad construction values and a negative max_ack_delay are fatal, naming the value
// (ns-3 prints -5 ms as "-5e+06ns" and 0 as "+0ns").
TEST(QuicRttStatsDeathTest, ConstructorRejectsNonPositiveInitialRtt)
{
    EXPECT_DEATH(QuicRttStats(Time(0)), "initial RTT must be positive, got .0ns");
    EXPECT_DEATH(QuicRttStats(MilliSeconds(-5)), "initial RTT must be positive, got -5e.06ns");
}

TEST(QuicRttStatsDeathTest, NegativeMaxAckDelayIsFatal)
{
    EXPECT_DEATH(QuicRttStats(MilliSeconds(333), NanoSeconds(-1000)),
                 "max_ack_delay must be >= 0, got -1000ns");
    QuicRttStats rtt;
    EXPECT_DEATH(rtt.SetMaxAckDelay(NanoSeconds(-7)), "max_ack_delay must be >= 0, got -7ns");
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
