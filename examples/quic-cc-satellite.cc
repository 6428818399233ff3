/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * picoquic's satellite case (private-octopus/picoquic, picoquictest/satellite_test.c): 100 MB
 * over 250 Mbit/s towards the receiver and 3 Mbit/s back, 300 ms one way, each direction's queue
 * capped at 600 ms of delay; the variant that drops one packet in 64 (both directions counted
 * together from the handshake's end). Configurations: quic-cc's Reno, CUBIC and CUBIC with
 * HyStart++, the linked ngtcp2 library's CUBIC and BBR; against the receiver's ACK policy (an
 * ACK every N ack-eliciting packets, max_ack_delay), which decides whether the ACKs fit the
 * 3 Mbit/s return link.
 *
 *   ./quic-cc-satellite                                  # every configuration, ACK every 2, 10
 *   ./quic-cc-satellite --ackRatios=1,2,4,10 --maxAckDelays=5ms,25ms --configs=cubic
 *   ./quic-cc-satellite --lossPeriods=64 --timeout=120s   # 1 packet in 64 lost
 *
 * Completion time counts from the connection's start (the client's first packet) to the last
 * byte at the receiver. Nothing here is random: every RngRun gives the same run.
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-options.h"
#include "quic-cc-output-file.h"
#include "quic-cc-satellite-report.h"

#include "ns3/core-module.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The lists the example parses itself, with their defaults.
struct Lists
{
    std::string configs{"all"};       //!< --configs
    std::string ackRatios{"2,10"};    //!< --ackRatios
    std::string maxAckDelays{"25ms"}; //!< --maxAckDelays
    std::string lossPeriods{"0"};     //!< --lossPeriods
};

/// The option table: each option once, most into \p grid.base (whose values are the defaults).
void
Declare(QuicCcOptions& options, QuicCcSatelliteGrid& grid, Lists& lists)
{
    QuicCcSatelliteParams& base = grid.base;
    options
        .Text("configs",
              "reno, cubic, cubic-hystart, ngtcp2-cubic, ngtcp2-bbr, comma-separated, or all (the "
              "ngtcp2 ones where built)",
              lists.configs)
        .Attribute("ns3::QuicCubic::HyStart")
        .Attribute("ns3::QuicReno::HyStart")
        .Then([&grid](const std::string& text) {
            grid.configs =
                QuicCcParseRows("configs",
                                text,
                                QuicCcSatelliteConfigs(),
                                [](const std::string& c) { return c.rfind("ngtcp2-", 0) == 0; });
        });
    QuicCcAckRatiosOption(options, lists.ackRatios, grid.ackRatios);
    options
        .Text("maxAckDelays",
              "the receiver's max_ack_delay values, comma-separated",
              lists.maxAckDelays)
        .Socket("MaxAckDelay")
        .Then([&grid](const std::string& text) {
            for (const std::string& d : QuicCcSplitList("maxAckDelays", text))
            {
                const Time delay = QuicCcParseTime("maxAckDelays", d);
                // RFC 9000 Section 18.2: max_ack_delay below 2^14 ms.
                QuicCcRequire(delay > Time(0) && delay < MilliSeconds(1 << 14),
                              "maxAckDelays",
                              d,
                              "must be > 0 and below 2^14 ms (RFC 9000 Section 18.2)");
                grid.maxAckDelays.push_back(delay);
            }
        });
    options
        .Text("lossPeriods",
              "one packet in N lost, both directions, from the handshake's end; 0 = none; "
              "comma-separated",
              lists.lossPeriods)
        .Then([&grid](const std::string& text) {
            for (const std::string& p : QuicCcSplitList("lossPeriods", text))
            {
                const uint64_t period = QuicCcParseUnsigned("lossPeriods", p, 0, 1000000000);
                QuicCcRequire(period != 1, "lossPeriods", p, "must be 0 (none) or >= 2");
                grid.lossPeriods.push_back(period);
            }
        });
    options.Bytes("size", "bytes transferred", base.transferBytes);
    options.Rate("forward", "data direction's rate", base.forwardRate);
    options.Rate("return", "ACK direction's rate", base.returnRate);
    options.Duration("delay", "one-way delay", base.oneWayDelay).Positive();
    options
        .Duration("queueDelay",
                  "each direction's queue holds this long of its rate",
                  base.maxQueueDelay)
        .Positive();
    options.Duration("timeout", "a run stops here", base.timeout).Positive().Socket("IdleTimeout");
    options.Count("mss", "packet size, bytes (1200..1452)", base.maxDatagramSize, 1200, 1452)
        .Socket("MaxDatagramSize");
    options.Batch(1, "runs per cell (nothing is random: every run is the same)");
    // Set by the scenario on every quic-cc row: RFC 9000's ACK policy, the CUBIC settings.
    options.SetByScenario({"ns3::QuicCcSocket::AckPolicy",
                           "ns3::QuicCubic::IdleRestart",
                           "ns3::QuicCubic::EpochSource"});
}

} // namespace

int
main(int argc, char* argv[])
{
    QuicCcSatelliteGrid grid;
    Lists lists;
    QuicCcOptions options(__FILE__);
    Declare(options, grid, lists);
    options.Parse(argc, argv);
    const QuicCcBatchOptions& batch = options.GetBatch();
    grid.base.seed = batch.seed;
    grid.firstRun = batch.firstRun;
    grid.runs = batch.runs;

    const std::vector<QuicCcSatelliteParams> tasks = grid.Tasks();
    QuicCcPrintSatelliteHeader(grid);
    const std::unique_ptr<QuicCcOutputFile> table = batch.OpenCsv(QuicCcSatelliteCsvHeader());
    QuicCcRunBatch(
        tasks.size(),
        batch.jobs,
        [&](size_t i) { return QuicCcRecordToLine(QuicCcRunSatellite(tasks[i])); },
        batch.Report([&](size_t i) { return QuicCcSatelliteGrid::Describe(tasks[i]); }),
        [&](size_t i, const std::string& line) {
            QuicCcSatelliteResult r;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            const std::string row = QuicCcSatelliteRow(tasks[i], r);
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
