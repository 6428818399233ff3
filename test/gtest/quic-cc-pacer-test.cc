/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcPacer against RFC 9002 Section 7.7: rate = N x cwnd / smoothed_rtt (N = 1.25), a burst
 * allowance of 10 packets. mss 1200 B, cwnd 12000 B, smoothed_rtt 100 ms: rate = 1.25 x 12000 /
 * 0.1 s = 150000 B/s, so one 1200 B packet per 8 ms once the allowance (12000 B) is spent.
 */
#include "ns3/quic-cc-pacer.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

constexpr uint64_t kMss = 1200;
constexpr uint64_t kCwnd = 12000;

TEST(QuicCcPacerTest, Rate)
{
    QuicCcPacer pacer;
    pacer.Configure(1.25, 10, kMss);
    EXPECT_DOUBLE_EQ(pacer.Rate(kCwnd, MilliSeconds(100)), 150000.0);
    pacer.Configure(2.0, 10, kMss);
    EXPECT_DOUBLE_EQ(pacer.Rate(kCwnd, MilliSeconds(100)), 240000.0);
}

// The allowance lets 10 packets leave at t = 0; the 11th waits 1200 / 150000 s = 8 ms.
TEST(QuicCcPacerTest, BurstAllowanceThenRate)
{
    QuicCcPacer pacer;
    pacer.Configure(1.25, 10, kMss);
    const Time t0 = Seconds(1);
    for (int i = 0; i < 10; ++i)
    {
        ASSERT_EQ(pacer.NextSendTime(t0, kMss, kCwnd, MilliSeconds(100)), t0) << i;
        pacer.OnPacketSent(t0, kMss, kCwnd, MilliSeconds(100));
    }
    EXPECT_EQ(pacer.NextSendTime(t0, kMss, kCwnd, MilliSeconds(100)), t0 + MilliSeconds(8));
    // 4 ms later the bucket holds 600 B: 4 ms more.
    EXPECT_EQ(pacer.NextSendTime(t0 + MilliSeconds(4), kMss, kCwnd, MilliSeconds(100)),
              t0 + MilliSeconds(8));
    pacer.OnPacketSent(t0 + MilliSeconds(8), kMss, kCwnd, MilliSeconds(100));
    EXPECT_EQ(pacer.NextSendTime(t0 + MilliSeconds(8), kMss, kCwnd, MilliSeconds(100)),
              t0 + MilliSeconds(16));
}

// Idle time refills the bucket only up to the allowance (10 packets), not rate x idle.
TEST(QuicCcPacerTest, RefillCappedAtAllowance)
{
    QuicCcPacer pacer;
    pacer.Configure(1.25, 10, kMss);
    const Time t0 = Seconds(1);
    pacer.OnPacketSent(t0, 10 * kMss, kCwnd, MilliSeconds(100));
    EXPECT_DOUBLE_EQ(pacer.GetTokens(), 0.0);
    EXPECT_EQ(pacer.NextSendTime(t0 + Seconds(10), kMss, kCwnd, MilliSeconds(100)),
              t0 + Seconds(10));
    EXPECT_DOUBLE_EQ(pacer.GetTokens(), 12000.0);
}

TEST(QuicCcPacerDeathTest, BadConfiguration)
{
    QuicCcPacer pacer;
    EXPECT_DEATH(pacer.Configure(0.0, 10, kMss), "pacing gain N must be > 0, got 0");
    EXPECT_DEATH(pacer.Configure(1.25, 0, kMss), "burst allowance must be >= 1 packet, got 0");
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
