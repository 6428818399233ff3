/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-cubic-growth-report.h"

#include "quic-cc-response-function.h"
#include "quic-cc-transport-spec.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

/// The one-loss part samples cwnd at these offsets after the event, s: the gain's window
/// (0.25 s to 1.25 s), then the curve.
const std::vector<double> kOffsets{0.25, 1.25, 2, 4, 6};

/// cwnd gained per RTT from \p a at \p ta to \p b at \p tb (s after the event), packets.
double
GainPerRtt(double a, double b, double ta, double tb, double rtt, double mss)
{
    return (b - a) / mss / ((tb - ta) / rtt);
}

double
Mss(const QuicCcCubicGrowthGrid& grid)
{
    return static_cast<double>(grid.base.maxDatagramSize);
}

double
Rtt(const QuicCcCubicGrowthGrid& grid)
{
    return 2 * grid.base.oneWayDelay.GetSeconds();
}

/// RFC 9438 Section 5.1's average window under the periodic part's loss, packets.
double
RfcWindow(const QuicCcCubicGrowthGrid& grid)
{
    const double p = 1.0 / static_cast<double>(grid.base.lossPeriod);
    return QuicCcRfc9438CubicWindow(0.4, Seconds(Rtt(grid)), p);
}

/// That window's goodput, Mbit/s.
double
RfcGoodput(const QuicCcCubicGrowthGrid& grid)
{
    return RfcWindow(grid) * Mss(grid) * 8 / Rtt(grid) / 1e6;
}

} // namespace

std::vector<QuicCcCubicGrowthGrid::Task>
QuicCcCubicGrowthGrid::Tasks() const
{
    std::vector<Task> tasks;
    for (const std::string& part : parts)
    {
        for (const std::string& stack : stacks)
        {
            for (uint32_t ratio : ackRatios)
            {
                for (uint32_t run = firstRun; run < firstRun + runs; ++run)
                {
                    Task t{part, base};
                    t.params.stack = stack;
                    t.params.ackRatio = ratio;
                    t.params.run = run;
                    if (part == "oneloss")
                    {
                        t.params.lossPeriod = 0;
                        t.params.measureFrom = Time(0);
                        t.params.afterEvent.clear();
                        for (double o : kOffsets)
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
    return tasks;
}

std::string
QuicCcCubicGrowthGrid::Describe(const Task& task)
{
    std::ostringstream name;
    name << task.part << " " << task.params.stack << ", ACK every " << task.params.ackRatio;
    return name.str();
}

void
QuicCcPrintCubicGrowthHeader(const QuicCcCubicGrowthGrid& grid)
{
    const double mss = Mss(grid);
    const double rtt = Rtt(grid);
    for (const std::string& stack : grid.stacks)
    {
        if (const std::string version = QuicCcCubicGrowthTransport(stack).GetLibraryVersion();
            !version.empty())
        {
            std::cout << "ngtcp2 rows: the real ngtcp2 " << version << "\n";
            break;
        }
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
                RfcWindow(grid),
                RfcGoodput(grid));
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
}

std::string
QuicCcCubicGrowthCsvHeader()
{
    return "part,stack,ack_ratio,run,ngtcp2_version,w_max_pkts,cwnd_epoch_pkts,k_s,gain_per_rtt,"
           "rfc_gain_per_rtt,regain_s,growth_start_s,cwnd_2s_pkts,rfc_cwnd_2s_pkts,cwnd_4s_pkts,"
           "rfc_cwnd_4s_pkts,cwnd_6s_pkts,rfc_cwnd_6s_pkts,goodput_mbps,rfc_goodput_mbps,"
           "mean_cwnd_pkts,rfc_window_pkts,events,drops,lost,min_rtt_s\n";
}

std::string
QuicCcCubicGrowthRow(const QuicCcCubicGrowthGrid& grid,
                     const QuicCcCubicGrowthGrid::Task& t,
                     const QuicCcCubicGrowthResult& r)
{
    const double mss = Mss(grid);
    const double rfcGoodput = RfcGoodput(grid);
    const std::string version = QuicCcCubicGrowthTransport(t.params.stack).GetLibraryVersion();
    std::ostringstream row;
    row << t.part << "," << t.params.stack << "," << t.params.ackRatio << "," << t.params.run << ","
        << version << ",";
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
        oneloss && event && r.cwndAt.size() == kOffsets.size() && at(0) > 0 && at(1) > 0;
    const double minRtt = r.minRttSeconds > 0 ? r.minRttSeconds : Rtt(grid);
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
    for (size_t j = 2; j < kOffsets.size(); ++j)
    {
        cell(sampled && at(j) > 0, at(j) / mss);
        cell(sampled, rfcAt(kOffsets[j]) / mss);
    }
    cell(!oneloss, r.goodputMbps);
    cell(!oneloss, rfcGoodput);
    cell(!oneloss, r.meanCwnd / mss);
    cell(!oneloss, RfcWindow(grid));
    row << r.events << "," << r.drops << "," << r.lostPackets << "," << r.minRttSeconds << "\n";
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
    return row.str();
}

} // namespace ns3
