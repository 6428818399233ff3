/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-idle-report.h"

#include "quic-cc-report.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

/// Completion time of the chunk or response that the resume at \p resume starts (the last one
/// written at or before it); NaN if none completed.
double
CompletionFor(const QuicCcIdleResult& r, double resume)
{
    double out = std::nan("");
    for (size_t i = 0; i < r.startSeconds.size(); ++i)
    {
        if (r.startSeconds[i] <= resume + 1e-9)
        {
            out = r.completionSeconds[i];
        }
    }
    return out;
}

std::string
Num(double v, int precision)
{
    return std::isnan(v) ? "" : QuicCcFormat(v, precision);
}

/// "median [p10, p90]" of \p v
std::string
Spread(const std::vector<double>& v, int precision)
{
    std::ostringstream os;
    os << QuicCcFormat(QuicCcQuantile(v, 0.5), precision) << " ["
       << QuicCcFormat(QuicCcQuantile(v, 0.1), precision) << ", "
       << QuicCcFormat(QuicCcQuantile(v, 0.9), precision) << "]";
    return os.str();
}

/// "share % [Wilson 95 %]"
std::string
Share(uint32_t k, uint32_t n)
{
    if (n == 0)
    {
        return "-";
    }
    return QuicCcFormat(100.0 * k / n, 1) + " " + QuicCcFormatWilson(k, n);
}

} // namespace

std::string
QuicCcIdleRowToLine(const QuicCcIdleRow& row)
{
    std::ostringstream os;
    os << std::setprecision(17) << row.config << ' ' << row.run << ' ' << row.falseIdle << ' '
       << row.dsCompleted << ' ' << row.r.completed << ' ' << row.r.endSeconds << ' '
       << row.r.bytesReceived << ' ' << row.r.corruptBytes << ' ' << row.r.lostPackets << ' '
       << row.r.peakBacklog << ' ' << row.r.completionSeconds.size();
    for (double c : row.r.completionSeconds)
    {
        os << ' ' << c;
    }
    for (double s : row.r.startSeconds)
    {
        os << ' ' << s;
    }
    os << ' ' << row.r.pauses.size();
    for (const QuicCcIdlePause& p : row.r.pauses)
    {
        os << ' ' << p.idleStart << ' ' << p.resume << ' ' << p.srtt;
        for (const QuicCcIdleSnapshot* s : {&p.before, &p.after})
        {
            os << ' ' << s->cwnd << ' ' << s->ssthresh << ' ' << s->wMax << ' ' << s->k << ' '
               << s->epoch;
        }
        os << ' ' << p.burst1ms << ' ' << p.burstTenthRtt << ' ' << p.longestTrain << ' '
           << p.lostFirstRtt << ' ' << p.lostFirst3Rtt << ' ' << p.peakCwnd3Rtt;
    }
    return os.str();
}

bool
QuicCcIdleRowFromLine(const std::string& line, QuicCcIdleRow& row)
{
    std::istringstream is(line);
    size_t n = 0;
    is >> row.config >> row.run >> row.falseIdle >> row.dsCompleted >> row.r.completed >>
        row.r.endSeconds >> row.r.bytesReceived >> row.r.corruptBytes >> row.r.lostPackets >>
        row.r.peakBacklog >> n;
    row.r.completionSeconds.resize(n);
    row.r.startSeconds.resize(n);
    for (double& c : row.r.completionSeconds)
    {
        is >> c;
    }
    for (double& s : row.r.startSeconds)
    {
        is >> s;
    }
    is >> n;
    row.r.pauses.resize(n);
    for (QuicCcIdlePause& p : row.r.pauses)
    {
        is >> p.idleStart >> p.resume >> p.srtt;
        for (QuicCcIdleSnapshot* s : {&p.before, &p.after})
        {
            is >> s->cwnd >> s->ssthresh >> s->wMax >> s->k >> s->epoch;
        }
        is >> p.burst1ms >> p.burstTenthRtt >> p.longestTrain >> p.lostFirstRtt >>
            p.lostFirst3Rtt >> p.peakCwnd3Rtt;
    }
    return static_cast<bool>(is);
}

std::string
QuicCcIdleRunsCsv(const std::vector<QuicCcIdleRow>& rows, const std::vector<std::string>& names)
{
    std::ostringstream os;
    // The campaign tool's contract: key columns before "run", then "completed" and
    // "completion_s" (here the median over the run's chunks or responses).
    os << "config,run,completed,completion_s,pauses,lost_packets,corrupt_bytes,idle_s_median,"
          "burst_1ms_max,burst_tenth_rtt_max,longest_train_max,lost_first_rtt_total,"
          "pauses_with_loss,pauses_with_loss_3rtt,peak_ratio_max,completion_s_max,"
          "false_idle_completed,peak_backlog\n";
    for (const QuicCcIdleRow& row : rows)
    {
        if (row.falseIdle)
        {
            continue;
        }
        std::vector<double> idle;
        uint64_t b1 = 0;
        uint64_t b2 = 0;
        uint32_t train = 0;
        uint32_t lost = 0;
        uint32_t withLoss = 0;
        uint32_t withLoss3 = 0;
        double peak = 0;
        for (const QuicCcIdlePause& p : row.r.pauses)
        {
            idle.push_back(p.IdleSeconds());
            b1 = std::max(b1, p.burst1ms);
            b2 = std::max(b2, p.burstTenthRtt);
            train = std::max(train, p.longestTrain);
            lost += p.lostFirstRtt;
            withLoss += p.lostFirstRtt > 0 ? 1 : 0;
            withLoss3 += p.lostFirst3Rtt > 0 ? 1 : 0;
            peak = std::max(peak, p.PeakRatio());
        }
        const std::vector<double>& c = row.r.completionSeconds;
        // The death-spiral run of the same configuration and RngRun, if there was one.
        std::string falseIdle;
        for (const QuicCcIdleRow& other : rows)
        {
            if (other.falseIdle && other.config == row.config && other.run == row.run)
            {
                falseIdle = other.dsCompleted ? "1" : "0";
            }
        }
        os << names[row.config] << ',' << row.run << ',' << row.r.completed << ','
           << Num(QuicCcMedian(c), 6) << ',' << row.r.pauses.size() << ',' << row.r.lostPackets
           << ',' << row.r.corruptBytes << ',' << Num(QuicCcMedian(idle), 4) << ',' << b1 << ','
           << b2 << ',' << train << ',' << lost << ',' << withLoss << ',' << withLoss3 << ','
           << QuicCcFormat(peak, 4) << ','
           << Num(c.empty() ? std::nan("") : *std::max_element(c.begin(), c.end()), 6) << ','
           << falseIdle << ',' << row.r.peakBacklog << '\n';
    }
    return os.str();
}

std::string
QuicCcIdlePausesCsv(const std::vector<QuicCcIdleRow>& rows, const std::vector<std::string>& names)
{
    std::ostringstream os;
    os << "config,run,pause,idle_start_s,idle_s,srtt_s,cwnd_before,ssthresh_before,wmax_before,"
          "k_before,epoch_before,cwnd_after,ssthresh_after,wmax_after,k_after,epoch_after,"
          "burst_1ms,burst_tenth_rtt,longest_train,lost_first_rtt,lost_first_3rtt,peak_cwnd_3rtt,"
          "peak_ratio,"
          "completion_s\n";
    for (const QuicCcIdleRow& row : rows)
    {
        for (size_t i = 0; !row.falseIdle && i < row.r.pauses.size(); ++i)
        {
            const QuicCcIdlePause& p = row.r.pauses[i];
            os << names[row.config] << ',' << row.run << ',' << i + 1 << ','
               << QuicCcFormat(p.idleStart, 6) << ',' << QuicCcFormat(p.IdleSeconds(), 6) << ','
               << QuicCcFormat(p.srtt, 6);
            for (const QuicCcIdleSnapshot* s : {&p.before, &p.after})
            {
                os << ',' << s->cwnd << ',' << s->ssthresh << ','
                   << Num(s->wMax < 0 ? NAN : s->wMax, 0) << ',' << Num(s->k < 0 ? NAN : s->k, 6)
                   << ',' << Num(s->epoch < 0 ? NAN : s->epoch, 6);
            }
            os << ',' << p.burst1ms << ',' << p.burstTenthRtt << ',' << p.longestTrain << ','
               << p.lostFirstRtt << ',' << p.lostFirst3Rtt << ',' << p.peakCwnd3Rtt << ','
               << QuicCcFormat(p.PeakRatio(), 4) << ',' << Num(CompletionFor(row.r, p.resume), 6)
               << '\n';
        }
    }
    return os.str();
}

void
QuicCcPrintIdleBacklogTable(std::ostream& os,
                            const std::vector<QuicCcIdleRow>& rows,
                            const std::vector<std::string>& names,
                            bool flowControl)
{
    os << "quic-cc-idle, workload slow-reader; median [p10, p90] over the runs\n\n"
       << std::left << std::setw(30) << "config" << std::right << std::setw(6) << "runs"
       << std::setw(7) << "done"
       << " " << std::setw(23) << "completion ms"
       << " " << std::setw(25) << "peak backlog kB"
       << "\n";
    const std::vector<std::vector<const QuicCcIdleRow*>> byConfig =
        QuicCcRowsByConfig(rows, names.size());
    for (size_t c = 0; c < names.size(); ++c)
    {
        uint32_t n = 0;
        uint32_t done = 0;
        std::vector<double> completion;
        std::vector<double> backlog;
        for (const QuicCcIdleRow* row : byConfig[c])
        {
            if (row->falseIdle)
            {
                continue;
            }
            ++n;
            done += row->r.completed ? 1 : 0;
            completion.insert(completion.end(),
                              row->r.completionSeconds.begin(),
                              row->r.completionSeconds.end());
            backlog.push_back(row->r.peakBacklog / 1e3);
        }
        for (double& t : completion)
        {
            t *= 1e3;
        }
        os << std::left << std::setw(30) << names[c] << std::right << std::setw(6) << n
           << std::setw(7) << done << " " << std::setw(23) << Spread(completion, 0) << " "
           << std::setw(25) << Spread(backlog, 0) << "\n";
    }
    os << "\nbacklog = most bytes received but not yet read by the application ("
       << (flowControl ? "flow control on: at most the stream window, InitialMaxStreamData"
                       : "no receiver flow control: nothing bounds it")
       << ").\n";
}

void
QuicCcPrintIdleTable(std::ostream& os,
                     const std::vector<QuicCcIdleRow>& rows,
                     const std::vector<std::string>& names,
                     const std::string& workload,
                     uint32_t falseIdleRuns)
{
    os << "quic-cc-idle, workload " << workload
       << "; per pause: median [p10, p90] over all pauses of a configuration\n\n";
    os << std::left << std::setw(30) << "config" << std::right << std::setw(6) << "runs"
       << std::setw(7) << "done" << std::setw(7) << "pauses" << std::setw(22) << "burst 1ms kB"
       << std::setw(20) << "train pkts" << std::setw(24) << "loss in RTT1 % [CI]" << std::setw(24)
       << "loss in RTT1-3 % [CI]" << std::setw(24) << "completion ms"
       << " " << std::setw(21) << "peak cwnd 3RTT / pre" << std::setw(22) << "same, grown pauses";
    if (falseIdleRuns > 0)
    {
        os << std::setw(26) << "false-idle fail % [CI]";
    }
    os << "\n";
    const std::vector<std::vector<const QuicCcIdleRow*>> byConfig =
        QuicCcRowsByConfig(rows, names.size());
    for (size_t c = 0; c < names.size(); ++c)
    {
        uint32_t n = 0;
        uint32_t done = 0;
        uint32_t pauses = 0;
        uint32_t withLoss = 0;
        uint32_t withLoss3 = 0;
        uint32_t dsRuns = 0;
        uint32_t dsFailed = 0;
        std::vector<double> burst;
        std::vector<double> train;
        std::vector<double> completion;
        std::vector<double> peak;
        std::vector<double> peakGrown;
        for (const QuicCcIdleRow* row : byConfig[c])
        {
            if (row->falseIdle)
            {
                ++dsRuns;
                dsFailed += row->dsCompleted ? 0 : 1;
                continue;
            }
            ++n;
            done += row->r.completed ? 1 : 0;
            for (const QuicCcIdlePause& p : row->r.pauses)
            {
                ++pauses;
                withLoss += p.lostFirstRtt > 0 ? 1 : 0;
                withLoss3 += p.lostFirst3Rtt > 0 ? 1 : 0;
                burst.push_back(p.burst1ms / 1e3);
                train.push_back(p.longestTrain);
                peak.push_back(p.PeakRatio());
                if (p.before.cwnd > p.before.ssthresh)
                {
                    peakGrown.push_back(p.PeakRatio());
                }
                const double t = CompletionFor(row->r, p.resume);
                if (!std::isnan(t))
                {
                    completion.push_back(1e3 * t);
                }
            }
        }
        os << std::left << std::setw(30) << names[c] << std::right << std::setw(6) << n
           << std::setw(7) << done << std::setw(7) << pauses << std::setw(22) << Spread(burst, 1)
           << std::setw(20) << Spread(train, 0) << std::setw(24) << Share(withLoss, pauses)
           << std::setw(24) << Share(withLoss3, pauses) << " " << std::setw(23)
           << Spread(completion, 0) << " " << std::setw(21) << Spread(peak, 2) << std::setw(22)
           << Spread(peakGrown, 2);
        if (falseIdleRuns > 0)
        {
            os << std::setw(26) << Share(dsFailed, dsRuns);
        }
        os << "\n";
    }
    os << "\nburst = bytes sent in the first 1 ms after the resume; train = most packets "
          "sent back to back (faster than the bottleneck drains them) in the first RTT; "
          "loss in RTT1 = pauses with a packet lost of those sent in the first RTT (Wilson "
          "95 %), RTT1-3 the same for the first 3 RTTs; completion = the chunk or response "
          "the resume starts; peak = largest "
          "cwnd in the first 3 RTTs / cwnd when the pipe emptied; grown pauses = those "
          "whose cwnd grew "
          "past ssthresh since the last reduction (not a resume right after a loss, where "
          "CUBIC's normal climb back to W_max dominates)";
    if (falseIdleRuns > 0)
    {
        os << "; false idle = quic-cc-death-spiral's scenario (defaults) with the same "
              "controller settings, "
           << falseIdleRuns << " runs";
    }
    os << ".\n";
}

} // namespace ns3
