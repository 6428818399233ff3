/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The differential check (doc/quic-cc-results.rst, "Model vs library"), reduced: quic-cc's CUBIC
 * with the ngtcp2 profile against the real ngtcp2 library on the same paths and seeds, with the
 * tolerances the manual states. The 100-run numbers come from
 * `quic-cc-ngtcp2-diff --jobs=2 --csv=diff.csv`.
 */

#include "quic-cc-ngtcp2-diff-scenario.h"
#include "quic-cc-report.h"
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"

#include "ns3/config.h"
#include "ns3/quic-cc-ngtcp2-profile.h"

#include <cmath>

using namespace ns3;
using namespace ns3::quiccc::test;

namespace
{

/// |a / b - 1|
double
RelativeDifference(double a, double b)
{
    return std::fabs(a / b - 1.0);
}

/// Runs \p params on both sides: [0] the model with the profile, [1] ngtcp2.
void
RunBoth(QuicCcNgtcp2DiffParams params, QuicCcNgtcp2DiffResult out[2])
{
    params.transport = "quic-cc";
    out[0] = QuicCcRunNgtcp2Diff(params);
    params.transport = "ngtcp2";
    out[1] = QuicCcRunNgtcp2Diff(params);
}

/// Base of the cases: the profile's defaults are set for the case and reset after it.
class DiffTestCase : public SimulationTestCase
{
  public:
    using SimulationTestCase::SimulationTestCase;

  protected:
    void DoSetup() override
    {
        QuicCcSetNgtcp2ProfileDefaults();
    }

    void DoTeardown() override
    {
        SimulationTestCase::DoTeardown();
        Config::Reset();
    }
};

/**
 * CUBIC after one loss (the 150th data packet dropped in slow start, 100 Mbps, RTT 50 ms):
 * measured 213300 / 219943 B W_max (3 %), K 4.912 / 4.962 s, cwnd 1, 2 and 4 s after the event
 * within 3.5 %. Tolerances: 5 % on each; ssthresh = 0.7 W_max on both (ngtcp2 cwnd * 7 / 10,
 * the model trunc(cwnd * 0.7)); exactly one packet lost on both.
 */
class OneLossTestCase : public DiffTestCase
{
  public:
    OneLossTestCase()
        : DiffTestCase("CUBIC after one loss: W_max, ssthresh, K and growth, model vs ngtcp2")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcNgtcp2DiffParams p;
        p.oneWayDelay = MilliSeconds(25);
        p.dropDataPacket = 150;
        p.duration = Seconds(6);
        p.afterEvent = {Seconds(1), Seconds(2), Seconds(4)};
        QuicCcNgtcp2DiffResult r[2];
        RunBoth(p, r);
        for (int t = 0; t < 2; ++t)
        {
            NS_TEST_ASSERT_MSG_EQ(r[t].eventSeconds.has_value(),
                                  true,
                                  "side " << t << ": no event");
            NS_TEST_ASSERT_MSG_EQ(r[t].lostPackets, 1, "side " << t);
            const double ratio =
                static_cast<double>(r[t].ssthreshAfterEvent) / r[t].cwndBeforeEvent;
            NS_TEST_ASSERT_MSG_EQ_TOL(ratio, 0.7, 0.001, "side " << t << ": ssthresh / W_max");
            NS_TEST_ASSERT_MSG_EQ(r[t].cwndAfterEvent.size(), 3, "side " << t);
        }
        NS_TEST_ASSERT_MSG_LT(RelativeDifference(r[0].cwndBeforeEvent, r[1].cwndBeforeEvent),
                              0.05,
                              "W_max " << r[0].cwndBeforeEvent << " vs " << r[1].cwndBeforeEvent);
        const auto k = [](const QuicCcNgtcp2DiffResult& x) {
            return std::cbrt(
                (static_cast<double>(x.cwndBeforeEvent - x.ssthreshAfterEvent) / 1350) / 0.4);
        };
        NS_TEST_ASSERT_MSG_LT(RelativeDifference(k(r[0]), k(r[1])), 0.05, "K");
        for (size_t i = 0; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_GT(r[0].cwndAfterEvent[i], r[0].ssthreshAfterEvent, "model grows");
            NS_TEST_ASSERT_MSG_LT(
                RelativeDifference(r[0].cwndAfterEvent[i], r[1].cwndAfterEvent[i]),
                0.05,
                "cwnd sample " << i << ": " << r[0].cwndAfterEvent[i] << " vs "
                               << r[1].cwndAfterEvent[i]);
        }
    }
};

/**
 * Loss-free slow start and the HyStart++ exit (100 Mbps, RTT 40 ms, 5000-packet buffer).
 * Measured: cwnd doubles per round on both (x1.9 to x2.4 in rounds 2 to 6); CSS entry round 7
 * (model) / 8 (ngtcp2); both leave CSS after 4 rounds (CssRounds 4, as ngtcp2 counts), at
 * 2.43 x the entry cwnd (1.25^4 = 2.44), without loss. Tolerances: growth per round in
 * [1.7, 2.5]; exit / entry cwnd within 3 % of 1.25^4 on both; entry rounds at most 1 apart.
 */
class SlowStartTestCase : public DiffTestCase
{
  public:
    SlowStartTestCase()
        : DiffTestCase("Loss-free slow start and the HyStart++ exit, model vs ngtcp2")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcNgtcp2DiffParams p;
        p.duration = Seconds(2);
        p.rounds = 20;
        QuicCcNgtcp2DiffResult r[2];
        RunBoth(p, r);
        int cssRound[2] = {0, 0};
        for (int t = 0; t < 2; ++t)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(r[t].roundCwnd.size(), 7, "side " << t);
            for (size_t i = 2; i < 6; ++i)
            {
                const double growth =
                    static_cast<double>(r[t].roundCwnd[i + 1]) / r[t].roundCwnd[i];
                NS_TEST_ASSERT_MSG_GT(growth, 1.7, "side " << t << " round " << i);
                NS_TEST_ASSERT_MSG_LT(growth, 2.5, "side " << t << " round " << i);
            }
            NS_TEST_ASSERT_MSG_EQ(r[t].ssthreshSetSeconds.has_value(), true, "side " << t);
            NS_TEST_ASSERT_MSG_EQ(r[t].ssthreshByLoss, false, "side " << t << ": HyStart++ exit");
            NS_TEST_ASSERT_MSG_EQ(r[t].cssSeconds.has_value(), true, "side " << t);
            const double grown = static_cast<double>(r[t].ssthreshFirst) / r[t].cwndAtCss;
            NS_TEST_ASSERT_MSG_EQ_TOL(grown,
                                      std::pow(1.25, 4),
                                      0.03 * std::pow(1.25, 4),
                                      "side " << t);
            cssRound[t] = QuicCcNgtcp2DiffRoundOf(r[t], *r[t].cssSeconds);
        }
        NS_TEST_ASSERT_MSG_EQ(r[0].cssTraceSeconds.has_value(), true, "model CSS trace");
        // The first CSS step follows the entry by one acked packet (measured 0.2 ms).
        NS_TEST_ASSERT_MSG_EQ_TOL(*r[0].cssTraceSeconds,
                                  *r[0].cssSeconds,
                                  0.005,
                                  "the model's CSS entry as seen from cwnd and as it reports it");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(std::abs(cssRound[0] - cssRound[1]), 1, "CSS entry rounds");
    }
};

/**
 * The death spiral (quic-cc-death-spiral's scenario), RngRun 1..3 on both sides: the model with
 * the ngtcp2 profile (separate epoch) does not trap, as ngtcp2 does not: every run completes,
 * and the medians are within 0.5 s (100 runs: see the manual).
 */
class SpiralTestCase : public DiffTestCase
{
  public:
    SpiralTestCase()
        : DiffTestCase("Death spiral, 3 runs: model with the ngtcp2 profile vs ngtcp2")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<double> times[2];
        for (int t = 0; t < 2; ++t)
        {
            for (uint32_t run = 1; run <= 3; ++run)
            {
                QuicCcDeathSpiralParams p =
                    QuicCcNgtcp2DiffSpiralParams(t == 0 ? "quic-cc" : "ngtcp2", 1350);
                p.run = run;
                const QuicCcDeathSpiralResult r = QuicCcRunDeathSpiral(p);
                NS_TEST_ASSERT_MSG_EQ(r.completed, true, "side " << t << " run " << run);
                times[t].push_back(r.completionSeconds);
            }
        }
        NS_TEST_ASSERT_MSG_LT(std::fabs(QuicCcMedian(times[0]) - QuicCcMedian(times[1])),
                              0.5,
                              "median completion " << QuicCcMedian(times[0]) << " vs "
                                                   << QuicCcMedian(times[1]));
    }
};

class QuicCcNgtcp2DiffTestSuite : public TestSuite
{
  public:
    QuicCcNgtcp2DiffTestSuite()
        : TestSuite("quic-cc-ngtcp2-diff", QUICCC_SUITE_SYSTEM)
    {
        AddTestCase(new OneLossTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new SlowStartTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new SpiralTestCase, QUICCC_TEST_QUICK);
    }
};

static QuicCcNgtcp2DiffTestSuite g_quicCcNgtcp2DiffTestSuite;

} // namespace
