/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CUBIC's congestion-avoidance growth against the receiver's ACK ratio (an ACK every 1, 2, 10
 * ack-eliciting packets), for the real ngtcp2 library this program is linked with (1.24.0 and
 * 1.25.0 take the concave/convex step once per ACK frame; the build
 * "1.24.0+cubic-bytes-delivered" has upstream commit 42d626f8, which takes it per byte
 * acknowledged), quic-cc's CUBIC with the ngtcp2 profile (per ACK frame, as ngtcp2 1.24), the
 * profile with CubicStep=PerPacket, and quic-cc's quiche CUBIC, each beside RFC 9438's formula:
 *
 *   oneloss   100 Mbit/s, RTT 100 ms, the 290th data packet dropped in slow start: cwnd gained
 *             per RTT over the first second of congestion avoidance (0.25 s to 1.25 s after the
 *             event) and the time to regain W_max, against W_cubic(t) = C (t - K)^3 + W_max
 *             with the run's own W_max (RFC 9438 Eqs. 1, 2)
 *   periodic  the same path, one data packet in 15,000 dropped, 72 s: goodput from 12 s on
 *             against RFC 9438 Section 5.1's average window
 *
 *   ./quic-cc-cubic-growth                               # both parts, every stack, N = 1, 2, 10
 *   ./quic-cc-cubic-growth --parts=oneloss --ackRatios=10 --stacks=ngtcp2,quiche
 *   build/examples/ngtcp2-1.25.0/quic-cc-cubic-growth    # the ngtcp2 rows of another release
 *
 * The ngtcp2 rows are the release this program is linked with (CSV column ngtcp2_version); a
 * build configured with NGTCP2_VARIANTS has this program once per release in
 * examples/ngtcp2-<release>/, and quic-cc-campaign sweeps them (parameter "ngtcp2",
 * examples/campaigns/cubic-growth.toml). Nothing here is random: every RngRun gives the same run.
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-command-line.h"
#include "quic-cc-cubic-growth-scenario.h"
#include "quic-cc-ngtcp2-transport.h"
#include "quic-cc-output-file.h"
#include "quic-cc-response-function.h"

#include "ns3/core-module.h"
#include "ns3/quic-cc-module.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One run of the batch.
struct Task
{
    std::string part;
    QuicCcCubicGrowthParams params;
};

/// cwnd gained per RTT between the samples \p a and \p b of \p r, packets (\p r's offsets
/// \p ta, \p tb, seconds after the event).
double
GainPerRtt(double a, double b, double ta, double tb, double rtt, double mss)
{
    return (b - a) / mss / ((tb - ta) / rtt);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string stacksText = "all";
    std::string ackRatiosText = "1,2,10";
    std::string partsText = "oneloss,periodic";
    std::string rateText = "100Mbps";
    std::string delayText = "50ms";
    std::string mssText = "1350";
    std::string dropPacketText = "290";
    std::string lossPeriodText = "15000";
    std::string durationText = "12s";
    std::string periodicDurationText = "72s";
    std::string measureFromText = "12s";
    QuicCcBatchOptions batch(1);

    QuicCcCommandLine cmd(__FILE__);
    cmd.AddValues(
        {{"stacks",
          "ngtcp2 (the linked library), ngtcp2-profile, ngtcp2-profile-per-packet, quiche, "
          "comma-separated, or all (ngtcp2 where built)",
          &stacksText},
         {"ackRatios",
          "the receiver's ACK every N ack-eliciting packets, comma-separated",
          &ackRatiosText},
         {"parts", "oneloss, periodic, comma-separated", &partsText},
         {"rate", "link rate", &rateText},
         {"delay", "one-way delay (RTT = 2 x delay)", &delayText},
         {"mss", "packet size, bytes (1200..1452)", &mssText},
         {"dropPacket", "oneloss: the data packet dropped", &dropPacketText},
         {"lossPeriod", "periodic: one data packet in this many dropped", &lossPeriodText},
         {"duration", "oneloss: simulated time", &durationText},
         {"periodicDuration", "periodic: simulated time", &periodicDurationText},
         {"measureFrom", "periodic: goodput counted from here", &measureFromText}});
    batch.Add(cmd, "runs per cell (nothing is random: every run is the same)");
    cmd.AttributesSetBy(QuicCcTransportAttributesSetBy(
        {{"AckElicitingThreshold", "ackRatios"}, {"MaxAckDelay", ""}, {"MaxDatagramSize", "mss"}}));
    cmd.AttributesSetBy({{"ns3::QuicCcSocket::AckElicitingThreshold", "ackRatios"},
                         {"ns3::QuicCcSocket::AckPolicy", ""},
                         {"ns3::QuicCcSocket::MaxAckDelay", ""},
                         {"ns3::QuicCcSocket::MaxDatagramSize", "mss"},
                         {"ns3::QuicCcSocket::IdleTimeout", ""},
                         {"ns3::QuicCubic::CubicStep", "stacks"}});
    // The ngtcp2 profile's settings: its rows set them.
    for (const QuicCcAttributeSetting& setting : QuicCcNgtcp2Profile())
    {
        cmd.AttributesSetBy({{setting.name, "stacks"}});
    }
    cmd.Parse(argc, argv);

    std::vector<std::string> stacks;
    std::vector<uint32_t> ratios;
    std::vector<std::string> parts;
    QuicCcCubicGrowthParams base;
    Time periodicDuration;
    try
    {
        stacks = QuicCcParseRows("stacks",
                                 stacksText,
                                 QuicCcCubicGrowthStacks(),
                                 [](const std::string& s) { return s == "ngtcp2"; });
        for (const std::string& r : QuicCcSplitList("ackRatios", ackRatiosText))
        {
            ratios.push_back(QuicCcParseUnsigned("ackRatios", r, 1, 1000));
        }
        for (const std::string& p : QuicCcSplitList("parts", partsText))
        {
            parts.push_back(QuicCcParseChoice("parts", p, {"oneloss", "periodic"}));
        }
        base.rate = QuicCcParseRate("rate", rateText);
        base.oneWayDelay = QuicCcParseTime("delay", delayText);
        QuicCcRequire(base.oneWayDelay.IsStrictlyPositive(), "delay", delayText, "must be > 0");
        base.maxDatagramSize = QuicCcParseUnsigned("mss", mssText, 1200, 1452);
        base.dropDataPacket = QuicCcParseUnsigned("dropPacket", dropPacketText, 1, 1000000000);
        const uint64_t lossPeriod =
            QuicCcParseUnsigned("lossPeriod", lossPeriodText, 2, 1000000000);
        base.duration = QuicCcParseTime("duration", durationText);
        QuicCcRequire(base.duration > Seconds(2), "duration", durationText, "must be > 2s");
        periodicDuration = QuicCcParseTime("periodicDuration", periodicDurationText);
        base.measureFrom = QuicCcParseTime("measureFrom", measureFromText);
        QuicCcRequire(base.measureFrom < periodicDuration,
                      "measureFrom",
                      measureFromText,
                      "must be before the end (--periodicDuration=" + periodicDurationText + ")");
        base.lossPeriod = lossPeriod;
        batch.Parse();
        QuicCcCheckOutputs({{"csv", batch.csv}});
    }
    catch (const QuicCcUsageError& e)
    {
        cmd.Exit(e);
    }
    if (batch.dryRun)
    {
        return 0;
    }

    // oneloss samples cwnd at these offsets after the event (the gain's window, then the curve).
    const std::vector<double> offsets{0.25, 1.25, 2, 4, 6};
    std::vector<Task> tasks;
    for (const std::string& part : parts)
    {
        for (const std::string& stack : stacks)
        {
            for (uint32_t ratio : ratios)
            {
                for (uint32_t run = batch.firstRun; run < batch.firstRun + batch.runs; ++run)
                {
                    Task t{part, base};
                    t.params.stack = stack;
                    t.params.ackRatio = ratio;
                    t.params.run = run;
                    t.params.seed = batch.seed;
                    if (part == "oneloss")
                    {
                        t.params.lossPeriod = 0;
                        t.params.measureFrom = Time(0);
                        t.params.afterEvent.clear();
                        for (double o : offsets)
                        {
                            t.params.afterEvent.push_back(Seconds(o));
                        }
                    }
                    else
                    {
                        t.params.dropDataPacket = 0;
                        t.params.duration = periodicDuration;
                        // The first drop near the steady window, as the response function's runs
                        // do (RFC 9438 Section 5.1's cycles from the start).
                        t.params.lossFirstDrop = 250;
                    }
                    tasks.push_back(t);
                }
            }
        }
    }

    const double mss = static_cast<double>(base.maxDatagramSize);
    const double rtt = 2 * base.oneWayDelay.GetSeconds();
    const double p = 1.0 / static_cast<double>(base.lossPeriod);
    const double rfcWindow = QuicCcRfc9438CubicWindow(0.4, Seconds(rtt), p);
    const double rfcGoodput = rfcWindow * mss * 8 / rtt / 1e6;
    const std::string version = QuicCcNgtcp2Version();
    if (std::find(stacks.begin(), stacks.end(), "ngtcp2") != stacks.end())
    {
        std::cout << "ngtcp2 rows: the real ngtcp2 " << version << "\n";
    }
    // RFC 9438's own row at a W_max of 300 packets (oneloss) and Section 5.1 (periodic).
    const double w300 = 300 * mss;
    std::printf("rfc9438: oneloss at W_max = 300 packets: K %.2f s, %.2f packets per RTT over "
                "[0.25 s, 1.25 s]; periodic: %.0f packets, %.2f Mbit/s\n",
                QuicCcRfc9438K(w300, 0.7 * w300, mss),
                GainPerRtt(QuicCcRfc9438CubicAt(0.25, w300, 0.7 * w300, mss),
                           QuicCcRfc9438CubicAt(1.25, w300, 0.7 * w300, mss),
                           0.25,
                           1.25,
                           rtt,
                           mss),
                rfcWindow,
                rfcGoodput);
    std::printf("%-9s %-26s %3s %4s %7s %6s %8s %8s %8s %8s %9s %9s\n",
                "part",
                "stack",
                "N",
                "run",
                "W_max",
                "K_s",
                "gain/RTT",
                "(RFC)",
                "regain_s",
                "goodput",
                "(RFC)",
                "events");
    std::fflush(stdout);

    const std::unique_ptr<QuicCcOutputFile> table = batch.OpenCsv(
        cmd,
        "part,stack,ack_ratio,run,ngtcp2_version,w_max_pkts,cwnd_epoch_pkts,k_s,gain_per_rtt,"
        "rfc_gain_per_rtt,regain_s,growth_start_s,cwnd_2s_pkts,rfc_cwnd_2s_pkts,cwnd_4s_pkts,"
        "rfc_cwnd_4s_pkts,cwnd_6s_pkts,rfc_cwnd_6s_pkts,goodput_mbps,rfc_goodput_mbps,"
        "mean_cwnd_pkts,rfc_window_pkts,events,drops,lost,min_rtt_s\n");
    QuicCcRunBatch(
        tasks.size(),
        batch.jobs,
        [&](size_t i) { return QuicCcRecordToLine(QuicCcRunCubicGrowth(tasks[i].params)); },
        batch.Report(cmd,
                     [&](size_t i) {
                         std::ostringstream name;
                         name << tasks[i].part << " " << tasks[i].params.stack << ", ACK every "
                              << tasks[i].params.ackRatio;
                         return name.str();
                     }),
        [&](size_t i, const std::string& line) {
            const Task& t = tasks[i];
            QuicCcCubicGrowthResult r;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            std::ostringstream row;
            row << t.part << "," << t.params.stack << "," << t.params.ackRatio << ","
                << t.params.run << "," << r.ngtcp2Version << ",";
            const auto cell = [&row](bool valid, double v) {
                if (valid)
                {
                    row << v;
                }
                row << ",";
            };
            const double wMax = static_cast<double>(r.wMax);
            const double epoch = static_cast<double>(r.cwndAfterEvent);
            const bool event = r.eventSeconds.has_value() && r.wMax > 0;
            const double k = QuicCcRfc9438K(wMax, epoch, mss);
            const auto at = [&](size_t j) {
                return r.cwndAt.size() > j ? static_cast<double>(r.cwndAt[j]) : 0.0;
            };
            const auto rfcAt = [&](double o) { return QuicCcRfc9438CubicAt(o, wMax, epoch, mss); };
            const bool oneloss = t.part == "oneloss";
            const bool sampled =
                oneloss && event && r.cwndAt.size() == offsets.size() && at(0) > 0 && at(1) > 0;
            const double minRtt = r.minRttSeconds > 0 ? r.minRttSeconds : rtt;
            const double gain = sampled ? GainPerRtt(at(0), at(1), 0.25, 1.25, minRtt, mss) : 0;
            const double rfcGain =
                sampled ? GainPerRtt(rfcAt(0.25), rfcAt(1.25), 0.25, 1.25, minRtt, mss) : 0;
            cell(oneloss && event, wMax / mss);
            cell(oneloss && event, epoch / mss);
            cell(oneloss && event, k);
            cell(sampled, gain);
            cell(sampled, rfcGain);
            cell(oneloss && r.regainSeconds.has_value(), r.regainSeconds.value_or(0));
            cell(oneloss && r.growthSeconds.has_value(), r.growthSeconds.value_or(0));
            for (size_t j = 2; j < offsets.size(); ++j)
            {
                cell(sampled && at(j) > 0, at(j) / mss);
                cell(sampled, rfcAt(offsets[j]) / mss);
            }
            cell(!oneloss, r.goodputMbps);
            cell(!oneloss, rfcGoodput);
            cell(!oneloss, r.meanCwnd / mss);
            cell(!oneloss, rfcWindow);
            row << r.events << "," << r.drops << "," << r.lostPackets << "," << r.minRttSeconds
                << "\n";
            std::printf("%-9s %-26s %3u %4u %7.1f %6.2f %8.2f %8.2f %8.2f %8.2f %9.2f %9u\n",
                        t.part.c_str(),
                        t.params.stack.c_str(),
                        t.params.ackRatio,
                        t.params.run,
                        oneloss ? wMax / mss : 0.0,
                        oneloss ? k : 0.0,
                        gain,
                        rfcGain,
                        oneloss ? r.regainSeconds.value_or(-1) : 0.0,
                        oneloss ? 0.0 : r.goodputMbps,
                        oneloss ? 0.0 : rfcGoodput,
                        r.events);
            std::fflush(stdout);
            if (table)
            {
                table->Write(row.str());
            }
        });
    if (table)
    {
        table->Commit();
    }
    return 0;
}
