/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Many flows on one bottleneck: QUIC (quic-cc) and ns-3 TCP flows in a dumbbell.
 *
 *   sender 0 --access--+                           +--access-- receiver 0
 *   sender 1 --access--+- router ==bottleneck== router -+--access-- receiver 1
 *   ...                  (rate, delay, queue or queue disc, loss)       ...
 *
 * Each flow has its own sender/receiver pair (BulkSend -> PacketSink). Per flow it reports the
 * goodput over the measurement window (from the warm-up to the end, or to the first completed
 * fixed-size transfer), the packets the sender declared lost (QUIC) or retransmitted (TCP), the
 * time-weighted mean cwnd, and FlowMonitor's wire counts of the data direction; per run, Jain's
 * fairness index of the goodputs.
 *
 *   ./quic-cc-dumbbell --flows=quic:cubic:2
 *   ./quic-cc-dumbbell --flows=quic:cubic:1,tcp:TcpCubic:1 --runs=10 --csv=flows.csv
 *   ./quic-cc-dumbbell --flows='quic:cubic[SpuriousLossRollback=false]:1,tcp:TcpCubic:1'
 *   ./quic-cc-dumbbell --flows=quic:cubic:4 --rtts=10ms,20ms,40ms,80ms --timeseries=ts.csv
 *   ./quic-cc-dumbbell --flows=quic:cubic:1 --queueDisc=ns3::FqCoDelQueueDisc
 *
 * Flow groups: transport:controller[Name=Value|...]:count; transport quic (controller cubic,
 * reno or a QuicCongestionController TypeId) or tcp (a TcpCongestionOps TypeId, e.g. TcpCubic).
 * scripts/plot-dumbbell.py draws --timeseries and --csv output.
 */

#include "quic-cc-dumbbell-scenario.h"
#include "quic-cc-output-file.h"
#include "quic-cc-report.h"

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* const kName = "quic-cc-dumbbell";

/// One line on stderr naming the option and value, exit status 2.
[[noreturn]] void
BadArgument(const std::string& option, const std::string& value, const std::string& reason)
{
    std::cerr << kName << ": --" << option << "=" << value << ": " << reason << "\n";
    std::exit(2);
}

/// An ns-3 time such as 40ms or 1.5s (checked first: ns3::Time aborts on a bad unit); \p s is
/// \p value or one item of it.
Time
ParseTime(const std::string& option, const std::string& value, const std::string& s)
{
    static const std::regex kTime(
        R"(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?(s|ms|us|ns|min|h))");
    if (!std::regex_match(s, kTime))
    {
        BadArgument(option, value, "'" + s + "' is not a time such as 40ms or 1.5s");
    }
    return Time(s);
}

Time
ParseTime(const std::string& option, const std::string& value)
{
    return ParseTime(option, value, value);
}

uint64_t
ParseUnsigned(const std::string& option, const std::string& s, uint64_t max)
{
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos ||
        std::stoull(s) > max)
    {
        BadArgument(option, s, "not an integer in 0.." + std::to_string(max));
    }
    return std::stoull(s);
}

double
ParseDouble(const std::string& option, const std::string& s)
{
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v))
    {
        BadArgument(option, s, "not a number");
    }
    return v;
}

DataRate
ParseRate(const std::string& option, const std::string& s)
{
    DataRate rate;
    std::istringstream in(s);
    if (!(in >> rate) || rate.GetBitRate() == 0)
    {
        BadArgument(option, s, "not a positive rate such as 10Mbps");
    }
    return rate;
}

/// Fail now (exit 2) if \p path cannot be written later.
void
CheckOutputPath(const std::string& option, const std::string& path)
{
    if (path.empty())
    {
        return;
    }
    const std::string tmp = path + ".tmp";
    if (!std::ofstream(tmp))
    {
        BadArgument(option, path, "cannot write here");
    }
    std::remove(tmp.c_str());
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string flows = "quic:cubic:2";
    std::string rtts = "40ms";
    std::string stagger = "0s";
    std::string startJitter = "100ms";
    std::string transfer = "0";
    std::string rate = "10Mbps";
    std::string delay = "5ms";
    std::string accessRate = "1Gbps";
    std::string queue = "100p";
    std::string queueDisc;
    std::string loss = "0";
    std::string duration = "30s";
    std::string warmup = "5s";
    std::string interval = "500ms";
    std::string seed = "1";
    std::string firstRun = "1";
    std::string runs = "1";
    std::string csv;
    std::string timeseries;
    bool quiet = false;
    bool dryRun = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("flows",
                 "flow groups transport:controller[Attr=V|...]:count, comma-separated",
                 flows);
    cmd.AddValue("rtts", "base RTT of each flow, comma-separated, cycled over the flows", rtts);
    cmd.AddValue("stagger", "flow i starts at i * stagger", stagger);
    cmd.AddValue("startJitter",
                 "each flow starts up to this much later, drawn per RngRun",
                 startJitter);
    cmd.AddValue("transfer", "bytes per flow (0 = bulk until the end)", transfer);
    cmd.AddValue("rate", "bottleneck rate", rate);
    cmd.AddValue("delay", "bottleneck one-way delay", delay);
    cmd.AddValue("accessRate", "access link rate", accessRate);
    cmd.AddValue("queue", "bottleneck buffer, packets (100p) or bytes (150000B)", queue);
    cmd.AddValue(
        "queueDisc",
        "queue disc TypeId at the bottleneck (e.g. ns3::FqCoDelQueueDisc); empty = drop-tail",
        queueDisc);
    cmd.AddValue("loss", "random loss rate at the bottleneck, data direction", loss);
    cmd.AddValue("duration", "simulated time", duration);
    cmd.AddValue("warmup", "measurement window start", warmup);
    cmd.AddValue("interval", "goodput-over-time bin", interval);
    cmd.AddValue("seed", "RngSeed", seed);
    cmd.AddValue("firstRun", "first RngRun", firstRun);
    cmd.AddValue("runs", "number of runs (RngRun firstRun, firstRun+1, ...)", runs);
    cmd.AddValue("csv", "per-flow results of every run (CSV, written atomically)", csv);
    cmd.AddValue("timeseries",
                 "per-flow goodput over time of every run (CSV, written atomically)",
                 timeseries);
    cmd.AddValue("quiet", "print only the summary", quiet);
    cmd.AddValue("dryRun", "check the arguments and output paths, print nothing, exit 0", dryRun);
    cmd.Parse(argc, argv);

    QuicCcDumbbellParams params;
    if (std::string why = QuicCcParseFlowSpec(flows, &params.groups); !why.empty())
    {
        BadArgument("flows", flows, why);
    }
    params.rtts.clear();
    std::stringstream rttList(rtts);
    for (std::string item; std::getline(rttList, item, ',');)
    {
        params.rtts.push_back(ParseTime("rtts", rtts, item));
    }
    params.stagger = ParseTime("stagger", stagger);
    params.startJitter = ParseTime("startJitter", startJitter);
    params.transferBytes = ParseUnsigned("transfer", transfer, uint64_t{1} << 50);
    params.bottleneckRate = ParseRate("rate", rate);
    params.bottleneckDelay = ParseTime("delay", delay);
    params.accessRate = ParseRate("accessRate", accessRate);
    params.queueSize = queue;
    params.queueDisc = queueDisc;
    params.lossRate = ParseDouble("loss", loss);
    params.duration = ParseTime("duration", duration);
    params.warmup = ParseTime("warmup", warmup);
    params.interval = ParseTime("interval", interval);
    params.seed = ParseUnsigned("seed", seed, UINT32_MAX);
    const uint64_t first = ParseUnsigned("firstRun", firstRun, UINT32_MAX);
    const uint64_t count = ParseUnsigned("runs", runs, 100000);
    if (params.seed == 0)
    {
        BadArgument("seed", seed, "must be >= 1");
    }
    if (count == 0)
    {
        BadArgument("runs", runs, "must be >= 1");
    }
    if (first == 0 || first + count - 1 > UINT32_MAX)
    {
        BadArgument("firstRun", firstRun, "runs must stay in 1..4294967295");
    }
    if (std::string why = QuicCcCheckDumbbellParams(params); !why.empty())
    {
        // Name the option the scenario's message is about.
        const std::map<std::string, std::pair<std::string, std::string>> options{
            {"RTT", {"rtts", rtts}},
            {"loss", {"loss", loss}},
            {"duration", {"duration", duration}},
            {"warm-up", {"warmup", warmup}},
            {"interval", {"interval", interval}},
            {"stagger", {"stagger", stagger}},
            {"start jitter", {"startJitter", startJitter}},
            {"queue size", {"queue", queue}},
            {"queue disc", {"queueDisc", queueDisc}},
            {"delay", {"delay", delay}}};
        for (const auto& [key, option] : options)
        {
            if (why.find(key) != std::string::npos)
            {
                BadArgument(option.first, option.second, why);
            }
        }
        BadArgument("flows", flows, why);
    }
    CheckOutputPath("csv", csv);
    CheckOutputPath("timeseries", timeseries);
    if (dryRun)
    {
        return 0;
    }

    std::ostringstream csvText;
    csvText << "run,flow,group,transport,controller,rtt_ms,start_s,goodput_mbps,window_bytes,"
               "sink_bytes,completed,completion_s,lost_packets,mean_cwnd_packets,wire_tx_packets,"
               "wire_rx_packets,wire_tx_bytes,wire_rx_bytes,jain_index\n";
    std::ostringstream tsText;
    tsText << "run,time_s,flow,group,goodput_mbps\n";
    std::vector<double> jains;
    std::map<std::string, std::vector<double>> groupGoodput; // per-run mean of each group
    std::vector<std::string> groupOrder;
    for (const auto& g : params.groups)
    {
        groupOrder.push_back(g.token);
    }

    for (uint64_t run = first; run < first + count; ++run)
    {
        params.run = static_cast<uint32_t>(run);
        const QuicCcDumbbellResult r = QuicCcRunDumbbell(params);
        jains.push_back(r.jainIndex);
        std::map<std::string, std::vector<double>> perGroup;
        if (!quiet)
        {
            std::cout << "run " << run << ": window " << r.windowStart.GetSeconds() << "-"
                      << r.windowEnd.GetSeconds() << " s, Jain index " << std::fixed
                      << std::setprecision(3) << r.jainIndex << ", total " << std::setprecision(2)
                      << r.totalGoodputMbps << " Mbit/s\n";
            std::cout << "  flow  group                          rtt_ms  goodput_Mbps  lost  "
                         "mean_cwnd_pkts  done_s\n";
        }
        for (const auto& f : r.flows)
        {
            perGroup[f.group].push_back(f.goodputMbps);
            const double cwndPackets = f.mss ? f.meanCwndBytes / f.mss : 0;
            if (!quiet)
            {
                std::cout << "  " << std::setw(4) << f.index << "  " << std::left << std::setw(30)
                          << f.group << std::right << std::setw(7) << std::setprecision(0)
                          << f.rtt.GetMilliSeconds() << std::setw(14) << std::setprecision(3)
                          << f.goodputMbps << std::setw(6) << f.lostPackets << std::setw(16)
                          << std::setprecision(1) << cwndPackets << std::setw(8)
                          << (f.completed ? std::to_string(f.completionSeconds).substr(0, 6) : "-")
                          << "\n";
            }
            csvText << run << "," << f.index << ",\"" << f.group << "\"," << f.transport << ","
                    << f.controller << "," << f.rtt.GetMilliSeconds() << "," << f.start.GetSeconds()
                    << "," << f.goodputMbps << "," << f.windowBytes << "," << f.sinkBytes << ","
                    << f.completed << "," << f.completionSeconds << "," << f.lostPackets << ","
                    << cwndPackets << "," << f.wireTxPackets << "," << f.wireRxPackets << ","
                    << f.wireTxBytes << "," << f.wireRxBytes << "," << r.jainIndex << "\n";
            for (size_t b = 0; b < f.binBytes.size(); ++b)
            {
                tsText << run << "," << (b + 1) * params.interval.GetSeconds() << "," << f.index
                       << ",\"" << f.group << "\","
                       << f.binBytes[b] * 8.0 / params.interval.GetSeconds() / 1e6 << "\n";
            }
        }
        for (const auto& [group, v] : perGroup)
        {
            groupGoodput[group].push_back(QuicCcMean(v));
        }
    }

    // Mean over the runs and the range [min, max] as the spread.
    std::cout << "summary over " << count << " run(s): per-flow goodput (Mbit/s) by group, "
              << "mean [min, max] over runs\n";
    const auto summary = [](const std::vector<double>& v, int precision) {
        return QuicCcFormat(QuicCcMean(v), precision) + " [" +
               QuicCcFormat(QuicCcQuantile(v, 0), precision) + ", " +
               QuicCcFormat(QuicCcQuantile(v, 1), precision) + "]";
    };
    for (const auto& group : groupOrder)
    {
        std::cout << "  " << std::left << std::setw(40) << group << std::right
                  << summary(groupGoodput[group], 2) << "\n";
    }
    std::cout << "  Jain index " << summary(jains, 3) << "\n";

    // Paths were checked before the first run; a failure here is fatal, naming file and reason.
    if (!csv.empty())
    {
        QuicCcWriteFileAtomically(csv, csvText.str());
    }
    if (!timeseries.empty())
    {
        QuicCcWriteFileAtomically(timeseries, tsText.str());
    }
    return 0;
}
