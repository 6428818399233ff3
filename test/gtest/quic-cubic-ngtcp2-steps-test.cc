/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The QuicCubic switches the ngtcp2 profile sets (doc/quic-cc-design.rst, "The ngtcp2
 * profile"), each against the value ngtcp2 1.24.0's ngtcp2_cc_cubic_cc_on_ack_recv
 * (lib/ngtcp2_cc.c) implies: CubicStep PerAckFrame (one concave/convex step per ACK frame) and
 * TargetRtt SmoothedRtt.
 * mss 1200 B, initial cwnd 12000 B, HyStart++ off.
 */
#include "cc-test-driver.h"

#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/quic-cubic.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

/// quiche's CUBIC CA prefix: send 10; +100 ms lose 1 (cwnd 8400, W_max 12000, K = cbrt(7.5));
/// rtt 100 ms; +100 ms ack 9 (in recovery); send 8 (window full); +100 ms; then ONE ACK frame of
/// 2 packets at t = 200 ms after the event: target W_cubic(0.3 s) = 9814.5 B, (target - cwnd) /
/// cwnd x mss = 1200 x 1414 / 8400 = 202 B per step.
uint64_t
CwndIncrementAfterTwoPacketFrame(QuicCubic::CubicStep step, Time rttSample)
{
    Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
    cubic->SetAttribute("CubicStep", EnumValue(step));
    cubic->SetAttribute("TargetRtt", EnumValue(QuicCubic::TARGET_RTT_SMOOTHED));
    CcTestDriver d(cubic);
    d.SendN(10);
    d.Advance(MilliSeconds(100));
    d.Lose(1);
    EXPECT_EQ(d.Cwnd(), 8400u);
    d.Rtt(rttSample);
    d.Advance(MilliSeconds(100));
    d.Ack(9);
    d.SendN(8);
    d.Advance(MilliSeconds(100));
    d.Ack(2);
    return cubic->GetCwndIncrement();
}

TEST(QuicCubicNgtcp2StepsTest, PerPacketStepsTwicePerTwoPacketFrame)
{
    // quiche: one step per acked packet, 2 x 202 B.
    EXPECT_EQ(CwndIncrementAfterTwoPacketFrame(QuicCubic::CUBIC_STEP_PER_PACKET, MilliSeconds(100)),
              404u);
}

TEST(QuicCubicNgtcp2StepsTest, PerAckFrameStepsOnce)
{
    // ngtcp2: on_ack_recv runs once per ACK frame, so one 202-byte step for the 2 packets.
    EXPECT_EQ(
        CwndIncrementAfterTwoPacketFrame(QuicCubic::CUBIC_STEP_PER_ACK_FRAME, MilliSeconds(100)),
        202u);
}

TEST(QuicCubicNgtcp2StepsTest, SmoothedRttInTheTarget)
{
    // Two samples, 100 ms then 300 ms: min_rtt 100 ms, smoothed_rtt 7/8 x 100 + 1/8 x 300 =
    // 125 ms. Target W_cubic(0.2 + 0.125 s): C (0.325 - 1.9574)^3 + 10 = 8.2599 segments,
    // 9911.9 B; one step: 1200 x (9911 - 8400) / 8400 = 215 B (min_rtt would give 202 B).
    Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
    cubic->SetAttribute("CubicStep", EnumValue(QuicCubic::CUBIC_STEP_PER_ACK_FRAME));
    cubic->SetAttribute("TargetRtt", EnumValue(QuicCubic::TARGET_RTT_SMOOTHED));
    CcTestDriver d(cubic);
    d.SendN(10);
    d.Advance(MilliSeconds(100));
    d.Lose(1);
    d.Rtt(MilliSeconds(100));
    d.Rtt(MilliSeconds(300));
    d.Advance(MilliSeconds(100));
    d.Ack(9);
    d.SendN(8);
    d.Advance(MilliSeconds(100));
    d.Ack(2);
    EXPECT_EQ(cubic->GetCwndIncrement(), 215u);
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
