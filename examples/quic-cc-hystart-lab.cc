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
#include "quic-cc-command-line.h"
#include "quic-cc-hystart-lab-scenario.h"
#include "quic-cc-ngtcp2-transport.h"
#include "quic-cc-output-file.h"
#include "quic-cc-report.h"
#include "quic-cc-send-buffer.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// One bottleneck buffer of the lab.
struct LabBuffer
{
    std::string label; //!< as given: "2" (BDP multiple) or "1000p" (packets)
    std::string text;  //!< for the tables: "2 BDP = 56 packets"
    uint32_t packets{0};
};

/// One simulation of the
struct Work
{
    size_t buffer{0}; //!< index into the buffers
    size_t loss{0};   //!< index into the loss points
    size_t config{0}; //!< index into the configurations
    uint32_t run{0};  //!< RngRun
};

/// The --buffer list: BDP multiples (> 0) or whole packet counts with a 'p' suffix.
std::vector<LabBuffer>
ParseBuffers(const std::string& list, const QuicCcHystartLabParams& base)
{
    std::vector<LabBuffer> out;
    for (const std::string& item : QuicCcSplitList("buffer", list))
    {
        LabBuffer b;
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
ParseConfigs(const std::string& list, const QuicCcTransportChoice& transports, bool given)
{
    const std::vector<std::string>& lab = QuicCcHystartLabConfigs();
    const std::vector<std::string>& ngtcp2 = QuicCcHystartLabNgtcp2Configs();
    std::vector<std::string> all;
    if (transports.quicCc)
    {
        all = lab;
    }
    if (transports.ngtcp2)
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
        QuicCcRequire(!isNgtcp2 || transports.ngtcp2,
                      "configs",
                      item,
                      "is a row of the ngtcp2 library: add --transport=all or --transport=ngtcp2");
        transports.RequireQuicCcFor("configs",
                                    item,
                                    given && !isNgtcp2,
                                    "only the ngtcp2 rows run; --transport=all runs both");
    }
    return out;
}

/// QuicCcFormat, with "timeout" for the median of a cell where most runs did not finish.
std::string
Fmt(double v, int precision = 2)
{
    return std::isinf(v) ? "timeout" : QuicCcFormat(v, precision);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string buffers = "0.5,1,2,1000p";
    std::string losses = "0,1%,2%,4%,6%,8%";
    std::string configList = "all";
    std::string transfer = "8MB";
    std::string rate = "5Mbps";
    std::string delay = "30ms";
    std::string bufferBytes = "false";
    std::string ackLoss = "false";
    std::string timeout = "600s";
    std::string mss = std::to_string(QuicCongestionController::kDefaultMaxDatagramSize);
    std::string ackPolicy = "ReceiveBatch";
    std::string ackBatchWindow = "50us";
    std::string packetSizing = "FreeWindow";
    std::string hystartL = "0";
    std::string transport = "quic-cc";
    QuicCcBatchOptions batch(20);

    QuicCcCommandLine cmd(__FILE__);
    cmd.AddValue("buffer",
                 "Bottleneck drop-tail buffers, comma-separated: a BDP multiple (0.5) or packets "
                 "with a 'p' suffix (1000p)",
                 buffers);
    cmd.AddFlag(
        "bufferBytes",
        "Limit the queue in bytes: --buffer full-size packets' worth (1380 B each by default)",
        bufferBytes);
    cmd.AddValue("loss",
                 "Random loss on the data direction, comma-separated: percentages (2%) or "
                 "fractions (0.02)",
                 losses);
    cmd.AddValue("configs",
                 "Configurations, comma-separated, or all (every row --transport runs): "
                 "tcp-cubic, reno, reno-hystart, cubic, cubic-hystart, ngtcp2-cubic, ngtcp2-reno, "
                 "ngtcp2-bbr",
                 configList);
    cmd.AddValue("transport", QuicCcTransportHelp(), transport);
    batch.Add(cmd, "Runs per point (RngRun firstRun..firstRun+runs-1)");
    cmd.AddValue("size", "Download size (e.g. 8MB = 8,000,000 bytes, or 8000000)", transfer);
    cmd.AddValue("rate", "Bottleneck rate, both directions", rate);
    cmd.AddValue("delay", "One-way propagation delay (RTT = 2 x delay)", delay);
    cmd.AddFlag("ackLoss", "Apply the random loss to the ACK direction too", ackLoss);
    cmd.AddValue("timeout", "A run not complete by then counts as incomplete", timeout);
    cmd.AddValue("mss",
                 "QUIC MaxDatagramSize, bytes, 1200..1472 (TCP SegmentSize follows it)",
                 mss);
    cmd.AddValue("ackPolicy", "QUIC receiver ACK policy: ReceiveBatch or Rfc9000", ackPolicy);
    cmd.AddValue("ackBatchWindow", "QUIC ReceiveBatch window", ackBatchWindow);
    cmd.AddValue("packetSizing",
                 "QUIC data packet sizing: FreeWindow (quiche) or FullOnly",
                 packetSizing);
    cmd.AddValue("hystartL",
                 "HyStart++ L, slow-start growth cap per ACK frame in packets (0 = none, quiche; "
                 "RFC 9406: 8 unpaced)",
                 hystartL);
    // Attributes the scenario sets from options: as attribute defaults they would be overridden.
    cmd.AttributesSetTo({{"ns3::QuicCcSocket::MaxDatagramSize", "mss"}}); // constraints: with --mss
    cmd.AttributesSetBy({{"ns3::QuicCcSocket::AckPolicy", "ackPolicy"},
                         {"ns3::QuicCcSocket::AckBatchWindow", "ackBatchWindow"},
                         {"ns3::QuicCcSocket::IdleTimeout", "timeout"},
                         {"ns3::QuicCcSocket::PacketSizing", "packetSizing"},
                         {"ns3::QuicCubic::HyStart", "configs"},
                         {"ns3::QuicReno::HyStart", "configs"},
                         {"ns3::QuicHyStartPlusPlus::L", "hystartL"}});
    // The transports' attributes the scenario sets on every socket: refused as defaults.
    cmd.AttributesSetBy(
        QuicCcTransportAttributesSetBy({{"MaxDatagramSize", "mss"}, {"IdleTimeout", "timeout"}}));
    cmd.Parse(argc, argv);

    QuicCcHystartLabParams base;
    std::vector<LabBuffer> bufferList;
    std::vector<double> lossList; // fractions
    std::vector<std::string> configs;
    std::string ngtcp2Version; // "" without ngtcp2 rows
    try
    {
        const QuicCcTransportChoice transports = QuicCcParseTransport(transport);
        transports.RequireAttributesUsed(cmd.GetGivenAttributes());
        QuicCcRequireWriteFits(transports.quicCc,
                               transports.ngtcp2,
                               kQuicCcBulkWriteBytes,
                               "the bulk sender's writes");
        // The options of quic-cc's socket and controllers (ngtcp2 has its own ACK policy,
        // packet sizing and HyStart++).
        for (const auto& [option, text] : {std::pair{"ackPolicy", &ackPolicy},
                                           {"ackBatchWindow", &ackBatchWindow},
                                           {"packetSizing", &packetSizing},
                                           {"hystartL", &hystartL}})
        {
            transports.RequireQuicCcFor(option,
                                        *text,
                                        cmd.WasGiven(option),
                                        "a quic-cc option; ngtcp2 has its own");
        }
        base.bufferInBytes = QuicCcParseBool("bufferBytes", bufferBytes);
        base.ackLoss = QuicCcParseBool("ackLoss", ackLoss);
        batch.Parse();
        base.seed = batch.seed;
        base.transferBytes = QuicCcParseBytes("size", transfer);
        base.rate = QuicCcParseRate("rate", rate);
        base.oneWayDelay = QuicCcParseTime("delay", delay);
        base.timeout = QuicCcParseTime("timeout", timeout);
        QuicCcRequire(base.timeout.IsStrictlyPositive(), "timeout", timeout, "must be > 0");
        // RFC 9000 Section 14: at least 1200 B; at most the 1500-byte MTU less IPv4 and UDP
        // headers.
        base.maxDatagramSize = QuicCcParseUnsigned("mss", mss, 1200, 1472);
        base.ackPolicy = QuicCcParseChoice("ackPolicy", ackPolicy, {"ReceiveBatch", "Rfc9000"});
        base.ackBatchWindow = QuicCcParseTime("ackBatchWindow", ackBatchWindow);
        QuicCcRequire(!(cmd.WasGiven("ackBatchWindow") && base.ackPolicy != "ReceiveBatch"),
                      "ackBatchWindow",
                      ackBatchWindow,
                      "has no effect with --ackPolicy=" + base.ackPolicy +
                          " (only ReceiveBatch uses it)");
        base.packetSizing =
            QuicCcParseChoice("packetSizing", packetSizing, {"FreeWindow", "FullOnly"});
        base.hyStartL =
            QuicCcParseUnsigned("hystartL", hystartL, 0, std::numeric_limits<uint32_t>::max());
        bufferList = ParseBuffers(buffers, base);
        for (const std::string& item : QuicCcSplitList("loss", losses))
        {
            lossList.push_back(QuicCcParseLoss("loss", item));
        }
        configs = ParseConfigs(configList, transports, cmd.WasGiven("configs"));
        for (const std::string& name : configs)
        {
            if (name.rfind("ngtcp2-", 0) == 0)
            {
                ngtcp2Version = QuicCcNgtcp2Version();
            }
        }
    }
    catch (const QuicCcUsageError& e)
    {
        cmd.Exit(e);
    }
    if (batch.dryRun)
    {
        return 0;
    }

    std::vector<Work> work;
    for (size_t b = 0; b < bufferList.size(); ++b)
    {
        for (size_t l = 0; l < lossList.size(); ++l)
        {
            for (uint32_t i = 0; i < batch.runs; ++i)
            {
                for (size_t c = 0; c < configs.size(); ++c)
                {
                    work.push_back({b, l, c, batch.firstRun + i});
                }
            }
        }
    }

    const std::unique_ptr<QuicCcOutputFile> csv =
        batch.OpenCsv(cmd,
                      "buffer,buffer_packets,loss_percent,config,run,completed,completion_s,"
                      "bytes_received,lost_packets,spurious_losses,sent_packets,small_packets,"
                      "queue_drops,error_drops,ack_error_drops,peak_cwnd_bytes,first_drop_s,"
                      "events" +
                          std::string(ngtcp2Version.empty() ? "" : ",ngtcp2_version") + "\n");
    std::vector<QuicCcHystartLabResult> results(work.size());
    QuicCcRunBatch(
        work.size(),
        batch.jobs,
        [&](size_t w) {
            QuicCcHystartLabParams p = base;
            p.config = configs[work[w].config];
            p.bufferPackets = bufferList[work[w].buffer].packets;
            p.lossRate = lossList[work[w].loss];
            p.run = work[w].run;
            return QuicCcRecordToLine(QuicCcRunHystartLab(p));
        },
        batch.Report(cmd,
                     [&](size_t w) {
                         std::ostringstream name;
                         name << configs[work[w].config] << ", buffer "
                              << bufferList[work[w].buffer].label << ", loss "
                              << 100 * lossList[work[w].loss] << " %, RngRun " << work[w].run;
                         return name.str();
                     }),
        [&](size_t w, const std::string& line) {
            QuicCcHystartLabResult& r = results[w];
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            if (!csv)
            {
                return;
            }
            std::ostringstream out;
            out << bufferList[work[w].buffer].label << ',' << bufferList[work[w].buffer].packets
                << ',' << 100 * lossList[work[w].loss] << ',' << configs[work[w].config] << ','
                << work[w].run << ',' << r.completed << ','
                << (r.completed ? Fmt(r.completionSeconds, 6) : "") << ',' << r.bytesReceived << ','
                << r.lostPackets << ',' << r.spuriousLosses << ',' << r.sentPackets << ','
                << r.smallPackets << ',' << r.queueDrops << ',' << r.errorDrops << ','
                << r.ackErrorDrops << ',' << r.peakCwnd << ','
                << (r.queueDrops + r.errorDrops > 0 ? Fmt(r.firstDropSeconds, 6) : "") << ','
                << r.events;
            if (!ngtcp2Version.empty())
            {
                const bool ngtcp2Row = configs[work[w].config].rfind("ngtcp2-", 0) == 0;
                out << ',' << (ngtcp2Row ? ngtcp2Version : "");
            }
            out << '\n';
            csv->Write(out.str());
        });
    if (csv)
    {
        csv->Commit();
    }

    /// Results of one (buffer, loss, config) cell.
    auto cell = [&](size_t b, size_t l, size_t c) {
        std::vector<const QuicCcHystartLabResult*> out;
        for (size_t w = 0; w < work.size(); ++w)
        {
            if (work[w].buffer == b && work[w].loss == l && work[w].config == c)
            {
                out.push_back(&results[w]);
            }
        }
        return out;
    };

    const int labelWidth = 15; // first column
    const int width = 15;      // one column per configuration
    std::cout << "HyStart++ lab: " << Fmt(base.transferBytes / 1e6, 1) << " MB download, " << rate
              << ", RTT " << (2 * base.oneWayDelay).GetMilliSeconds() << " ms (BDP "
              << Fmt(QuicCcHystartLabBdpPackets(base), 1) << " packets of " << base.maxDatagramSize
              << " B), loss on the "
              << (base.ackLoss ? "data and ACK directions" : "data direction") << ", runs "
              << batch.firstRun << ".." << batch.firstRun + batch.runs - 1 << "; TCP SegmentSize "
              << QuicCcHystartLabTcpSegmentSize(base) << " B"
              << (base.packetSizing != "FreeWindow" ? "; QUIC PacketSizing " + base.packetSizing
                                                    : "")
              << (base.hyStartL > 0 ? "; HyStart++ L " + std::to_string(base.hyStartL) : "")
              << "\n";
    if (!ngtcp2Version.empty())
    {
        std::cout << "ngtcp2-* rows: the real ngtcp2 " << ngtcp2Version
                  << " library with its own controller, HyStart++ and ACK policy (--transport)\n";
    }
    uint32_t incomplete = 0;
    for (size_t b = 0; b < bufferList.size(); ++b)
    {
        std::cout << "\nBuffer " << bufferList[b].text
                  << (base.bufferInBytes ? " (limit in bytes)" : "")
                  << ": median download time, s\n";
        std::cout << std::left << std::setw(labelWidth) << "loss %" << std::right;
        for (const std::string& name : configs)
        {
            std::cout << std::setw(width) << name;
        }
        std::cout << "\n";
        for (size_t l = 0; l < lossList.size(); ++l)
        {
            std::cout << std::left << std::setw(labelWidth) << 100 * lossList[l] << std::right;
            for (size_t c = 0; c < configs.size(); ++c)
            {
                std::vector<double> times;
                uint32_t failed = 0;
                for (const QuicCcHystartLabResult* r : cell(b, l, c))
                {
                    // An incomplete run counts as slower than every complete one.
                    times.push_back(r->completed ? r->completionSeconds
                                                 : std::numeric_limits<double>::infinity());
                    failed += r->completed ? 0 : 1;
                }
                incomplete += failed;
                std::cout << std::setw(width) << (Fmt(QuicCcMedian(times)) + (failed ? "*" : ""));
            }
            std::cout << "\n";
        }
        const auto zero = std::find(lossList.begin(), lossList.end(), 0.0);
        if (zero == lossList.end())
        {
            continue;
        }
        const size_t l0 = zero - lossList.begin();
        std::cout << "At 0 % loss, mean over " << batch.runs << " runs:\n";
        const std::vector<
            std::pair<std::string, std::function<double(const QuicCcHystartLabResult&)>>>
            rows{
                {"lost pkts",
                 [](const QuicCcHystartLabResult& r) {
                     return static_cast<double>(r.lostPackets);
                 }},
                {"queue drops",
                 [](const QuicCcHystartLabResult& r) { return static_cast<double>(r.queueDrops); }},
                {"sent pkts",
                 [](const QuicCcHystartLabResult& r) {
                     return static_cast<double>(r.sentPackets);
                 }},
                {"pkts < " + std::to_string(kSmallPacketBytes) + " B",
                 [](const QuicCcHystartLabResult& r) {
                     return static_cast<double>(r.smallPackets);
                 }},
                {"peak cwnd pkts",
                 [&](const QuicCcHystartLabResult& r) {
                     return static_cast<double>(r.peakCwnd) /
                            static_cast<double>(base.maxDatagramSize);
                 }},
            };
        for (const auto& [name, value] : rows)
        {
            std::cout << std::left << std::setw(labelWidth) << name << std::right;
            for (size_t c = 0; c < configs.size(); ++c)
            {
                std::vector<double> v;
                for (const QuicCcHystartLabResult* r : cell(b, l0, c))
                {
                    v.push_back(value(*r));
                }
                std::cout << std::setw(width) << Fmt(QuicCcMean(v), 1);
            }
            std::cout << "\n";
        }
    }
    std::cout
        << "\nlost pkts: QUIC = packets the sender's loss detection declared lost"
        << (ngtcp2Version.empty() ? "" : " (ngtcp2: its own count, ngtcp2_conn_info.pkt_lost)")
        << "; tcp-cubic = "
           "data packets dropped in the network (queue + random loss). queue drops = bottleneck "
           "queue overflows (data direction), for every configuration; sent pkts = packets offered "
           "to it; pkts < "
        << kSmallPacketBytes << " B = those with a UDP payload (QUIC packet) under "
        << kSmallPacketBytes << " B. peak cwnd in packets of " << base.maxDatagramSize << " B.";
    if (incomplete > 0)
    {
        std::cout << " * = " << incomplete << " run(s) in total did not finish within "
                  << base.timeout.GetSeconds() << " s (counted as slowest).";
    }
    std::cout << "\n";
    return 0;
}
