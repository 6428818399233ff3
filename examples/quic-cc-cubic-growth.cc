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
#include "quic-cc-cubic-growth-report.h"
#include "quic-cc-options.h"
#include "quic-cc-output-file.h"

#include "ns3/core-module.h"
#include "ns3/quic-cc-module.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The lists the example parses itself, with their defaults.
struct Lists
{
    std::string stacks{"all"};             //!< --stacks
    std::string ackRatios{"1,2,10"};       //!< --ackRatios
    std::string parts{"oneloss,periodic"}; //!< --parts
};

/// Whether \p name is among \p names.
bool
Contains(const std::vector<std::string>& names, const std::string& name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

/// The option table: each option once, most into \p grid.base (whose values are the defaults).
void
Declare(QuicCcOptions& options, QuicCcCubicGrowthGrid& grid, Lists& lists)
{
    QuicCcCubicGrowthParams& base = grid.base;
    base.dropDataPacket = 290;
    base.lossPeriod = 15000;
    base.measureFrom = Seconds(12);
    // Set by the scenario on every row, whatever the stack.
    const std::vector<std::string> itself = {"ns3::QuicCcSocket::AckPolicy",
                                             "ns3::QuicCcSocket::MaxAckDelay",
                                             "ns3::QuicCcSocket::IdleTimeout"};
    QuicCcOptions::Option& stacks =
        options.Text("stacks",
                     "ngtcp2 (the linked library), ngtcp2-profile, "
                     "ngtcp2-profile-per-packet, quiche, comma-separated, or all "
                     "(ngtcp2 where built)",
                     lists.stacks);
    // The ngtcp2 profile's settings and CubicStep: the stacks' own.
    for (const QuicCcAttributeSetting& setting : QuicCcNgtcp2Profile())
    {
        if (!Contains(itself, setting.name) &&
            setting.name != "ns3::QuicCcSocket::AckElicitingThreshold")
        {
            stacks.Attribute(setting.name);
        }
    }
    stacks.Then([&grid](const std::string& text) {
        grid.stacks =
            QuicCcParseRows("stacks", text, QuicCcCubicGrowthStacks(), [](const std::string& s) {
                return s == "ngtcp2";
            });
    });
    QuicCcAckRatiosOption(options, lists.ackRatios, grid.ackRatios);
    options.Text("parts", "oneloss, periodic, comma-separated", lists.parts)
        .Then([&grid](const std::string& text) {
            for (const std::string& p : QuicCcSplitList("parts", text))
            {
                grid.parts.push_back(QuicCcParseChoice("parts", p, {"oneloss", "periodic"}));
            }
        });
    options.Rate("rate", "link rate", base.rate);
    options.Duration("delay", "one-way delay (RTT = 2 x delay)", base.oneWayDelay).Positive();
    options.Count("mss", "packet size, bytes (1200..1452)", base.maxDatagramSize, 1200, 1452)
        .Socket("MaxDatagramSize");
    options.Count("dropPacket",
                  "oneloss: the data packet dropped",
                  base.dropDataPacket,
                  1,
                  1000000000);
    options.Count("lossPeriod",
                  "periodic: one data packet in this many dropped",
                  base.lossPeriod,
                  2,
                  1000000000);
    options.Duration("duration", "oneloss: simulated time", base.duration);
    options.Duration("periodicDuration", "periodic: simulated time", grid.periodicDuration);
    options.Duration("measureFrom", "periodic: goodput counted from here", base.measureFrom);
    options.Batch(1, "runs per cell (nothing is random: every run is the same)");
    options.SetByScenario(itself);
    options.SetByScenario(QuicCcTransportSpec::SocketAttributeNames("MaxAckDelay"));
    options.SetByScenario(QuicCcTransportSpec::SocketAttributeNames("IdleTimeout"));
}

} // namespace

int
main(int argc, char* argv[])
{
    QuicCcCubicGrowthGrid grid;
    Lists lists;
    QuicCcOptions options(__FILE__);
    Declare(options, grid, lists);
    options.Parse(argc, argv, [&] {
        QuicCcRequire(grid.base.duration > Seconds(2),
                      "duration",
                      options.GetText("duration"),
                      "must be > 2s");
        QuicCcRequire(grid.base.measureFrom < grid.periodicDuration,
                      "measureFrom",
                      options.GetText("measureFrom"),
                      "must be before the end (--periodicDuration=" +
                          options.GetText("periodicDuration") + ")");
    });
    const QuicCcBatchOptions& batch = options.GetBatch();
    grid.base.seed = batch.seed;
    grid.firstRun = batch.firstRun;
    grid.runs = batch.runs;

    const std::vector<QuicCcCubicGrowthGrid::Task> tasks = grid.Tasks();
    QuicCcPrintCubicGrowthHeader(grid);
    const std::unique_ptr<QuicCcOutputFile> table = batch.OpenCsv(QuicCcCubicGrowthCsvHeader());
    QuicCcRunBatch(
        tasks.size(),
        batch.jobs,
        [&](size_t i) { return QuicCcRecordToLine(QuicCcRunCubicGrowth(tasks[i].params)); },
        batch.Report([&](size_t i) { return QuicCcCubicGrowthGrid::Describe(tasks[i]); }),
        [&](size_t i, const std::string& line) {
            QuicCcCubicGrowthResult r;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            const std::string row = QuicCcCubicGrowthRow(grid, tasks[i], r);
            if (table)
            {
                table->Write(row);
            }
        });
    if (table)
    {
        table->Commit();
    }
    return 0;
}
