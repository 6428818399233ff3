/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-death-spiral-report.h"

#include "quic-cc-report.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

using Row = QuicCcDeathSpiralRow;

/// The version of the library a configuration runs (the first such), else "".
std::string
Ngtcp2VersionUsed(const std::vector<QuicCcDeathSpiralConfig>& configs)
{
    for (const QuicCcDeathSpiralConfig& c : configs)
    {
        if (std::string version = c.quic.GetLibraryVersion(); !version.empty())
        {
            return version;
        }
    }
    return "";
}

/// Seconds as the labels print them: "2", "0.5".
std::string
Secs(Time t)
{
    std::ostringstream os;
    os << t.GetSeconds();
    return os.str();
}

/// \p value, or "" when the run ended before \p at (the sample was never taken).
std::string
IfReached(const Row& row, Time at, uint64_t value)
{
    return row.r.endSeconds < at.GetSeconds() ? "" : std::to_string(value);
}

} // namespace

std::string
QuicCcDeathSpiralCsvHeader(const std::vector<QuicCcDeathSpiralConfig>& configs)
{
    return std::string("config,run,completed,completion_s,handshake_s,bytes_received,loss_end_s,"
                       "cwnd_at_loss_end,late_sample_s,cwnd_at_late_sample,"
                       "min_cwnd_after_loss_end,max_cwnd_after_loss_end,lost_after_loss_end,"
                       "lost_packets,transitions,cycle_period_s,events") +
           (Ngtcp2VersionUsed(configs).empty() ? "" : ",ngtcp2_version") + "\n";
}

std::string
QuicCcDeathSpiralCsvRow(const QuicCcDeathSpiralRow& row,
                        const std::vector<QuicCcDeathSpiralConfig>& configs,
                        const QuicCcDeathSpiralParams& base)
{
    const std::string ngtcp2 = Ngtcp2VersionUsed(configs);
    std::ostringstream out;
    out << configs[row.config].name << ',' << row.run << ',' << row.r.completed << ','
        << (row.r.completed ? QuicCcFormat(row.r.completionSeconds, 6) : "") << ','
        << (row.r.handshakeSeconds >= 0 ? QuicCcFormat(row.r.handshakeSeconds, 6) : "") << ','
        << row.r.bytesReceived << ',' << Secs(base.lossDuration) << ','
        << IfReached(row, base.lossDuration, row.r.cwndAtLossEnd) << ',' << Secs(base.sampleLate)
        << ',' << IfReached(row, base.sampleLate, row.r.cwndAtLate) << ','
        << IfReached(row, base.observeFrom, row.r.minCwndAfterLoss) << ','
        << IfReached(row, base.observeFrom, row.r.maxCwndAfterLoss) << ','
        << IfReached(row, base.observeFrom, row.r.lostAfterLoss) << ',' << row.r.lostPackets << ','
        << row.r.transitions << ',' << QuicCcFormat(row.r.meanCyclePeriod, 6) << ','
        << row.r.events;
    if (!ngtcp2.empty())
    {
        out << ',' << configs[row.config].quic.GetLibraryVersion();
    }
    out << '\n';
    return out.str();
}

void
QuicCcPrintDeathSpiralTable(std::ostream& os,
                            const std::vector<QuicCcDeathSpiralRow>& rows,
                            const std::vector<QuicCcDeathSpiralConfig>& configs,
                            const QuicCcDeathSpiralParams& base,
                            const std::string& rate,
                            const std::string& ackPolicy,
                            uint32_t firstRun,
                            uint32_t runs)
{
    const uint64_t floor = 2 * base.maxDatagramSize;
    const std::string atLossEnd = "cwnd@" + Secs(base.lossDuration) + "s";
    const std::string atLate = "cwnd@" + Secs(base.sampleLate) + "s";
    os << "Death spiral: " << QuicCcFormat(base.transferBytes / 1e6, 1) << " MB download, " << rate
       << ", RTT " << (2 * base.oneWayDelay).GetMilliSeconds() << " ms, buffer "
       << base.bufferPackets << " packets, " << 100 * base.lossRate << " % loss until "
       << Secs(base.lossDuration) << " s, timeout " << Secs(base.timeout) << " s, ACK policy "
       << ackPolicy << ", runs " << firstRun << ".." << firstRun + runs - 1 << "\n";
    const std::string ngtcp2 = Ngtcp2VersionUsed(configs);
    if (!ngtcp2.empty())
    {
        os << "ngtcp2-* rows: the real ngtcp2 " << ngtcp2
           << " library with its own controller and ACK policy (--transport)\n";
    }
    os << "\n";
    os << std::left << std::setw(22) << "config" << std::right << std::setw(6) << "runs"
       << std::setw(11) << "completed" << std::setw(9) << "fail %" << std::setw(17)
       << "95% CI (Wilson)" << std::setw(10) << "median s" << std::setw(8) << "p90 s"
       << " | failing runs: " << std::setw(7) << "pinned" << ' ' << std::setw(11) << atLossEnd
       << ' ' << std::setw(11) << atLate << std::setw(13) << "transitions" << std::setw(11)
       << "cycle ms"
       << "\n";
    const std::vector<std::vector<const Row*>> byConfig = QuicCcRowsByConfig(rows, configs.size());
    for (size_t c = 0; c < configs.size(); ++c)
    {
        const uint32_t n = byConfig[c].size();
        uint32_t done = 0;
        uint32_t pinned = 0;
        std::vector<double> times;
        std::vector<double> cwndLossEnd;
        std::vector<double> cwndLate;
        std::vector<double> transitions;
        std::vector<double> periods;
        for (const Row* row : byConfig[c])
        {
            const QuicCcDeathSpiralResult& r = row->r;
            if (r.completed)
            {
                ++done;
                times.push_back(r.completionSeconds);
                continue;
            }
            // A failing run lasts until the timeout, after both samples (checked up front).
            pinned += (r.cwndAtLate == floor && r.maxCwndAfterLate == floor) ? 1 : 0;
            cwndLossEnd.push_back(r.cwndAtLossEnd);
            cwndLate.push_back(r.cwndAtLate);
            transitions.push_back(r.transitions);
            if (r.transitions >= 2)
            {
                periods.push_back(r.meanCyclePeriod * 1e3);
            }
        }
        std::ostringstream completed;
        completed << done << "/" << n;
        os << std::left << std::setw(22) << configs[c].name << std::right << std::setw(6) << n
           << std::setw(11) << completed.str() << std::setw(9)
           << QuicCcFormat(100.0 * (n - done) / n, 1) << std::setw(17)
           << QuicCcFormatWilson(n - done, n) << std::setw(10)
           << QuicCcFormat(QuicCcQuantile(times, 0.5)) << std::setw(8)
           << QuicCcFormat(QuicCcQuantile(times, 0.9)) << " | " << std::setw(14) << ""
           << std::setw(7) << (n - done ? std::to_string(pinned) : "-") << std::setw(12)
           << QuicCcFormat(QuicCcQuantile(cwndLossEnd, 0.5), 0) << std::setw(12)
           << QuicCcFormat(QuicCcQuantile(cwndLate, 0.5), 0) << std::setw(13)
           << QuicCcFormat(QuicCcQuantile(transitions, 0.5), 0) << std::setw(11)
           << QuicCcFormat(QuicCcQuantile(periods, 0.5), 1) << "\n";
    }
    os << "\nfail % = runs not complete within the timeout; failing-run columns are medians; "
          "pinned = "
          "failing runs whose cwnd is "
       << floor << " B (2 x MaxDatagramSize) at " << Secs(base.sampleLate)
       << " s and never grows after; transitions = qlog congestion-state changes recovery <-> "
          "congestion "
          "avoidance after "
       << Secs(base.lossDuration)
       << " s (both directions); cycle = mean time between successive entries into recovery.\n";
}

void
QuicCcPrintDeathSpiralRun(std::ostream& os,
                          const QuicCcDeathSpiralRow& row,
                          const std::vector<QuicCcDeathSpiralConfig>& configs,
                          const QuicCcDeathSpiralParams& base)
{
    os << configs[row.config].name << " run " << row.run << ": ";
    if (row.r.completed)
    {
        os << "completed in " << QuicCcFormat(row.r.completionSeconds, 3) << " s";
    }
    else
    {
        os << "FAILED: " << row.r.bytesReceived << " of " << base.transferBytes << " bytes after "
           << Secs(base.timeout) << " s";
    }
    os << "; cwnd at " << Secs(base.lossDuration) << " s = "
       << (row.r.endSeconds < base.lossDuration.GetSeconds() ? "-"
                                                             : std::to_string(row.r.cwndAtLossEnd))
       << " B, at " << Secs(base.sampleLate) << " s = "
       << (row.r.endSeconds < base.sampleLate.GetSeconds() ? "-" : std::to_string(row.r.cwndAtLate))
       << " B; recovery<->CA transitions after " << Secs(base.lossDuration)
       << " s: " << row.r.transitions << "; lost packets " << row.r.lostPackets << "\n";
}

} // namespace ns3
