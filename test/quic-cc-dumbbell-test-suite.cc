/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The dumbbell scenario (study/quic-cc-dumbbell-scenario): flows sharing one 10 Mbit/s
 * bottleneck converge to fair shares, every flow's byte count is what its PacketSink received
 * (and FlowMonitor attributes the wire packets to the right flow), and bad flow specs are
 * refused before anything runs, naming the token.
 */
#include "quic-cc-dumbbell-scenario.h"
#include "quic-cc-report.h"
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"

#include "ns3/quic-cc-compat.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

/// A 10 Mbit/s, 100-packet drop-tail bottleneck, RTT 40 ms, with the flows of \p spec.
QuicCcDumbbellParams
Dumbbell(const std::string& spec)
{
    QuicCcDumbbellParams p;
    const std::string bad = QuicCcParseFlowSpec(spec, &p.groups);
    NS_ABORT_MSG_UNLESS(bad.empty(), bad);
    return p;
}

} // namespace

/// Test: two QUIC CUBIC flows with a 12 MB transfer each both finish, and Jain's index of their
/// goodputs from 5 s to the first completion is above 0.9.
class QuicCcDumbbellCubicPairTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcDumbbellCubicPairTestCase()
        : quiccc::test::SimulationTestCase("2 QUIC CUBIC flows: both finish, Jain index > 0.9")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcDumbbellParams p = Dumbbell("quic:cubic:2");
        p.transferBytes = 12'000'000;
        p.duration = Seconds(30);
        const QuicCcDumbbellResult r = QuicCcRunDumbbell(p);
        NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 2, "two flows");
        for (const auto& f : r.flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.completed, true, "flow " << f.index << " finishes");
            NS_TEST_EXPECT_MSG_EQ(f.sinkBytes,
                                  p.transferBytes,
                                  "flow " << f.index << ": every byte");
            NS_TEST_EXPECT_MSG_GT(f.goodputMbps, 2.0, "flow " << f.index << " is not starved");
        }
        NS_TEST_EXPECT_MSG_GT(r.windowEnd,
                              r.windowStart + Seconds(4),
                              "a window of several seconds");
        NS_TEST_EXPECT_MSG_GT(r.jainIndex.value_or(0), 0.9, "fair share");
        NS_TEST_EXPECT_MSG_GT(r.totalGoodputMbps, 8.0, "the bottleneck is used");
    }
};

/// Test: QUIC Reno against QUIC Reno, equal RTTs, bulk for 25 s: Jain's index from 5 s on is
/// above 0.95 (measured: 0.99).
class QuicCcDumbbellRenoPairTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcDumbbellRenoPairTestCase()
        : quiccc::test::SimulationTestCase("QUIC Reno vs QUIC Reno, equal RTTs: Jain index > 0.95")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcDumbbellParams p = Dumbbell("quic:reno:2");
        p.duration = Seconds(25);
        const QuicCcDumbbellResult r = QuicCcRunDumbbell(p);
        NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 2, "two flows");
        NS_TEST_EXPECT_MSG_GT(r.jainIndex.value_or(0), 0.95, "fair share");
        NS_TEST_EXPECT_MSG_GT(r.totalGoodputMbps, 8.0, "the bottleneck is used");
    }
};

/// Test: with a QUIC and a TCP flow (2 MB each) and random loss, each flow's reported bytes are
/// what its PacketSink received, the goodput-over-time bins add up to them, and FlowMonitor's
/// data-direction packets of each flow carry at least those bytes plus their IP and transport
/// headers (so FlowMonitor's flows are attributed to the right dumbbell flow).
class QuicCcDumbbellByteCountTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcDumbbellByteCountTestCase()
        : quiccc::test::SimulationTestCase(
              "per-flow byte counts equal the PacketSink totals; FlowMonitor agrees")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcDumbbellParams p = Dumbbell("quic:cubic:1,tcp:TcpNewReno:1");
        p.transferBytes = 2'000'000;
        p.lossRate = 0.005;
        p.warmup = Seconds(1);
        p.duration = Seconds(30);
        const QuicCcDumbbellResult r = QuicCcRunDumbbell(p);
        NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 2, "two flows");
        for (const auto& f : r.flows)
        {
            const std::string name = f.transport + " flow";
            NS_TEST_EXPECT_MSG_EQ(f.completed, true, name + " finishes");
            NS_TEST_EXPECT_MSG_EQ(f.sinkBytes,
                                  f.sinkTotalRx,
                                  name + ": reported = PacketSink total");
            NS_TEST_EXPECT_MSG_EQ(f.sinkTotalRx, p.transferBytes, name + ": the whole transfer");
            uint64_t binned = 0;
            for (uint64_t b : f.binBytes)
            {
                binned += b;
            }
            NS_TEST_EXPECT_MSG_EQ(binned, f.sinkBytes, name + ": the time series adds up");
            // IPv4 20 B + UDP 8 B (QUIC) or IPv4 20 B + TCP >= 20 B per packet.
            const uint64_t headers = f.transport == "quic" ? 28 : 40;
            NS_TEST_EXPECT_MSG_GT_OR_EQ(f.wireRxBytes,
                                        f.sinkBytes + headers * f.wireRxPackets,
                                        name + ": FlowMonitor saw the payload and its headers");
            NS_TEST_EXPECT_MSG_GT(f.wireTxPackets, f.wireRxPackets, name + ": random loss hit it");
            NS_TEST_EXPECT_MSG_GT(f.lostPackets, 0, name + ": the sender repaired losses");
        }
        // A TCP flow's wire bytes are within 10 % of its payload (40-52 B per 1332 B segment);
        // a mix-up with the QUIC flow's FlowMonitor entry would not be.
        const auto& tcp = r.flows[1];
        NS_TEST_EXPECT_MSG_LT(tcp.wireRxBytes,
                              tcp.sinkBytes * 1.1,
                              "TCP wire bytes match its payload");
    }
};

/// Test: bad flow specs are refused by the parser, naming the token and the reason.
class QuicCcDumbbellBadSpecTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcDumbbellBadSpecTestCase()
        : quiccc::test::SimulationTestCase(
              "bad flow specs: an error naming the token, before anything runs")
    {
    }

  private:
    void Refused(const std::string& spec, const std::string& token, const std::string& reason)
    {
        std::vector<QuicCcFlowGroup> groups;
        const std::string why = QuicCcParseFlowSpec(spec, &groups);
        NS_TEST_EXPECT_MSG_NE(why.find("'" + token + "'"),
                              std::string::npos,
                              spec + " names " + token + ": " + why);
        NS_TEST_EXPECT_MSG_NE(why.find(reason), std::string::npos, spec + " says why: " + why);
    }

    void DoRun() override
    {
        Refused("quic:bbr:2", "quic:bbr:2", "unknown QUIC controller 'bbr'");
        Refused("quic:cubic:1,tcp:NoSuch:1",
                "tcp:NoSuch:1",
                "unknown TCP congestion control 'NoSuch'");
        Refused("quic:cubic:0", "quic:cubic:0", "count must be");
        Refused("quic:reno[Beta=0.5]:1",
                "quic:reno[Beta=0.5]:1",
                "ns3::QuicReno has no attribute 'Beta'");
        Refused("quic:cubic[IdleRestart=Never]:1",
                "quic:cubic[IdleRestart=Never]:1",
                "invalid value 'Never'");
        Refused("tcp:TcpCubic[NoSuch=1]:1", "tcp:TcpCubic[NoSuch=1]:1", "no attribute 'NoSuch'");
        Refused("sctp:cubic:1", "sctp:cubic:1", "transport must be quic, tcp or ngtcp2");
        Refused("quic:cubic", "quic:cubic", "transport:controller:count");

        std::vector<QuicCcFlowGroup> groups;
        NS_TEST_ASSERT_MSG_EQ(
            QuicCcParseFlowSpec("quic:cubic[IdleRestart=LastSent|HyStart=false]:3,tcp:TcpCubic:2",
                                &groups),
            "",
            "a good spec parses");
        NS_TEST_ASSERT_MSG_EQ(groups.size(), 2, "two groups");
        NS_TEST_EXPECT_MSG_EQ(groups[0].typeId, "ns3::QuicCubic", "cubic");
        NS_TEST_EXPECT_MSG_EQ(groups[0].count, 3, "count 3");
        NS_TEST_EXPECT_MSG_EQ(groups[0].attributes.size(), 2, "two attributes");
        NS_TEST_EXPECT_MSG_EQ(groups[0].attributes[1].second, "false", "HyStart=false");
        NS_TEST_EXPECT_MSG_EQ(groups[1].transport, "tcp", "tcp");
        NS_TEST_EXPECT_MSG_EQ(groups[1].typeId, "ns3::TcpCubic", "TcpCubic");
    }
};

/// Test: Jain's index of known vectors.
class QuicCcDumbbellJainTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcDumbbellJainTestCase()
        : quiccc::test::SimulationTestCase("Jain fairness index of known vectors")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ_TOL(QuicCcJainIndex({5, 5}).value_or(0), 1.0, 1e-12, "equal shares");
        NS_TEST_EXPECT_MSG_EQ_TOL(QuicCcJainIndex({1, 0, 0, 0}).value_or(0),
                                  0.25,
                                  1e-12,
                                  "one of four takes all");
        // (7 + 2.1)^2 / (2 (49 + 4.41)) = 82.81 / 106.82
        NS_TEST_EXPECT_MSG_EQ_TOL(QuicCcJainIndex({7, 2.1}).value_or(0),
                                  82.81 / 106.82,
                                  1e-12,
                                  "7.0 vs 2.1");
        // 0 / 0: no share to compare (e.g. every flow starved at 99.9 % loss).
        NS_TEST_EXPECT_MSG_EQ(QuicCcJainIndex({0, 0, 0}).has_value(), false, "all zero");
        NS_TEST_EXPECT_MSG_EQ(QuicCcJainIndex({}).has_value(), false, "no flows");
    }
};

/// The dumbbell suite.
class QuicCcDumbbellTestSuite : public TestSuite
{
  public:
    QuicCcDumbbellTestSuite()
        : TestSuite("quic-cc-dumbbell", QUICCC_SUITE_SYSTEM)
    {
        AddTestCase(new QuicCcDumbbellBadSpecTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcDumbbellJainTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcDumbbellCubicPairTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcDumbbellRenoPairTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcDumbbellByteCountTestCase, QUICCC_TEST_QUICK);
    }
};

static QuicCcDumbbellTestSuite g_quicCcDumbbellTestSuite; //!< registers the suite
