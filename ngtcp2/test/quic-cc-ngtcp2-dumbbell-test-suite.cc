/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The dumbbell's ngtcp2 flows (flow kind ngtcp2:<cc>:<n>, study/quic-cc-dumbbell-scenario):
 * real ngtcp2 BBR, CUBIC and Reno flows share the bottleneck with quic-cc CUBIC and ns-3
 * TcpCubic, deliver every byte under random loss, report the same metrics as the other flows,
 * and a run is a function of its RngRun.
 */
#include "quic-cc-dumbbell-scenario.h"
#include "quic-cc-record.h"
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"
#include "quic-cc-transport-spec.h"

#include "ns3/test.h"

using namespace ns3;

/// Test: the flow kind parses (controller, count) and bad ngtcp2 tokens are refused.
class QuicCcNgtcp2DumbbellSpecTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcNgtcp2DumbbellSpecTestCase()
        : quiccc::test::SimulationTestCase("ngtcp2:<cc>:<n> flow groups: parsed or refused")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<QuicCcFlowGroup> groups;
        NS_TEST_ASSERT_MSG_EQ(QuicCcParseFlowSpec("ngtcp2:bbr:2,ngtcp2:reno:1", &groups),
                              "",
                              "valid");
        NS_TEST_ASSERT_MSG_EQ(groups.size(), 2, "two groups");
        NS_TEST_EXPECT_MSG_EQ(groups[0].transport, "ngtcp2", "transport");
        NS_TEST_EXPECT_MSG_EQ(groups[0].typeId, "bbr", "ngtcp2's controller");
        NS_TEST_EXPECT_MSG_EQ(groups[0].count, 2, "count");
        NS_TEST_EXPECT_MSG_EQ(groups[1].typeId, "reno", "ngtcp2's controller");
        groups.clear();
        NS_TEST_EXPECT_MSG_EQ(QuicCcParseFlowSpec("ngtcp2:vegas:1", &groups),
                              "'ngtcp2:vegas:1': unknown ngtcp2 congestion control 'vegas' "
                              "(cubic, reno or bbr)",
                              "unknown controller");
        const std::string why = QuicCcParseFlowSpec("ngtcp2:cubic[Beta=0.5]:1", &groups);
        NS_TEST_EXPECT_MSG_EQ(
            (why.find("ngtcp2 flows take no controller attributes") != std::string::npos),
            true,
            why);
        NS_TEST_EXPECT_MSG_EQ(groups.size(), 0, "nothing appended");
    }
};

/// Test: ngtcp2 BBR, CUBIC and Reno, quic-cc CUBIC and ns-3 TcpCubic, 1.5 MB each at 1 %
/// random loss: every flow receives exactly its bytes, the ngtcp2 flows report losses, goodput,
/// cwnd and wire counts as the others do.
class QuicCcNgtcp2DumbbellMixTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcNgtcp2DumbbellMixTestCase()
        : quiccc::test::SimulationTestCase(
              "ngtcp2 bbr/cubic/reno beside QUIC CUBIC and TcpCubic at 1 % loss: every byte")
    {
    }

  private:
    void DoRun() override
    {
        // The default dumbbell: 10 Mbit/s, 5 ms, 100-packet drop-tail bottleneck, RTT 40 ms.
        QuicCcDumbbellParams p;
        NS_TEST_ASSERT_MSG_EQ(
            QuicCcParseFlowSpec(
                "ngtcp2:bbr:1,ngtcp2:cubic:1,ngtcp2:reno:1,quic:cubic:1,tcp:TcpCubic:1",
                &p.groups),
            "",
            "valid flows");
        p.transferBytes = 1'500'000;
        p.lossRate = 0.01;
        p.duration = Seconds(40);
        p.warmup = Seconds(1);
        const QuicCcDumbbellResult r = QuicCcRunDumbbell(p);
        NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 5, "five flows");
        const char* controllers[] = {"ngtcp2-bbr", "ngtcp2-cubic", "ngtcp2-reno"};
        for (const auto& f : r.flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.completed, true, "flow " << f.index << " finishes");
            NS_TEST_EXPECT_MSG_EQ(f.sinkBytes, p.transferBytes, "flow " << f.index);
            NS_TEST_EXPECT_MSG_EQ(f.sinkTotalRx, p.transferBytes, "flow " << f.index);
            NS_TEST_EXPECT_MSG_GT(f.goodputMbps, 0.3, "flow " << f.index << " is not starved");
            NS_TEST_EXPECT_MSG_GT(f.lostPackets, 0, "flow " << f.index << " saw the loss");
            NS_TEST_EXPECT_MSG_GT(f.meanCwndBytes, 2 * 1350.0, "flow " << f.index << ": cwnd");
            NS_TEST_EXPECT_MSG_GT(f.wireRxBytes, p.transferBytes, "flow " << f.index << ": wire");
            if (f.index < 3)
            {
                NS_TEST_EXPECT_MSG_EQ(f.transport, "ngtcp2", "flow " << f.index);
                NS_TEST_EXPECT_MSG_EQ(f.controller, controllers[f.index], "flow " << f.index);
                NS_TEST_EXPECT_MSG_EQ(f.mss, 1350, "cwnd counted in 1350 B packets");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(r.jainIndex.has_value(), true, "Jain index defined");
    }
};

/// Test: ngtcp2 BBR against QUIC CUBIC and TcpCubic, bulk: the same RngRun gives the same
/// record, another RngRun another one (its start jitter and the library's random numbers).
class QuicCcNgtcp2DumbbellDeterminismTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcNgtcp2DumbbellDeterminismTestCase()
        : quiccc::test::SimulationTestCase(
              "ngtcp2 BBR vs QUIC CUBIC vs TcpCubic: a run is a function of its RngRun")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcDumbbellParams p;
        NS_TEST_ASSERT_MSG_EQ(
            QuicCcParseFlowSpec("ngtcp2:bbr:1,quic:cubic:1,tcp:TcpCubic:1", &p.groups),
            "",
            "valid flows");
        p.duration = Seconds(8);
        p.warmup = Seconds(2);
        p.run = 3;
        const std::string first = QuicCcRecordToLine(QuicCcRunDumbbell(p));
        const QuicCcDumbbellResult again = QuicCcRunDumbbell(p);
        NS_TEST_EXPECT_MSG_EQ(QuicCcRecordToLine(again), first, "same RngRun, same record");
        p.run = 4;
        NS_TEST_EXPECT_MSG_NE(QuicCcRecordToLine(QuicCcRunDumbbell(p)),
                              first,
                              "another RngRun, another run");
        NS_TEST_EXPECT_MSG_GT(again.flows.at(0).goodputMbps, 1.0, "BBR gets a share");
        NS_TEST_EXPECT_MSG_GT(again.totalGoodputMbps, 8.0, "the bottleneck is used");
    }
};

/// The dumbbell's ngtcp2 flows (built with the ngtcp2 transport).
class QuicCcNgtcp2DumbbellTestSuite : public TestSuite
{
  public:
    QuicCcNgtcp2DumbbellTestSuite()
        : TestSuite("quic-cc-ngtcp2-dumbbell", QUICCC_SUITE_SYSTEM)
    {
        AddTestCase(new QuicCcNgtcp2DumbbellSpecTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2DumbbellMixTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2DumbbellDeterminismTestCase, QUICCC_TEST_QUICK);
    }
};

static QuicCcNgtcp2DumbbellTestSuite g_quicCcNgtcp2DumbbellTestSuite;
