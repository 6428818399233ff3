/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicReno against the numbers of quiche's reno.rs tests (quiche/src/recovery/congestion/reno.rs,
 * mss 1200 B, initial cwnd 12000 B), and the rows the reference shares between Reno and CUBIC
 * ("cubic slow start / multi-ack / event: as Reno"), run on both.
 */
#include "cc-test-driver.h"

#include "ns3/quic-cubic.h"
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

/// Expected cwnd of the rows shared by Reno and CUBIC (HyStart++ off), bytes.
struct SharedRow
{
    const char* name;                                    //!< test name suffix
    std::function<Ptr<QuicCongestionController>()> make; //!< the controller
    uint64_t slowStart;                                  //!< send 10, ack 1
    uint64_t multiAck;                                   //!< send 10, ack 3
    uint64_t subMss;                                     //!< send 20 x 600 B, ack 3
    uint64_t loss;                                       //!< send 1, lose it
};

/// gtest prints a row by its name (stable test listings, no object bytes).
void
PrintTo(const SharedRow& row, std::ostream* os)
{
    *os << row.name;
}

/// The reference rows for Reno and for CUBIC.
class QuicSharedRowsTest : public ::testing::TestWithParam<SharedRow>
{
};

// Scenario: send 10 (fills the initial window, so not app-limited), ack 1: +1 mss.
TEST_P(QuicSharedRowsTest, SlowStart)
{
    CcTestDriver d(GetParam().make());
    d.SendN(10);
    d.Ack(1);
    EXPECT_EQ(d.Cwnd(), GetParam().slowStart);
}

// Scenario: send 10, ack 3 in one frame: +3 mss.
TEST_P(QuicSharedRowsTest, SlowStartMultiAck)
{
    CcTestDriver d(GetParam().make());
    d.SendN(10);
    d.Ack(3);
    EXPECT_EQ(d.Cwnd(), GetParam().multiAck);
}

// Scenario: sub-mss packets: send 20 x 600 B, ack 3. Reno adds one mss per packet whatever its
// size; CUBIC counts bytes (1800 B: one step, 600 B carried over).
TEST_P(QuicSharedRowsTest, SlowStartSubMssPackets)
{
    CcTestDriver d(GetParam().make());
    for (int i = 0; i < 20; ++i)
    {
        d.Send(600);
    }
    d.Ack(3);
    EXPECT_EQ(d.Cwnd(), GetParam().subMss);
}

// Scenario: send 1, lose it: R = t0, ssthresh = cwnd = the reduced window.
TEST_P(QuicSharedRowsTest, CongestionEvent)
{
    Ptr<QuicCongestionController> cc = GetParam().make();
    CcTestDriver d(cc);
    d.Send();
    d.Lose(1);
    EXPECT_EQ(d.Cwnd(), GetParam().loss);
    EXPECT_EQ(d.Ssthresh(), GetParam().loss);
    EXPECT_EQ(d.RecoveryStart(), T0());
    EXPECT_EQ(cc->GetLostCount(), 1u);
}

INSTANTIATE_TEST_SUITE_P(
    Reference,
    QuicSharedRowsTest,
    ::testing::Values(
        // 12000 + 1200; 12000 + 3 * 1200; 12000 + 3 * 1200; 12000 * 0.5
        SharedRow{"Reno",
                  [] { return CreateWithoutHyStart<QuicReno>(); },
                  13200,
                  15600,
                  15600,
                  6000},
        // 12000 + 1200; 12000 + 3 * 1200; 12000 + 1200 (1800 B acked); 12000 * 0.7
        SharedRow{"Cubic",
                  [] { return CreateWithoutHyStart<QuicCubic>(); },
                  13200,
                  15600,
                  13200,
                  8400}),
    [](const ::testing::TestParamInfo<SharedRow>& info) { return std::string(info.param.name); });

// Scenario: the reference "reno CA" sequence, with every intermediate value.
TEST(QuicRenoTest, CongestionAvoidance)
{
    Ptr<QuicReno> reno = CreateWithoutHyStart<QuicReno>();
    CcTestDriver d(reno);
    d.SendN(14);
    d.Advance(MilliSeconds(100));
    d.Lose(1); // R = t0 + 100 ms
    EXPECT_EQ(d.Cwnd(), 6000u);
    EXPECT_EQ(reno->GetBytesAckedCongestionAvoidance(), 3000u); // trunc(6000 * 0.5)

    d.Rtt(MilliSeconds(100));
    d.Advance(MilliSeconds(200));
    d.Ack(13); // all sent at t0 <= R: in recovery, no growth
    EXPECT_EQ(d.Cwnd(), 6000u);
    EXPECT_EQ(reno->GetBytesAckedCongestionAvoidance(), 3000u);

    d.SendN(7); // at t0 + 300 ms: after R; the 5th fills cwnd, so not app-limited
    d.Advance(MilliSeconds(100));
    d.Ack(2);
    EXPECT_EQ(d.Cwnd(), 6000u);
    EXPECT_EQ(reno->GetBytesAckedCongestionAvoidance(), 5400u); // 3000 + 2 * 1200
    d.Ack(1);
    EXPECT_EQ(d.Cwnd(), 7200u);                                // 6600 >= 6000: +1 mss
    EXPECT_EQ(reno->GetBytesAckedCongestionAvoidance(), 600u); // 6600 - 6000

    d.SendN(7);
    d.Ack(5);
    EXPECT_EQ(d.Cwnd(), 7200u);
    EXPECT_EQ(reno->GetBytesAckedCongestionAvoidance(), 6600u); // 600 + 5 * 1200
    d.Ack(1);
    EXPECT_EQ(d.Cwnd(), 8400u);                                // 7800 >= 7200: +1 mss
    EXPECT_EQ(reno->GetBytesAckedCongestionAvoidance(), 600u); // 7800 - 7200
    EXPECT_EQ(d.Ssthresh(), 6000u);
}

// Scenario: a second loss of a packet sent before R is part of the same episode.
TEST(QuicRenoTest, OneReductionPerEpisode)
{
    Ptr<QuicReno> reno = CreateWithoutHyStart<QuicReno>();
    CcTestDriver d(reno);
    d.SendN(10);
    d.Advance(MilliSeconds(100));
    d.Lose(1); // R = t0 + 100 ms
    d.Advance(MilliSeconds(10));
    d.Lose(2); // sent at t0 <= R
    EXPECT_EQ(d.Cwnd(), 6000u);
    EXPECT_EQ(d.RecoveryStart(), T0() + MilliSeconds(100));
    EXPECT_EQ(reno->GetLostCount(), 3u);
}

// Scenario: the window never drops below the minimum window (2 packets).
TEST(QuicRenoTest, ReductionStopsAtMinimumWindow)
{
    Ptr<QuicReno> reno = CreateWithoutHyStart<QuicReno>();
    CcTestDriver d(reno);
    for (int episode = 0; episode < 5; ++episode)
    {
        d.Send();
        d.Advance(MilliSeconds(10));
        d.Lose(1); // each packet was sent after the previous R: a new episode
    }
    // 12000 -> 6000 -> 3000 -> 2400 (floor 2 * 1200) -> 2400 -> 2400
    EXPECT_EQ(d.Cwnd(), 2400u);
    EXPECT_EQ(d.Ssthresh(), 2400u);
}

// Scenario: app-limited acks (the window was never filled) do not grow cwnd.
TEST(QuicRenoTest, AppLimitedAcksDoNotGrow)
{
    Ptr<QuicReno> reno = CreateWithoutHyStart<QuicReno>();
    CcTestDriver d(reno);
    d.SendN(5); // 6000 < 12000: app-limited
    EXPECT_TRUE(reno->IsAppLimited());
    d.Ack(5);
    EXPECT_EQ(d.Cwnd(), 12000u);
}

// Scenario: Reno has no checkpoint; Rollback() refuses and changes nothing.
TEST(QuicRenoTest, RollbackIsANoOp)
{
    Ptr<QuicReno> reno = CreateWithoutHyStart<QuicReno>();
    CcTestDriver d(reno);
    d.SendN(10);
    d.Lose(1);
    EXPECT_FALSE(reno->Rollback());
    EXPECT_EQ(d.Cwnd(), 6000u);
    EXPECT_EQ(d.Ssthresh(), 6000u);
    EXPECT_EQ(reno->GetBytesAvailable(3000), 3000u); // no PRR: cwnd - bytes in flight
}

// Scenario: Reno with HyStart++: rounds 1-2 of the CSS tests enter CSS at 31200; the 3rd round
// (lower RTT) goes back to slow start at 33600, as CUBIC (full-size packets).
TEST(QuicRenoTest, HyStartCssBackToSlowStart)
{
    Ptr<QuicReno> reno = CreateObject<QuicReno>(); // HyStart on by default
    CcTestDriver d(reno);
    RunCssEntryRounds(d);
    EXPECT_TRUE(reno->GetHyStart()->InCss());
    EXPECT_EQ(d.Cwnd(), 31200u); // 12000 + 16 * 1200: the 8th ack of round 2 enters CSS

    d.Advance(MilliSeconds(80));
    d.SendRound(8);
    d.Rtt(MilliSeconds(80));
    d.Ack(8);
    EXPECT_FALSE(reno->GetHyStart()->InCss());
    EXPECT_EQ(d.Cwnd(), 33600u); // 31200 + 8 * 300
}

// Scenario: Reno with HyStart++ leaves CSS after 5 rounds with ssthresh = cwnd = 40800; the
// following CA round only credits bytes_acked_ca.
TEST(QuicRenoTest, HyStartCssToCongestionAvoidance)
{
    Ptr<QuicReno> reno = CreateObject<QuicReno>();
    CcTestDriver d(reno);
    RunCssEntryRounds(d);
    ASSERT_EQ(d.Cwnd(), 31200u);
    d.Advance(MilliSeconds(100));
    for (uint64_t expected : {33600u, 36000u, 38400u, 40800u, 40800u})
    {
        d.SendRound(8);
        d.Rtt(MilliSeconds(100));
        d.Ack(8);
        EXPECT_EQ(d.Cwnd(), expected);
    }
    EXPECT_EQ(d.Ssthresh(), 40800u);
    EXPECT_EQ(reno->GetBytesAckedCongestionAvoidance(), 9600u); // 8 * 1200 < 40800
    EXPECT_TRUE(reno->GetHyStart()->InPostCssExit());

    // A loss now clears HyStart++'s post-exit state and halves the window.
    d.SendN(1);
    d.Lose(1);
    EXPECT_FALSE(reno->GetHyStart()->GetCssStartTime().has_value());
    EXPECT_EQ(d.Cwnd(), 20400u); // 40800 * 0.5
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
