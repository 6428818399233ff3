/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ECN over marking AQMs: one fixed-size transfer through one bottleneck whose queue disc marks
 * ECN-CE (RED, PIE, CoDel, FqCoDel, FqCoDel with a CE threshold step) or only drops (drop-tail,
 * the control), for quic-cc Reno and CUBIC with ECN off and on, the ngtcp2 library's Reno, CUBIC
 * and BBR with ECN on, and ns-3 TcpCubic with UseEcn off and on (QuicCcEcnCell).
 *
 * Per run and cell: completion time and goodput of the transfer, packets of the flow the queue
 * dropped, packets the sender declared lost (TCP: retransmitted), CE marks the queue set, the
 * window reductions the marks started (QUIC), the queue disc's sojourn time p50 / p99, and the
 * sender's ECN validation state at the end.
 *
 *   ./quic-cc-ecn --queues=codel --rows=quic-cubic,quic-cubic-ecn
 *   ./quic-cc-ecn --queues=all --rows=all --rtt=80ms --runs=20 --csv=ecn.csv
 *   ./quic-cc-ecn --queues=fqcodel-step --stepThreshold=5ms --buffer=18p --transfer=4000000 \
 *       --crossTraffic=0 --rows=quic-reno,quic-reno-ecn,quic-cubic,quic-cubic-ecn
 *
 * The last line is picoquic's L4S test set-up as far as ns-3 has it (see the results document);
 * examples/campaigns/ecn.toml sweeps the whole table, scripts/quic_cc_ecn_table.py gives the
 * means with their intervals.
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-dumbbell-scenario.h"
#include "quic-cc-ecn-report.h"
#include "quic-cc-ecn-scenario.h"
#include "quic-cc-options.h"
#include "quic-cc-output-file.h"

#include "ns3/core-module.h"

#include <iostream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// The options the example parses itself.
struct Texts
{
    std::string queues{"fqcodel"};                 //!< --queues
    std::string rows{"quic-cubic,quic-cubic-ecn"}; //!< --rows
    std::string transfer{"0"};                     //!< --transfer
};

/// The items of --\p option's \p text, each one of \p all, or every one of them for "all".
std::vector<std::string>
ParseNames(const std::string& option, const std::string& text, const std::vector<std::string>& all)
{
    if (text == "all")
    {
        return all;
    }
    std::vector<std::string> out;
    for (const std::string& item : QuicCcSplitList(option, text))
    {
        out.push_back(QuicCcParseChoice(option, item, all));
    }
    return out;
}

/// The option table: each option once, most into \p cell (whose values are the defaults).
void
Declare(QuicCcOptions& options, QuicCcEcnCell& cell, Texts& t)
{
    options.Text("queues",
                 "bottleneck queues, comma-separated, or all: droptail, red, pie, codel, "
                 "fqcodel, fqcodel-step",
                 t.queues);
    options.Text("rows",
                 "senders, comma-separated, or all: quic-reno, quic-reno-ecn, quic-cubic, "
                 "quic-cubic-ecn, ngtcp2-reno-ecn, ngtcp2-cubic-ecn, ngtcp2-bbr-ecn, tcp-cubic, "
                 "tcp-cubic-ecn",
                 t.rows);
    options.Rate("rate", "bottleneck rate", cell.rate);
    options.Duration("rtt", "base RTT (bottleneck one-way delay 5 ms)", cell.rtt);
    options.Text("transfer", "bytes of the transfer, e.g. 4MB (0 = 6.4 s of the rate)", t.transfer)
        .Then([&cell](const std::string& text) {
            cell.transferBytes = text == "0" ? 0 : QuicCcParseBytes("transfer", text);
        });
    options.Text("buffer",
                 "queue disc limit, packets (50p) or bytes (12500B); empty = 2 BDP, >= 50p",
                 cell.buffer);
    options
        .Duration("stepThreshold", "fqcodel-step's CE threshold (CeThreshold)", cell.stepThreshold)
        .Positive();
    options.Duration("startJitter",
                     "the transfer starts up to this late, drawn per RngRun",
                     cell.startJitter);
    options.Number("crossTraffic",
                   "UDP on/off cross traffic (Not-ECT) while on, fraction of the rate, [0, 1)",
                   cell.crossTraffic);
    options.Batch(1, "runs per cell (RngRun firstRun, firstRun+1, ...); --csv: one row per run");
    // Both ECN switches and the sockets' sizes: the dumbbell sets them on every socket.
    options.SetByScenario(QuicCcDumbbellSetAttributes());
}

/// The cells of --queues x --rows, each checked by the scenario; its message names the option
/// it is about by the subject it starts with.
std::vector<QuicCcEcnCell>
Cells(const QuicCcOptions& options, const QuicCcEcnCell& base, const Texts& t)
{
    std::vector<QuicCcEcnCell> cells;
    for (const std::string& queue : ParseNames("queues", t.queues, QuicCcEcnQueues()))
    {
        for (const std::string& row : ParseNames("rows", t.rows, QuicCcEcnRows()))
        {
            QuicCcEcnCell c = base;
            c.queue = queue;
            c.row = row;
            QuicCcDumbbellParams p;
            const std::string bad = QuicCcEcnDumbbellParams(c, &p);
            for (const auto& [subject, option] : std::vector<std::pair<std::string, std::string>>{
                     {"buffer", "buffer"},
                     {"RTT", "rtt"},
                     {"bottleneck rate", "rate"},
                     {"start jitter", "startJitter"},
                     {"cross traffic", "crossTraffic"}})
            {
                QuicCcRequire(bad.rfind(subject, 0) != 0, option, options.GetText(option), bad);
            }
            QuicCcRequire(bad.empty(), "rows", t.rows, bad);
            cells.push_back(c);
        }
    }
    return cells;
}

} // namespace

int
main(int argc, char* argv[])
{
    QuicCcEcnCell base;
    Texts texts;
    std::vector<QuicCcEcnCell> cells;
    QuicCcOptions options(__FILE__);
    Declare(options, base, texts);
    options.Parse(argc, argv, [&] { cells = Cells(options, base, texts); });
    const QuicCcBatchOptions& batch = options.GetBatch();
    for (QuicCcEcnCell& c : cells)
    {
        c.seed = batch.seed;
    }

    QuicCcEcnReport report(cells);
    const std::unique_ptr<QuicCcOutputFile> csv = batch.OpenCsv(QuicCcEcnReport::CsvHeader());
    const size_t runs = batch.runs;
    // Each run of each cell in a worker process; the rows are written in order.
    QuicCcRunBatch(
        cells.size() * runs,
        batch.jobs,
        [&](size_t i) {
            QuicCcEcnCell c = cells[i / runs];
            c.run = batch.firstRun + static_cast<uint32_t>(i % runs);
            return QuicCcRecordToLine(QuicCcRunEcnCell(c));
        },
        batch.Report([&](size_t i) {
            return cells[i / runs].queue + " " + cells[i / runs].row + ", RngRun " +
                   std::to_string(batch.firstRun + i % runs);
        }),
        [&](size_t i, const std::string& line) {
            QuicCcEcnResult r;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            const std::string row = report.Add(i / runs, batch.firstRun + i % runs, r);
            if (csv)
            {
                csv->Write(row);
            }
        });
    std::cout << "ECN study, " << options.GetText("rate") << ", RTT " << options.GetText("rtt")
              << ": mean over " << runs
              << " run(s) per cell (completion and goodput over the completed runs)\n";
    report.PrintSummary(std::cout);
    if (csv)
    {
        csv->Commit();
    }
    return 0;
}
