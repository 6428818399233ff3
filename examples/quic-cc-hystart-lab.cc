/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The HyStart++ lab (Cloudflare 2020, "CUBIC and HyStart++ support in quiche"), reproduced in
 * ns-3.
 *
 *   data sender ============== bottleneck ============== data receiver
 *   BulkSend, QUIC client  5 Mbps each way, one-way 30 ms  PacketSink, QUIC server
 *                     drop-tail queue of --buffer packets,
 *                     --loss random loss on the data direction
 *
 * An 8 MB download per run; per buffer, loss point and configuration (tcp-cubic = ns-3's
 * TcpCubic, QUIC reno, reno-hystart, cubic, cubic-hystart) the runs use RngRun firstRun ..
 * firstRun + runs - 1. Printed per buffer: the median download time for each loss point and
 * configuration and, at 0 % loss, the mean number of lost packets (sender's view) and of
 * bottleneck queue drops. Independent runs execute in separate processes (--jobs, default all
 * cores).
 *
 * Why several buffers. The published lab does not give its router buffer, and the buffer decides
 * whether HyStart++ can help. Neither quic-cc's Reno/CUBIC (like quiche) nor ns-3 TCP paces, so
 * slow start sends each window as a burst at twice the delivery rate; a standing queue, and
 * with it a higher round-minimum RTT, only appears once cwnd passes the BDP (27.8 packets of
 * 1350 B here). HyStart++ compares a round's minimum RTT with the previous round's, so it notices
 * the queue one round after it appeared, when cwnd has already doubled past the BDP (on this path
 * Conservative Slow Start starts at cwnd = 89 packets, 3.2 BDP, at 0.355 s). With a buffer of
 * 1 BDP or less the queue overflows before CSS can act, and HyStart++ changes little. With 2 BDP
 * or more, and with a deep queue (1000 packets, netem's default limit), the overflow is gentler
 * or avoided, and HyStart++'s saving in lost packets shows: for CUBIC from 2 BDP, for Reno from
 * 4 BDP (--buffer=4), and for both no loss at all in the deep queue. (At 2 BDP the 89-packet CSS
 * entry already exceeds the 84-packet pipe, BDP + buffer, so the first overflow happens anyway;
 * CUBIC still gains from the lower peak afterwards, Reno does not.) The queue limit counts packets,
 * as netem's does;
 * --bufferBytes counts bytes instead (CSS and PRR make quiche-style senders emit sub-MSS packets).
 *
 *   ./quic-cc-hystart-lab                                   # the whole lab: 4 buffers x 6 losses x
 * 5 configs x 20 runs
 *   ./quic-cc-hystart-lab --buffer=2 --loss=0 --runs=5      # the HyStart++ loss comparison only
 *   ./quic-cc-hystart-lab --configs=cubic,cubic-hystart --buffer=1000p --csv=lab.csv
 *   ./quic-cc-hystart-lab --loss=0,2%,0.05 --dryRun=true     # only check the options
 *   ./quic-cc-hystart-lab --transport=all --buffer=1000p      # also the real ngtcp2 library:
 *                                                            # ngtcp2-cubic, -reno, -bbr
 *
 * Every option is checked before the first run: a bad value exits with status 2 and one line
 * "quic-cc-hystart-lab: --<option>=<value>: <reason>" on stderr. Loss points are percentages
 * ("2%") or fractions ("0.02"), as ns-3's error models take them.
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-hystart-lab-report.h"
#include "quic-cc-hystart-lab-scenario.h"
#include "quic-cc-options.h"
#include "quic-cc-output-file.h"
#include "quic-cc-send-buffer.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The --buffer list: BDP multiples (> 0) or whole packet counts with a 'p' suffix.
std::vector<QuicCcHystartLabBuffer>
ParseBuffers(const std::string& list, const QuicCcHystartLabParams& base)
{
    std::vector<QuicCcHystartLabBuffer> out;
    for (const std::string& item : QuicCcSplitList("buffer", list))
    {
        QuicCcHystartLabBuffer b;
        b.label = item;
        std::ostringstream text;
        if (item.back() == 'p')
        {
            const std::string count = item.substr(0, item.size() - 1);
            QuicCcRequire(!count.empty() && count.size() <= 9 &&
                              count.find_first_not_of("0123456789") == std::string::npos &&
                              std::stoul(count) >= 1,
                          "buffer",
                          item,
                          "packets must be a whole number >= 1 before the 'p' (1000p)");
            b.packets = static_cast<uint32_t>(std::stoul(count));
            text << b.packets << " packets (" << std::fixed << std::setprecision(1)
                 << b.packets / QuicCcHystartLabBdpPackets(base) << " BDP)";
        }
        else
        {
            const double multiple = QuicCcParseNonNegative("buffer", item);
            QuicCcRequire(multiple > 0,
                          "buffer",
                          item,
                          "must be a BDP multiple > 0 (0.5) or packets with a 'p' suffix (1000p)");
            // In whole packets on this path: at least one, and no more than the 'p' form takes
            // (a count past 2^32 would wrap to an empty queue inside a worker).
            const double bdp = QuicCcHystartLabBdpPackets(base);
            const double packets = std::round(multiple * bdp);
            std::ostringstream why;
            why << "is " << std::fixed << std::setprecision(0) << packets
                << " packets on this path (BDP " << std::setprecision(1) << bdp
                << " packets); it must be 1 to 999999999 packets";
            QuicCcRequire(packets >= 1 && packets <= 999999999, "buffer", item, why.str());
            b.packets = QuicCcHystartLabBufferPackets(base, multiple);
            text << item << " BDP = " << b.packets << " packets";
        }
        b.text = text.str();
        out.push_back(b);
    }
    return out;
}

/// --configs among the rows --transport runs: the lab's (quic-cc and ns-3 TCP) and the ngtcp2 ones.
std::vector<std::string>
ParseConfigs(const QuicCcOptions& options)
{
    const QuicCcTransportChoice& transports = options.GetTransports();
    const std::string& list = options.GetText("configs");
    const std::vector<std::string>& lab = QuicCcHystartLabConfigs();
    const std::vector<std::string>& ngtcp2 = QuicCcHystartLabNgtcp2Configs();
    std::vector<std::string> all;
    if (transports.Runs("quic-cc"))
    {
        all = lab;
    }
    if (transports.Runs("ngtcp2"))
    {
        all.insert(all.end(), ngtcp2.begin(), ngtcp2.end());
    }
    if (list == "all")
    {
        return all;
    }
    std::vector<std::string> out;
    std::vector<std::string> allowed = lab;
    allowed.insert(allowed.end(), ngtcp2.begin(), ngtcp2.end());
    allowed.push_back("all");
    for (const std::string& item : QuicCcSplitList("configs", list))
    {
        out.push_back(QuicCcParseChoice("configs", item, allowed));
        QuicCcRequire(item != "all", "configs", list, "all cannot be combined with other items");
        const bool isNgtcp2 = std::find(ngtcp2.begin(), ngtcp2.end(), item) != ngtcp2.end();
        QuicCcRequire(!isNgtcp2 || transports.Runs("ngtcp2"),
                      "configs",
                      item,
                      "is a row of the ngtcp2 library: add --transport=all or --transport=ngtcp2");
        QuicCcRequire(isNgtcp2 || transports.Runs("quic-cc"),
                      "configs",
                      item,
                      "has no effect with --transport=" + transports.text +
                          " (only the ngtcp2 rows run; --transport=all runs both)");
    }
    return out;
}

/// The lists the example parses itself, with their defaults.
struct Lists
{
    std::string buffers{"0.5,1,2,1000p"};   //!< --buffer
    std::string losses{"0,1%,2%,4%,6%,8%"}; //!< --loss
    std::string configs{"all"};             //!< --configs
};

/// The option table: each option once, most into \p grid.base (whose values are the defaults).
void
Declare(QuicCcOptions& options, QuicCcHystartLabGrid& grid, Lists& lists)
{
    QuicCcHystartLabParams& base = grid.base;
    options.Text("buffer",
                 "Bottleneck drop-tail buffers, comma-separated: a BDP multiple (0.5) or packets "
                 "with a 'p' suffix (1000p)",
                 lists.buffers);
    options.Flag("bufferBytes",
                 "Limit the queue in bytes: --buffer full-size packets' worth (1380 B each by "
                 "default)",
                 base.bufferInBytes);
    options
        .Text("loss",
              "Random loss on the data direction, comma-separated: percentages (2%) or "
              "fractions (0.02)",
              lists.losses)
        .Then([&grid](const std::string& text) {
            for (const std::string& item : QuicCcSplitList("loss", text))
            {
                grid.losses.push_back(QuicCcParseLoss("loss", item));
            }
        });
    options
        .Text("configs",
              "Configurations, comma-separated, or all (every row --transport runs): "
              "tcp-cubic, reno, reno-hystart, cubic, cubic-hystart, ngtcp2-cubic, ngtcp2-reno, "
              "ngtcp2-bbr",
              lists.configs)
        .Attribute("ns3::QuicCubic::HyStart")
        .Attribute("ns3::QuicReno::HyStart");
    options.Transport();
    options.Batch(20, "Runs per point (RngRun firstRun..firstRun+runs-1)");
    options.Bytes("size",
                  "Download size (e.g. 8MB = 8,000,000 bytes, or 8000000)",
                  base.transferBytes);
    options.Rate("rate", "Bottleneck rate, both directions", base.rate);
    options.Duration("delay", "One-way propagation delay (RTT = 2 x delay)", base.oneWayDelay);
    options.Flag("ackLoss", "Apply the random loss to the ACK direction too", base.ackLoss);
    options.Duration("timeout", "A run not complete by then counts as incomplete", base.timeout)
        .Positive()
        .Socket("IdleTimeout");
    options
        .Count("mss",
               "QUIC MaxDatagramSize, bytes, 1200..1472 (TCP SegmentSize follows it)",
               base.maxDatagramSize,
               1200,
               1472)
        .Socket("MaxDatagramSize");
    options
        .Choice("ackPolicy",
                "QUIC receiver ACK policy: ReceiveBatch or Rfc9000",
                {"ReceiveBatch", "Rfc9000"})
        .Socket("AckPolicy");
    options.Duration("ackBatchWindow", "QUIC ReceiveBatch window")
        .Socket("AckBatchWindow")
        .OnlyWith("ackPolicy", {"ReceiveBatch"}, "only ReceiveBatch uses it");
    options.Choice("packetSizing", "QUIC data packet sizing: FreeWindow (quiche) or FullOnly", {})
        .Socket("PacketSizing");
    options
        .Count("hystartL",
               "HyStart++ L, slow-start growth cap per ACK frame in packets (0 = none, quiche; "
               "RFC 9406: 8 unpaced)",
               base.hyStartL,
               0,
               std::numeric_limits<uint32_t>::max())
        .Attribute("ns3::QuicHyStartPlusPlus::L")
        .OnlyOn("quic-cc");
}

} // namespace

int
main(int argc, char* argv[])
{
    QuicCcHystartLabGrid grid;
    Lists lists;
    QuicCcOptions options(__FILE__);
    Declare(options, grid, lists);
    options.Parse(argc, argv, [&] {
        QuicCcRequireWriteFits(options.GetTransports().transports,
                               kQuicCcBulkWriteBytes,
                               "the bulk sender's writes");
        grid.buffers = ParseBuffers(lists.buffers, grid.base);
        grid.configs = ParseConfigs(options);
    });
    const QuicCcBatchOptions& batch = options.GetBatch();
    grid.base.seed = batch.seed;
    grid.base.quic = options.GetTransportSpec();
    grid.rate = options.GetText("rate");
    grid.packetSizing = options.GetText("packetSizing");
    grid.firstRun = batch.firstRun;
    grid.runs = batch.runs;

    const std::vector<QuicCcHystartLabGrid::Cell> cells = grid.Cells();
    const std::unique_ptr<QuicCcOutputFile> csv = batch.OpenCsv(QuicCcHystartLabCsvHeader(grid));
    std::vector<QuicCcHystartLabResult> results(cells.size());
    QuicCcRunBatch(
        cells.size(),
        batch.jobs,
        [&](size_t w) { return QuicCcRecordToLine(QuicCcRunHystartLab(grid.Params(cells[w]))); },
        batch.Report([&](size_t w) { return grid.Describe(cells[w]); }),
        [&](size_t w, const std::string& line) {
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, results[w]),
                                "bad result line from a worker");
            if (csv)
            {
                csv->Write(QuicCcHystartLabCsvRow(grid, cells[w], results[w]));
            }
        });
    if (csv)
    {
        csv->Commit();
    }
    QuicCcPrintHystartLabTables(std::cout, grid, results);
    return 0;
}
