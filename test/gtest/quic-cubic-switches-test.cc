/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The study switches of the controllers, each against values derived from its public source:
 * - IdleRestart AckGap (msquic src/core/cubic.c, CubicCongestionControlOnDataAcknowledged),
 *   AppLimitedTime (ngtcp2 lib/ngtcp2_cc.c, ngtcp2_cc_cubic_cc_on_ack_recv), EpochReset
 *   (picoquic picoquic/cubic.c, picoquic_cubic_notify; FreeBSD sys/netinet/cc/cc_cubic.c,
 *   cubic_after_idle);
 * - RestartWindow (RFC 5681 Section 4.1; FreeBSD newreno_cc_after_idle);
 * - EpochSource Separate (RFC 9002 Section 7.3.2: R is set by congestion events only);
 * - RenoFriendly Rfc9438 (RFC 9438 Section 4.3: alpha becomes 1 at cwnd_prior);
 * - QuicHyStartPlusPlus::L (RFC 9406 Section 4.2);
 * - the persistent-congestion hook (RFC 9002 Section 7.6.2).
 * mss 1200 B, initial cwnd 12000 B, HyStart++ off unless stated.
 */
#include "cc-test-driver.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/quic-cubic.h"
#include "ns3/quic-reno.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <gtest/gtest.h>

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

/// CUBIC without HyStart++, with \p idle and \p epoch.
Ptr<QuicCubic>
MakeCubic(QuicCubic::IdleRestart idle,
          QuicCubic::EpochSource epoch = QuicCubic::EPOCH_SHARED_WITH_RECOVERY)
{
    Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
    cubic->SetAttribute("IdleRestart", EnumValue(idle));
    cubic->SetAttribute("EpochSource", EnumValue(epoch));
    return cubic;
}

/// Reno or CUBIC with HyStart++ on or off.
Ptr<QuicCongestionController>
MakeAlgorithm(bool reno, bool hyStart)
{
    Ptr<QuicCongestionController> cc;
    if (reno)
    {
        cc = CreateObject<QuicReno>();
    }
    else
    {
        cc = CreateObject<QuicCubic>();
    }
    cc->SetAttribute("HyStart", BooleanValue(hyStart));
    return cc;
}

// --- AckGap (msquic) -------------------------------------------------------------------------

// msquic moves TimeOfCongAvoidStart by TimeSinceLastAck when that gap exceeds BOTH
// SendIdleTimeoutMs and SmoothedRtt + 4 RttVariance (here 100 + 4 * 50 = 300 ms), never past now.
// The loss at t0 + 100 ms sets R; the drain ACK comes at t0 + 200 ms; then idle, 7 packets are
// sent at t0 + 200 ms + idle and acked 100 ms later: the gap between the ACK frames is idle +
// 100 ms. AckGap does nothing at send time.
struct AckGapCase
{
    Time sendIdleTimeout; //!< attribute
    Time idle;            //!< between the drain ACK and the 7 sends
    bool shifts;          //!< msquic's two conditions both hold
};

/// Readable parameter in test output (no raw bytes).
void
PrintTo(const AckGapCase& c, std::ostream* os)
{
    *os << "SendIdleTimeout " << c.sendIdleTimeout.GetMilliSeconds() << " ms, idle "
        << c.idle.GetMilliSeconds() << " ms, " << (c.shifts ? "shifts" : "no shift");
}

class QuicCubicAckGapTest : public ::testing::TestWithParam<AckGapCase>
{
};

TEST_P(QuicCubicAckGapTest, EpochMovesByTheGapBetweenAcks)
{
    const AckGapCase& c = GetParam();
    Ptr<QuicCubic> cubic = MakeCubic(QuicCubic::IDLE_RESTART_ACK_GAP);
    cubic->SetAttribute("SendIdleTimeout", TimeValue(c.sendIdleTimeout));
    CcTestDriver d(cubic);
    LoseOneThenDrain(d, MilliSeconds(100)); // drain ACK at t0 + 200 ms
    d.Advance(c.idle);
    d.SendN(7);
    EXPECT_EQ(d.RecoveryStart(), T0() + MilliSeconds(100)); // nothing at send time
    d.Advance(MilliSeconds(100));
    d.Ack(1);
    const Time gap = c.idle + MilliSeconds(100);
    const Time expected =
        c.shifts ? std::min(T0() + MilliSeconds(100) + gap, d.Now()) : T0() + MilliSeconds(100);
    EXPECT_EQ(d.RecoveryStart(), expected);
    EXPECT_EQ(cubic->GetEpochStart(), expected);
}

INSTANTIATE_TEST_SUITE_P(
    Msquic,
    QuicCubicAckGapTest,
    ::testing::Values(
        // gap 1.6 s > 1 s and > 300 ms: epoch t0 + 100 ms + 1.6 s = t0 + 1700 ms (< now 1800)
        AckGapCase{Seconds(1), MilliSeconds(1500), true},
        // gap 0.9 s < SendIdleTimeout 1 s: no shift
        AckGapCase{Seconds(1), MilliSeconds(800), false},
        // SendIdleTimeout 100 ms: gap 250 ms < SRTT + 4 RTTVAR = 300 ms: no shift
        AckGapCase{MilliSeconds(100), MilliSeconds(150), false},
        // SendIdleTimeout 100 ms: gap 350 ms > 300 ms: shift to t0 + 450 ms (now t0 + 550 ms)
        AckGapCase{MilliSeconds(100), MilliSeconds(250), true}));

// Clamp: with the drain ACK at the loss instant, R + gap would be now + 0: msquic's
// "if now <= TimeOfCongAvoidStart: TimeOfCongAvoidStart = now" keeps the epoch at now.
TEST(QuicCubicAckGapTest, NeverPastNow)
{
    Ptr<QuicCubic> cubic = MakeCubic(QuicCubic::IDLE_RESTART_ACK_GAP);
    CcTestDriver d(cubic);
    d.SendN(10);
    d.Rtt(MilliSeconds(100));
    d.Advance(MilliSeconds(100));
    d.Ack(9); // slow start: 22800; previous ACK frame at t0 + 100 ms
    d.Advance(MilliSeconds(50));
    d.Lose(1); // loss timer at t0 + 150 ms: R = t0 + 150 ms, cwnd 15960, pipe empty
    ASSERT_EQ(d.RecoveryStart(), T0() + MilliSeconds(150));
    d.Advance(Seconds(2));
    d.SendN(14); // fills the window: not app-limited
    d.Advance(MilliSeconds(100));
    d.Ack(1); // gap 2.15 s: R + gap = t0 + 2300 ms > now = t0 + 2250 ms -> now
    EXPECT_EQ(d.RecoveryStart(), d.Now());
}

// --- AppLimitedTime (ngtcp2) ----------------------------------------------------------------

/// Drained at t0 + 100 ms; +100 ms send 3 (app-limited); +100 ms ack 3 (app-limited in CA,
/// opens the period at t0 + 300 ms); send 7 (window full); +\p wait.
void
AppLimitedPrefix(CcTestDriver& d, Time wait)
{
    LoseOneThenDrain(d);
    d.Advance(MilliSeconds(100));
    d.SendN(3);
    d.Advance(MilliSeconds(100));
    d.Ack(3);
    d.SendN(7);
    d.Advance(wait);
}

/// AppLimitedPrefix, then ack the 7 one frame each. \return {cwnd, cwnd_inc} at the end
std::pair<uint64_t, uint64_t>
AppLimitedScenario(Ptr<QuicCubic> cubic, Time wait)
{
    CcTestDriver d(cubic);
    AppLimitedPrefix(d, wait);
    for (int i = 0; i < 7; ++i)
    {
        d.Ack(1);
    }
    return {d.Cwnd(), cubic->GetCwndIncrement()};
}

// ngtcp2: t = now - epoch_start - app_limited_duration, the duration closed by the first ack
// that is not app-limited. Acking the 7 at t0 + 800 ms after a 500 ms app-limited period must
// give exactly the window Off gives when they are acked at t0 + 300 ms (same t, same state).
TEST(QuicCubicAppLimitedTimeTest, LeftOutOfT)
{
    Ptr<QuicCubic> appLimited = MakeCubic(QuicCubic::IDLE_RESTART_APP_LIMITED_TIME);
    const auto withPeriod = AppLimitedScenario(appLimited, MilliSeconds(500));
    EXPECT_EQ(appLimited->GetAppLimitedDuration(), MilliSeconds(500));
    EXPECT_EQ(appLimited->GetRecoveryStartTime(), T0() + MilliSeconds(100));

    const auto sameT = AppLimitedScenario(MakeCubic(QuicCubic::IDLE_RESTART_OFF), Time(0));
    EXPECT_EQ(withPeriod, sameT);
    // Without the rule, t is 500 ms larger: a different point of the curve.
    EXPECT_NE(AppLimitedScenario(MakeCubic(QuicCubic::IDLE_RESTART_OFF), MilliSeconds(500)),
              withPeriod);
}

// ngtcp2_cc_cubic_cc_congestion_event: app_limited_duration = 0.
TEST(QuicCubicAppLimitedTimeTest, ClearedAtCongestionEvent)
{
    Ptr<QuicCubic> cubic = MakeCubic(QuicCubic::IDLE_RESTART_APP_LIMITED_TIME);
    CcTestDriver d(cubic);
    AppLimitedPrefix(d, MilliSeconds(300));
    d.Ack(1);
    ASSERT_EQ(cubic->GetAppLimitedDuration(), MilliSeconds(300));
    d.Lose(1);
    EXPECT_EQ(cubic->GetAppLimitedDuration(), Time(0));
}

// --- EpochReset (picoquic / FreeBSD) and EpochSource -----------------------------------------

// picoquic_cubic_notify: start_of_epoch = max(start_of_epoch, last_sender_limited_time); FreeBSD
// cubic_after_idle: t_epoch = now. After 5 s idle the epoch is the send time. Shared with R,
// that puts the 7 packets sent at that instant in recovery (cwnd stays 8400); Separate leaves R
// alone and the 7 grow the window from t = 0 on the curve.
TEST(QuicCubicEpochResetTest, GenuineIdle)
{
    for (auto source : {QuicCubic::EPOCH_SHARED_WITH_RECOVERY, QuicCubic::EPOCH_SEPARATE})
    {
        Ptr<QuicCubic> cubic = MakeCubic(QuicCubic::IDLE_RESTART_EPOCH_RESET, source);
        CcTestDriver d(cubic);
        LoseOneThenDrain(d);
        d.Advance(Seconds(5));
        d.SendN(7);
        const Time sendTime = d.Now();
        EXPECT_EQ(cubic->GetEpochStart(), sendTime);
        d.Advance(MilliSeconds(100));
        d.Ack(7);
        if (source == QuicCubic::EPOCH_SHARED_WITH_RECOVERY)
        {
            EXPECT_EQ(d.RecoveryStart(), sendTime);
            EXPECT_EQ(d.Cwnd(), 8400u);
        }
        else
        {
            EXPECT_EQ(d.RecoveryStart(), T0() + MilliSeconds(100));
            EXPECT_EQ(cubic->GetEpochStart(), sendTime);
            // Not in recovery: W_est grows (Reno-friendly region at t = 0.1 s).
            EXPECT_GT(cubic->GetWEst(), 8400.0);
        }
    }
}

/// Every IdleRestart value.
const QuicCubic::IdleRestart kAllIdle[] = {QuicCubic::IDLE_RESTART_LAST_SENT,
                                           QuicCubic::IDLE_RESTART_LAST_ACTIVITY,
                                           QuicCubic::IDLE_RESTART_LAST_SENT_CLAMPED,
                                           QuicCubic::IDLE_RESTART_OFF,
                                           QuicCubic::IDLE_RESTART_ACK_GAP,
                                           QuicCubic::IDLE_RESTART_APP_LIMITED_TIME,
                                           QuicCubic::IDLE_RESTART_EPOCH_RESET};

// Reference "perpetual-recovery trap" (20 x {send 7 into an empty pipe; +100 ms; ack 7}) under
// every rule with a separate epoch: R is set by the loss only (RFC 9002 Section 7.3.2), so no
// rule can trap the window; it escapes 8400 B. With the shared epoch, the rules that move R to
// (or past) the burst's send time trap it, as quiche's 2020 logic does.
TEST(QuicCubicEpochSourceTest, SeparateEpochNeverMovesR)
{
    for (QuicCubic::IdleRestart idle : kAllIdle)
    {
        for (auto source : {QuicCubic::EPOCH_SHARED_WITH_RECOVERY, QuicCubic::EPOCH_SEPARATE})
        {
            Ptr<QuicCubic> cubic = MakeCubic(idle, source);
            CcTestDriver d(cubic);
            LoseOneThenDrain(d);
            for (int cycle = 1; cycle <= 20; ++cycle)
            {
                d.SendAdvanceAck(7, MilliSeconds(100));
            }
            const bool traps = source == QuicCubic::EPOCH_SHARED_WITH_RECOVERY &&
                               (idle == QuicCubic::IDLE_RESTART_LAST_SENT ||
                                idle == QuicCubic::IDLE_RESTART_LAST_SENT_CLAMPED ||
                                idle == QuicCubic::IDLE_RESTART_EPOCH_RESET);
            if (source == QuicCubic::EPOCH_SEPARATE)
            {
                EXPECT_EQ(d.RecoveryStart(), T0() + MilliSeconds(100)) << idle;
            }
            if (traps)
            {
                EXPECT_EQ(d.Cwnd(), 8400u) << idle << " " << source;
                EXPECT_GE(*d.RecoveryStart(), T0() + MilliSeconds(2000)) << idle;
            }
            else
            {
                EXPECT_GT(d.Cwnd(), 8400u) << idle << " " << source;
            }
        }
    }
}

// Separate + LastSent: the epoch takes exactly the 2020 shifts (100 ms per cycle) that R takes
// in quiche, while R stays at the loss.
TEST(QuicCubicEpochSourceTest, SeparateEpochTakesTheShift)
{
    Ptr<QuicCubic> cubic = MakeCubic(QuicCubic::IDLE_RESTART_LAST_SENT, QuicCubic::EPOCH_SEPARATE);
    CcTestDriver d(cubic);
    LoseOneThenDrain(d);
    ASSERT_EQ(cubic->GetEpochStart(), T0() + MilliSeconds(100)); // set by the congestion event
    d.SendN(7);
    EXPECT_EQ(cubic->GetEpochStart(), T0() + MilliSeconds(200)); // + (now - last send at t0)
    EXPECT_EQ(d.RecoveryStart(), T0() + MilliSeconds(100));
}

// --- RestartWindow (RFC 5681 Section 4.1) -----------------------------------------------------

// Initial window 4 packets; slow start to 9600 B with one ACK frame at t0 (RTO = srtt 100 ms +
// 4 * rttvar 50 ms = 300 ms). A send after 250 ms of silence keeps cwnd; after 350 ms,
// cwnd = min(IW 4800, 9600) (FreeBSD newreno_cc_after_idle).
TEST(QuicRestartWindowTest, AfterIdleLongerThanRto)
{
    for (int64_t idleMs : {250, 350})
    {
        for (bool on : {false, true})
        {
            Ptr<QuicCubic> cubic = MakeCubic(QuicCubic::IDLE_RESTART_LAST_ACTIVITY);
            cubic->SetAttribute("RestartWindow", BooleanValue(on));
            CcTestDriver d(cubic, 4);
            d.SendN(4);
            d.Rtt(MilliSeconds(100));
            d.Ack(4);
            ASSERT_EQ(d.Cwnd(), 9600u);
            d.Advance(MilliSeconds(idleMs));
            d.Send();
            EXPECT_EQ(d.Cwnd(), (on && idleMs > 300) ? 4800u : 9600u) << idleMs << " " << on;
        }
    }
}

// --- RenoFriendly (RFC 9438 Section 4.3) ------------------------------------------------------

/// W_est after a loss at cwnd_prior (packets) reduced to cwnd0, growing alpha_aimd per RTT until
/// it reaches \p switchAt, then 1 per RTT; \p rtts RTTs after the loss.
double
PredictedWEst(double cwnd0, double switchAt, double rtts)
{
    const double alphaAimd = 3.0 * (1.0 - 0.7) / (1.0 + 0.7);
    const double rttsToSwitch = (switchAt - cwnd0) / alphaAimd;
    if (rtts <= rttsToSwitch)
    {
        return cwnd0 + alphaAimd * rtts;
    }
    return switchAt + (rtts - rttsToSwitch);
}

// A loss at cwnd 143 packets, then one at ~100 packets (cwnd_prior 120119 B) under fast
// convergence: W_max = 0.85 cwnd_prior (85.08 packets), cwnd = 70.07 packets, K = 3.35 s.
// Every RTT (100 ms) a full window is sent and acked packet by packet. The region is
// Reno-friendly (W_cubic(t) <= ~85 packets < W_est), so cwnd follows W_est: quiche switches
// alpha to 1 at W_max, RFC 9438 at cwnd_prior, so 3.35 s and 4 s after the loss the windows
// are those the two rules predict (within one packet: cwnd lags W_est by < 1 mss, and an RTT
// acks floor(cwnd / mss) packets).
TEST(QuicCubicRenoFriendlyTest, AlphaSwitchPoint)
{
    double at335[2] = {0, 0};
    double at4[2] = {0, 0};
    for (auto mode : {QuicCubic::RENO_FRIENDLY_QUICHE, QuicCubic::RENO_FRIENDLY_RFC9438})
    {
        Ptr<QuicCubic> cubic = CreateWithoutHyStart<QuicCubic>();
        cubic->SetAttribute("RenoFriendly", EnumValue(mode));
        cubic->SetAttribute("SpuriousLossRollback", BooleanValue(false));
        cubic->SetAttribute("IdleRestart", EnumValue(QuicCubic::IDLE_RESTART_OFF));
        CcTestDriver d(cubic, 143);
        d.Rtt(MilliSeconds(100));
        d.Send();
        d.Lose(1); // 171600 -> 120119
        ASSERT_EQ(d.Cwnd(), 120119u);
        ASSERT_EQ(cubic->GetCwndPrior(), 171600.0);
        d.Advance(MilliSeconds(100));
        d.Send();
        d.Lose(1); // new episode: fast convergence
        const Time lossTime = d.Now();
        const double cwndPrior = cubic->GetCwndPrior();
        ASSERT_EQ(cwndPrior, 120119.0);
        ASSERT_DOUBLE_EQ(cubic->GetWMax(), 120119.0 * 1.7 / 2.0);
        ASSERT_EQ(d.Cwnd(), 84083u);
        ASSERT_NEAR(cubic->GetK(), 3.35, 0.005);
        for (int rtt = 1; rtt <= 40; ++rtt)
        {
            const uint64_t n = d.Cwnd() / kMss;
            d.SendN(n);
            cubic->SetAppLimited(false);
            d.Advance(MilliSeconds(100));
            for (uint64_t i = 0; i < n; ++i)
            {
                d.Ack(1);
            }
            const Time since = d.Now() - lossTime;
            if (since == MilliSeconds(3400)) // first RTT boundary past K = 3.35 s
            {
                at335[mode] = static_cast<double>(d.Cwnd()) / kMss;
            }
        }
        at4[mode] = static_cast<double>(d.Cwnd()) / kMss;
        EXPECT_DOUBLE_EQ(cubic->GetAlpha(),
                         mode == QuicCubic::RENO_FRIENDLY_QUICHE ? 1.0 : 9.0 / 17.0);
    }
    const double cwnd0 = 84083.0 / kMss;
    const double wMax = 120119.0 * 0.85 / kMss;
    const double prior = 120119.0 / kMss;
    // The first RTT after the loss sends the packets acked at +100 ms; the window at +3.4 s has
    // seen 34 RTTs of acks, at +4 s 40.
    EXPECT_NEAR(at335[QuicCubic::RENO_FRIENDLY_QUICHE], PredictedWEst(cwnd0, wMax, 34), 1.0);
    EXPECT_NEAR(at335[QuicCubic::RENO_FRIENDLY_RFC9438], PredictedWEst(cwnd0, prior, 34), 1.0);
    EXPECT_NEAR(at4[QuicCubic::RENO_FRIENDLY_QUICHE], PredictedWEst(cwnd0, wMax, 40), 1.0);
    EXPECT_NEAR(at4[QuicCubic::RENO_FRIENDLY_RFC9438], PredictedWEst(cwnd0, prior, 40), 1.0);
    // The difference grows by (1 - alpha_aimd) packets per RTT after quiche's switch.
    EXPECT_GT(at4[0] - at4[1], at335[0] - at335[1]);
}

// --- HyStart++ L (RFC 9406 Section 4.2) --------------------------------------------------------

// One ACK frame acking 20 full packets in slow start: cwnd += min(N, L * SMSS). L = 0 (quiche):
// +20 mss; L = 8: +8 mss. Reno and CUBIC alike; no cap when HyStart++ is off.
TEST(QuicHyStartLTest, CapPerAckFrame)
{
    for (bool reno : {false, true})
    {
        for (uint32_t l : {0u, 8u})
        {
            for (bool hyStart : {true, false})
            {
                Ptr<QuicCongestionController> cc = MakeAlgorithm(reno, hyStart);
                cc->GetHyStart()->SetAttribute("L", UintegerValue(l));
                CcTestDriver d(cc);
                d.SendN(20);
                d.Ack(20);
                const uint64_t growth = (hyStart && l > 0) ? l * kMss : 20 * kMss;
                EXPECT_EQ(d.Cwnd(), 12000u + growth) << reno << " L=" << l << " " << hyStart;
            }
        }
    }
}

// In CSS the cap is L * SMSS / CSS_GROWTH_DIVISOR: L = 8 -> 2400 B per frame, 8 CSS steps.
TEST(QuicHyStartLTest, CapInCss)
{
    Ptr<QuicHyStartPlusPlus> hs = CreateObject<QuicHyStartPlusPlus>();
    EXPECT_EQ(hs->SlowStartCapPerAck(kMss, false), 0u);
    hs->SetAttribute("L", UintegerValue(8));
    EXPECT_EQ(hs->SlowStartCapPerAck(kMss, false), 9600u);
    EXPECT_EQ(hs->SlowStartCapPerAck(kMss, true), 2400u);
}

// --- Persistent congestion hook (RFC 9002 Section 7.6.2) ---------------------------------------

// The loss pass's congestion event reduces once (0.7 for CUBIC, 0.5 for Reno), then persistent
// congestion sets cwnd to the minimum window and clears R; ssthresh keeps the one reduction
// (no 0.7 x 0.7), and the next ack grows cwnd (not in recovery).
TEST(QuicPersistentCongestionHookTest, OneReductionAndRCleared)
{
    for (bool reno : {false, true})
    {
        Ptr<QuicCongestionController> cc = MakeAlgorithm(reno, false);
        CcTestDriver d(cc);
        d.SendN(10);
        d.Advance(MilliSeconds(100));
        d.Lose(3);
        cc->OnPersistentCongestion(d.Now());
        EXPECT_EQ(d.Cwnd(), 2400u);
        EXPECT_EQ(d.Ssthresh(), reno ? 6000u : 8400u);
        EXPECT_FALSE(d.RecoveryStart().has_value());
        // Packets sent before the event are no longer "in recovery": their acks grow cwnd.
        d.Ack(1);
        EXPECT_EQ(d.Cwnd(), reno ? 3600u : 3600u);
    }
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
