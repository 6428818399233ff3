/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-dumbbell-report.h"

#include "quic-cc-report.h"
#include "quic-cc-transport-spec.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

QuicCcDumbbellReport::QuicCcDumbbellReport(const QuicCcDumbbellParams& params,
                                           std::ostream& os,
                                           bool quiet)
    : m_params(params),
      m_os(os),
      m_quiet(quiet)
{
    // ngtcp2 flows: the library's version in every output.
    for (const QuicCcFlowGroup& g : params.groups)
    {
        if (std::string version = g.quic.GetLibraryVersion(); !version.empty())
        {
            m_ngtcp2Version = version;
        }
    }
}

std::string
QuicCcDumbbellReport::CsvHeader()
{
    return "run,flow,group,transport,controller,rtt_ms,start_s,goodput_mbps,window_bytes,"
           "sink_bytes,completed,completion_s,lost_packets,mean_cwnd_packets,"
           "wire_tx_packets,wire_rx_packets,wire_tx_bytes,wire_rx_bytes,jain_index,"
           "ngtcp2_version\n";
}

std::string
QuicCcDumbbellReport::TimeseriesHeader()
{
    return "run,time_s,flow,group,goodput_mbps\n";
}

void
QuicCcDumbbellReport::PrintHeader() const
{
    if (!m_ngtcp2Version.empty())
    {
        m_os << "ngtcp2 flows: ngtcp2 " << m_ngtcp2Version << "\n";
    }
}

void
QuicCcDumbbellReport::Add(uint64_t run,
                          const QuicCcDumbbellResult& r,
                          std::string& csv,
                          std::string& timeseries)
{
    if (r.jainIndex)
    {
        m_jains.push_back(*r.jainIndex);
    }
    const std::string jain = r.jainIndex ? "" : "undefined (no flow had goodput)";
    std::map<std::string, std::vector<double>> perGroup;
    if (!m_quiet)
    {
        m_os << "run " << run << ": window " << r.windowStart.GetSeconds() << "-"
             << r.windowEnd.GetSeconds() << " s, Jain index " << std::fixed << std::setprecision(3);
        (r.jainIndex ? m_os << *r.jainIndex : m_os << jain)
            << ", total " << std::setprecision(2) << r.totalGoodputMbps << " Mbit/s\n";
        m_os << "  flow  group                          rtt_ms  goodput_Mbps  lost  "
                "mean_cwnd_pkts  done_s\n";
    }
    std::ostringstream csvText;
    std::ostringstream tsText;
    for (const auto& f : r.flows)
    {
        perGroup[f.group].push_back(f.goodputMbps);
        const double cwndPackets = f.mss ? f.meanCwndBytes / f.mss : 0;
        if (!m_quiet)
        {
            m_os << "  " << std::setw(4) << f.index << "  " << std::left << std::setw(30) << f.group
                 << std::right << std::setw(7) << std::setprecision(0) << f.rtt.GetMilliSeconds()
                 << std::setw(14) << std::setprecision(3) << f.goodputMbps << std::setw(6)
                 << f.lostPackets << std::setw(16) << std::setprecision(1) << cwndPackets
                 << std::setw(8)
                 << (f.completed ? std::to_string(f.completionSeconds).substr(0, 6) : "-") << "\n";
        }
        csvText << run << "," << f.index << ",\"" << f.group << "\"," << f.transport << ","
                << f.controller << "," << f.rtt.GetMilliSeconds() << "," << f.start.GetSeconds()
                << "," << f.goodputMbps << "," << f.windowBytes << "," << f.sinkBytes << ","
                << f.completed << "," << f.completionSeconds << "," << f.lostPackets << ","
                << cwndPackets << "," << f.wireTxPackets << "," << f.wireRxPackets << ","
                << f.wireTxBytes << "," << f.wireRxBytes << ",";
        if (r.jainIndex)
        {
            csvText << *r.jainIndex; // empty when undefined
        }
        // Every run has the same columns (a campaign sweep merges them): the version on
        // the rows of ngtcp2 flows only.
        csvText << "," << f.libraryVersion << "\n";
        for (size_t b = 0; b < f.binBytes.size(); ++b)
        {
            tsText << run << "," << (b + 1) * m_params.interval.GetSeconds() << "," << f.index
                   << ",\"" << f.group << "\","
                   << f.binBytes[b] * 8.0 / m_params.interval.GetSeconds() / 1e6 << "\n";
        }
    }
    for (const auto& [group, v] : perGroup)
    {
        m_groupGoodput[group].push_back(QuicCcMean(v));
    }
    csv += csvText.str();
    timeseries += tsText.str();
}

void
QuicCcDumbbellReport::PrintSummary(uint32_t runs) const
{
    // Mean over the runs and the range [min, max] as the spread.
    m_os << "summary over " << runs << " run(s): per-flow goodput (Mbit/s) by group, "
         << "mean [min, max] over runs\n";
    const auto summary = [](const std::vector<double>& v, int precision) {
        return QuicCcFormat(QuicCcMean(v), precision) + " [" +
               QuicCcFormat(QuicCcQuantile(v, 0), precision) + ", " +
               QuicCcFormat(QuicCcQuantile(v, 1), precision) + "]";
    };
    for (const QuicCcFlowGroup& g : m_params.groups)
    {
        const auto goodput = m_groupGoodput.find(g.token);
        m_os << "  " << std::left << std::setw(40) << g.token << std::right
             << summary(goodput == m_groupGoodput.end() ? std::vector<double>{} : goodput->second,
                        2)
             << "\n";
    }
    m_os << "  Jain index "
         << (m_jains.empty()
                 ? "undefined (no flow had goodput in any run)"
                 : summary(m_jains, 3) +
                       (m_jains.size() < runs
                            ? " over the " + std::to_string(m_jains.size()) + " run(s) with goodput"
                            : ""))
         << "\n";
}

} // namespace ns3
