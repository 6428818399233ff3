/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ecn-report.h"

#include "quic-cc-report.h"

#include <iomanip>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/// The summary's columns: (CSV column, heading, digits, width).
const std::vector<std::tuple<std::string, std::string, int, int>> kColumns{
    {"completion_s", "done_s", 3, 9},
    {"goodput_mbps", "Mbit/s", 2, 9},
    {"queue_drops", "drops", 1, 8},
    {"lost_packets", "lost", 1, 8},
    {"ce_marks", "marks", 1, 8},
    {"ecn_events", "ecn_ev", 1, 8},
    {"sojourn_p50_ms", "p50_ms", 2, 8},
    {"sojourn_p99_ms", "p99_ms", 2, 8}};

} // namespace

QuicCcEcnReport::QuicCcEcnReport(const std::vector<QuicCcEcnCell>& cells)
    : m_cells(cells),
      m_sample(cells.size()),
      m_states(cells.size())
{
}

std::string
QuicCcEcnReport::CsvHeader()
{
    return "queue,row,rate_mbps,rtt_ms,run,completed,completion_s,goodput_mbps,queue_drops,"
           "lost_packets,ce_marks,ecn_events,sojourn_p50_ms,sojourn_p99_ms,ecn_state\n";
}

std::string
QuicCcEcnReport::Add(size_t cell, uint64_t run, const QuicCcEcnResult& r)
{
    auto& s = m_sample.at(cell);
    if (r.completed)
    {
        s["completion_s"].push_back(r.completionSeconds);
        s["goodput_mbps"].push_back(r.goodputMbps);
    }
    s["queue_drops"].push_back(r.queueDrops);
    s["lost_packets"].push_back(r.lostPackets);
    s["ce_marks"].push_back(r.ceMarks);
    s["ecn_events"].push_back(r.ecnCongestionEvents);
    s["sojourn_p50_ms"].push_back(r.sojournP50Ms);
    s["sojourn_p99_ms"].push_back(r.sojournP99Ms);
    ++m_states[cell][r.ecnState.empty() ? "-" : r.ecnState];
    const QuicCcEcnCell& c = m_cells[cell];
    std::ostringstream row;
    row << c.queue << "," << c.row << "," << c.rate.GetBitRate() / 1e6 << ","
        << c.rtt.GetMilliSeconds() << "," << run << "," << r.completed << "," << r.completionSeconds
        << "," << r.goodputMbps << "," << r.queueDrops << "," << r.lostPackets << "," << r.ceMarks
        << "," << r.ecnCongestionEvents << "," << r.sojournP50Ms << "," << r.sojournP99Ms << ","
        << r.ecnState << "\n";
    return row.str();
}

void
QuicCcEcnReport::PrintSummary(std::ostream& os) const
{
    os << std::left << std::setw(14) << "queue" << std::setw(18) << "row" << std::right;
    for (const auto& [column, heading, digits, width] : kColumns)
    {
        os << std::setw(width) << heading;
    }
    os << "  ecn_state\n";
    for (size_t k = 0; k < m_cells.size(); ++k)
    {
        os << std::left << std::setw(14) << m_cells[k].queue << std::setw(18) << m_cells[k].row
           << std::right;
        for (const auto& [column, heading, digits, width] : kColumns)
        {
            const auto v = m_sample[k].find(column);
            os << std::setw(width)
               << (v == m_sample[k].end() ? "-" : QuicCcFormat(QuicCcMean(v->second), digits));
        }
        os << " ";
        for (const auto& [state, n] : m_states[k])
        {
            os << " " << state << ":" << n;
        }
        os << "\n";
    }
}

} // namespace ns3
