/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The HyStart++ lab (Cloudflare 2020, "CUBIC and HyStart++ support in quiche"), reproduced in
 * ns-3 (reference scenarios.md Section 2).
 *
 *   server (sender) ========== bottleneck ========== client (receiver)
 *      BulkSend       5 Mbps each way, one-way 30 ms       PacketSink
 *                     drop-tail queue of --buffer packets,
 *                     --loss % random loss on the data direction
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
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include "quic-cc-batch-runner.h"
#include "quic-cc-hystart-lab-scenario.h"
#include "quic-cc-report.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <unistd.h>
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

/// One simulation of the batch.
struct Work
{
    size_t buffer{0}; //!< index into the buffers
    size_t loss{0};   //!< index into the loss points
    size_t config{0}; //!< index into the configurations
    uint32_t run{0};  //!< RngRun
};

/// Split a comma-separated list (empty items are a fatal error naming the option).
std::vector<std::string>
SplitList(const std::string& list, const std::string& option)
{
    std::vector<std::string> out;
    std::istringstream is(list);
    std::string item;
    while (std::getline(is, item, ','))
    {
        NS_ABORT_MSG_IF(item.empty(), "--" << option << ": empty item in '" << list << "'");
        out.push_back(item);
    }
    NS_ABORT_MSG_IF(out.empty(), "--" << option << " must not be empty");
    return out;
}

/// A non-negative number, or a fatal error naming the option and the text.
double
ParseNumber(const std::string& text, const std::string& option)
{
    size_t used = 0;
    double v = std::nan("");
    try
    {
        v = std::stod(text, &used);
    }
    catch (const std::exception&)
    {
        used = 0;
    }
    NS_ABORT_MSG_IF(used != text.size() || !(v >= 0) || std::isinf(v),
                    "--" << option << ": '" << text << "' is not a non-negative number");
    return v;
}

std::vector<LabBuffer>
ParseBuffers(const std::string& list, const QuicCcHystartLabParams& base)
{
    std::vector<LabBuffer> out;
    for (const std::string& item : SplitList(list, "buffer"))
    {
        LabBuffer b;
        b.label = item;
        std::ostringstream text;
        if (item.back() == 'p')
        {
            const double packets = ParseNumber(item.substr(0, item.size() - 1), "buffer");
            NS_ABORT_MSG_UNLESS(packets >= 1 && packets == std::floor(packets)
                                    && packets <= std::numeric_limits<uint32_t>::max(),
                                "--buffer: '" << item
                                              << "' must be a whole number of packets >= 1");
            b.packets = static_cast<uint32_t>(packets);
            text << b.packets << " packets (" << std::fixed << std::setprecision(1)
                 << b.packets / QuicCcHystartLabBdpPackets(base) << " BDP)";
        }
        else
        {
            const double multiple = ParseNumber(item, "buffer");
            b.packets = QuicCcHystartLabBufferPackets(base, multiple); // fatal error if 0
            text << item << " BDP = " << b.packets << " packets";
        }
        b.text = text.str();
        out.push_back(b);
    }
    return out;
}

std::vector<std::string>
ParseConfigs(const std::string& list)
{
    const std::vector<std::string>& all = QuicCcHystartLabConfigs();
    if (list == "all")
    {
        return all;
    }
    std::vector<std::string> out;
    for (const std::string& item : SplitList(list, "configs"))
    {
        NS_ABORT_MSG_IF(std::find(all.begin(), all.end(), item) == all.end(),
                        "--configs: '" << item
                                       << "' is not tcp-cubic, reno, reno-hystart, cubic, "
                                          "cubic-hystart or all");
        out.push_back(item);
    }
    return out;
}

std::string
Serialize(const QuicCcHystartLabResult& r)
{
    std::ostringstream os;
    os << std::setprecision(17) << r.completed << ' ' << r.completionSeconds << ' '
       << r.bytesReceived << ' ' << r.lostPackets << ' ' << r.spuriousLosses << ' ' << r.sentPackets
       << ' ' << r.queueDrops << ' ' << r.errorDrops << ' ' << r.ackErrorDrops << ' ' << r.peakCwnd
       << ' ' << r.firstDropSeconds << ' ' << r.events;
    return os.str();
}

bool
Deserialize(const std::string& line, QuicCcHystartLabResult& r)
{
    std::istringstream is(line);
    return static_cast<bool>(is >> r.completed >> r.completionSeconds >> r.bytesReceived
                             >> r.lostPackets >> r.spuriousLosses >> r.sentPackets >> r.queueDrops
                             >> r.errorDrops >> r.ackErrorDrops >> r.peakCwnd >> r.firstDropSeconds
                             >> r.events);
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
    QuicCcHystartLabParams base;
    std::string buffers = "0.5,1,2,1000p";
    std::string losses = "0,1,2,4,6,8";
    std::string configList = "all";
    std::string transfer = "8MB";
    std::string rate = "5Mbps";
    uint32_t runs = 20;
    uint32_t firstRun = 1;
    uint32_t jobs = 0;
    std::string csv;
    bool quiet = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("buffer",
                 "Bottleneck drop-tail buffers, comma-separated: a BDP multiple (0.5) or packets "
                 "with a 'p' suffix (1000p)",
                 buffers);
    cmd.AddValue(
        "bufferBytes",
        "Limit the queue in bytes: --buffer full-size packets' worth (1380 B each by default)",
        base.bufferInBytes);
    cmd.AddValue("loss", "Random loss on the data direction, percent, comma-separated", losses);
    cmd.AddValue("configs",
                 "Configurations, comma-separated, or all: tcp-cubic, reno, reno-hystart, cubic, "
                 "cubic-hystart",
                 configList);
    cmd.AddValue("runs", "Runs per point (RngRun firstRun..firstRun+runs-1)", runs);
    cmd.AddValue("firstRun", "First RngRun value", firstRun);
    cmd.AddValue("seed", "RngSeed", base.seed);
    cmd.AddValue("jobs", "Worker processes (0 = number of cores)", jobs);
    cmd.AddValue("csv", "Write one row per run to this CSV file", csv);
    cmd.AddValue("size", "Download size (e.g. 8MB = 8,000,000 bytes, or 8000000)", transfer);
    cmd.AddValue("rate", "Bottleneck rate, both directions", rate);
    cmd.AddValue("delay", "One-way propagation delay (RTT = 2 x delay)", base.oneWayDelay);
    cmd.AddValue("ackLoss", "Apply the random loss to the ACK direction too", base.ackLoss);
    cmd.AddValue("timeout", "A run not complete by then counts as incomplete", base.timeout);
    cmd.AddValue(
        "mss", "QUIC MaxDatagramSize, bytes (TCP SegmentSize follows it)", base.maxDatagramSize);
    cmd.AddValue("ackPolicy", "QUIC receiver ACK policy: ReceiveBatch or Rfc9000", base.ackPolicy);
    cmd.AddValue("ackBatchWindow", "QUIC ReceiveBatch window", base.ackBatchWindow);
    cmd.AddValue("quiet", "No progress on stderr", quiet);
    cmd.Parse(argc, argv);

    NS_ABORT_MSG_IF(runs == 0, "--runs must be >= 1, got 0");
    base.rate = DataRate(rate);
    {
        // Sizes accept ns-3's byte-size syntax through QueueSize ("8MB" = 8,000,000 bytes).
        const QueueSize size(transfer.find_first_not_of("0123456789") == std::string::npos
                                 ? transfer + "B"
                                 : transfer);
        base.transferBytes = size.GetValue();
    }
    const std::vector<LabBuffer> bufferList = ParseBuffers(buffers, base);
    std::vector<double> lossList;
    for (const std::string& item : SplitList(losses, "loss"))
    {
        lossList.push_back(ParseNumber(item, "loss"));
        NS_ABORT_MSG_IF(lossList.back() > 100, "--loss must be in [0, 100], got " << item);
    }
    const std::vector<std::string> configs = ParseConfigs(configList);

    std::vector<Work> work;
    for (size_t b = 0; b < bufferList.size(); ++b)
    {
        for (size_t l = 0; l < lossList.size(); ++l)
        {
            for (uint32_t i = 0; i < runs; ++i)
            {
                for (size_t c = 0; c < configs.size(); ++c)
                {
                    work.push_back({b, l, c, firstRun + i});
                }
            }
        }
    }

    const bool progress = !quiet && isatty(STDERR_FILENO) && !std::getenv("CI");
    const std::vector<std::string> lines = QuicCcRunBatch(
        work.size(),
        jobs,
        [&](size_t w)
        {
            QuicCcHystartLabParams p = base;
            p.config = configs[work[w].config];
            p.bufferPackets = bufferList[work[w].buffer].packets;
            p.lossRate = lossList[work[w].loss] / 100.0;
            p.run = work[w].run;
            return Serialize(QuicCcRunHystartLab(p));
        },
        progress);
    std::vector<QuicCcHystartLabResult> results(work.size());
    for (size_t w = 0; w < work.size(); ++w)
    {
        NS_ABORT_MSG_UNLESS(Deserialize(lines[w], results[w]), "bad result line from a worker");
    }

    if (!csv.empty())
    {
        std::ofstream out(csv);
        NS_ABORT_MSG_UNLESS(out, "cannot write --csv file '" << csv << "'");
        out << "buffer,buffer_packets,loss_percent,config,run,completed,completion_s,bytes_"
               "received,"
               "lost_packets,spurious_losses,sent_packets,queue_drops,error_drops,ack_error_drops,"
               "peak_cwnd_bytes,"
               "first_drop_s,events\n";
        for (size_t w = 0; w < work.size(); ++w)
        {
            const QuicCcHystartLabResult& r = results[w];
            out << bufferList[work[w].buffer].label << ',' << bufferList[work[w].buffer].packets
                << ',' << lossList[work[w].loss] << ',' << configs[work[w].config] << ','
                << work[w].run << ',' << r.completed << ','
                << (r.completed ? Fmt(r.completionSeconds, 6) : "") << ',' << r.bytesReceived << ','
                << r.lostPackets << ',' << r.spuriousLosses << ',' << r.sentPackets << ','
                << r.queueDrops << ',' << r.errorDrops << ',' << r.ackErrorDrops << ','
                << r.peakCwnd << ','
                << (r.queueDrops + r.errorDrops > 0 ? Fmt(r.firstDropSeconds, 6) : "") << ','
                << r.events << '\n';
        }
    }

    /// Results of one (buffer, loss, config) cell.
    auto cell = [&](size_t b, size_t l, size_t c)
    {
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
              << firstRun << ".." << firstRun + runs - 1 << "; TCP SegmentSize "
              << QuicCcHystartLabTcpSegmentSize(base) << " B\n";
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
            std::cout << std::left << std::setw(labelWidth) << lossList[l] << std::right;
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
        std::cout << "At 0 % loss, mean over " << runs << " runs:\n";
        const std::vector<
            std::pair<std::string, std::function<double(const QuicCcHystartLabResult&)>>>
            rows{
                {"lost pkts",
                 [](const QuicCcHystartLabResult& r)
                 {
                     return static_cast<double>(r.lostPackets);
                 }},
                {"queue drops",
                 [](const QuicCcHystartLabResult& r)
                 {
                     return static_cast<double>(r.queueDrops);
                 }},
                {"sent pkts",
                 [](const QuicCcHystartLabResult& r)
                 {
                     return static_cast<double>(r.sentPackets);
                 }},
                {"peak cwnd pkts",
                 [&](const QuicCcHystartLabResult& r)
                 {
                     return static_cast<double>(r.peakCwnd)
                          / static_cast<double>(base.maxDatagramSize);
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
        << "\nlost pkts: QUIC = packets the sender's loss detection declared lost; tcp-cubic = "
           "data packets dropped in the network (queue + random loss). queue drops = bottleneck "
           "queue overflows (data direction), for every configuration; sent pkts = packets offered "
           "to it. peak cwnd in packets of "
        << base.maxDatagramSize << " B.";
    if (incomplete > 0)
    {
        std::cout << " * = " << incomplete << " run(s) in total did not finish within "
                  << base.timeout.GetSeconds() << " s (counted as slowest).";
    }
    std::cout << "\n";
    return 0;
}
