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
 * reno or a QuicCongestionController TypeId), tcp (a TcpCongestionOps TypeId, e.g. TcpCubic) or
 * ngtcp2 (the real ngtcp2 library's cubic, reno or bbr, in a build with the ngtcp2 transport):
 *
 *   ./quic-cc-dumbbell --flows=ngtcp2:bbr:1,quic:cubic:1,tcp:TcpCubic:1
 * scripts/plot-dumbbell.py draws --timeseries and --csv output.
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-command-line.h"
#include "quic-cc-dumbbell-scenario.h"
#include "quic-cc-ngtcp2-transport.h"
#include "quic-cc-output-file.h"
#include "quic-cc-report.h"
#include "quic-cc-send-buffer.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <array>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Each item of the comma-separated list \p text as a time ("40ms,80ms").
std::vector<Time>
ParseTimeList(const std::string& option, const std::string& text)
{
    std::vector<Time> out;
    for (const std::string& item : QuicCcSplitList(option, text))
    {
        try
        {
            out.push_back(QuicCcParseTime(option, item));
        }
        catch (const QuicCcUsageError& e)
        {
            throw QuicCcUsageError(option, text, "'" + item + "' is not a time: " + e.reason);
        }
    }
    return out;
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
    std::string warmup; // default: a sixth of --duration (5s)
    std::string interval = "500ms";
    QuicCcBatchOptions batch(1);
    std::string timeseries;

    QuicCcCommandLine cmd(__FILE__);
    cmd.AddValue("flows",
                 "flow groups transport:controller[Attr=V|...]:count, comma-separated "
                 "(transport quic, tcp or ngtcp2)",
                 flows);
    cmd.AddValue("rtts", "base RTT of each flow, comma-separated, cycled over the flows", rtts);
    cmd.AddValue("stagger", "flow i starts at i * stagger", stagger);
    cmd.AddValue("startJitter",
                 "each flow starts up to this much later, drawn per RngRun",
                 startJitter);
    cmd.AddValue("transfer", "bytes per flow, e.g. 2MB (0 = bulk until the end)", transfer);
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
    cmd.AddValue("warmup", "measurement window start (default: a sixth of --duration, 5s)", warmup);
    cmd.AddValue("interval", "goodput-over-time bin", interval);
    batch.Add(cmd, "number of runs (RngRun firstRun, firstRun+1, ...); --csv: per-flow results");
    cmd.AddValue("timeseries",
                 "per-flow goodput over time of every run (CSV, written atomically)",
                 timeseries);
    // Attributes the scenario sets: as attribute defaults they would have no effect.
    cmd.AttributesSetByScenario(QuicCcDumbbellSetAttributes());
    // The transports' attributes the scenario sets on every socket: refused as defaults.
    cmd.AttributesSetBy(QuicCcTransportAttributesSetBy({}));
    cmd.Parse(argc, argv);

    QuicCcDumbbellParams params;
    try
    {
        const std::string why = QuicCcParseFlowSpec(flows, &params.groups);
        QuicCcRequire(why.empty(), "flows", flows, why);
        const auto uses = [&params](const char* transport) {
            return std::any_of(
                params.groups.begin(),
                params.groups.end(),
                [transport](const QuicCcFlowGroup& g) { return g.transport == transport; });
        };
        QuicCcRequireWriteFits(uses("quic"),
                               uses("ngtcp2"),
                               kQuicCcBulkWriteBytes,
                               "the bulk senders' writes");
        params.rtts = ParseTimeList("rtts", rtts);
        params.stagger = QuicCcParseTime("stagger", stagger);
        params.startJitter = QuicCcParseTime("startJitter", startJitter);
        params.transferBytes = transfer == "0" ? 0 : QuicCcParseBytes("transfer", transfer);
        params.bottleneckRate = QuicCcParseRate("rate", rate);
        params.bottleneckDelay = QuicCcParseTime("delay", delay);
        params.accessRate = QuicCcParseRate("accessRate", accessRate);
        params.queueSize = queue;
        params.queueDisc = queueDisc;
        params.lossRate = QuicCcParseNonNegative("loss", loss);
        params.duration = QuicCcParseTime("duration", duration);
        params.warmup = warmup.empty() ? params.duration / 6 : QuicCcParseTime("warmup", warmup);
        params.interval = QuicCcParseTime("interval", interval);
        batch.Parse();
        params.seed = batch.seed;
        std::string bad = QuicCcCheckDumbbellParams(params);
        if (bad.empty())
        {
            bad = QuicCcCheckDumbbellGoodputWindow(params);
        }
        if (!bad.empty())
        {
            // Name the option the scenario's message is about, by the subject it starts with
            // (the measurement window ends the default warm-up's --duration).
            const std::vector<std::array<std::string, 3>> options{
                {"RTT", "rtts", rtts},
                {"bottleneck delay", "delay", delay},
                {"bottleneck rate", "rate", rate},
                {"access rate", "accessRate", accessRate},
                {"duration", "duration", duration},
                {"measurement window",
                 warmup.empty() ? "duration" : "warmup",
                 warmup.empty() ? duration : warmup},
                {"interval", "interval", interval},
                {"loss rate", "loss", loss},
                {"unknown queue disc", "queueDisc", queueDisc},
                {"queue size", "queue", queue},
                {"stagger", "stagger", stagger},
                {"start jitter", "startJitter", startJitter},
                {"warm-up", "warmup", warmup}};
            for (const auto& [subject, option, text] : options)
            {
                QuicCcRequire(bad.rfind(subject, 0) != 0, option, text, bad);
            }
            throw QuicCcUsageError("flows", flows, bad);
        }
        QuicCcCheckOutputs({{"csv", batch.csv}, {"timeseries", timeseries}});
    }
    catch (const QuicCcUsageError& e)
    {
        cmd.Exit(e);
    }

    if (batch.dryRun)
    {
        return 0;
    }

    // ngtcp2 flows: the library's version in every output.
    std::string ngtcp2Version;
    for (const auto& g : params.groups)
    {
        if (g.transport == "ngtcp2")
        {
            ngtcp2Version = QuicCcNgtcp2Version();
        }
    }
    if (!ngtcp2Version.empty())
    {
        std::cout << "ngtcp2 flows: ngtcp2 " << ngtcp2Version << "\n";
    }
    const std::unique_ptr<QuicCcOutputFile> csv = batch.OpenCsv(
        cmd,
        "run,flow,group,transport,controller,rtt_ms,start_s,goodput_mbps,window_bytes,"
        "sink_bytes,completed,completion_s,lost_packets,mean_cwnd_packets,"
        "wire_tx_packets,wire_rx_packets,wire_tx_bytes,wire_rx_bytes,jain_index,"
        "ngtcp2_version\n");
    std::optional<QuicCcOutputFile> ts;
    if (!timeseries.empty())
    {
        ts.emplace(cmd.GetProgramName(), timeseries, "run,time_s,flow,group,goodput_mbps\n");
    }
    std::vector<double> jains;                               // of the runs where it is defined
    std::map<std::string, std::vector<double>> groupGoodput; // per-run mean of each group
    std::vector<std::string> groupOrder;
    for (const auto& g : params.groups)
    {
        groupOrder.push_back(g.token);
    }

    // Each run in a worker process; its results are printed and written in run order.
    const bool quiet = batch.quiet;
    QuicCcRunBatch(
        batch.runs,
        batch.jobs,
        [&](size_t i) {
            QuicCcDumbbellParams p = params;
            p.run = batch.firstRun + static_cast<uint32_t>(i);
            return QuicCcRecordToLine(QuicCcRunDumbbell(p));
        },
        batch.Report(cmd, [&](size_t i) { return "RngRun " + std::to_string(batch.firstRun + i); }),
        [&](size_t i, const std::string& line) {
            const uint64_t run = batch.firstRun + i;
            QuicCcDumbbellResult r;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            if (r.jainIndex)
            {
                jains.push_back(*r.jainIndex);
            }
            const std::string jain = r.jainIndex ? "" : "undefined (no flow had goodput)";
            std::map<std::string, std::vector<double>> perGroup;
            if (!quiet)
            {
                std::cout << "run " << run << ": window " << r.windowStart.GetSeconds() << "-"
                          << r.windowEnd.GetSeconds() << " s, Jain index " << std::fixed
                          << std::setprecision(3);
                (r.jainIndex ? std::cout << *r.jainIndex : std::cout << jain)
                    << ", total " << std::setprecision(2) << r.totalGoodputMbps << " Mbit/s\n";
                std::cout << "  flow  group                          rtt_ms  goodput_Mbps  lost  "
                             "mean_cwnd_pkts  done_s\n";
            }
            std::ostringstream csvText;
            std::ostringstream tsText;
            for (const auto& f : r.flows)
            {
                perGroup[f.group].push_back(f.goodputMbps);
                const double cwndPackets = f.mss ? f.meanCwndBytes / f.mss : 0;
                if (!quiet)
                {
                    std::cout << "  " << std::setw(4) << f.index << "  " << std::left
                              << std::setw(30) << f.group << std::right << std::setw(7)
                              << std::setprecision(0) << f.rtt.GetMilliSeconds() << std::setw(14)
                              << std::setprecision(3) << f.goodputMbps << std::setw(6)
                              << f.lostPackets << std::setw(16) << std::setprecision(1)
                              << cwndPackets << std::setw(8)
                              << (f.completed ? std::to_string(f.completionSeconds).substr(0, 6)
                                              : "-")
                              << "\n";
                }
                csvText << run << "," << f.index << ",\"" << f.group << "\"," << f.transport << ","
                        << f.controller << "," << f.rtt.GetMilliSeconds() << ","
                        << f.start.GetSeconds() << "," << f.goodputMbps << "," << f.windowBytes
                        << "," << f.sinkBytes << "," << f.completed << "," << f.completionSeconds
                        << "," << f.lostPackets << "," << cwndPackets << "," << f.wireTxPackets
                        << "," << f.wireRxPackets << "," << f.wireTxBytes << "," << f.wireRxBytes
                        << ",";
                if (r.jainIndex)
                {
                    csvText << *r.jainIndex; // empty when undefined
                }
                // Every run has the same columns (a campaign sweep merges them): the version on
                // the rows of ngtcp2 flows only.
                csvText << "," << (f.transport == "ngtcp2" ? ngtcp2Version : "") << "\n";
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
            if (csv)
            {
                csv->Write(csvText.str());
            }
            if (ts)
            {
                ts->Write(tsText.str());
            }
        });

    // Mean over the runs and the range [min, max] as the spread.
    std::cout << "summary over " << batch.runs << " run(s): per-flow goodput (Mbit/s) by group, "
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
    std::cout << "  Jain index "
              << (jains.empty()
                      ? "undefined (no flow had goodput in any run)"
                      : summary(jains, 3) + (jains.size() < batch.runs
                                                 ? " over the " + std::to_string(jains.size()) +
                                                       " run(s) with goodput"
                                                 : ""))
              << "\n";
    if (csv)
    {
        csv->Commit();
    }
    if (ts)
    {
        ts->Commit();
    }
    return 0;
}
