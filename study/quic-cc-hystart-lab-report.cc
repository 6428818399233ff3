/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-hystart-lab-report.h"

#include "quic-cc-report.h"
#include "quic-cc-transport-spec.h"

#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <sstream>
#include <utility>

namespace ns3
{

namespace
{

/// QuicCcFormat, with "timeout" for the median of a cell where most runs did not finish.
std::string
Fmt(double v, int precision = 2)
{
    return std::isinf(v) ? "timeout" : QuicCcFormat(v, precision);
}

/// Whether \p config is a row of the real ngtcp2 library.
bool
IsNgtcp2(const std::string& config)
{
    const std::vector<std::string>& ngtcp2 = QuicCcHystartLabNgtcp2Configs();
    return std::find(ngtcp2.begin(), ngtcp2.end(), config) != ngtcp2.end();
}

} // namespace

std::vector<QuicCcHystartLabGrid::Cell>
QuicCcHystartLabGrid::Cells() const
{
    std::vector<Cell> out;
    for (size_t b = 0; b < buffers.size(); ++b)
    {
        for (size_t l = 0; l < losses.size(); ++l)
        {
            for (uint32_t i = 0; i < runs; ++i)
            {
                for (size_t c = 0; c < configs.size(); ++c)
                {
                    out.push_back({b, l, c, firstRun + i});
                }
            }
        }
    }
    return out;
}

QuicCcHystartLabParams
QuicCcHystartLabGrid::Params(const Cell& cell) const
{
    QuicCcHystartLabParams p = base;
    p.config = configs[cell.config];
    p.bufferPackets = buffers[cell.buffer].packets;
    p.lossRate = losses[cell.loss];
    p.run = cell.run;
    return p;
}

std::string
QuicCcHystartLabGrid::Describe(const Cell& cell) const
{
    std::ostringstream name;
    name << configs[cell.config] << ", buffer " << buffers[cell.buffer].label << ", loss "
         << 100 * losses[cell.loss] << " %, RngRun " << cell.run;
    return name.str();
}

std::string
QuicCcHystartLabGrid::Ngtcp2Version() const
{
    return std::any_of(configs.begin(), configs.end(), IsNgtcp2) ? QuicCcNgtcp2Version() : "";
}

std::string
QuicCcHystartLabCsvHeader(const QuicCcHystartLabGrid& grid)
{
    return "buffer,buffer_packets,loss_percent,config,run,completed,completion_s,"
           "bytes_received,lost_packets,spurious_losses,sent_packets,small_packets,"
           "queue_drops,error_drops,ack_error_drops,peak_cwnd_bytes,first_drop_s,"
           "events" +
           std::string(grid.Ngtcp2Version().empty() ? "" : ",ngtcp2_version") + "\n";
}

std::string
QuicCcHystartLabCsvRow(const QuicCcHystartLabGrid& grid,
                       const QuicCcHystartLabGrid::Cell& cell,
                       const QuicCcHystartLabResult& r)
{
    const std::string version = grid.Ngtcp2Version();
    std::ostringstream out;
    out << grid.buffers[cell.buffer].label << ',' << grid.buffers[cell.buffer].packets << ','
        << 100 * grid.losses[cell.loss] << ',' << grid.configs[cell.config] << ',' << cell.run
        << ',' << r.completed << ',' << (r.completed ? Fmt(r.completionSeconds, 6) : "") << ','
        << r.bytesReceived << ',' << r.lostPackets << ',' << r.spuriousLosses << ','
        << r.sentPackets << ',' << r.smallPackets << ',' << r.queueDrops << ',' << r.errorDrops
        << ',' << r.ackErrorDrops << ',' << r.peakCwnd << ','
        << (r.queueDrops + r.errorDrops > 0 ? Fmt(r.firstDropSeconds, 6) : "") << ',' << r.events;
    if (!version.empty())
    {
        out << ',' << (IsNgtcp2(grid.configs[cell.config]) ? version : "");
    }
    out << '\n';
    return out.str();
}

void
QuicCcPrintHystartLabTables(std::ostream& os,
                            const QuicCcHystartLabGrid& grid,
                            const std::vector<QuicCcHystartLabResult>& results)
{
    const std::vector<QuicCcHystartLabGrid::Cell> cells = grid.Cells();
    const std::string version = grid.Ngtcp2Version();
    /// Results of one (buffer, loss, config) cell.
    auto cell = [&](size_t b, size_t l, size_t c) {
        std::vector<const QuicCcHystartLabResult*> out;
        for (size_t w = 0; w < cells.size(); ++w)
        {
            if (cells[w].buffer == b && cells[w].loss == l && cells[w].config == c)
            {
                out.push_back(&results[w]);
            }
        }
        return out;
    };

    const int labelWidth = 15; // first column
    const int width = 15;      // one column per configuration
    os << "HyStart++ lab: " << Fmt(grid.base.transferBytes / 1e6, 1) << " MB download, "
       << grid.rate << ", RTT " << (2 * grid.base.oneWayDelay).GetMilliSeconds() << " ms (BDP "
       << Fmt(QuicCcHystartLabBdpPackets(grid.base), 1) << " packets of "
       << grid.base.maxDatagramSize << " B), loss on the "
       << (grid.base.ackLoss ? "data and ACK directions" : "data direction") << ", runs "
       << grid.firstRun << ".." << grid.firstRun + grid.runs - 1 << "; TCP SegmentSize "
       << QuicCcHystartLabTcpSegmentSize(grid.base) << " B"
       << (grid.packetSizing != "FreeWindow" ? "; QUIC PacketSizing " + grid.packetSizing : "")
       << (grid.base.hyStartL > 0 ? "; HyStart++ L " + std::to_string(grid.base.hyStartL) : "")
       << "\n";
    if (!version.empty())
    {
        os << "ngtcp2-* rows: the real ngtcp2 " << version
           << " library with its own controller, HyStart++ and ACK policy (--transport)\n";
    }
    uint32_t incomplete = 0;
    for (size_t b = 0; b < grid.buffers.size(); ++b)
    {
        os << "\nBuffer " << grid.buffers[b].text
           << (grid.base.bufferInBytes ? " (limit in bytes)" : "") << ": median download time, s\n";
        os << std::left << std::setw(labelWidth) << "loss %" << std::right;
        for (const std::string& name : grid.configs)
        {
            os << std::setw(width) << name;
        }
        os << "\n";
        for (size_t l = 0; l < grid.losses.size(); ++l)
        {
            os << std::left << std::setw(labelWidth) << 100 * grid.losses[l] << std::right;
            for (size_t c = 0; c < grid.configs.size(); ++c)
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
                os << std::setw(width) << (Fmt(QuicCcMedian(times)) + (failed ? "*" : ""));
            }
            os << "\n";
        }
        const auto zero = std::find(grid.losses.begin(), grid.losses.end(), 0.0);
        if (zero == grid.losses.end())
        {
            continue;
        }
        const size_t l0 = zero - grid.losses.begin();
        os << "At 0 % loss, mean over " << grid.runs << " runs:\n";
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
                            static_cast<double>(grid.base.maxDatagramSize);
                 }},
            };
        for (const auto& [name, value] : rows)
        {
            os << std::left << std::setw(labelWidth) << name << std::right;
            for (size_t c = 0; c < grid.configs.size(); ++c)
            {
                std::vector<double> v;
                for (const QuicCcHystartLabResult* r : cell(b, l0, c))
                {
                    v.push_back(value(*r));
                }
                os << std::setw(width) << Fmt(QuicCcMean(v), 1);
            }
            os << "\n";
        }
    }
    os << "\nlost pkts: QUIC = packets the sender's loss detection declared lost"
       << (version.empty() ? "" : " (ngtcp2: its own count, ngtcp2_conn_info.pkt_lost)")
       << "; tcp-cubic = "
          "data packets dropped in the network (queue + random loss). queue drops = bottleneck "
          "queue overflows (data direction), for every configuration; sent pkts = packets offered "
          "to it; pkts < "
       << kSmallPacketBytes << " B = those with a UDP payload (QUIC packet) under "
       << kSmallPacketBytes << " B. peak cwnd in packets of " << grid.base.maxDatagramSize << " B.";
    if (incomplete > 0)
    {
        os << " * = " << incomplete << " run(s) in total did not finish within "
           << grid.base.timeout.GetSeconds() << " s (counted as slowest).";
    }
    os << "\n";
}

} // namespace ns3
