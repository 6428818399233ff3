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
#include "quic-cc-dumbbell-report.h"
#include "quic-cc-dumbbell-scenario.h"
#include "quic-cc-options.h"
#include "quic-cc-output-file.h"
#include "quic-cc-send-buffer.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <iostream>
#include <optional>
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

/// The options the example parses itself, with their defaults.
struct Texts
{
    std::string flows{"quic:cubic:2"}; //!< --flows
    std::string rtts{"40ms"};          //!< --rtts
    std::string transfer{"0"};         //!< --transfer ("0": bulk until the end)
    std::string timeseries;            //!< --timeseries
};

/// The option table: each option once, most into \p params (whose values are the defaults).
void
Declare(QuicCcOptions& options, QuicCcDumbbellParams& params, Texts& t)
{
    options
        .Text("flows",
              "flow groups transport:controller[Attr=V|...]:count, comma-separated "
              "(transport quic, tcp or ngtcp2)",
              t.flows)
        .Then([&params](const std::string& text) {
            const std::string why = QuicCcParseFlowSpec(text, &params.groups);
            QuicCcRequire(why.empty(), "flows", text, why);
        });
    options.Text("rtts", "base RTT of each flow, comma-separated, cycled over the flows", t.rtts)
        .Then([&params](const std::string& text) { params.rtts = ParseTimeList("rtts", text); });
    options.Duration("stagger", "flow i starts at i * stagger", params.stagger);
    params.startJitter = MilliSeconds(100);
    options.Duration("startJitter",
                     "each flow starts up to this much later, drawn per RngRun",
                     params.startJitter);
    options.Text("transfer", "bytes per flow, e.g. 2MB (0 = bulk until the end)", t.transfer)
        .Then([&params](const std::string& text) {
            params.transferBytes = text == "0" ? 0 : QuicCcParseBytes("transfer", text);
        });
    options.Rate("rate", "bottleneck rate", params.bottleneckRate);
    options.Duration("delay", "bottleneck one-way delay", params.bottleneckDelay);
    options.Rate("accessRate", "access link rate", params.accessRate);
    options.Text("queue", "bottleneck buffer, packets (100p) or bytes (150000B)", params.queueSize);
    options.Text(
        "queueDisc",
        "queue disc TypeId at the bottleneck (e.g. ns3::FqCoDelQueueDisc); empty = drop-tail",
        params.queueDisc);
    options.Number("loss", "random loss rate at the bottleneck, data direction", params.lossRate);
    options.Bool("ecn",
                 "ECN on every flow's sockets, both ends (QuicCcSocketBase::Ecn, TCP UseEcn On)",
                 params.ecn);
    options.Duration("duration", "simulated time", params.duration);
    options
        .Duration("warmup",
                  "measurement window start (default: a sixth of --duration, 5s)",
                  params.warmup)
        .Default("");
    options.Duration("interval", "goodput-over-time bin", params.interval);
    options.Batch(1, "number of runs (RngRun firstRun, firstRun+1, ...); --csv: per-flow results");
    options.Output("timeseries",
                   "per-flow goodput over time of every run (CSV, written atomically)",
                   t.timeseries);
    // Attributes the scenario sets: as attribute defaults they would have no effect.
    options.SetByScenario(QuicCcDumbbellSetAttributes());
}

/// The checks between options: the send buffers of the flows' transports, the warm-up that
/// follows --duration, and the scenario's own checks, each naming the option it is about.
void
Check(const QuicCcOptions& options, QuicCcDumbbellParams& params)
{
    std::vector<std::string> transports;
    for (const QuicCcFlowGroup& g : params.groups)
    {
        const std::string transport = g.transport == "tcp" ? "" : g.quic.GetTransport();
        if (!transport.empty() &&
            std::find(transports.begin(), transports.end(), transport) == transports.end())
        {
            transports.push_back(transport);
        }
    }
    QuicCcRequireWriteFits(transports, kQuicCcBulkWriteBytes, "the bulk senders' writes");
    if (!options.Given("warmup"))
    {
        params.warmup = params.duration / 6;
    }
    std::string bad = QuicCcCheckDumbbellParams(params);
    if (bad.empty())
    {
        bad = QuicCcCheckDumbbellGoodputWindow(params);
    }
    if (bad.empty())
    {
        return;
    }
    // Name the option the scenario's message is about, by the subject it starts with (the
    // measurement window ends the default warm-up's --duration).
    const std::vector<std::pair<std::string, std::string>> subjects{
        {"RTT", "rtts"},
        {"bottleneck delay", "delay"},
        {"bottleneck rate", "rate"},
        {"access rate", "accessRate"},
        {"duration", "duration"},
        {"measurement window", options.Given("warmup") ? "warmup" : "duration"},
        {"interval", "interval"},
        {"loss rate", "loss"},
        {"unknown queue disc", "queueDisc"},
        {"queue size", "queue"},
        {"stagger", "stagger"},
        {"start jitter", "startJitter"},
        {"warm-up", "warmup"}};
    for (const auto& [subject, option] : subjects)
    {
        QuicCcRequire(bad.rfind(subject, 0) != 0, option, options.GetText(option), bad);
    }
    throw QuicCcUsageError("flows", options.GetText("flows"), bad);
}

} // namespace

int
main(int argc, char* argv[])
{
    QuicCcDumbbellParams params;
    Texts texts;
    QuicCcOptions options(__FILE__);
    Declare(options, params, texts);
    options.Parse(argc, argv, [&] { Check(options, params); });
    const QuicCcBatchOptions& batch = options.GetBatch();
    params.seed = batch.seed;

    QuicCcDumbbellReport report(params, std::cout, batch.quiet);
    report.PrintHeader();
    const std::unique_ptr<QuicCcOutputFile> csv = batch.OpenCsv(QuicCcDumbbellReport::CsvHeader());
    std::optional<QuicCcOutputFile> ts;
    if (!texts.timeseries.empty())
    {
        ts.emplace(options.GetProgramName(),
                   texts.timeseries,
                   QuicCcDumbbellReport::TimeseriesHeader());
    }
    // Each run in a worker process; its results are printed and written in run order.
    QuicCcRunBatch(
        batch.runs,
        batch.jobs,
        [&](size_t i) {
            QuicCcDumbbellParams p = params;
            p.run = batch.firstRun + static_cast<uint32_t>(i);
            return QuicCcRecordToLine(QuicCcRunDumbbell(p));
        },
        batch.Report([&](size_t i) { return "RngRun " + std::to_string(batch.firstRun + i); }),
        [&](size_t i, const std::string& line) {
            QuicCcDumbbellResult r;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            std::string csvText;
            std::string tsText;
            report.Add(batch.firstRun + i, r, csvText, tsText);
            if (csv)
            {
                csv->Write(csvText);
            }
            if (ts)
            {
                ts->Write(tsText);
            }
        });
    report.PrintSummary(batch.runs);
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
