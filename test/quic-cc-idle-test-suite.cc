/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * True idle: the study's workloads over a 100 Mbps, 20 ms path, one case per workload,
 * each asserting measured values — CUBIC without an idle rule (IdleRestart=Off) jumps after a
 * 5 s pause while LastActivity and LastSent shift the epoch by the pause; the restart window and
 * pacing bound the burst at the resume; a request/response run delivers every response byte
 * exactly; an app-limited phase moves no idle rule; OnOffApplication works over the factory.
 */
#include "quic-cc-idle-scenario.h"
#include "quic-cc-response-server.h"
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"

#include "ns3/boolean.h"
#include "ns3/quic-cc-connection.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <map>

using namespace ns3;

namespace
{

/// Drop-tail buffer of \p bdp x the 100 Mbps x 20 ms BDP, packets of 1378 B on the wire.
uint32_t
BufferPackets(double bdp)
{
    return static_cast<uint32_t>(bdp * 100e6 / 8 * 0.02 / 1378 + 0.5);
}

QuicCcIdleParams
Chunked(const std::string& controller, const std::string& rule)
{
    QuicCcIdleParams p;
    p.quic = QuicCcTransportSpec("quic-cc", controller);
    p.quic.SetController("IdleRestart", StringValue(rule));
    return p;
}

} // namespace

/// Test: a 5 s pause in congestion avoidance with a deep (4 BDP) buffer, so the resume burst
/// loses nothing: Off keeps the epoch and cwnd grows by > 25 % within 3 RTTs; LastActivity moves
/// the epoch by the idle time and stays within 6 %; LastSent by the time since the last send.
class QuicCcIdleChunkedTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcIdleChunkedTestCase()
        : quiccc::test::SimulationTestCase(
              "chunked 2 x 5 MB, 5 s pause: Off grows > 1.25x in 3 "
              "RTTs, LastActivity and LastSent shift the epoch, < 1.06x")
    {
    }

  private:
    void DoRun() override
    {
        std::map<std::string, QuicCcIdleResult> r;
        for (const char* rule : {"Off", "LastActivity", "LastSent"})
        {
            QuicCcIdleParams p = Chunked("cubic", rule);
            p.chunkBytes = 5'000'000;
            p.period = Seconds(5.5);
            p.pauses = 1;
            p.bufferPackets = BufferPackets(4);
            r[rule] = QuicCcRunIdle(p);
            NS_TEST_ASSERT_MSG_EQ(r[rule].completed, true, rule);
            NS_TEST_ASSERT_MSG_EQ(r[rule].bytesReceived, 10'000'000, "every byte of both chunks");
            NS_TEST_ASSERT_MSG_EQ(r[rule].pauses.size(), 1, "one pause");
            NS_TEST_ASSERT_MSG_EQ(r[rule].completionSeconds.size(), 2, "two chunks");
        }
        const QuicCcIdlePause& off = r["Off"].pauses[0];
        NS_TEST_ASSERT_MSG_EQ_TOL(off.IdleSeconds(), 5.0, 0.05, "a 5 s pause");
        NS_TEST_ASSERT_MSG_GT(off.before.wMax, 0, "in congestion avoidance: W_max set");
        NS_TEST_ASSERT_MSG_EQ(off.lostFirst3Rtt, 0, "the 4 BDP buffer takes the burst");
        NS_TEST_ASSERT_MSG_EQ(off.after.epoch, off.before.epoch, "Off does not move the epoch");
        NS_TEST_ASSERT_MSG_GT(off.PeakRatio(), 1.25, "t includes the pause: W_cubic(t) jumps");
        NS_TEST_ASSERT_MSG_EQ(off.burst1ms, off.before.cwnd, "the whole cwnd leaves at once");

        const QuicCcIdlePause& la = r["LastActivity"].pauses[0];
        NS_TEST_ASSERT_MSG_EQ_TOL(la.after.epoch - la.before.epoch,
                                  la.IdleSeconds(),
                                  1e-6,
                                  "LastActivity: the epoch moves by the time since the last ACK");
        NS_TEST_ASSERT_MSG_LT(la.PeakRatio(), 1.06, "LastActivity stays near cwnd");
        NS_TEST_ASSERT_MSG_GT(la.PeakRatio(),
                              1.0,
                              "but still grows (the chunk is not app-limited)");

        const QuicCcIdlePause& ls = r["LastSent"].pauses[0];
        NS_TEST_ASSERT_MSG_GT(ls.after.epoch - ls.before.epoch,
                              la.after.epoch - la.before.epoch,
                              "LastSent counts from the last send, before the last ACK");
        NS_TEST_ASSERT_MSG_LT(ls.after.epoch - ls.before.epoch,
                              ls.IdleSeconds() + ls.srtt * 2,
                              "by at most the pause plus about one RTT");
        NS_TEST_ASSERT_MSG_LT(ls.PeakRatio(), 1.06, "LastSent stays near cwnd");

        QuicCcIdleParams reno = Chunked("reno", "");
        reno.chunkBytes = 5'000'000;
        reno.period = Seconds(5.5);
        reno.pauses = 1;
        reno.bufferPackets = BufferPackets(4);
        const QuicCcIdleResult rr = QuicCcRunIdle(reno);
        NS_TEST_ASSERT_MSG_EQ(rr.pauses.size(), 1, "one pause");
        NS_TEST_ASSERT_MSG_LT(rr.pauses[0].PeakRatio(), 1.01, "Reno: one MSS per RTT");
        NS_TEST_ASSERT_MSG_LT(rr.pauses[0].before.wMax, 0, "Reno has no W_max");
    }
};

/// Test: 0.5 BDP buffer, 2 MB every 2 s: without a restart window or pacing the resume dumps
/// the whole cwnd into the queue and loses packets in its first RTT; RestartWindow sends 10
/// packets (13,500 B) and loses none from the second pause on (the first resumes inside a
/// recovery episode, where PRR's budget, up to ssthresh, bypasses the restart window); Rfc9002
/// pacing sends at most 30 kB in the first millisecond.
class QuicCcIdleBurstTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcIdleBurstTestCase()
        : quiccc::test::SimulationTestCase("chunked 0.5 BDP: resume burst = cwnd with loss; "
                                           "RestartWindow 13500 B; pacing < 30 kB in 1 ms")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcIdleParams base = Chunked("cubic", "LastActivity");
        base.pauses = 2;
        const QuicCcIdleResult plain = QuicCcRunIdle(base);
        NS_TEST_ASSERT_MSG_EQ(plain.pauses.size(), 2, "two pauses");
        for (const QuicCcIdlePause& p : plain.pauses)
        {
            NS_TEST_ASSERT_MSG_EQ(p.burst1ms, p.before.cwnd, "the whole cwnd at once");
            NS_TEST_ASSERT_MSG_GT(p.longestTrain, 2 * base.bufferPackets / 3, "a long train");
        }
        NS_TEST_ASSERT_MSG_GT(plain.pauses[1].lostFirstRtt, 0, "the burst overflows the queue");

        QuicCcIdleParams rw = base;
        rw.quic.SetController("RestartWindow", BooleanValue(true));
        const QuicCcIdleResult restart = QuicCcRunIdle(rw);
        NS_TEST_ASSERT_MSG_EQ(restart.pauses.size(), 2, "two pauses");
        NS_TEST_ASSERT_MSG_EQ(restart.pauses[0].after.cwnd, 13'500, "first pause: cwnd cut, but");
        NS_TEST_ASSERT_MSG_GT(restart.pauses[0].burst1ms,
                              100'000,
                              "in recovery PRR's budget (up to ssthresh) still sends a burst");
        const QuicCcIdlePause& second = restart.pauses[1];
        NS_TEST_ASSERT_MSG_EQ(second.after.cwnd, 13'500, "cwnd = initial window (10 x 1350 B)");
        NS_TEST_ASSERT_MSG_EQ(second.burst1ms, 13'500, "10 packets");
        NS_TEST_ASSERT_MSG_EQ(second.lostFirst3Rtt, 0, "no loss");
        NS_TEST_ASSERT_MSG_EQ(second.after.ssthresh, second.before.ssthresh, "ssthresh kept");

        QuicCcIdleParams paced = base;
        paced.quic.SetSocket("Pacing", StringValue("Rfc9002"));
        const QuicCcIdleResult p = QuicCcRunIdle(paced);
        NS_TEST_ASSERT_MSG_EQ(p.pauses.size(), 2, "two pauses");
        for (const QuicCcIdlePause& q : p.pauses)
        {
            NS_TEST_ASSERT_MSG_LT(q.burst1ms, 30'000, "burst allowance + 1 ms at the pacing rate");
            NS_TEST_ASSERT_MSG_EQ(q.lostFirstRtt, 0, "no loss in the first RTT");
        }
    }
};

/// Test: request/response over one connection, exponential think time: every response arrives
/// byte-exact, each response time is at least one RTT plus its serialization time, each think
/// time is a pause, and two runs with the same RngRun are identical.
class QuicCcIdleRequestResponseTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcIdleRequestResponseTestCase()
        : quiccc::test::SimulationTestCase("request-response: 4 x 500 kB byte-exact, response "
                                           "time >= RTT + 40 ms, deterministic")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcIdleParams p;
        p.workload = "request-response";
        p.responseBytes = 500'000;
        p.thinkTime = Seconds(0.5);
        p.thinkExponential = true;
        p.pauses = 3;
        p.minPause = MilliSeconds(1);
        const QuicCcIdleResult a = QuicCcRunIdle(p);
        NS_TEST_ASSERT_MSG_EQ(a.completed, true, "all responses");
        NS_TEST_ASSERT_MSG_EQ(a.bytesReceived, 2'000'000, "4 x 500 kB");
        NS_TEST_ASSERT_MSG_EQ(a.corruptBytes, 0, "byte-exact");
        NS_TEST_ASSERT_MSG_EQ(a.completionSeconds.size(), 4, "a response time per request");
        for (double t : a.completionSeconds)
        {
            NS_TEST_ASSERT_MSG_GT(t, 0.02 + 500'000 * 8 / 100e6, "RTT + serialization");
            NS_TEST_ASSERT_MSG_LT(t, 1.0, "and not much more");
        }
        // The request carries the ACK of the server's handshake: no pause before it.
        NS_TEST_ASSERT_MSG_EQ(a.pauses.size(), 3, "each think time is a pause");
        bool different = false;
        for (size_t i = 1; i < a.pauses.size(); ++i)
        {
            different = different || a.pauses[i].IdleSeconds() != a.pauses[0].IdleSeconds();
        }
        NS_TEST_ASSERT_MSG_EQ(different, true, "exponential think times differ");
        const QuicCcIdleResult b = QuicCcRunIdle(p);
        NS_TEST_ASSERT_MSG_EQ(b.pauses.size(), a.pauses.size(), "same run, same pauses");
        for (size_t i = 0; i < a.pauses.size() && i < b.pauses.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(a.pauses[i].resume, b.pauses[i].resume, "resume time");
            NS_TEST_ASSERT_MSG_EQ(a.pauses[i].peakCwnd3Rtt, b.pauses[i].peakCwnd3Rtt, "peak");
        }
        NS_TEST_ASSERT_MSG_NE(+QuicCcResponseByte(0, 1),
                              +QuicCcResponseByte(1, 1),
                              "responses differ from each other");
    }
};

/// Test: 2 s at half the bottleneck rate, then 5 MB at once: the pipe never empties, so no
/// idle rule moves the epoch and Off, LastActivity and LastSent are identical, all jumping
/// (> 1.2x within 3 RTTs, RFC 9438 Section 5.8's case); AppLimitedTime (t without the
/// app-limited time) grows less.
class QuicCcIdleRateLimitedTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcIdleRateLimitedTestCase()
        : quiccc::test::SimulationTestCase("rate-limited 50 % then bulk: Off = LastActivity = "
                                           "LastSent > 1.2x; AppLimitedTime less")
    {
    }

  private:
    void DoRun() override
    {
        std::map<std::string, QuicCcIdlePause> r;
        for (const char* rule : {"Off", "LastActivity", "LastSent", "AppLimitedTime"})
        {
            QuicCcIdleParams p;
            p.workload = "rate-limited";
            p.quic.SetController("IdleRestart", StringValue(rule));
            p.limitedFor = Seconds(2);
            p.bulkBytes = 5'000'000;
            const QuicCcIdleResult res = QuicCcRunIdle(p);
            NS_TEST_ASSERT_MSG_EQ(res.completed, true, rule);
            NS_TEST_ASSERT_MSG_EQ(res.pauses.size(), 1, "the switch to bulk");
            NS_TEST_ASSERT_MSG_EQ(res.completionSeconds.size(), 1, "the bulk's completion");
            NS_TEST_ASSERT_MSG_GT(res.completionSeconds[0],
                                  5e6 * 8 / 100e6,
                                  "5 MB at most line rate");
            r[rule] = res.pauses[0];
        }
        NS_TEST_ASSERT_MSG_EQ(r["Off"].IdleSeconds(), 0, "no idle time");
        NS_TEST_ASSERT_MSG_EQ(r["LastActivity"].after.epoch,
                              r["LastActivity"].before.epoch,
                              "no empty pipe: no shift");
        NS_TEST_ASSERT_MSG_EQ(r["LastActivity"].peakCwnd3Rtt, r["Off"].peakCwnd3Rtt, "same as Off");
        NS_TEST_ASSERT_MSG_EQ(r["LastSent"].peakCwnd3Rtt, r["Off"].peakCwnd3Rtt, "same as Off");
        NS_TEST_ASSERT_MSG_GT(r["Off"].PeakRatio(), 1.2, "the jump after an app-limited phase");
        NS_TEST_ASSERT_MSG_LT(r["AppLimitedTime"].PeakRatio(),
                              r["Off"].PeakRatio(),
                              "AppLimitedTime leaves the app-limited time out of t");
    }
};

/// Test: ns-3's OnOffApplication over "ns3::QuicCcSocketFactory", 1 s on at 50 Mbps, 2 s off,
/// 3 on periods: the 2 off periods between them are the pauses (not the first, before any data),
/// and the sink receives what 3 s at 50 Mbps send.
class QuicCcIdleOnOffTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcIdleOnOffTestCase()
        : quiccc::test::SimulationTestCase("OnOffApplication over QuicCcSocketFactory: 2 pauses, "
                                           "3 s x 50 Mbps delivered")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcIdleParams p;
        p.workload = "onoff";
        p.pauses = 2;
        const QuicCcIdleResult r = QuicCcRunIdle(p);
        NS_TEST_ASSERT_MSG_EQ(r.pauses.size(), 2, "the off periods between the on periods");
        for (const QuicCcIdlePause& q : r.pauses)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(q.IdleSeconds(), 2.0, 0.05, "a 2 s off period");
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(static_cast<double>(r.bytesReceived),
                                  3 * 50e6 / 8,
                                  3 * 50e6 / 8 * 0.01,
                                  "3 s at 50 Mbps");
    }
};

/// Test: a 2 MB write to a receiver that reads 20 Mbps: every byte is read, at the reader's
/// pace (0.8 s). Without receiver flow control the unread backlog grows to most of the transfer
/// (the sender is never told to slow down); with it (RFC 9000 Section 4) it stays within the
/// stream's receive window, InitialMaxStreamData.
class QuicCcIdleSlowReaderTestCase : public quiccc::test::SimulationTestCase
{
  public:
    explicit QuicCcIdleSlowReaderTestCase(bool flowControl)
        : quiccc::test::SimulationTestCase(
              std::string("slow reader 20 Mbps, 2 MB: read at its pace, backlog ") +
              (flowControl ? "<= InitialMaxStreamData with flow control"
                           : "> 1.2 MB without flow control")),
          m_flowControl(flowControl)
    {
    }

  private:
    void DoRun() override
    {
        QuicCcIdleParams p;
        p.workload = "slow-reader";
        p.bulkBytes = 2'000'000;
        p.readRate = DataRate("20Mbps");
        p.quic.SetSocket("FlowControl", BooleanValue(m_flowControl));
        const QuicCcIdleResult r = QuicCcRunIdle(p);
        NS_TEST_ASSERT_MSG_EQ(r.completed, true, "every byte read");
        NS_TEST_ASSERT_MSG_EQ(r.bytesReceived, 2'000'000, "2 MB");
        NS_TEST_ASSERT_MSG_EQ(r.completionSeconds.size(), 1, "one transfer");
        NS_TEST_ASSERT_MSG_EQ_TOL(r.completionSeconds[0], 0.8, 0.05, "2 MB at 20 Mbps");
        if (m_flowControl)
        {
            const uint64_t window = QuicCcConnection::Config().initialMaxStreamData;
            NS_TEST_ASSERT_MSG_LT_OR_EQ(r.peakBacklog, window, "bounded by the stream window");
            NS_TEST_ASSERT_MSG_GT(r.peakBacklog, window / 2, "the reader fell behind");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(r.peakBacklog, 1'200'000, "no flow control: the backlog grows");
        }
    }

    bool m_flowControl;
};

/// The true-idle TestSuite.
class QuicCcIdleTestSuite : public TestSuite
{
  public:
    QuicCcIdleTestSuite()
        : TestSuite("quic-cc-idle", QUICCC_SUITE_SYSTEM)
    {
        AddTestCase(new QuicCcIdleChunkedTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcIdleBurstTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcIdleRequestResponseTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcIdleRateLimitedTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcIdleOnOffTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcIdleSlowReaderTestCase(false), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcIdleSlowReaderTestCase(true), QUICCC_TEST_QUICK);
    }
};

static QuicCcIdleTestSuite g_quicCcIdleTestSuite; //!< registers the suite
