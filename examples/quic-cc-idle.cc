/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * When idle is idle: workloads with real pauses, and what each idle-restart design does at the
 * resume.
 *
 *   data sender ========== bottleneck ========== data receiver
 *                 100 Mbps, one-way 10 ms (RTT 20 ms), drop-tail 0.5 BDP
 *
 * Workloads (--workload): chunked (S bytes every T seconds, one socket write per chunk),
 * request-response (one connection, think time fixed or exponential), rate-limited (a share of
 * the bottleneck, then bulk), onoff (ns-3's OnOffApplication over ns3::QuicCcSocketFactory).
 * Each run is bounded to --pauses pauses. Per pause: idle duration; cwnd, ssthresh, W_max, K and
 * the epoch before the pause and after the first send; the burst at the resume (bytes in the
 * first 1 ms and 0.1 x smoothed_rtt, longest back-to-back train); packets lost of those sent in
 * the first RTT; the peak cwnd in the first 3 RTTs over the cwnd before the pause; the chunk's or
 * response's completion time. --falseIdleRuns adds the death-spiral fail share (false idle,
 * QuicCcRunDeathSpiral with its defaults) of the same configuration. --flowControl=on|off puts
 * receiver flow control (RFC 9000 Section 4, QuicCcSocket::FlowControl) on or off for every run,
 * false-idle runs included (default off).
 *
 *   ./quic-cc-idle                                     # headline rows, 100 runs each
 *   ./quic-cc-idle --configs=cubic-Off,cubic-LastActivity --runs=1 --pauseCsv=p.csv
 *   ./quic-cc-idle --workload=request-response --think=2s --thinkDistribution=exponential
 *   ./quic-cc-idle --configs=all --runs=20 --falseIdleRuns=20 --csv=runs.csv
 *   ./quic-cc-idle --transport=all --runs=5   # also the real ngtcp2 library: ngtcp2-cubic, -reno,
 *                                              # -bbr
 *
 * Every option is checked before the first run: a bad value exits with status 2 and one line
 * "quic-cc-idle: --<option>=<value>: <reason>" on stderr.
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-death-spiral-scenario.h"
#include "quic-cc-idle-report.h"
#include "quic-cc-idle-scenario.h"
#include "quic-cc-options.h"
#include "quic-cc-output-file.h"
#include "quic-cc-send-buffer.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// One row of the table.
struct RunConfig
{
    std::string name;
    std::string controller;                        //!< cubic or reno
    std::string idleRestart{"LastActivity"};       //!< cubic only
    std::string epochSource{"SharedWithRecovery"}; //!< cubic only
    std::string pacing{"Off"};
    bool restartWindow{false};
    std::string transport{"quic-cc"}; //!< "quic-cc" or "ngtcp2" (the real library)

    /// This row's transport with its settings and \p flowControl, for either scenario.
    QuicCcTransportSpec Transport(bool flowControl) const
    {
        QuicCcTransportSpec quic(transport, controller);
        quic.SetController("IdleRestart", StringValue(idleRestart));
        quic.SetController("EpochSource", StringValue(epochSource));
        quic.SetController("HyStart", BooleanValue(true));
        quic.SetController("RestartWindow", BooleanValue(restartWindow));
        quic.SetSocket("Pacing", StringValue(pacing));
        quic.SetSocket("FlowControl", BooleanValue(flowControl));
        return quic;
    }
};

const std::vector<std::string> kRules{"LastSent",
                                      "LastActivity",
                                      "LastSentClamped",
                                      "Off",
                                      "AckGap",
                                      "AppLimitedTime",
                                      "EpochReset"};

/// Every row: each IdleRestart rule x epoch {shared, separate} x pacing {Off, Rfc9002}, the
/// restart window on three of them, Reno with and without pacing and with the restart window.
std::vector<RunConfig>
AllConfigs()
{
    std::vector<RunConfig> out;
    for (const std::string& rule : kRules)
    {
        for (const bool separate : {false, true})
        {
            for (const bool paced : {false, true})
            {
                RunConfig c;
                c.name = "cubic-" + rule + (separate ? "-separate" : "") + (paced ? "-paced" : "");
                c.controller = "cubic";
                c.idleRestart = rule;
                c.epochSource = separate ? "Separate" : "SharedWithRecovery";
                c.pacing = paced ? "Rfc9002" : "Off";
                out.push_back(c);
            }
        }
    }
    for (const char* rule : {"LastSent", "LastActivity", "Off"})
    {
        RunConfig c;
        c.name = std::string("cubic-") + rule + "-rw";
        c.controller = "cubic";
        c.idleRestart = rule;
        c.restartWindow = true;
        out.push_back(c);
    }
    RunConfig reno;
    reno.name = "reno";
    reno.controller = "reno";
    out.push_back(reno);
    reno.name = "reno-paced";
    reno.pacing = "Rfc9002";
    out.push_back(reno);
    reno.name = "reno-rw";
    reno.pacing = "Off";
    reno.restartWindow = true;
    out.push_back(reno);
    return out;
}

const std::vector<std::string> kHeadline{"cubic-LastSent",
                                         "cubic-LastActivity",
                                         "cubic-Off",
                                         "reno"};

/// --configs: names, "headline", "others" (all but the headline rows) or "all".
std::vector<RunConfig>
SelectConfigs(const std::string& text)
{
    const std::vector<RunConfig> all = AllConfigs();
    std::vector<std::string> names{"headline", "others", "all"};
    for (const RunConfig& c : all)
    {
        names.push_back(c.name);
    }
    std::vector<RunConfig> out;
    for (const std::string& item : QuicCcSplitList("configs", text))
    {
        QuicCcRequire(std::find(names.begin(), names.end(), item) != names.end(),
                      "configs",
                      item,
                      "must be headline, others, all or a row: cubic-<IdleRestart>[-separate]"
                      "[-paced], cubic-LastSent-rw, cubic-LastActivity-rw, cubic-Off-rw, reno, "
                      "reno-paced or reno-rw");
        for (const RunConfig& c : all)
        {
            const bool headline =
                std::find(kHeadline.begin(), kHeadline.end(), c.name) != kHeadline.end();
            const bool take = item == "all" || (item == "headline" && headline) ||
                              (item == "others" && !headline) || item == c.name;
            const bool dup = std::any_of(out.begin(), out.end(), [&](const RunConfig& o) {
                return o.name == c.name;
            });
            if (take && !dup)
            {
                out.push_back(c);
            }
        }
    }
    return out;
}

/// The options not of the scenario's parameters, with their defaults.
struct Choices
{
    std::string configs{"headline"};        //!< --configs
    std::string pauseCsv;                   //!< --pauseCsv
    std::string qlog;                       //!< --qlog
    double buffer{0.5};                     //!< --buffer, BDP multiple
    std::string thinkDistribution{"fixed"}; //!< --thinkDistribution
    uint32_t falseIdleRuns{0};              //!< --falseIdleRuns
    std::string flowControl;                //!< --flowControl mapped: "true" (on) or "false"
    bool flowControlOn{false};              //!< what every quic-cc run gets (Check)
};

/// The option table: each option once, most into \p base (whose values are the defaults).
void
Declare(QuicCcOptions& options, QuicCcIdleParams& base, Choices& c)
{
    options.Choice("workload",
                   "chunked, request-response, rate-limited, slow-reader or onoff",
                   base.workload,
                   {"chunked", "request-response", "rate-limited", "slow-reader", "onoff"});
    options
        .Text("configs",
              "Comma-separated rows: names (cubic-<IdleRestart>[-separate][-paced], "
              "cubic-<rule>-rw, reno, reno-paced, reno-rw), headline, others or all",
              c.configs)
        .OnlyOn("quic-cc")
        .Why("it selects quic-cc rows; the ngtcp2 rows are ngtcp2-cubic, ngtcp2-reno and "
             "ngtcp2-bbr");
    options.Transport();
    options.Batch(100, "Runs per configuration (RngRun firstRun..firstRun+runs-1)");
    options.Output("pauseCsv", "Write one row per pause to this CSV file", c.pauseCsv);
    options.Qlog("qlog", "Write qlog files of every run into DIRECTORY/<config>-run<N>/", c.qlog);
    options.Rate("rate", "Bottleneck rate", base.rate);
    options.Duration("delay", "One-way propagation delay (RTT = 2 x delay)", base.oneWayDelay);
    options.Number("buffer", "Drop-tail bottleneck buffer as a multiple of the BDP (> 0)", c.buffer)
        .Positive("must be a BDP multiple > 0 (0.5)");
    options.Loss("loss",
                 "Random loss on the data direction during loss phases: 1% or 0.01 (0 = none)",
                 base.lossRate);
    options
        .Duration("lossOn",
                  "Loss phases: mean length of a loss phase (exponential)",
                  base.lossOnMean)
        .Positive();
    options
        .Duration("lossOff",
                  "Loss phases: mean time between loss phases (exponential; the run starts "
                  "without loss)",
                  base.lossOffMean)
        .Positive();
    options.Count("mss", "MaxDatagramSize, bytes (1200..1472)", base.maxDatagramSize, 1200, 1472)
        .Socket("MaxDatagramSize");
    options.Count("pauses",
                  "Pauses per run (chunks, requests or on periods = pauses + 1)",
                  base.pauses,
                  1,
                  100000);
    options.Bytes("chunk", "chunked: chunk size (e.g. 2MB)", base.chunkBytes)
        .OnlyWith("workload", {"chunked"});
    options.Duration("period", "chunked: time between chunk writes", base.period)
        .Positive()
        .OnlyWith("workload", {"chunked"});
    options.Bytes("request", "request-response: request size", base.requestBytes)
        .OnlyWith("workload", {"request-response"});
    options.Bytes("response", "request-response: response size", base.responseBytes)
        .OnlyWith("workload", {"request-response"});
    options
        .Duration("think", "request-response: think time (the mean if exponential)", base.thinkTime)
        .Positive()
        .OnlyWith("workload", {"request-response"});
    options
        .Choice("thinkDistribution",
                "request-response: fixed or exponential",
                c.thinkDistribution,
                {"fixed", "exponential"})
        .OnlyWith("workload", {"request-response"});
    options
        .Number("fraction",
                "rate-limited, onoff: share of the bottleneck rate, in (0, 1]",
                base.fraction)
        .OnlyWith("workload", {"rate-limited", "onoff"});
    options
        .Duration("limitedFor", "rate-limited: length of the rate-limited phase", base.limitedFor)
        .Positive()
        .OnlyWith("workload", {"rate-limited"});
    options.Bytes("bulk", "rate-limited, slow-reader: bytes written at once", base.bulkBytes)
        .OnlyWith("workload", {"rate-limited", "slow-reader"});
    options
        .Rate("readRate",
              "slow-reader: the receiving application's read rate (below --rate)",
              base.readRate)
        .OnlyWith("workload", {"slow-reader"});
    options.Duration("onTime", "onoff: on period", base.onTime)
        .Positive()
        .OnlyWith("workload", {"onoff"});
    options.Duration("offTime", "onoff: off period", base.offTime)
        .Positive()
        .OnlyWith("workload", {"onoff"});
    options.Duration("minPause", "Idle periods shorter than this are not pauses", base.minPause)
        .Positive();
    options
        .Duration("timeout",
                  "A run not done by then is incomplete (default: from the workload)",
                  base.timeout)
        .Default("")
        .Positive()
        .Socket("IdleTimeout");
    options.Count("falseIdleRuns",
                  "Also run this many death-spiral runs (false idle) per configuration",
                  c.falseIdleRuns,
                  0,
                  1000000);
    options
        .Choice("flowControl",
                "Receiver flow control (RFC 9000 Section 4, QuicCcSocket::FlowControl) in every "
                "quic-cc run: on or off (ngtcp2 always has its own)",
                c.flowControl,
                {"on", "off"})
        .Default("off")
        .Socket("FlowControl")
        .Map({{"on", "true"}, {"off", "false"}})
        .OnlyOn("quic-cc")
        .Why("ngtcp2 always applies its own flow control");
    // The scenario has every transport send the packet traces its observer reads.
    options.SetByScenario(QuicCcTransportSpec::SocketAttributeNames("PacketTraces"));
}

/// The checks between options, and the defaults that follow other options (an error names
/// only what the user wrote; a default by what it is and its value).
void
Check(const QuicCcOptions& options, QuicCcIdleParams& base, Choices& c)
{
    for (const char* option : {"lossOn", "lossOff"})
    {
        QuicCcRequire(!options.Given(option) || base.lossRate > 0,
                      option,
                      options.GetText(option),
                      "has no effect without --loss");
    }
    const double bdpPackets = base.rate.GetBitRate() / 8.0 * 2 * base.oneWayDelay.GetSeconds() /
                              (base.maxDatagramSize + 28);
    const double bufferPackets = std::round(c.buffer * bdpPackets);
    QuicCcRequire(bufferPackets >= 1 && bufferPackets <= 1e9,
                  "buffer",
                  options.GetText("buffer"),
                  "is " + std::to_string(static_cast<uint64_t>(bufferPackets)) +
                      " packets on this path (BDP " + std::to_string(bdpPackets) +
                      " packets); it must be 1 to 10^9 packets");
    base.bufferPackets = static_cast<uint32_t>(bufferPackets);
    // One write per chunk, request, response or bulk: each must fit the send buffer (the
    // SndBufSize default, after any --ns3::QuicCcSocket::SndBufSize=...). A write of the
    // selected workload that does not fit names --option if given, else the send buffer the
    // user set below the option's default.
    const QuicCcSendBuffer smallest = QuicCcSmallestSendBuffer(options.GetTransports().transports);
    for (const auto& [option, bytes] : {std::pair{"chunk", base.chunkBytes},
                                        {"request", base.requestBytes},
                                        {"response", base.responseBytes},
                                        {"bulk", base.bulkBytes}})
    {
        if (!options.Applies(option) || bytes <= smallest.bytes)
        {
            continue;
        }
        QuicCcRequire(!options.Given(option),
                      option,
                      options.GetText(option),
                      "must be at most the socket's send buffer (SndBufSize), " +
                          std::to_string(smallest.bytes) + " bytes");
        QuicCcRequire(false,
                      "",
                      QuicCcQuoteAttribute(smallest.attribute, std::to_string(smallest.bytes)),
                      "is below --" + std::string(option) + "'s default " +
                          options.GetText(option) + " (one write per " + option +
                          " must fit the send buffer)");
    }
    // Flow control's windows are checked with --flowControl's value by the options (the
    // socket's constraints: a window holds a datagram with flow control, none is set without).
    c.flowControlOn = c.flowControl == "true";
    base.thinkExponential = c.thinkDistribution == "exponential";
    QuicCcRequire(base.fraction > 0 && base.fraction <= 1,
                  "fraction",
                  options.GetText("fraction"),
                  "must be in (0, 1] (a share of the bottleneck rate; above 1 the sender "
                  "is not rate-limited)");
    if (options.Applies("readRate") && !(base.readRate < base.rate))
    {
        QuicCcRequire(!options.Given("readRate"),
                      "readRate",
                      options.GetText("readRate"),
                      "must be below the bottleneck rate --rate=" + options.GetText("rate") +
                          " (a faster reader never limits the transfer)");
        QuicCcRequire(false,
                      "rate",
                      options.GetText("rate"),
                      "must be above --readRate's default " + options.GetText("readRate") +
                          " (a faster reader never limits the transfer)");
    }
    // rate-limited and onoff write datagrams of --mss bytes at fraction x rate: at least one in
    // the rate-limited phase or on period; the phase is named only if given and not --fraction.
    if (options.Applies("fraction"))
    {
        const bool onoff = base.workload == "onoff";
        const Time phase = onoff ? base.onTime : base.limitedFor;
        const std::string phaseOption = onoff ? "onTime" : "limitedFor";
        const bool namePhase = options.Given(phaseOption) && !options.Given("fraction");
        QuicCcRequire(base.rate.GetBitRate() * base.fraction * phase.GetSeconds() >=
                          8.0 * base.maxDatagramSize,
                      namePhase ? phaseOption : "fraction",
                      options.GetText(namePhase ? phaseOption : "fraction"),
                      "at fraction x rate, less than one " + std::to_string(base.maxDatagramSize) +
                          "-byte datagram per " + (onoff ? "on period" : "rate-limited phase"));
    }
    // Default timeout: the workload's own length plus 30 s, computed in double (no wrap); the
    // option that sets the length is named when that is too long for a Time.
    const double periods = base.pauses + 1.0;
    const std::map<std::string, std::pair<const char*, double>> lengths{
        {"chunked", {"period", periods * base.period.GetSeconds()}},
        {"request-response",
         {"think", periods * base.thinkTime.GetSeconds() * (base.thinkExponential ? 5 : 1)}},
        {"rate-limited", {"limitedFor", base.limitedFor.GetSeconds()}},
        {"slow-reader", {"readRate", base.bulkBytes * 8.0 / base.readRate.GetBitRate()}},
        {"onoff", {"onTime", periods * (base.onTime + base.offTime).GetSeconds()}}};
    const auto& [lengthOption, lengthSeconds] = lengths.at(base.workload);
    QuicCcRequire(options.Given("timeout") || lengthSeconds + 30 <= kQuicCcMaxOptionSeconds,
                  lengthOption,
                  options.GetText(lengthOption),
                  "makes the workload (and the default --timeout) longer than 1000000s; "
                  "give fewer --pauses or a shorter " +
                      std::string(lengthOption));
    if (!options.Given("timeout"))
    {
        base.timeout = Seconds(lengthSeconds + 30);
    }
}

/// The rows --configs and --transport select (both already checked).
std::vector<RunConfig>
Rows(const QuicCcOptions& options, const std::string& configs)
{
    std::vector<RunConfig> out;
    if (options.GetTransports().Runs("quic-cc"))
    {
        out = SelectConfigs(configs);
    }
    if (options.GetTransports().Runs("ngtcp2"))
    {
        for (const std::string& controller : QuicCcTransportSpec::Controllers("ngtcp2"))
        {
            RunConfig row;
            row.name = "ngtcp2-" + controller;
            row.controller = controller;
            row.transport = "ngtcp2";
            out.push_back(row);
        }
    }
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    QuicCcIdleParams base;
    Choices c;
    QuicCcOptions options(__FILE__);
    Declare(options, base, c);
    std::vector<RunConfig> configs;
    options.Parse(argc, argv, [&] {
        configs = Rows(options, c.configs);
        Check(options, base, c);
    });
    const QuicCcBatchOptions& batch = options.GetBatch();
    base.seed = batch.seed;

    // Every run, the false-idle ones beside the true-idle ones of the same RngRun.
    std::vector<QuicCcIdleRow> work;
    for (uint32_t i = 0; i < std::max(batch.runs, c.falseIdleRuns); ++i)
    {
        for (size_t config = 0; config < configs.size(); ++config)
        {
            if (i < batch.runs)
            {
                work.push_back({config, batch.firstRun + i, false, {}, false});
            }
            if (i < c.falseIdleRuns)
            {
                work.push_back({config, batch.firstRun + i, true, {}, false});
            }
        }
    }
    std::vector<QuicCcIdleRow> rows(work.size());
    QuicCcRunBatch(
        work.size(),
        batch.jobs,
        [&](size_t w) {
            QuicCcIdleRow row = work[w];
            const RunConfig& config = configs[row.config];
            if (row.falseIdle)
            {
                QuicCcDeathSpiralParams p; // the death spiral's defaults, this row's sender
                p.quic = config.Transport(c.flowControlOn);
                p.seed = batch.seed;
                p.run = row.run;
                row.dsCompleted = QuicCcRunDeathSpiral(p).completed;
                return QuicCcIdleRowToLine(row);
            }
            QuicCcIdleParams p = base;
            p.quic = config.Transport(c.flowControlOn);
            p.run = row.run;
            if (!c.qlog.empty())
            {
                p.qlogDirectory = c.qlog + "/" + config.name + "-run" + std::to_string(p.run);
            }
            row.r = QuicCcRunIdle(p);
            return QuicCcIdleRowToLine(row);
        },
        batch.Report([&](size_t w) {
            return configs[work[w].config].name + ", RngRun " + std::to_string(work[w].run) +
                   (work[w].falseIdle ? ", false idle" : "");
        }),
        [&](size_t w, const std::string& line) {
            NS_ABORT_MSG_UNLESS(QuicCcIdleRowFromLine(line, rows[w]),
                                "bad result line from a worker");
        });
    std::sort(rows.begin(), rows.end(), [](const QuicCcIdleRow& a, const QuicCcIdleRow& b) {
        return std::tie(a.config, a.falseIdle, a.run) < std::tie(b.config, b.falseIdle, b.run);
    });
    std::vector<std::string> names;
    for (const RunConfig& config : configs)
    {
        names.push_back(config.name);
    }
    for (const auto& [path, text] : {std::pair{batch.csv, QuicCcIdleRunsCsv(rows, names)},
                                     {c.pauseCsv, QuicCcIdlePausesCsv(rows, names)}})
    {
        if (!path.empty())
        {
            QuicCcOutputFile file(options.GetProgramName(), path);
            file.Write(text);
            file.Commit();
        }
    }
    if (base.workload == "slow-reader")
    {
        QuicCcPrintIdleBacklogTable(std::cout, rows, names, c.flowControlOn);
    }
    else
    {
        QuicCcPrintIdleTable(std::cout, rows, names, base.workload, c.falseIdleRuns);
    }
    if (configs.back().transport == "ngtcp2")
    {
        std::cout << "ngtcp2-* rows: the real ngtcp2 " << QuicCcNgtcp2Version()
                  << " library (--transport) with its own controller, pacing, ACK policy and "
                     "flow control; W_max, K and the epoch are ngtcp2's own, not visible (empty "
                     "in --pauseCsv).\n";
    }
    return 0;
}
