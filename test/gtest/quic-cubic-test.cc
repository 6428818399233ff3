/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCubic (and its PRR) against the numbers of quiche's cubic.rs and prr.rs tests
 * (cloudflare/quiche, quiche/src/recovery/congestion/cubic.rs and prr.rs `mod tests`; mss
 * 1200 B, initial cwnd 12000 B, HyStart++ off). The rows CUBIC shares with Reno (slow start,
 * multi-ack, event) run on both in quic-reno-test.cc.
 */
#include "cc-test-driver.h"

#include "ns3/enum.h"
#include "ns3/quic-cubic.h"
#include "ns3/quic-prr.h"

#include <gtest/gtest.h>
#include <string>

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

/// cbrt(7.5): K in seconds after a loss at 12000 B (W_max 10 packets, cwnd 7 packets, C 0.4).
constexpr double kCbrt7p5 = 1.9574338205844317;

// Scenario: sub-mss packets: 20 x 600 B, ack 3 then 1: the byte counter carries 600 B over.
TEST(QuicCubicTest, SlowStartCarriesRemainder)
{
    Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver d(cubic);
    for (int i = 0; i < 20; ++i)
    {
        d.Send(600);
    }
    d.Ack(3);
    EXPECT_EQ(d.Cwnd(), 13200u); // 1800 B acked: one step, 600 B carried over
    d.Ack(1);
    EXPECT_EQ(d.Cwnd(), 14400u); // 600 + 600 = 1200 B: the second step
}

// Scenario: send 1, lose it: the CUBIC variables of the new episode.
TEST(QuicCubicTest, CongestionEventState)
{
    Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver d(cubic);
    d.Send();
    d.Lose(1);
    EXPECT_EQ(d.Cwnd(), 8400u); // 12000 * 0.7
    EXPECT_DOUBLE_EQ(cubic->GetWMax(), 12000.0);
    EXPECT_DOUBLE_EQ(cubic->GetK(), kCbrt7p5); // cbrt((10 - 7) / 0.4)
    EXPECT_DOUBLE_EQ(cubic->GetWEst(), 8400.0);
    EXPECT_DOUBLE_EQ(cubic->GetAlpha(), 0.5294117647058825); // 3 * 0.3 / 1.7
}

// Scenario: products with beta are formed in double and truncated.
TEST(QuicCubicTest, ReductionTruncatesTheDoubleProduct)
{
    Ptr<QuicCubic> a = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver da(a, 71); // 85200 B
    da.Send();
    da.Lose(1);
    EXPECT_EQ(da.Cwnd(), 59639u); // 85200 * 0.7 = 59639.99999999999

    Ptr<QuicCubic> b = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver db(b, 70); // 84000 B
    db.Send();
    db.Lose(1);
    EXPECT_EQ(db.Cwnd(), 58799u); // 84000 * 0.7 = 58799.99999999999
}

// Scenario: reference "cubic CA": loss at +100 ms, then six CA acks 100 ms apart.
TEST(QuicCubicTest, CongestionAvoidance)
{
    Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver d(cubic);
    d.SendN(10);
    d.Advance(MilliSeconds(100));
    d.Lose(1); // R = t0 + 100 ms
    EXPECT_EQ(d.Cwnd(), 8400u);
    EXPECT_DOUBLE_EQ(cubic->GetK(), kCbrt7p5);

    d.Rtt(MilliSeconds(100));
    d.Advance(MilliSeconds(100));
    d.Ack(8);   // sent at t0: in recovery
    d.SendN(8); // at t0 + 200 ms, 1200 B still in flight: no idle shift; fills cwnd
    d.Advance(MilliSeconds(100));
    d.Ack(1); // the last packet of the first flight: in recovery
    EXPECT_EQ(d.Cwnd(), 8400u);
    EXPECT_EQ(cubic->GetCwndIncrement(), 0u);

    // First CA ack at t0 + 300 ms: t = 200 ms, target W_cubic(0.3 s) = 9814.5;
    // cwnd_inc += 1200 * (9814 - 8400) / 8400 = 202.
    d.Ack(1);
    EXPECT_EQ(d.Cwnd(), 8400u);
    EXPECT_EQ(cubic->GetCwndIncrement(), 202u);
    d.Advance(MilliSeconds(100));
    for (int i = 0; i < 5; ++i)
    {
        d.Ack(1);
        d.Advance(MilliSeconds(100));
    }
    EXPECT_EQ(d.Cwnd(), 9600u);                             // 8400 + 1200
    EXPECT_EQ(d.RecoveryStart(), T0() + MilliSeconds(100)); // the epoch never moved
}

// Scenario: reference "cubic spurious event": the first checkpoint (slow start) refuses, the
// second episode is undone by the heuristic on the next ack.
TEST(QuicCubicTest, SpuriousCongestionEvent)
{
    Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver d(cubic);
    d.SendN(10);
    d.Lose(1); // at t0: R = t0; checkpoint {12000, max}: slow start
    EXPECT_EQ(d.Cwnd(), 8400u);
    d.Rtt(MilliSeconds(100));

    // new_lost 1 < max(7 * 20 / 100, 2) = 2, but the saved state is slow start: no rollback.
    d.InjectAck(T0() + MilliSeconds(100), T0() + MilliSeconds(105));
    EXPECT_EQ(d.Cwnd(), 8400u);

    d.Advance(MilliSeconds(100));
    // Sent at t0 + 100 ms > R: new episode; checkpoint {8400, 8400, W_max 12000, K cbrt(7.5),
    // R t0, lost 1}; fast convergence W_max = 8400 * 1.7 / 2 = 7140; cwnd 8400 * 0.7 = 5880.
    d.Lose(1, T0() + MilliSeconds(100));
    EXPECT_EQ(d.Cwnd(), 5880u);
    EXPECT_EQ(d.Ssthresh(), 5880u);
    EXPECT_DOUBLE_EQ(cubic->GetWMax(), 7140.0);
    EXPECT_EQ(d.RecoveryStart(), T0() + MilliSeconds(100));

    d.Advance(MilliSeconds(105));
    // new_lost = 2 - 1 = 1 < max(4 * 20 / 100, 2) = 2: roll back to the checkpoint.
    d.InjectAck(T0() + MilliSeconds(305), T0() + MilliSeconds(310));
    EXPECT_EQ(d.Cwnd(), 8400u);
    EXPECT_EQ(d.Ssthresh(), 8400u);
    EXPECT_EQ(d.RecoveryStart(), T0());
    EXPECT_DOUBLE_EQ(cubic->GetWMax(), 12000.0);
    EXPECT_DOUBLE_EQ(cubic->GetK(), kCbrt7p5);
    EXPECT_EQ(cubic->GetLostCount(), 2u); // not restored
}

// Scenario: Rollback() (the spurious-loss call of loss detection) refuses once cwnd is back at
// or above the saved window, and refuses without any checkpoint.
TEST(QuicCubicTest, RollbackRefusals)
{
    Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver d(cubic);
    EXPECT_FALSE(cubic->Rollback()); // no checkpoint yet
    d.SendN(10);
    d.Lose(1);                       // checkpoint from slow start
    EXPECT_FALSE(cubic->Rollback()); // never back into slow start
    EXPECT_EQ(d.Cwnd(), 8400u);

    d.Advance(MilliSeconds(100));
    d.Lose(1, d.Now()); // checkpoint {8400, 8400}: cwnd 5880
    EXPECT_TRUE(cubic->Rollback());
    EXPECT_EQ(d.Cwnd(), 8400u);
    EXPECT_FALSE(cubic->Rollback()); // cwnd 8400 >= saved 8400
}

// Scenario: reference "cubic fast convergence".
TEST(QuicCubicTest, FastConvergence)
{
    Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver d(cubic);
    d.SendN(10);
    d.Lose(1); // at t0: R = t0
    EXPECT_EQ(d.Cwnd(), 8400u);
    d.Rtt(MilliSeconds(100));
    d.Advance(MilliSeconds(100));
    d.Ack(8);
    d.SendN(7); // 1200 B still in flight: no idle shift
    d.Ack(1);
    d.Advance(MilliSeconds(100));
    for (int i = 0; i < 6; ++i)
    {
        d.Ack(1); // at t0 + 200 ms: +202 each; the 6th reaches 1212
    }
    EXPECT_EQ(d.Cwnd(), 9600u);
    EXPECT_EQ(cubic->GetCwndIncrement(), 12u); // 6 * 202 - 1200

    d.Lose(1);                  // sent at t0 + 100 ms > R: new episode below W_max 12000
    EXPECT_EQ(d.Cwnd(), 6720u); // 9600 * 0.7
    EXPECT_DOUBLE_EQ(cubic->GetWMax(), 8160.0); // 9600 * (1 + 0.7) / 2
    EXPECT_EQ(cubic->GetCwndIncrement(), 8u);   // trunc(12 * 0.7)
}

// Scenario: the rollback heuristic re-checks on every ack against the current cwnd: 15 losses
// at 120000 -> 84000 (70 packets, threshold 14: kept); once cwnd reaches 80 packets the threshold
// is 16 > 15 and the episode is undone to 120000. cwnd = ssthresh = 120000 comes from HyStart++
// (initial window 76 packets + 8 + 8 packets of slow start + 4 CSS rounds of 8 x 300 B).
TEST(QuicCubicTest, RollbackHeuristicFiresLater)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>(); // HyStart++ on
    CcTestDriver d(cubic, 76);                        // 91200 B
    RunCssEntryRounds(d);                             // 91200 + 16 * 1200 = 110400, in CSS
    d.Advance(MilliSeconds(100));
    for (int round = 0; round < 4; ++round)
    {
        d.SendRound(8);
        d.Rtt(MilliSeconds(100));
        d.Ack(8);
    }
    ASSERT_EQ(d.Cwnd(), 120000u);
    ASSERT_EQ(d.Ssthresh(), 120000u);

    d.Advance(MilliSeconds(100));
    d.SendN(100); // fills 120000: not app-limited
    d.Advance(MilliSeconds(100));
    d.Lose(15);                  // checkpoint {120000, 120000, R unset, lost 0}
    EXPECT_EQ(d.Cwnd(), 84000u); // 120000 * 0.7
    d.Ack(85);                   // sent before R: in recovery

    bool sawSeventyNinePackets = false;
    bool rolledBack = false;
    for (int cycle = 0; cycle < 50 && !rolledBack; ++cycle)
    {
        const uint64_t packets = (d.Cwnd() + kMss - 1) / kMss;
        d.SendN(packets); // fills cwnd: not app-limited
        d.Advance(MilliSeconds(100));
        for (uint64_t i = 0; i < packets && !rolledBack; ++i)
        {
            const uint64_t before = d.Cwnd();
            d.Ack(1);
            if (before >= 96000u) // 80 packets: threshold 80 * 20 / 100 = 16 > 15 new losses
            {
                EXPECT_EQ(before, 96000u);
                EXPECT_EQ(d.Cwnd(), 120000u);
                EXPECT_EQ(d.Ssthresh(), 120000u);
                EXPECT_FALSE(d.RecoveryStart().has_value()); // the saved R was unset
                rolledBack = true;
            }
            else
            {
                sawSeventyNinePackets |= before == 94800u; // 79 packets: threshold 15, kept
                EXPECT_LT(d.Cwnd(), 120000u);
                EXPECT_EQ(d.Ssthresh(), 84000u);
            }
        }
    }
    EXPECT_TRUE(sawSeventyNinePackets);
    EXPECT_TRUE(rolledBack);
}

// Scenario: PRR (RFC 6937) numbers of quiche's prr.rs tests (mss 1000, RecoverFS 10000,
// ssthresh 5000).
TEST(QuicPrrTest, ProportionalAndSlowStartReductionBound)
{
    QuicPrr prr;
    prr.CongestionEvent(10000);
    EXPECT_EQ(prr.GetRecoverFs(), 10000u);
    EXPECT_EQ(prr.SendCount(), 0u);

    prr.OnPacketAcked(1000, 10000, 5000, 1000); // pipe > ssthresh: ceil(1000 * 5000 / 10000)
    EXPECT_EQ(prr.SendCount(), 500u);
    prr.OnPacketSent(500);
    EXPECT_EQ(prr.GetOut(), 500u);
    prr.OnPacketAcked(1000, 10000, 5000, 1000); // ceil(2000 * 5000 / 10000) - 500
    EXPECT_EQ(prr.SendCount(), 500u);

    QuicPrr over;
    over.CongestionEvent(10000);
    over.OnPacketSent(1000);
    over.OnPacketAcked(1000, 11000, 5000, 1000); // 500 - 1000 < 0 -> 0
    EXPECT_EQ(over.SendCount(), 0u);

    QuicPrr empty;
    empty.CongestionEvent(0);
    empty.OnPacketAcked(1000, 4000, 3000, 1000); // RecoverFS 0
    EXPECT_EQ(empty.SendCount(), 0u);

    QuicPrr ssrb;
    ssrb.CongestionEvent(10000);
    ssrb.OnPacketAcked(1000, 1000, 5000, 1000); // min(5000 - 1000, max(1000, 1000) + 1000)
    EXPECT_EQ(ssrb.SendCount(), 2000u);
    ssrb.OnPacketSent(2000);
    ssrb.OnPacketAcked(1000, 1000, 5000, 1000); // max(2000 - 2000, 1000) + 1000
    EXPECT_EQ(ssrb.SendCount(), 2000u);

    QuicPrr ssrbOver;
    ssrbOver.CongestionEvent(10000);
    ssrbOver.OnPacketSent(1000);
    ssrbOver.OnPacketAcked(500, 1000, 5000, 1000); // max(0, 500) + 1000
    EXPECT_EQ(ssrbOver.SendCount(), 1500u);
}

// Scenario: in recovery, CUBIC's send budget is the window room plus PRR's send count.
TEST(QuicCubicTest, PrrSendBudgetInRecovery)
{
    Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
    CcTestDriver d(cubic);
    d.SendN(10);
    d.Advance(MilliSeconds(100));
    d.Lose(1); // RecoverFS 12000, ssthresh 8400, 10800 in flight
    EXPECT_EQ(cubic->GetPrr().GetRecoverFs(), 12000u);
    EXPECT_EQ(cubic->GetBytesAvailable(d.BytesInFlight()), 0u);
    d.Ack(1); // pipe 10800 > 8400: ceil(1200 * 8400 / 12000) = 840
    EXPECT_EQ(cubic->GetPrr().SendCount(), 840u);
    EXPECT_EQ(cubic->GetBytesAvailable(d.BytesInFlight()), 840u); // 9600 in flight > cwnd
    d.Send();                                                     // uses it up
    EXPECT_EQ(cubic->GetPrr().SendCount(), 0u);
}

/// The IdleRestart attribute value of \p mode.
std::string
IdleRestartString(QuicCubic::IdleRestart mode)
{
    switch (mode)
    {
    case QuicCubic::IDLE_RESTART_LAST_SENT:
        return "LastSent";
    case QuicCubic::IDLE_RESTART_LAST_ACTIVITY:
        return "LastActivity";
    case QuicCubic::IDLE_RESTART_LAST_SENT_CLAMPED:
        return "LastSentClamped";
    case QuicCubic::IDLE_RESTART_OFF:
        return "Off";
    case QuicCubic::IDLE_RESTART_ACK_GAP:
        return "AckGap";
    case QuicCubic::IDLE_RESTART_APP_LIMITED_TIME:
        return "AppLimitedTime";
    case QuicCubic::IDLE_RESTART_EPOCH_RESET:
        return "EpochReset";
    }
    return "Unknown";
}

/// The reference idle scenarios under each IdleRestart rule.
class QuicCubicIdleTest : public ::testing::TestWithParam<QuicCubic::IdleRestart>
{
  protected:
    /// CUBIC, HyStart++ off, with the rule under test.
    Ptr<QuicCubic> MakeController() const
    {
        Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
        cubic->SetAttribute("IdleRestart", EnumValue(GetParam()));
        return cubic;
    }
};

/// Expected end state of an idle scenario under one IdleRestart rule.
struct IdleOutcome
{
    uint64_t cwnd;                    //!< bytes
    Time recoveryStart;               //!< R, as an offset from t0
    std::optional<Time> lastSentTime; //!< offset from t0; nullopt = not checked
};

/// \return the row of \p table for \p rule (tables are indexed by IdleRestart).
const IdleOutcome&
Row(const IdleOutcome (&table)[4], QuicCubic::IdleRestart rule)
{
    return table[rule];
}

// Scenario: reference "cubic perpetual-recovery trap": 20 x {send 7 into an empty pipe; +100 ms;
// ack 7}, every burst at one instant.
// - LastSent (quiche 2020): each first send shifts R by one cycle (100 ms), so R stays at or
//   after the new burst's send time: every ack is "in recovery", cwnd is stuck at 8400 and R
//   ends at t0 + 100 ms + 20 * 100 ms.
// - LastActivity (quiche 2026): the idle time counts from the last ACK, which is the send
//   instant: no shift. The 1st burst (sent at R) is in recovery, the 2nd grows cwnd to 9600 at
//   t0 + 300 ms, later bursts (7 < 8 packets) are app-limited.
// - LastSentClamped: R would move past now, so it is clamped to now = the burst's send time;
//   timeSent <= R still holds, so the trap persists (cwnd 8400), with R at the last burst's send
//   time, t0 + 2000 ms. Clamping to now does not help a burst sent at one instant.
// - Off: R never moves: same windows as LastActivity.
TEST_P(QuicCubicIdleTest, PerpetualRecoveryTrap)
{
    const IdleOutcome expected[] = {
        {8400, MilliSeconds(2100), MilliSeconds(2000)}, // LastSent
        {9600, MilliSeconds(100), MilliSeconds(2000)},  // LastActivity
        {8400, MilliSeconds(2000), MilliSeconds(2000)}, // LastSentClamped
        {9600, MilliSeconds(100), MilliSeconds(2000)},  // Off
    };
    Ptr<QuicCubic> cubic = MakeController();
    CcTestDriver d(cubic);
    LoseOneThenDrain(d);
    for (int cycle = 1; cycle <= 20; ++cycle)
    {
        d.SendAdvanceAck(7, MilliSeconds(100));
        if (GetParam() == QuicCubic::IDLE_RESTART_LAST_SENT)
        {
            EXPECT_EQ(d.RecoveryStart(), T0() + MilliSeconds(100 + 100 * cycle)) << cycle;
        }
    }
    const IdleOutcome& e = Row(expected, GetParam());
    EXPECT_EQ(d.Cwnd(), e.cwnd);
    EXPECT_EQ(d.RecoveryStart(), T0() + e.recoveryStart);
    EXPECT_EQ(cubic->GetLastSentTime(), T0() + *e.lastSentTime);
}

// Scenario: reference "cubic genuine idle": after the drain, idle 5 s, send 7 at t0 + 5100 ms,
// ack them 100 ms later.
// - LastActivity: idle counted from the last ACK (t0 + 100 ms): R += 5000 ms = the send time,
//   so the 7 are in recovery: 8400.
// - LastSent: counted from the last send (t0): R += 5100 ms, past the send time: 8400.
// - LastSentClamped: R + 5100 ms clamped to now = the send time: 8400.
// - Off: R stays at t0 + 100 ms, t = 5.1 s is far along the curve, the target is clipped to
//   1.5 cwnd: +600 B of cwnd_inc per ack, so 7 acks give 3 steps: 8400 -> 12000.
TEST_P(QuicCubicIdleTest, GenuineIdle)
{
    const IdleOutcome expected[] = {
        {8400, MilliSeconds(5200), std::nullopt}, // LastSent
        {8400, MilliSeconds(5100), std::nullopt}, // LastActivity
        {8400, MilliSeconds(5100), std::nullopt}, // LastSentClamped
        {12000, MilliSeconds(100), std::nullopt}, // Off
    };
    Ptr<QuicCubic> cubic = MakeController();
    CcTestDriver d(cubic);
    LoseOneThenDrain(d);
    d.Advance(Seconds(5));
    d.SendN(7);
    d.Advance(MilliSeconds(100));
    d.Ack(7);
    const IdleOutcome& e = Row(expected, GetParam());
    EXPECT_EQ(d.Cwnd(), e.cwnd);
    EXPECT_EQ(d.RecoveryStart(), T0() + e.recoveryStart);
}

// Scenario: reference "cubic zero-byte send": loss at +100 ms, ack all, +500 ms send a 0-byte
// (not ack-eliciting) packet.
// - LastActivity: a 0-byte packet is no activity: R and last_sent_time unchanged.
// - LastSent: R += 600 ms (since the send at t0), last_sent_time = t0 + 600 ms.
// - LastSentClamped: R + 600 ms clamped to now (t0 + 600 ms).
// - Off: R unchanged; the send is still recorded.
TEST_P(QuicCubicIdleTest, ZeroByteSend)
{
    const IdleOutcome expected[] = {
        {8400, MilliSeconds(700), MilliSeconds(600)}, // LastSent
        {8400, MilliSeconds(100), MilliSeconds(0)},   // LastActivity
        {8400, MilliSeconds(600), MilliSeconds(600)}, // LastSentClamped
        {8400, MilliSeconds(100), MilliSeconds(600)}, // Off
    };
    Ptr<QuicCubic> cubic = MakeController();
    CcTestDriver d(cubic);
    LoseOneThenDrain(d);
    d.Advance(MilliSeconds(500));
    d.Send(0);
    const IdleOutcome& e = Row(expected, GetParam());
    EXPECT_EQ(d.Cwnd(), e.cwnd);
    EXPECT_EQ(d.RecoveryStart(), T0() + e.recoveryStart);
    EXPECT_EQ(cubic->GetLastSentTime(), T0() + *e.lastSentTime);
}

INSTANTIATE_TEST_SUITE_P(IdleRestart,
                         QuicCubicIdleTest,
                         ::testing::Values(QuicCubic::IDLE_RESTART_LAST_SENT,
                                           QuicCubic::IDLE_RESTART_LAST_ACTIVITY,
                                           QuicCubic::IDLE_RESTART_LAST_SENT_CLAMPED,
                                           QuicCubic::IDLE_RESTART_OFF),
                         [](const ::testing::TestParamInfo<QuicCubic::IdleRestart>& info) {
                             return IdleRestartString(info.param);
                         });

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
