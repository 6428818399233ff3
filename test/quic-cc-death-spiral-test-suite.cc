/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The CUBIC death spiral at socket level (Cloudflare 2026, "When idle isn't idle"): under the 2020
 * idle-restart logic cwnd stays pinned at 2 x MaxDatagramSize long after the loss stops, while
 * the 2026 logic and Reno recover.
 */
#include "quic-cc-death-spiral-scenario.h"
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"

#include "ns3/string.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

/// The default scenario (1 Gbps, RTT 10 ms, 30 % loss until 2 s, 10 MB, receive-batch ACKs).
QuicCcDeathSpiralParams
Scenario(const std::string& cc, const std::string& idleRestart, uint32_t run)
{
    QuicCcDeathSpiralParams p;
    p.quic = QuicCcTransportSpec("quic-cc", cc);
    p.quic.SetController("IdleRestart", StringValue(idleRestart));
    p.run = run;
    return p;
}

} // namespace

/// Test: RngRun 1 traps CUBIC/LastSent: cwnd == 2700 B from 3 s to the 10 s timeout and no
/// packet is lost after 3 s, while CUBIC/LastActivity and Reno complete on the same seed.
class QuicCcDeathSpiralSeededTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcDeathSpiralSeededTestCase()
        : quiccc::test::SimulationTestCase("RngRun 1: cubic LastSent pinned at 2700 B from 3 s to "
                                           "10 s; LastActivity and reno finish")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcDeathSpiralParams trapped = Scenario("cubic", "LastSent", 1);
        trapped.observeFrom = Seconds(3);
        const QuicCcDeathSpiralResult r = QuicCcRunDeathSpiral(trapped);
        NS_TEST_ASSERT_MSG_EQ(r.completed, false, "the 2020 logic must miss the 10 s timeout");
        NS_TEST_ASSERT_MSG_EQ(r.minCwndAfterLoss, 2700, "cwnd floor 2 x 1350 B");
        NS_TEST_ASSERT_MSG_EQ(r.maxCwndAfterLoss, 2700, "cwnd never grows after 3 s");
        NS_TEST_ASSERT_MSG_EQ(r.lostAfterLoss, 0, "no packet lost after 3 s: the path is clean");
        NS_TEST_ASSERT_MSG_GT(r.transitions, 500, "recovery <-> CA flips every round trip");

        for (const char* cc : {"cubic", "reno"})
        {
            const QuicCcDeathSpiralResult ok =
                QuicCcRunDeathSpiral(Scenario(cc, "LastActivity", 1));
            NS_TEST_ASSERT_MSG_EQ(ok.completed,
                                  true,
                                  std::string(cc) + " must complete on the same seed");
            NS_TEST_ASSERT_MSG_LT(ok.completionSeconds,
                                  6.0,
                                  std::string(cc) + " completes well within 10 s");
            NS_TEST_ASSERT_MSG_EQ(ok.bytesReceived, 10'000'000, "every byte");
        }
    }
};

/// Test: over RngRun 1..20, LastActivity and Reno never fail; LastSent fails at least 5 times.
class QuicCcDeathSpiralBatchTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcDeathSpiralBatchTestCase()
        : quiccc::test::SimulationTestCase("20-run batch: cubic LastActivity and reno 0 failures, "
                                           "cubic LastSent at least 5 failures")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t failures[3] = {0, 0, 0};
        const std::pair<const char*, const char*> configs[3] = {{"cubic", "LastSent"},
                                                                {"cubic", "LastActivity"},
                                                                {"reno", "LastActivity"}};
        for (uint32_t run = 1; run <= 20; ++run)
        {
            for (int c = 0; c < 3; ++c)
            {
                const QuicCcDeathSpiralResult r =
                    QuicCcRunDeathSpiral(Scenario(configs[c].first, configs[c].second, run));
                failures[c] += r.completed ? 0 : 1;
            }
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(failures[0], 5, "the 2020 logic must fail a substantial share");
        NS_TEST_ASSERT_MSG_EQ(failures[1], 0, "the 2026 logic never fails");
        NS_TEST_ASSERT_MSG_EQ(failures[2], 0, "reno never fails");
    }
};

/// Test: same seed and run number give the same result, bit for bit.
class QuicCcDeathSpiralDeterminismTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcDeathSpiralDeterminismTestCase()
        : quiccc::test::SimulationTestCase("same RngRun twice gives identical results")
    {
    }

  private:
    void DoRun() override
    {
        const QuicCcDeathSpiralResult a = QuicCcRunDeathSpiral(Scenario("cubic", "LastSent", 4));
        const QuicCcDeathSpiralResult b = QuicCcRunDeathSpiral(Scenario("cubic", "LastSent", 4));
        NS_TEST_ASSERT_MSG_EQ(a.completed, b.completed, "completed");
        NS_TEST_ASSERT_MSG_EQ(a.completionSeconds, b.completionSeconds, "completion time");
        NS_TEST_ASSERT_MSG_EQ(a.bytesReceived, b.bytesReceived, "bytes");
        NS_TEST_ASSERT_MSG_EQ(a.lostPackets, b.lostPackets, "lost packets");
        NS_TEST_ASSERT_MSG_EQ(a.transitions, b.transitions, "transitions");
        NS_TEST_ASSERT_MSG_EQ(a.events, b.events, "events executed");
        const QuicCcDeathSpiralResult c = QuicCcRunDeathSpiral(Scenario("cubic", "LastSent", 5));
        NS_TEST_ASSERT_MSG_NE(a.events, c.events, "another run number gives another run");
    }
};

/// The death-spiral TestSuite.
class QuicCcDeathSpiralTestSuite : public TestSuite
{
  public:
    QuicCcDeathSpiralTestSuite()
        : TestSuite("quic-cc-death-spiral", QUICCC_SUITE_SYSTEM)
    {
        AddTestCase(new QuicCcDeathSpiralSeededTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcDeathSpiralBatchTestCase, QUICCC_TEST_EXTENSIVE); // 60 simulations
        AddTestCase(new QuicCcDeathSpiralDeterminismTestCase, QUICCC_TEST_QUICK);
    }
};

static QuicCcDeathSpiralTestSuite g_quicCcDeathSpiralTestSuite; //!< registers the suite
