/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The CUBIC "death spiral" (Cloudflare 2026, "When idle isn't idle"), reproduced in ns-3.
 *
 *   server (sender) ======== bottleneck ======== client (receiver)
 *        BulkSend     rate 1 Gbps, one-way 5 ms,     PacketSink
 *                     drop-tail 1000 packets,
 *                     30 % random loss both ways until 2 s
 *
 * A 10 MB download; a run fails if it is not done 10 s after it starts. Each configuration
 * (cubic with an IdleRestart value, or reno) runs over the same RngRun values 1..N. Independent
 * runs execute in separate processes (--jobs, default: all cores).
 *
 *   ./quic-cc-death-spiral                                  # cubic-LastSent, cubic-LastActivity, reno; 100 runs each
 *   ./quic-cc-death-spiral --cc=cubic --idle-restart=LastSent --runs=1 --firstRun=7
 *   ./quic-cc-death-spiral --runs=20 --ackPolicy=Rfc9000 --csv=out.csv
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include "quic-cc-batch-runner.h"
#include "quic-cc-death-spiral-scenario.h"
#include "quic-cc-report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

/// One configuration of the comparison.
struct RunConfig
{
    std::string name;        //!< "cubic-LastSent", ..., "reno"
    std::string controller;  //!< "cubic" or "reno"
    std::string idleRestart; //!< IdleRestart value (cubic)
};

/// One finished run.
struct Row
{
    size_t config{0};
    uint32_t run{0};
    QuicCcDeathSpiralResult r;
};

std::vector<RunConfig>
ParseConfigs(const std::string& cc, const std::string& idle)
{
    const std::vector<std::string> allIdle{"LastSent", "LastActivity", "LastSentClamped", "Off"};
    std::vector<RunConfig> out;
    auto addCubic = [&](const std::string& mode) {
        if (std::find(allIdle.begin(), allIdle.end(), mode) == allIdle.end())
        {
            NS_FATAL_ERROR("--idle-restart must be LastSent, LastActivity, LastSentClamped, Off or all; got '"
                           << mode << "'");
        }
        out.push_back({"cubic-" + mode, "cubic", mode});
    };
    if (cc.empty())
    {
        if (idle.empty())
        {
            addCubic("LastSent");
            addCubic("LastActivity");
        }
        else if (idle == "all")
        {
            for (const auto& m : allIdle)
            {
                addCubic(m);
            }
        }
        else
        {
            addCubic(idle);
        }
        if (idle.empty() || idle == "all")
        {
            out.push_back({"reno", "reno", ""});
        }
        return out;
    }
    if (cc == "reno")
    {
        out.push_back({"reno", "reno", ""});
        return out;
    }
    if (cc != "cubic")
    {
        NS_FATAL_ERROR("--cc must be cubic or reno, got '" << cc << "'");
    }
    if (idle.empty())
    {
        addCubic("LastActivity");
    }
    else if (idle == "all")
    {
        for (const auto& m : allIdle)
        {
            addCubic(m);
        }
    }
    else
    {
        addCubic(idle);
    }
    return out;
}

std::string
Serialize(const Row& row)
{
    std::ostringstream os;
    os << std::setprecision(17) << row.config << ' ' << row.run << ' ' << row.r.completed << ' '
       << row.r.completionSeconds << ' ' << row.r.bytesReceived << ' ' << row.r.cwndAtLossEnd << ' '
       << row.r.cwndAtLate << ' ' << row.r.minCwndAfterLoss << ' ' << row.r.maxCwndAfterLoss << ' '
       << row.r.maxCwndAfterLate << ' ' << row.r.lostAfterLoss << ' ' << row.r.lostPackets << ' ' << row.r.transitions << ' '
       << row.r.meanCyclePeriod << ' ' << row.r.events;
    return os.str();
}

bool
Deserialize(const std::string& line, Row& row)
{
    std::istringstream is(line);
    return static_cast<bool>(is >> row.config >> row.run >> row.r.completed >> row.r.completionSeconds >>
                             row.r.bytesReceived >> row.r.cwndAtLossEnd >> row.r.cwndAtLate >>
                             row.r.minCwndAfterLoss >> row.r.maxCwndAfterLoss >> row.r.maxCwndAfterLate >> row.r.lostAfterLoss >>
                             row.r.lostPackets >> row.r.transitions >> row.r.meanCyclePeriod >>
                             row.r.events);
}

} // namespace

int
main(int argc, char* argv[])
{
    QuicCcDeathSpiralParams base;
    std::string cc;
    std::string idleRestart;
    uint32_t runs = 100;
    uint32_t firstRun = 1;
    uint32_t jobs = 0;
    std::string csv;
    std::string qlog;
    std::string rate = "1Gbps";
    std::string transfer = "10MB";
    double lossPercent = 30;
    bool quiet = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "Controller: cubic or reno (default: compare cubic-LastSent, cubic-LastActivity, reno)", cc);
    cmd.AddValue("idle-restart", "CUBIC IdleRestart: LastSent, LastActivity, LastSentClamped, Off or all", idleRestart);
    cmd.AddValue("runs", "Runs per configuration (RngRun firstRun..firstRun+runs-1)", runs);
    cmd.AddValue("firstRun", "First RngRun value", firstRun);
    cmd.AddValue("seed", "RngSeed", base.seed);
    cmd.AddValue("jobs", "Worker processes (0 = number of cores)", jobs);
    cmd.AddValue("csv", "Write one row per run to this CSV file", csv);
    cmd.AddValue("qlog", "Write qlog files (.sqlog, for qvis) of every run into DIRECTORY/<config>-run<N>/", qlog);
    cmd.AddValue("rate", "Bottleneck rate", rate);
    cmd.AddValue("delay", "One-way propagation delay (RTT = 2 x delay)", base.oneWayDelay);
    cmd.AddValue("buffer", "Bottleneck drop-tail buffer, packets", base.bufferPackets);
    cmd.AddValue("loss", "Random packet loss in both directions, percent", lossPercent);
    cmd.AddValue("lossDuration", "Loss is switched off at this time", base.lossDuration);
    cmd.AddValue("timeout", "A run not complete by then fails", base.timeout);
    cmd.AddValue("size", "Download size (e.g. 10MB, 10000000)", transfer);
    cmd.AddValue("mss", "MaxDatagramSize, bytes", base.maxDatagramSize);
    cmd.AddValue("hystart", "HyStart++ on the controller", base.hyStart);
    cmd.AddValue("ackPolicy", "Receiver ACK policy: ReceiveBatch or Rfc9000", base.ackPolicy);
    cmd.AddValue("ackBatchWindow", "ReceiveBatch window", base.ackBatchWindow);
    cmd.AddValue("ackThreshold", "Rfc9000 policy: ACK every n-th ack-eliciting packet (1 = every packet)",
                 base.ackElicitingThreshold);
    cmd.AddValue("sendJitter", "Host model: max uniform delay before each packet of a burst", base.sendJitterMax);
    cmd.AddValue("ackDelayJitter", "Host model: max uniform delay before each ACK is processed", base.ackProcessingDelayMax);
    cmd.AddValue("quiet", "No progress on stderr", quiet);
    cmd.Parse(argc, argv);

    base.rate = DataRate(rate);
    base.observeFrom = base.lossDuration;
    base.lossRate = lossPercent / 100.0;
    NS_ABORT_MSG_UNLESS(lossPercent >= 0 && lossPercent <= 100, "--loss must be in [0, 100], got " << lossPercent);
    NS_ABORT_MSG_IF(runs == 0 || runs > 1000000, "--runs must be in 1..1000000, got " << runs);
    {
        // Sizes accept ns-3's byte-size syntax through QueueSize ("10MB" = 10,000,000 bytes).
        const QueueSize size(transfer.find_first_not_of("0123456789") == std::string::npos ? transfer + "B" : transfer);
        base.transferBytes = size.GetValue();
    }
    const std::vector<RunConfig> configs = ParseConfigs(cc, idleRestart);
    std::vector<std::pair<size_t, uint32_t>> work; // (config, run)
    for (uint32_t i = 0; i < runs; ++i)
    {
        for (size_t c = 0; c < configs.size(); ++c)
        {
            work.emplace_back(c, firstRun + i);
        }
    }

    // Independent simulations in separate processes; results come back as lines on a pipe.
    const bool progress = !quiet && isatty(STDERR_FILENO) && !std::getenv("CI");
    const std::vector<std::string> lines = QuicCcRunBatch(
        work.size(),
        jobs,
        [&](size_t w) {
            QuicCcDeathSpiralParams p = base;
            p.controller = configs[work[w].first].controller;
            p.idleRestart = configs[work[w].first].idleRestart.empty() ? "LastActivity" : configs[work[w].first].idleRestart;
            p.run = work[w].second;
            if (!qlog.empty())
            {
                p.qlogDirectory = qlog + "/" + configs[work[w].first].name + "-run" + std::to_string(p.run);
            }
            return Serialize(Row{work[w].first, p.run, QuicCcRunDeathSpiral(p)});
        },
        progress);
    std::vector<Row> rows;
    for (const std::string& line : lines)
    {
        Row row;
        NS_ABORT_MSG_UNLESS(Deserialize(line, row), "bad result line from a worker");
        rows.push_back(row);
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return std::tie(a.config, a.run) < std::tie(b.config, b.run);
    });

    if (!csv.empty())
    {
        std::ofstream out(csv);
        NS_ABORT_MSG_UNLESS(out, "cannot write --csv file '" << csv << "'");
        out << "config,run,completed,completion_s,bytes_received,cwnd_at_2s,cwnd_at_7s,min_cwnd_after_2s,"
               "max_cwnd_after_2s,lost_after_2s,lost_packets,transitions,cycle_period_s,events\n";
        for (const Row& row : rows)
        {
            out << configs[row.config].name << ',' << row.run << ',' << row.r.completed << ','
                << (row.r.completed ? QuicCcFormat(row.r.completionSeconds, 6) : "") << ',' << row.r.bytesReceived << ','
                << row.r.cwndAtLossEnd << ',' << row.r.cwndAtLate << ',' << row.r.minCwndAfterLoss << ','
                << row.r.maxCwndAfterLoss << ',' << row.r.lostAfterLoss << ',' << row.r.lostPackets << ','
                << row.r.transitions << ',' << QuicCcFormat(row.r.meanCyclePeriod, 6) << ',' << row.r.events << '\n';
        }
    }

    if (runs == 1 && configs.size() == 1)
    {
        const Row& row = rows.front();
        std::cout << configs[row.config].name << " run " << row.run << ": ";
        if (row.r.completed)
        {
            std::cout << "completed in " << QuicCcFormat(row.r.completionSeconds, 3) << " s";
        }
        else
        {
            std::cout << "FAILED: " << row.r.bytesReceived << " of " << base.transferBytes << " bytes after "
                      << base.timeout.GetSeconds() << " s";
        }
        std::cout << "; cwnd at " << base.lossDuration.GetSeconds() << " s = " << row.r.cwndAtLossEnd
                  << " B, at " << base.sampleLate.GetSeconds() << " s = " << row.r.cwndAtLate
                  << " B; recovery<->CA transitions after " << base.lossDuration.GetSeconds()
                  << " s: " << row.r.transitions << "; lost packets " << row.r.lostPackets << "\n";
        return 0;
    }

    const uint64_t floor = 2 * base.maxDatagramSize;
    std::cout << "Death spiral: " << QuicCcFormat(base.transferBytes / 1e6, 1) << " MB download, " << rate << ", RTT "
              << (2 * base.oneWayDelay).GetMilliSeconds() << " ms, buffer " << base.bufferPackets << " packets, "
              << lossPercent << " % loss until " << base.lossDuration.GetSeconds() << " s, timeout "
              << base.timeout.GetSeconds() << " s, ACK policy " << base.ackPolicy << ", runs " << firstRun << ".."
              << firstRun + runs - 1 << "\n\n";
    std::cout << std::left << std::setw(22) << "config" << std::right << std::setw(6) << "runs" << std::setw(11)
              << "completed" << std::setw(9) << "fail %" << std::setw(17) << "95% CI (Wilson)" << std::setw(10)
              << "median s" << std::setw(8) << "p90 s" << " | failing runs: " << std::setw(7) << "pinned"
              << std::setw(12) << "cwnd@2s" << std::setw(12) << "cwnd@7s" << std::setw(13) << "transitions"
              << std::setw(11) << "cycle ms" << "\n";
    for (size_t c = 0; c < configs.size(); ++c)
    {
        uint32_t n = 0;
        uint32_t done = 0;
        uint32_t pinned = 0;
        std::vector<double> times;
        std::vector<double> cwnd2;
        std::vector<double> cwnd7;
        std::vector<double> transitions;
        std::vector<double> periods;
        for (const Row& row : rows)
        {
            if (row.config != c)
            {
                continue;
            }
            ++n;
            if (row.r.completed)
            {
                ++done;
                times.push_back(row.r.completionSeconds);
                continue;
            }
            pinned += (row.r.cwndAtLate == floor && row.r.maxCwndAfterLate == floor) ? 1 : 0;
            cwnd2.push_back(row.r.cwndAtLossEnd);
            cwnd7.push_back(row.r.cwndAtLate);
            transitions.push_back(row.r.transitions);
            if (row.r.transitions >= 2)
            {
                periods.push_back(row.r.meanCyclePeriod * 1e3);
            }
        }
        const auto [lo, hi] = QuicCcWilsonInterval(n - done, n);
        std::ostringstream ci;
        ci << "[" << QuicCcFormat(100 * lo, 1) << ", " << QuicCcFormat(100 * hi, 1) << "]";
        std::ostringstream completed;
        completed << done << "/" << n;
        std::cout << std::left << std::setw(22) << configs[c].name << std::right << std::setw(6) << n
                  << std::setw(11) << completed.str() << std::setw(9) << QuicCcFormat(100.0 * (n - done) / n, 1)
                  << std::setw(17) << ci.str() << std::setw(10) << QuicCcFormat(QuicCcQuantile(times, 0.5))
                  << std::setw(8) << QuicCcFormat(QuicCcQuantile(times, 0.9)) << " | " << std::setw(14) << "" << std::setw(7)
                  << (n - done ? std::to_string(pinned) : "-") << std::setw(12) << QuicCcFormat(QuicCcQuantile(cwnd2, 0.5), 0)
                  << std::setw(12) << QuicCcFormat(QuicCcQuantile(cwnd7, 0.5), 0) << std::setw(13)
                  << QuicCcFormat(QuicCcQuantile(transitions, 0.5), 0) << std::setw(11) << QuicCcFormat(QuicCcQuantile(periods, 0.5), 1)
                  << "\n";
    }
    std::cout << "\nfail % = runs not complete within the timeout; failing-run columns are medians; pinned = "
                 "failing runs whose cwnd is "
              << floor << " B (2 x MaxDatagramSize) at " << base.sampleLate.GetSeconds()
              << " s and never grows after; transitions = qlog congestion-state changes recovery <-> congestion avoidance after "
              << base.lossDuration.GetSeconds()
              << " s (both directions); cycle = mean time between successive entries into recovery.\n";
    return 0;
}
