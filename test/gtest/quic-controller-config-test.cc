/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Configuration of the controllers: TypeIds, attribute defaults read back, each attribute's
 * effect, validation messages (death tests), Fork(), trace sources and state names.
 */
#include "cc-test-driver.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/quic-cc-compat.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/quic-cubic.h"
#include "ns3/quic-hystart-plus-plus.h"
#include "ns3/quic-reno.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

// Scenario: each TypeId names its real parent (ns-3 3.37's TcpCubic named the wrong one).
TEST(QuicControllerConfigTest, TypeIdParents)
{
    EXPECT_EQ(QuicCongestionController::GetTypeId().GetParent(), Object::GetTypeId());
    EXPECT_EQ(QuicReno::GetTypeId().GetParent(), QuicCongestionController::GetTypeId());
    EXPECT_EQ(QuicCubic::GetTypeId().GetParent(), QuicCongestionController::GetTypeId());
    EXPECT_EQ(QuicHyStartPlusPlus::GetTypeId().GetParent(), Object::GetTypeId());
    EXPECT_EQ(QuicCubic::GetTypeId().GetName(), "ns3::QuicCubic");
    EXPECT_EQ(QuicReno::GetTypeId().GetName(), "ns3::QuicReno");
    EXPECT_EQ(QuicCubic::GetTypeId().GetGroupName(), "QuicCc");
    EXPECT_EQ(CreateObject<QuicCubic>()->GetName(), "cubic");
    EXPECT_EQ(CreateObject<QuicReno>()->GetName(), "reno");
}

// Scenario: every attribute reads back its documented default.
TEST(QuicControllerConfigTest, AttributeDefaults)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    DoubleValue beta;
    cubic->GetAttribute("Beta", beta);
    EXPECT_DOUBLE_EQ(beta.Get(), 0.7); // not 1.0: no integer fraction
    DoubleValue c;
    cubic->GetAttribute("C", c);
    EXPECT_DOUBLE_EQ(c.Get(), 0.4);
    QUICCC_ENUM_VALUE(QuicCubic::IdleRestart) idle;
    cubic->GetAttribute("IdleRestart", idle);
    EXPECT_EQ(idle.Get(), QuicCubic::IDLE_RESTART_LAST_ACTIVITY);
    StringValue idleName;
    cubic->GetAttribute("IdleRestart", idleName);
    EXPECT_EQ(idleName.Get(), "LastActivity");
    for (const char* name : {"Prr", "SpuriousLossRollback", "FastConvergence", "HyStart"})
    {
        BooleanValue on;
        cubic->GetAttribute(name, on);
        EXPECT_TRUE(on.Get()) << name;
    }
    BooleanValue renoHyStart;
    CreateObject<QuicReno>()->GetAttribute("HyStart", renoHyStart);
    EXPECT_TRUE(renoHyStart.Get());

    Ptr<QuicHyStartPlusPlus> h = CreateObject<QuicHyStartPlusPlus>();
    TimeValue minThresh;
    h->GetAttribute("MinRttThresh", minThresh);
    EXPECT_EQ(minThresh.Get(), MilliSeconds(4));
    TimeValue maxThresh;
    h->GetAttribute("MaxRttThresh", maxThresh);
    EXPECT_EQ(maxThresh.Get(), MilliSeconds(16));
    UintegerValue samples;
    h->GetAttribute("NRttSample", samples);
    EXPECT_EQ(samples.Get(), 8u);
    UintegerValue divisor;
    h->GetAttribute("CssGrowthDivisor", divisor);
    EXPECT_EQ(divisor.Get(), 4u);
    UintegerValue rounds;
    h->GetAttribute("CssRounds", rounds);
    EXPECT_EQ(rounds.Get(), 5u);

    // Before Configure(): the contract's defaults (mss 1350, 10 packets, floor 2 packets).
    EXPECT_EQ(cubic->GetMaxDatagramSize(), 1350u);
    EXPECT_EQ(cubic->GetCongestionWindow(), 13500u);
    EXPECT_EQ(cubic->GetMinimumWindow(), 2700u);
    EXPECT_EQ(cubic->GetSlowStartThreshold(), std::numeric_limits<uint64_t>::max());
    EXPECT_FALSE(cubic->GetRecoveryStartTime().has_value());
}

// Scenario: Configure() sets mss and windows.
TEST(QuicControllerConfigTest, ConfigureWindows)
{
    Ptr<QuicReno> reno = CreateObject<QuicReno>();
    reno->Configure(1500, 4, 3);
    EXPECT_EQ(reno->GetMaxDatagramSize(), 1500u);
    EXPECT_EQ(reno->GetCongestionWindow(), 6000u);
    EXPECT_EQ(reno->GetMinimumWindow(), 4500u);
    reno->OnPacketSent(T0(), 0, 1500, 0);
    reno->OnCongestionEvent(T0(), T0(), 1500, 1500);
    EXPECT_EQ(reno->GetCongestionWindow(), 4500u); // max(3000, 3 * 1500)
}

// Scenario: Beta = 0.5 and C = 0.8 change the reduction and K.
TEST(QuicControllerConfigTest, CubicBetaAndC)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    cubic->SetAttribute("HyStart", BooleanValue(false));
    cubic->SetAttribute("Beta", DoubleValue(0.5));
    cubic->SetAttribute("C", DoubleValue(0.8));
    CcTestDriver d(cubic);
    d.Send();
    d.Lose(1);
    EXPECT_EQ(d.Cwnd(), 6000u);                          // 12000 * 0.5
    EXPECT_DOUBLE_EQ(cubic->GetK(), 1.8420157493201932); // cbrt((10 - 5) / 0.8) = cbrt(6.25)
    EXPECT_DOUBLE_EQ(cubic->GetAlpha(), 1.0);            // 3 * 0.5 / 1.5
}

// Scenario: FastConvergence off: the 2nd event of the fast-convergence scenario keeps
// W_max = cwnd = 9600 (on: 8160).
TEST(QuicControllerConfigTest, CubicFastConvergenceOff)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    cubic->SetAttribute("HyStart", BooleanValue(false));
    cubic->SetAttribute("FastConvergence", BooleanValue(false));
    CcTestDriver d(cubic);
    d.SendN(10);
    d.Lose(1);
    d.Rtt(MilliSeconds(100));
    d.Advance(MilliSeconds(100));
    d.Ack(8);
    d.SendN(7);
    d.Ack(1);
    d.Advance(MilliSeconds(100));
    d.Ack(6);
    ASSERT_EQ(d.Cwnd(), 9600u);
    d.Lose(1);
    EXPECT_EQ(d.Cwnd(), 6720u);
    EXPECT_DOUBLE_EQ(cubic->GetWMax(), 9600.0);
}

// Scenario: SpuriousLossRollback off: the spurious-event scenario keeps the 2nd cut (5880), and
// Rollback() refuses.
TEST(QuicControllerConfigTest, CubicRollbackOff)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    cubic->SetAttribute("HyStart", BooleanValue(false));
    cubic->SetAttribute("SpuriousLossRollback", BooleanValue(false));
    CcTestDriver d(cubic);
    d.SendN(10);
    d.Lose(1);
    d.Rtt(MilliSeconds(100));
    d.InjectAck(T0() + MilliSeconds(100), T0() + MilliSeconds(105));
    d.Advance(MilliSeconds(100));
    d.Lose(1, T0() + MilliSeconds(100));
    d.Advance(MilliSeconds(105));
    d.InjectAck(T0() + MilliSeconds(305), T0() + MilliSeconds(310));
    EXPECT_EQ(d.Cwnd(), 5880u);
    EXPECT_FALSE(cubic->Rollback());
    EXPECT_EQ(d.Cwnd(), 5880u);
}

// Scenario: Prr off: in recovery the send budget is the window room only.
TEST(QuicControllerConfigTest, CubicPrrOff)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    cubic->SetAttribute("HyStart", BooleanValue(false));
    cubic->SetAttribute("Prr", BooleanValue(false));
    CcTestDriver d(cubic);
    d.SendN(10);
    d.Advance(MilliSeconds(100));
    d.Lose(1);
    d.Ack(1); // with PRR: 840 B of budget
    EXPECT_EQ(cubic->GetPrr().SendCount(), 0u);
    EXPECT_EQ(cubic->GetBytesAvailable(d.BytesInFlight()), 0u); // 9600 in flight > 8400
    EXPECT_EQ(cubic->GetBytesAvailable(8000), 400u);
}

// Scenario: the IdleRestart attribute accepts its names.
TEST(QuicControllerConfigTest, CubicIdleRestartByName)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    for (const char* name : {"LastSent", "LastActivity", "LastSentClamped", "Off"})
    {
        cubic->SetAttribute("IdleRestart", StringValue(name));
        StringValue back;
        cubic->GetAttribute("IdleRestart", back);
        EXPECT_EQ(back.Get(), name);
    }
}

// Scenario: HyStart++ constants change its decisions: CssGrowthDivisor 2 gives 600 B steps,
// CssRounds 1 ends CSS with its entry round, MinRttThresh/MaxRttThresh move the clamp.
TEST(QuicControllerConfigTest, HyStartConstants)
{
    Ptr<QuicHyStartPlusPlus> h = CreateObject<QuicHyStartPlusPlus>();
    h->SetAttribute("CssGrowthDivisor", UintegerValue(2));
    EXPECT_EQ(h->CssCwndIncrement(1200), 600u);
    h->SetAttribute("MinRttThresh", TimeValue(MilliSeconds(1)));
    h->SetAttribute("MaxRttThresh", TimeValue(MilliSeconds(2)));
    EXPECT_EQ(h->RttThreshold(MilliSeconds(8)), MilliSeconds(1));
    EXPECT_EQ(h->RttThreshold(MilliSeconds(100)), MilliSeconds(2));

    h->SetAttribute("CssRounds", UintegerValue(1));
    h->SetAttribute("NRttSample", UintegerValue(2));
    h->StartRound(1);
    h->OnPacketAcked(0, MilliSeconds(100), T0());
    h->OnPacketAcked(1, MilliSeconds(100), T0()); // round 1 ends: last round min 100 ms
    h->StartRound(3);
    EXPECT_FALSE(h->OnPacketAcked(2, MilliSeconds(102), T0())); // 1 sample < 2
    EXPECT_TRUE(h->OnPacketAcked(3, MilliSeconds(102), T0()));  // CSS entry + round end = exit
    EXPECT_TRUE(h->InPostCssExit());
}

// Scenario: the attribute checkers carry the valid ranges (Beta in (0, 1), C > 0: RFC 9438
// Sections 4.6, 5.1; RFC 9406 Section 4.3), so ns-3 rejects a bad value before the setter runs,
// and QuicCcHelper::CheckAttributeValue names the range (the setters' own aborts stay as a
// second line of defence).
TEST(QuicControllerConfigDeathTest, CubicSetters)
{
    const TypeId cubic = QuicCubic::GetTypeId();
    for (double beta : {1.5, 0.0, 1.0, -0.5})
    {
        EXPECT_EQ(QuicCcHelper::CheckAttributeValue(cubic, "Beta", DoubleValue(beta)),
                  "invalid value '" + DoubleValue(beta).SerializeToString(nullptr) +
                      "' for attribute Beta of ns3::QuicCubic (double in (0, 1))");
    }
    EXPECT_EQ(QuicCcHelper::CheckAttributeValue(cubic, "Beta", DoubleValue(0.7)), "");
    EXPECT_EQ(QuicCcHelper::CheckAttributeValue(cubic, "C", StringValue("-0.25")),
              "invalid value '-0.25' for attribute C of ns3::QuicCubic (double in (0, inf))");
    EXPECT_EQ(QuicCcHelper::CheckAttributeValue(cubic, "C", StringValue("abc")),
              "invalid value 'abc' for attribute C of ns3::QuicCubic (double in (0, inf))");
    EXPECT_EQ(QuicCcHelper::CheckAttributeValue(cubic, "C", StringValue("0.4")), "");
    EXPECT_DEATH(
        {
            Config::SetDefault("ns3::QuicCubic::Beta", DoubleValue(1.5));
            CreateObject<QuicCubic>();
        },
        "Could not set default value for ns3::QuicCubic::Beta");
    EXPECT_DEATH(CreateObject<QuicCubic>()->SetAttribute("C", DoubleValue(0.0)),
                 "Attribute name=C could not be set for this object: tid=ns3::QuicCubic");
}

// Scenario: HyStart++ constants the RFC forbids are outside the checkers' ranges.
TEST(QuicControllerConfigDeathTest, HyStartSetters)
{
    const TypeId hystart = QuicHyStartPlusPlus::GetTypeId();
    EXPECT_EQ(QuicCcHelper::CheckAttributeValue(hystart, "CssGrowthDivisor", UintegerValue(1)),
              "invalid value '1' for attribute CssGrowthDivisor of ns3::QuicHyStartPlusPlus "
              "(uint32_t 2:4294967295)");
    EXPECT_NE(QuicCcHelper::CheckAttributeValue(hystart, "NRttSample", UintegerValue(0)), "");
    EXPECT_NE(QuicCcHelper::CheckAttributeValue(hystart, "CssRounds", UintegerValue(0)), "");
    EXPECT_NE(QuicCcHelper::CheckAttributeValue(hystart, "MinRttThresh", StringValue("-1ms")), "");
    EXPECT_NE(QuicCcHelper::CheckAttributeValue(hystart, "MaxRttThresh", StringValue("5x")), "");
    EXPECT_EQ(QuicCcHelper::CheckAttributeValue(hystart, "MaxRttThresh", StringValue("16ms")), "");
    EXPECT_DEATH(
        {
            Config::SetDefault("ns3::QuicHyStartPlusPlus::CssGrowthDivisor", UintegerValue(0));
            CreateObject<QuicCubic>();
        },
        "Could not set default value for ns3::QuicHyStartPlusPlus::CssGrowthDivisor");
}

// Scenario: MinRttThresh > MaxRttThresh is caught by Validate() (from Configure), both named.
TEST(QuicControllerConfigDeathTest, HyStartCrossCheck)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    cubic->GetHyStart()->SetAttribute("MinRttThresh", TimeValue(MilliSeconds(20)));
    EXPECT_DEATH(cubic->Configure(1200),
                 "MinRttThresh \\(\\+20ms\\) exceeds MaxRttThresh \\(\\+16ms\\)");
}

// Scenario: Configure() rejects mss, initial and minimum windows out of range, naming them.
TEST(QuicControllerConfigDeathTest, Configure)
{
    Ptr<QuicReno> reno = CreateObject<QuicReno>();
    EXPECT_DEATH(reno->Configure(1199), "got 1199");
    EXPECT_DEATH(reno->Configure(65528), "got 65528");
    EXPECT_DEATH(reno->Configure(1200, 0, 0), "InitialWindowPackets must be >= 1, got 0");
    EXPECT_DEATH(reno->Configure(1200, 10, 0), "MinimumWindowPackets must be >= 1, got 0");
    EXPECT_DEATH(reno->Configure(1200, 2, 3),
                 "MinimumWindowPackets \\(3\\) must not exceed InitialWindowPackets \\(2\\)");
    reno->Configure(1200, 1, 1); // the edges are accepted
    reno->Configure(65527);
    EXPECT_EQ(reno->GetCongestionWindow(), 655270u);
}

// Scenario: Fork() gives a controller of the same type and attributes in its initial state.
TEST(QuicControllerConfigTest, ForkCopiesConfigurationNotState)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    cubic->SetAttribute("Beta", DoubleValue(0.5));
    cubic->SetAttribute("IdleRestart", StringValue("Off"));
    cubic->SetAttribute("HyStart", BooleanValue(false));
    cubic->GetHyStart()->SetAttribute("CssRounds", UintegerValue(3));
    cubic->Configure(1500, 4, 1);
    cubic->OnPacketSent(T0(), 0, 1500, 0);
    cubic->OnCongestionEvent(T0(), T0(), 1500, 1500);
    ASSERT_EQ(cubic->GetCongestionWindow(), 3000u);

    Ptr<QuicCongestionController> fork = cubic->Fork();
    ASSERT_NE(PeekPointer(DynamicCast<QuicCubic>(fork)), nullptr);
    EXPECT_NE(fork->GetHyStart(), cubic->GetHyStart());
    EXPECT_EQ(fork->GetCongestionWindow(), 6000u); // 4 * 1500, initial state
    EXPECT_EQ(fork->GetMinimumWindow(), 1500u);
    EXPECT_EQ(fork->GetSlowStartThreshold(), std::numeric_limits<uint64_t>::max());
    EXPECT_FALSE(fork->GetRecoveryStartTime().has_value());
    EXPECT_EQ(fork->GetLostCount(), 0u);
    EXPECT_FALSE(fork->IsHyStartEnabled());
    DoubleValue beta;
    fork->GetAttribute("Beta", beta);
    EXPECT_DOUBLE_EQ(beta.Get(), 0.5);
    StringValue idle;
    fork->GetAttribute("IdleRestart", idle);
    EXPECT_EQ(idle.Get(), "Off");
    UintegerValue rounds;
    fork->GetHyStart()->GetAttribute("CssRounds", rounds);
    EXPECT_EQ(rounds.Get(), 3u);

    Ptr<QuicReno> reno = CreateObject<QuicReno>();
    reno->Configure(1200);
    ASSERT_NE(PeekPointer(DynamicCast<QuicReno>(reno->Fork())), nullptr);
}

/// Records trace callbacks.
struct TraceLog
{
    std::vector<uint64_t> cwnd;              //!< new cwnd values, bytes
    std::vector<uint64_t> ssthresh;          //!< new ssthresh values, bytes
    std::vector<QuicCongestionState> states; //!< new states
    std::vector<Time> recoveryStarts;        //!< new R values

    void Cwnd(uint64_t, uint64_t v)
    {
        cwnd.push_back(v);
    }

    void Ssthresh(uint64_t, uint64_t v)
    {
        ssthresh.push_back(v);
    }

    void State(QuicCongestionState, QuicCongestionState v)
    {
        states.push_back(v);
    }

    void Recovery(Time r)
    {
        recoveryStarts.push_back(r);
    }
};

// Scenario: the trace sources fire on changes only: Configure, a slow-start ack, a loss
// (state Recovery at the loss instant), then a send after R (congestion avoidance).
TEST(QuicControllerConfigTest, TraceSources)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    cubic->SetAttribute("HyStart", BooleanValue(false));
    TraceLog log;
    cubic->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&TraceLog::Cwnd, &log));
    cubic->TraceConnectWithoutContext("SlowStartThreshold",
                                      MakeCallback(&TraceLog::Ssthresh, &log));
    cubic->TraceConnectWithoutContext("CongestionState", MakeCallback(&TraceLog::State, &log));
    cubic->TraceConnectWithoutContext("RecoveryStartTime", MakeCallback(&TraceLog::Recovery, &log));
    CcTestDriver d(cubic); // Configure: 13500 -> 12000
    d.SendN(10);
    d.Ack(1); // 13200
    d.Advance(MilliSeconds(100));
    d.Lose(1); // 9240, R = t0 + 100 ms
    d.Advance(MilliSeconds(1));
    d.SendN(1); // after R: congestion avoidance
    EXPECT_EQ(log.cwnd, (std::vector<uint64_t>{12000, 13200, 9240}));
    EXPECT_EQ(log.ssthresh, (std::vector<uint64_t>{9240}));
    EXPECT_EQ(log.recoveryStarts, (std::vector<Time>{T0() + MilliSeconds(100)}));
    EXPECT_EQ(log.states,
              (std::vector<QuicCongestionState>{QUIC_CC_RECOVERY, QUIC_CC_CONGESTION_AVOIDANCE}));
}

// Scenario: qlog state names.
TEST(QuicControllerConfigTest, StateNames)
{
    EXPECT_STREQ(QuicCongestionStateName(QUIC_CC_SLOW_START), "slow_start");
    EXPECT_STREQ(QuicCongestionStateName(QUIC_CC_CONSERVATIVE_SLOW_START),
                 "conservative_slow_start");
    EXPECT_STREQ(QuicCongestionStateName(QUIC_CC_CONGESTION_AVOIDANCE), "congestion_avoidance");
    EXPECT_STREQ(QuicCongestionStateName(QUIC_CC_RECOVERY), "recovery");
}

// Scenario: HyStart is registered on each algorithm, so Config::SetDefault reaches each one
// separately (design.md: QuicCubic::HyStart, QuicReno::HyStart).
TEST(QuicControllerConfigTest, HyStartDefaultPerAlgorithm)
{
    Config::SetDefault("ns3::QuicCubic::HyStart", BooleanValue(false));
    BooleanValue cubic;
    BooleanValue reno;
    CreateObject<QuicCubic>()->GetAttribute("HyStart", cubic);
    CreateObject<QuicReno>()->GetAttribute("HyStart", reno);
    EXPECT_FALSE(cubic.Get());
    EXPECT_TRUE(reno.Get());
    Config::SetDefault("ns3::QuicCubic::HyStart", BooleanValue(true));
    CreateObject<QuicCubic>()->GetAttribute("HyStart", cubic);
    EXPECT_TRUE(cubic.Get());
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
