/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The QUIC interop runner's two measurements (quic-interop/quic-interop-runner,
 * testcases_quic.py) on the path of its network simulator's scenario
 * `simple-p2p --delay=15ms --bandwidth=10Mbps --queue=25` (quic-interop/quic-network-simulator):
 * a 10 Mbit/s, 15 ms point-to-point link whose devices hold 1 packet under a 25-packet
 * PfifoFastQueueDisc, in both directions.
 *
 *   G  goodput: 10 MiB, 8 x size over the time from the first to the last data packet at the
 *      receiver (the runner: first to last 1-RTT packet of the server)
 *   C  cross traffic: 25 MiB while one ns-3 TcpCubic bulk flow (the runner's iperf, Linux CUBIC)
 *      shares the path from time 0; the measured flow starts at 2 s plus a uniform draw of up to
 *      1 s (RngRun); its goodput and the TCP flow's rate over the same time
 *
 * Rows: quic-cc's Reno and CUBIC, the linked ngtcp2 library's Reno, CUBIC and BBR, and ns-3's
 * TcpCubic (alone in G; against the other TcpCubic in C).
 *
 *   ./quic-cc-interop                               # G and C, every stack, 5 runs each
 *   ./quic-cc-interop --measurements=C --runs=20 --csv=c.csv
 *   ./quic-cc-interop --stacks=quic-cc-cubic,ngtcp2-bbr --delay=15ms --bandwidth=10Mbps --queue=25
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-interop-report.h"
#include "quic-cc-options.h"
#include "quic-cc-output-file.h"

#include "ns3/core-module.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The lists the example parses itself, with their defaults.
struct Lists
{
    std::string measurements{"G,C"}; //!< --measurements
    std::string stacks{"all"};       //!< --stacks
};

/// The option table: each option once, most into \p grid.base (whose values are the defaults).
void
Declare(QuicCcOptions& options, QuicCcInteropGrid& grid, Lists& lists)
{
    QuicCcInteropParams& base = grid.base;
    options
        .Text("measurements", "G (goodput), C (cross traffic), comma-separated", lists.measurements)
        .Then([&grid](const std::string& text) {
            for (const std::string& m : QuicCcSplitList("measurements", text))
            {
                grid.measurements.push_back(QuicCcParseChoice("measurements", m, {"G", "C"}));
            }
        });
    options
        .Text("stacks",
              "quic-cc-reno, quic-cc-cubic, ngtcp2-reno, ngtcp2-cubic, ngtcp2-bbr, tcp-cubic, "
              "comma-separated, or all (the ngtcp2 ones where built)",
              lists.stacks)
        .Then([&grid](const std::string& text) {
            grid.stacks =
                QuicCcParseRows("stacks", text, QuicCcInteropStacks(), [](const std::string& s) {
                    return s.rfind("ngtcp2-", 0) == 0;
                });
        });
    options.Duration("delay", "one-way delay of the link (simple-p2p --delay)", base.oneWayDelay)
        .Positive();
    options.Rate("bandwidth", "link rate (simple-p2p --bandwidth)", base.rate);
    options
        .Count("queue",
               "root queue disc size, packets (simple-p2p --queue)",
               base.queuePackets,
               1,
               1000000)
        .Attribute("ns3::PfifoFastQueueDisc::MaxSize");
    options.Bytes("goodputSize", "G: bytes transferred", grid.goodputSize).Default("10MiB");
    options.Bytes("crossSize", "C: bytes transferred", grid.crossSize).Default("25MiB");
    options.Count("mss", "QUIC packet size, bytes (1200..1452)", base.maxDatagramSize, 1200, 1452)
        .Socket("MaxDatagramSize");
    options.Batch(5,
                  "runs per row (the runner: 5 for G; only C varies from run to run, by the QUIC "
                  "flow's start)");
    options.SetByScenario(QuicCcTransportSpec::SocketAttributeNames("IdleTimeout"));
    // ns-3 TCP's, for both TCP flows (the runner's iperf: 1448-byte segments, SACK, buffers
    // that never limit the flow).
    options.SetByScenario({"ns3::TcpSocket::SegmentSize",
                           "ns3::TcpSocket::SndBufSize",
                           "ns3::TcpSocket::RcvBufSize",
                           "ns3::TcpSocketBase::Sack"});
}

} // namespace

int
main(int argc, char* argv[])
{
    QuicCcInteropGrid grid;
    Lists lists;
    QuicCcOptions options(__FILE__);
    Declare(options, grid, lists);
    options.Parse(argc, argv);
    const QuicCcBatchOptions& batch = options.GetBatch();
    grid.base.seed = batch.seed;
    grid.firstRun = batch.firstRun;
    grid.runs = batch.runs;

    const std::vector<QuicCcInteropGrid::Task> tasks = grid.Tasks();
    QuicCcPrintInteropHeader(grid);
    const std::unique_ptr<QuicCcOutputFile> table = batch.OpenCsv(QuicCcInteropCsvHeader());
    std::vector<QuicCcInteropResult> results(tasks.size());
    QuicCcRunBatch(
        tasks.size(),
        batch.jobs,
        [&](size_t i) { return QuicCcRecordToLine(QuicCcRunInterop(tasks[i].params)); },
        batch.Report([&](size_t i) { return QuicCcInteropGrid::Describe(tasks[i]); }),
        [&](size_t i, const std::string& line) {
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, results[i]),
                                "bad result line from a worker");
            if (table)
            {
                table->Write(QuicCcInteropCsvRow(tasks[i], results[i]));
            }
        });
    if (table)
    {
        table->Commit();
    }
    QuicCcPrintInteropTable(grid, results);
    return 0;
}
