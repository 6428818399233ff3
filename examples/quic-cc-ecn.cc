/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ECN over marking AQMs: one fixed-size transfer through one bottleneck whose queue disc marks
 * ECN-CE (RED, PIE, CoDel, FqCoDel, FqCoDel with a CE threshold step) or only drops (drop-tail,
 * the control), for quic-cc Reno and CUBIC with ECN off and on, the ngtcp2 library's Reno, CUBIC
 * and BBR with ECN on, and ns-3 TcpCubic with UseEcn off and on (QuicCcEcnCell).
 *
 * Per run and cell: completion time and goodput of the transfer, packets the queue dropped,
 * packets the sender declared lost (TCP: retransmitted), CE marks the queue set, the window
 * reductions the marks started (QUIC), the queue disc's sojourn time p50 / p99, and the
 * sender's ECN validation state at the end.
 *
 *   ./quic-cc-ecn --queues=codel --rows=quic-cubic,quic-cubic-ecn
 *   ./quic-cc-ecn --queues=all --rows=all --rate=10Mbps --rtt=20ms --runs=20 --csv=ecn.csv
 *   ./quic-cc-ecn --queues=fqcodel-step --stepThreshold=5ms --buffer=25000B --rtt=40ms \
 *       --transfer=4MB --rows=quic-reno,quic-reno-ecn,quic-cubic,quic-cubic-ecn
 *
 * The last line is picoquic's L4S test set-up as far as ns-3 has it (see the results document);
 * examples/campaigns/ecn.toml sweeps the whole table.
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-command-line.h"
#include "quic-cc-dumbbell-scenario.h"
#include "quic-cc-ecn-scenario.h"
#include "quic-cc-output-file.h"
#include "quic-cc-report.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <array>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// The items of \p text, or every one of \p all for "all"; each checked against \p all.
std::vector<std::string>
ParseNames(const std::string& option, const std::string& text, const std::vector<std::string>& all)
{
    if (text == "all")
    {
        return all;
    }
    std::string names;
    for (const std::string& name : all)
    {
        names += name + ", ";
    }
    std::vector<std::string> out = QuicCcSplitList(option, text);
    for (const std::string& item : out)
    {
        QuicCcRequire(std::find(all.begin(), all.end(), item) != all.end(),
                      option,
                      text,
                      "unknown '" + item + "' (one of " + names + "or all)");
    }
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string queues = "fqcodel";
    std::string rows = "quic-cubic,quic-cubic-ecn";
    std::string rate = "10Mbps";
    std::string rtt = "20ms";
    std::string transfer = "0";
    std::string buffer;
    std::string stepThreshold = "1ms";
    std::string startJitter = "500ms";
    std::string crossTraffic = "0.1";
    QuicCcBatchOptions batch(1);

    QuicCcCommandLine cmd(__FILE__);
    cmd.AddValue("queues",
                 "bottleneck queues, comma-separated, or all: droptail, red, pie, codel, "
                 "fqcodel, fqcodel-step",
                 queues);
    cmd.AddValue("rows",
                 "senders, comma-separated, or all: quic-reno, quic-reno-ecn, quic-cubic, "
                 "quic-cubic-ecn, ngtcp2-reno-ecn, ngtcp2-cubic-ecn, ngtcp2-bbr-ecn, tcp-cubic, "
                 "tcp-cubic-ecn",
                 rows);
    cmd.AddValue("rate", "bottleneck rate", rate);
    cmd.AddValue("rtt", "base RTT (bottleneck one-way delay 5 ms)", rtt);
    cmd.AddValue("transfer", "bytes of the transfer, e.g. 4MB (0 = 6.4 s of the rate)", transfer);
    cmd.AddValue("buffer",
                 "queue disc limit, packets (50p) or bytes (12500B); empty = 2 BDP, >= 50p",
                 buffer);
    cmd.AddValue("stepThreshold", "fqcodel-step's CE threshold (CeThreshold)", stepThreshold);
    cmd.AddValue("startJitter",
                 "the transfer starts up to this late, drawn per RngRun",
                 startJitter);
    cmd.AddValue("crossTraffic",
                 "UDP on/off cross traffic (Not-ECT) while on, fraction of the rate, [0, 1)",
                 crossTraffic);
    batch.Add(cmd, "runs per cell (RngRun firstRun, firstRun+1, ...); --csv: one row per run");
    cmd.AttributesSetByScenario(QuicCcDumbbellSetAttributes());
    cmd.Parse(argc, argv);

    std::vector<QuicCcEcnCell> cells;
    try
    {
        QuicCcEcnCell base;
        base.rate = QuicCcParseRate("rate", rate);
        base.rtt = QuicCcParseTime("rtt", rtt);
        base.transferBytes = transfer == "0" ? 0 : QuicCcParseBytes("transfer", transfer);
        base.buffer = buffer;
        base.stepThreshold = QuicCcParseTime("stepThreshold", stepThreshold);
        base.startJitter = QuicCcParseTime("startJitter", startJitter);
        base.crossTraffic = QuicCcParseNonNegative("crossTraffic", crossTraffic);
        batch.Parse();
        base.seed = batch.seed;
        const std::vector<std::string> queueList = ParseNames("queues", queues, QuicCcEcnQueues());
        const std::vector<std::string> rowList = ParseNames("rows", rows, QuicCcEcnRows());
        for (const std::string& q : queueList)
        {
            for (const std::string& r : rowList)
            {
                QuicCcEcnCell c = base;
                c.queue = q;
                c.row = r;
                QuicCcDumbbellParams p;
                const std::string bad = QuicCcEcnDumbbellParams(c, &p);
                if (!bad.empty())
                {
                    // Name the option the message is about by the subject it starts with.
                    for (const auto& [subject, option, text] :
                         std::vector<std::array<std::string, 3>>{
                             {"buffer", "buffer", buffer},
                             {"step threshold", "stepThreshold", stepThreshold},
                             {"RTT", "rtt", rtt},
                             {"bottleneck rate", "rate", rate},
                             {"start jitter", "startJitter", startJitter},
                             {"cross traffic", "crossTraffic", crossTraffic}})
                    {
                        QuicCcRequire(bad.rfind(subject, 0) != 0, option, text, bad);
                    }
                    throw QuicCcUsageError("rows", rows, bad);
                }
                cells.push_back(c);
            }
        }
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

    const std::unique_ptr<QuicCcOutputFile> csv = batch.OpenCsv(
        cmd,
        "queue,row,rate_mbps,rtt_ms,run,completed,completion_s,goodput_mbps,queue_drops,"
        "lost_packets,ce_marks,ecn_events,sojourn_p50_ms,sojourn_p99_ms,ecn_state\n");
    // Per cell: the runs' values of each column, for the summary.
    std::map<size_t, std::map<std::string, std::vector<double>>> sample;
    std::map<size_t, std::map<std::string, uint32_t>> states;
    const size_t runs = batch.runs;
    QuicCcRunBatch(
        cells.size() * runs,
        batch.jobs,
        [&](size_t i) {
            QuicCcEcnCell c = cells[i / runs];
            c.run = batch.firstRun + static_cast<uint32_t>(i % runs);
            return QuicCcRecordToLine(QuicCcRunEcnCell(c));
        },
        batch.Report(cmd,
                     [&](size_t i) {
                         return cells[i / runs].queue + " " + cells[i / runs].row + ", RngRun " +
                                std::to_string(batch.firstRun + i % runs);
                     }),
        [&](size_t i, const std::string& line) {
            const QuicCcEcnCell& c = cells[i / runs];
            QuicCcEcnResult r;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            auto& s = sample[i / runs];
            if (r.completed)
            {
                s["completion_s"].push_back(r.completionSeconds);
                s["goodput_mbps"].push_back(r.goodputMbps);
            }
            s["queue_drops"].push_back(r.queueDrops);
            s["lost_packets"].push_back(r.lostPackets);
            s["ce_marks"].push_back(r.ceMarks);
            s["ecn_events"].push_back(r.ecnCongestionEvents);
            s["sojourn_p50_ms"].push_back(r.sojournP50Ms);
            s["sojourn_p99_ms"].push_back(r.sojournP99Ms);
            ++states[i / runs][r.ecnState.empty() ? "-" : r.ecnState];
            if (csv)
            {
                std::ostringstream row;
                row << c.queue << "," << c.row << "," << c.rate.GetBitRate() / 1e6 << ","
                    << c.rtt.GetMilliSeconds() << "," << batch.firstRun + i % runs << ","
                    << r.completed << "," << r.completionSeconds << "," << r.goodputMbps << ","
                    << r.queueDrops << "," << r.lostPackets << "," << r.ceMarks << ","
                    << r.ecnCongestionEvents << "," << r.sojournP50Ms << "," << r.sojournP99Ms
                    << "," << r.ecnState << "\n";
                csv->Write(row.str());
            }
        });

    std::cout << "ECN study, " << rate << ", RTT " << rtt << ": mean over " << runs
              << " run(s) per cell (completion and goodput over the completed runs)\n"
              << std::left << std::setw(14) << "queue" << std::setw(18) << "row" << std::right
              << std::setw(9) << "done_s" << std::setw(9) << "Mbit/s" << std::setw(8) << "drops"
              << std::setw(8) << "lost" << std::setw(8) << "marks" << std::setw(8) << "ecn_ev"
              << std::setw(8) << "p50_ms" << std::setw(8) << "p99_ms"
              << "  ecn_state\n";
    for (size_t k = 0; k < cells.size(); ++k)
    {
        auto& s = sample[k];
        std::cout << std::left << std::setw(14) << cells[k].queue << std::setw(18) << cells[k].row
                  << std::right;
        for (const auto& [column, precision, width] :
             std::vector<std::tuple<std::string, int, int>>{{"completion_s", 3, 9},
                                                            {"goodput_mbps", 2, 9},
                                                            {"queue_drops", 1, 8},
                                                            {"lost_packets", 1, 8},
                                                            {"ce_marks", 1, 8},
                                                            {"ecn_events", 1, 8},
                                                            {"sojourn_p50_ms", 2, 8},
                                                            {"sojourn_p99_ms", 2, 8}})
        {
            std::cout << std::setw(width)
                      << (s[column].empty() ? "-" : QuicCcFormat(QuicCcMean(s[column]), precision));
        }
        std::cout << " ";
        for (const auto& [state, n] : states[k])
        {
            std::cout << " " << state << ":" << n;
        }
        std::cout << "\n";
    }
    if (csv)
    {
        csv->Commit();
    }
    return 0;
}
