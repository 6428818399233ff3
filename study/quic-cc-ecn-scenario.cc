/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ecn-scenario.h"

#include "quic-cc-dumbbell-scenario.h"
#include "quic-cc-flow-spec.h"

#include "ns3/abort.h"
#include "ns3/queue-size.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

namespace ns3
{

namespace
{

/// A row: its flow group (QuicCcParseFlowSpec) and whether ECN is on.
struct EcnRow
{
    const char* name; //!< row name
    const char* flow; //!< flow group
    bool ecn;         //!< ECN on both ends
};

constexpr std::array<EcnRow, 9> kRows{{{"quic-reno", "quic:reno:1", false},
                                       {"quic-reno-ecn", "quic:reno:1", true},
                                       {"quic-cubic", "quic:cubic:1", false},
                                       {"quic-cubic-ecn", "quic:cubic:1", true},
                                       {"ngtcp2-reno-ecn", "ngtcp2:reno:1", true},
                                       {"ngtcp2-cubic-ecn", "ngtcp2:cubic:1", true},
                                       {"ngtcp2-bbr-ecn", "ngtcp2:bbr:1", true},
                                       {"tcp-cubic", "tcp:TcpCubic:1", false},
                                       {"tcp-cubic-ecn", "tcp:TcpCubic:1", true}}};

constexpr std::array<const char*, 6> kQueues{
    {"droptail", "red", "pie", "codel", "fqcodel", "fqcodel-step"}};

/// Packets of 1500 B that \p rate sends in \p t, rounded up.
uint64_t
PacketsIn(DataRate rate, Time t)
{
    return static_cast<uint64_t>(std::ceil(rate.GetBitRate() * t.GetSeconds() / 8 / 1500));
}

} // namespace

std::vector<std::string>
QuicCcEcnQueues()
{
    return {kQueues.begin(), kQueues.end()};
}

std::vector<std::string>
QuicCcEcnRows()
{
    std::vector<std::string> out;
    for (const EcnRow& r : kRows)
    {
        out.emplace_back(r.name);
    }
    return out;
}

std::string
QuicCcEcnDumbbellParams(const QuicCcEcnCell& cell, QuicCcDumbbellParams* params)
{
    const auto row = std::find_if(kRows.begin(), kRows.end(), [&cell](const EcnRow& r) {
        return cell.row == r.name;
    });
    if (row == kRows.end())
    {
        return "unknown row '" + cell.row + "'";
    }
    if (std::find(kQueues.begin(), kQueues.end(), cell.queue) == kQueues.end())
    {
        return "unknown queue '" + cell.queue + "'";
    }
    if (cell.rate.GetBitRate() == 0)
    {
        return "bottleneck rate must be > 0";
    }
    if (!cell.stepThreshold.IsStrictlyPositive())
    {
        return "step threshold must be > 0";
    }
    if (!(cell.crossTraffic >= 0 && cell.crossTraffic < 1))
    {
        return "cross traffic must be a fraction of the rate in [0, 1)";
    }
    QuicCcDumbbellParams p;
    std::string why = QuicCcParseFlowSpec(row->flow, &p.groups);
    if (!why.empty())
    {
        return "row " + cell.row + ": " + why;
    }
    p.ecn = row->ecn;
    p.rtts = {cell.rtt};
    p.bottleneckRate = cell.rate;
    p.startJitter = cell.startJitter;
    p.crossTrafficRate =
        DataRate(static_cast<uint64_t>(cell.rate.GetBitRate() * cell.crossTraffic));
    p.transferBytes =
        cell.transferBytes ? cell.transferBytes : cell.rate.GetBitRate() * 64 / 80; // 6.4 s of it
    p.duration = Seconds(120);
    p.warmup = Seconds(0);
    p.interval = Seconds(1);
    p.run = cell.run;
    p.seed = cell.seed;

    std::string buffer = cell.buffer;
    if (buffer.empty())
    {
        buffer = std::to_string(std::max<uint64_t>(50, 2 * PacketsIn(cell.rate, cell.rtt))) + "p";
    }
    QueueSizeValue size;
    if (!size.DeserializeFromString(buffer, MakeQueueSizeChecker()) || size.Get().GetValue() == 0)
    {
        return "buffer must be a queue size > 0 like 50p or 12500B";
    }
    p.queueDiscAttributes = {{"MaxSize", buffer}};
    const auto set = [&p](const std::string& name, const std::string& value) {
        p.queueDiscAttributes.emplace_back(name, value);
    };
    if (cell.queue == "droptail")
    {
        p.queueDisc = "ns3::FifoQueueDisc";
    }
    else if (cell.queue == "red")
    {
        p.queueDisc = "ns3::RedQueueDisc";
        // In the buffer's unit: packets, or bytes of 1500 B packets.
        const uint64_t unit = size.Get().GetUnit() == QueueSizeUnit::BYTES ? 1500 : 1;
        const uint64_t minTh = std::max<uint64_t>(5, PacketsIn(cell.rate, MilliSeconds(5)));
        set("UseEcn", "true");
        set("MinTh", std::to_string(minTh * unit));
        set("MaxTh", std::to_string(3 * minTh * unit));
        set("LinkBandwidth", std::to_string(cell.rate.GetBitRate()) + "bps");
        set("LinkDelay", "5ms");
    }
    else if (cell.queue == "pie")
    {
        p.queueDisc = "ns3::PieQueueDisc";
        set("UseEcn", "true");
        set("QueueDelayReference", "15ms");
        set("Tupdate", "15ms");
    }
    else
    {
        p.queueDisc = cell.queue == "codel" ? "ns3::CoDelQueueDisc" : "ns3::FqCoDelQueueDisc";
        set("UseEcn", "true");
        if (cell.queue == "fqcodel-step")
        {
            set("CeThreshold", std::to_string(cell.stepThreshold.GetNanoSeconds()) + "ns");
        }
    }
    why = QuicCcCheckDumbbellParams(p);
    if (why.find("::MaxSize ") != std::string::npos)
    {
        return "buffer is refused as MaxSize by " + p.queueDisc + " (queue " + cell.queue +
               "; FqCoDelQueueDisc takes packets only)";
    }
    if (!why.empty())
    {
        return why;
    }
    *params = p;
    return "";
}

QuicCcEcnResult
QuicCcRunEcnCell(const QuicCcEcnCell& cell)
{
    QuicCcDumbbellParams params;
    const std::string bad = QuicCcEcnDumbbellParams(cell, &params);
    NS_ABORT_MSG_UNLESS(bad.empty(), "ECN cell: " << bad);
    const QuicCcDumbbellResult d = QuicCcRunDumbbell(params);
    const QuicCcDumbbellFlowResult& f = d.flows.at(0);
    QuicCcEcnResult r;
    r.completed = f.completed;
    if (f.completed)
    {
        r.completionSeconds = f.completionSeconds - f.start.GetSeconds();
        r.goodputMbps = params.transferBytes * 8.0 / r.completionSeconds / 1e6;
    }
    r.queueDrops = f.queueDiscDrops;
    r.lostPackets = f.lostPackets;
    r.ceMarks = d.queueMarks;
    r.ecnCongestionEvents = f.ecnCongestionEvents;
    r.sojournP50Ms = d.sojournP50Ms;
    r.sojournP99Ms = d.sojournP99Ms;
    r.ecnState = f.ecnState;
    return r;
}

} // namespace ns3
