/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The HyStart++ lab at socket level (Cloudflare 2020, "CUBIC and HyStart++ support in quiche"): 5
 * Mbps, RTT 60 ms, an 8 MB download, 0 % random loss, so every loss is a bottleneck-queue overflow.
 * With a buffer well above the BDP, HyStart++ (Conservative Slow Start) leaves slow start before
 * the queue overflows as badly, and the sender loses fewer packets, for both Reno and CUBIC.
 */
#include "quic-cc-hystart-lab-scenario.h"
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"

#include "ns3/test.h"

#include <cmath>

using namespace ns3;

namespace
{

/// The default lab path with \p bufferPackets of drop-tail buffer and no random loss.
QuicCcHystartLabParams
Lab(const std::string& config, uint32_t bufferPackets, double lossRate = 0, uint32_t run = 1)
{
    QuicCcHystartLabParams p;
    p.config = config;
    p.bufferPackets = bufferPackets;
    p.lossRate = lossRate;
    p.run = run;
    return p;
}

} // namespace

/// Base of the lab test cases: checks shared by every completed run at 0 % loss.
class QuicCcHystartLabTestCase : public quiccc::test::SimulationTestCase
{
  protected:
    using quiccc::test::SimulationTestCase::SimulationTestCase;

    /// The run completed, nothing was dropped at random, and every queue drop was declared lost
    /// (a dropped packet's data must be declared lost before it is sent again).
    void CheckCleanRun(const std::string& config, const QuicCcHystartLabResult& r)
    {
        NS_TEST_EXPECT_MSG_EQ(r.completed, true, config + " completes");
        NS_TEST_EXPECT_MSG_EQ(r.bytesReceived, 8'000'000, config + ": every byte");
        NS_TEST_EXPECT_MSG_EQ(r.errorDrops, 0, config + ": no random loss at 0 %");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(r.lostPackets, r.queueDrops, config + ": lost >= queue drops");
    }
};

/// Test: at 4 BDP (111 packets) and 0 % loss, HyStart++ lowers the lost-packet count and the
/// slow-start peak for Reno and for CUBIC. Measured: reno 143 -> 87, cubic 463 -> 287 lost.
class QuicCcHystartLabFourBdpTestCase : public QuicCcHystartLabTestCase
{
  public:
    QuicCcHystartLabFourBdpTestCase()
        : QuicCcHystartLabTestCase(
              "4 BDP buffer, 0 % loss: HyStart++ loses fewer packets for reno and cubic")
    {
    }

  private:
    void DoRun() override
    {
        const QuicCcHystartLabParams path;
        const uint32_t buffer = QuicCcHystartLabBufferPackets(path, 4);
        NS_TEST_ASSERT_MSG_EQ(buffer, 111, "4 x 27.8 packets of BDP");
        for (const std::string cc : {"reno", "cubic"})
        {
            const QuicCcHystartLabResult without = QuicCcRunHystartLab(Lab(cc, buffer));
            const QuicCcHystartLabResult with = QuicCcRunHystartLab(Lab(cc + "-hystart", buffer));
            CheckCleanRun(cc, without);
            CheckCleanRun(cc + "-hystart", with);
            // Slow start overshoots a 139-packet pipe (BDP + buffer) by about a window's worth.
            NS_TEST_ASSERT_MSG_GT_OR_EQ(without.lostPackets, 100, cc + ": slow start overshoots");
            NS_TEST_ASSERT_MSG_LT(with.lostPackets,
                                  without.lostPackets,
                                  cc + ": HyStart++ loses fewer");
            NS_TEST_ASSERT_MSG_LT(with.peakCwnd, without.peakCwnd, cc + ": HyStart++ peaks lower");
            // "HyStart++ does not change download time much": within 10 % here.
            NS_TEST_ASSERT_MSG_LT(with.completionSeconds,
                                  1.1 * without.completionSeconds,
                                  cc + ": about the same download time");
        }
    }
};

/// Test: with a deep queue (1000 packets, 36 BDP), slow start without HyStart++ overflows it
/// (reno 1032, cubic 2058 lost), while Conservative Slow Start exits below the pipe size: no loss.
class QuicCcHystartLabDeepQueueTestCase : public QuicCcHystartLabTestCase
{
  public:
    QuicCcHystartLabDeepQueueTestCase()
        : QuicCcHystartLabTestCase(
              "1000-packet buffer, 0 % loss: HyStart++ loses nothing, plain slow start > 500")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string cc : {"reno", "cubic"})
        {
            const QuicCcHystartLabResult without = QuicCcRunHystartLab(Lab(cc, 1000));
            const QuicCcHystartLabResult with = QuicCcRunHystartLab(Lab(cc + "-hystart", 1000));
            CheckCleanRun(cc, without);
            CheckCleanRun(cc + "-hystart", with);
            NS_TEST_ASSERT_MSG_GT(without.lostPackets,
                                  500,
                                  cc + ": slow start overflows 1000 packets");
            NS_TEST_ASSERT_MSG_EQ(with.lostPackets, 0, cc + "-hystart: no loss at all");
            NS_TEST_ASSERT_MSG_EQ(with.queueDrops, 0, cc + "-hystart: the queue never overflows");
        }
    }
};

/// Test: the ns-3 TCP CUBIC baseline runs on the same path: it completes, counts only network
/// drops as lost, and at 0 % loss takes about as long as QUIC Reno (within 5 %).
class QuicCcHystartLabTcpBaselineTestCase : public QuicCcHystartLabTestCase
{
  public:
    QuicCcHystartLabTcpBaselineTestCase()
        : QuicCcHystartLabTestCase(
              "tcp-cubic baseline: completes, lost = network drops, time close to QUIC reno")
    {
    }

  private:
    void DoRun() override
    {
        const QuicCcHystartLabParams path;
        NS_TEST_ASSERT_MSG_EQ(QuicCcHystartLabTcpSegmentSize(path),
                              1332,
                              "1350 B minus 18 B of QUIC header and STREAM frame overhead");
        const uint32_t buffer = QuicCcHystartLabBufferPackets(path, 2);
        const QuicCcHystartLabResult tcp = QuicCcRunHystartLab(Lab("tcp-cubic", buffer));
        CheckCleanRun("tcp-cubic", tcp);
        NS_TEST_ASSERT_MSG_EQ(tcp.lostPackets, tcp.queueDrops, "TCP: lost = queue + random drops");
        NS_TEST_ASSERT_MSG_EQ(tcp.spuriousLosses, 0, "no spurious count for TCP");
        NS_TEST_ASSERT_MSG_GT(tcp.peakCwnd, 0, "the TCP cwnd trace is connected");
        const QuicCcHystartLabResult reno = QuicCcRunHystartLab(Lab("reno", buffer));
        NS_TEST_ASSERT_MSG_LT(std::abs(tcp.completionSeconds - reno.completionSeconds),
                              0.05 * reno.completionSeconds,
                              "at 0 % loss TCP and QUIC take nearly the same time");
    }
};

/// Test: same seed and run number give the same result, bit for bit; another run number gives
/// another loss pattern.
class QuicCcHystartLabDeterminismTestCase : public QuicCcHystartLabTestCase
{
  public:
    QuicCcHystartLabDeterminismTestCase()
        : QuicCcHystartLabTestCase("2 % loss: same RngRun twice gives identical results")
    {
    }

  private:
    void DoRun() override
    {
        const QuicCcHystartLabResult a = QuicCcRunHystartLab(Lab("cubic-hystart", 56, 0.02, 3));
        const QuicCcHystartLabResult b = QuicCcRunHystartLab(Lab("cubic-hystart", 56, 0.02, 3));
        NS_TEST_ASSERT_MSG_EQ(a.completed, true, "completes at 2 % loss");
        NS_TEST_ASSERT_MSG_GT(a.errorDrops, 0, "the error model drops data packets");
        NS_TEST_ASSERT_MSG_EQ(a.completionSeconds, b.completionSeconds, "completion time");
        NS_TEST_ASSERT_MSG_EQ(a.lostPackets, b.lostPackets, "lost packets");
        NS_TEST_ASSERT_MSG_EQ(a.errorDrops, b.errorDrops, "random drops");
        NS_TEST_ASSERT_MSG_EQ(a.events, b.events, "events executed");
        const QuicCcHystartLabResult c = QuicCcRunHystartLab(Lab("cubic-hystart", 56, 0.02, 4));
        NS_TEST_ASSERT_MSG_NE(a.events, c.events, "another run number gives another run");
    }
};

/// The HyStart++ lab TestSuite.
class QuicCcHystartLabTestSuite : public TestSuite
{
  public:
    QuicCcHystartLabTestSuite()
        : TestSuite("quic-cc-hystart-lab", QUICCC_SUITE_SYSTEM)
    {
        AddTestCase(new QuicCcHystartLabFourBdpTestCase, QUICCC_TEST_EXTENSIVE);
        AddTestCase(new QuicCcHystartLabDeepQueueTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcHystartLabTcpBaselineTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcHystartLabDeterminismTestCase, QUICCC_TEST_EXTENSIVE);
    }
};

static QuicCcHystartLabTestSuite g_quicCcHystartLabTestSuite; //!< registers the suite
