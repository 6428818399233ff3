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
#include "ns3/quic-cc-death-spiral-scenario.h"

#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <poll.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
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
       << row.r.lostAfterLoss << ' ' << row.r.lostPackets << ' ' << row.r.transitions << ' '
       << row.r.meanTransitionPeriod << ' ' << row.r.events << '\n';
    return os.str();
}

bool
Deserialize(const std::string& line, Row& row)
{
    std::istringstream is(line);
    return static_cast<bool>(is >> row.config >> row.run >> row.r.completed >> row.r.completionSeconds >>
                             row.r.bytesReceived >> row.r.cwndAtLossEnd >> row.r.cwndAtLate >>
                             row.r.minCwndAfterLoss >> row.r.maxCwndAfterLoss >> row.r.lostAfterLoss >>
                             row.r.lostPackets >> row.r.transitions >> row.r.meanTransitionPeriod >>
                             row.r.events);
}

/// Nearest-rank quantile of a sample (q in (0, 1]); NaN if empty.
double
Quantile(std::vector<double> v, double q)
{
    if (v.empty())
    {
        return std::nan("");
    }
    std::sort(v.begin(), v.end());
    const size_t rank = static_cast<size_t>(std::ceil(q * v.size()));
    return v[std::max<size_t>(rank, 1) - 1];
}

/// Wilson score interval for k successes in n trials at 95 %.
std::pair<double, double>
Wilson(uint32_t k, uint32_t n)
{
    if (n == 0)
    {
        return {0, 1};
    }
    const double z = boost::math::quantile(boost::math::normal(), 0.975);
    const double p = static_cast<double>(k) / n;
    const double denom = 1 + z * z / n;
    const double centre = (p + z * z / (2.0 * n)) / denom;
    const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / denom;
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::string
Fmt(double v, int precision = 2)
{
    if (std::isnan(v))
    {
        return "-";
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(precision) << v;
    return os.str();
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
    cmd.AddValue("sendJitter", "Host model: max uniform delay before each packet of a burst", base.sendJitterMax);
    cmd.AddValue("ackDelayJitter", "Host model: max uniform delay before each ACK is processed", base.ackProcessingDelayMax);
    cmd.AddValue("quiet", "No progress on stderr", quiet);
    cmd.Parse(argc, argv);

    base.rate = DataRate(rate);
    base.observeFrom = base.lossDuration;
    base.lossRate = lossPercent / 100.0;
    NS_ABORT_MSG_UNLESS(lossPercent >= 0 && lossPercent <= 100, "--loss must be in [0, 100], got " << lossPercent);
    NS_ABORT_MSG_IF(runs == 0, "--runs must be >= 1, got 0");
    {
        // Sizes accept ns-3's byte-size syntax through QueueSize ("10MB" = 10,000,000 bytes).
        const QueueSize size(transfer.find_first_not_of("0123456789") == std::string::npos ? transfer + "B" : transfer);
        base.transferBytes = size.GetValue();
    }
    const std::vector<RunConfig> configs = ParseConfigs(cc, idleRestart);
    if (jobs == 0)
    {
        jobs = std::max<uint32_t>(1, static_cast<uint32_t>(sysconf(_SC_NPROCESSORS_ONLN)));
    }
    std::vector<std::pair<size_t, uint32_t>> work; // (config, run)
    for (uint32_t i = 0; i < runs; ++i)
    {
        for (size_t c = 0; c < configs.size(); ++c)
        {
            work.emplace_back(c, firstRun + i);
        }
    }
    jobs = std::min<uint32_t>(jobs, work.size());

    // Independent simulations in separate processes; results come back as lines on a pipe.
    std::vector<int> fds;
    std::vector<pid_t> pids;
    for (uint32_t j = 0; j < jobs; ++j)
    {
        int fd[2];
        NS_ABORT_MSG_IF(pipe(fd) != 0, "pipe() failed");
        const pid_t pid = fork();
        NS_ABORT_MSG_IF(pid < 0, "fork() failed");
        if (pid == 0)
        {
            close(fd[0]);
            for (size_t w = j; w < work.size(); w += jobs)
            {
                QuicCcDeathSpiralParams p = base;
                p.controller = configs[work[w].first].controller;
                p.idleRestart = configs[work[w].first].idleRestart.empty() ? "LastActivity" : configs[work[w].first].idleRestart;
                p.run = work[w].second;
                Row row{work[w].first, p.run, QuicCcRunDeathSpiral(p)};
                const std::string line = Serialize(row);
                NS_ABORT_MSG_IF(write(fd[1], line.data(), line.size()) != static_cast<ssize_t>(line.size()),
                                "write to the parent failed");
            }
            close(fd[1]);
            _exit(0);
        }
        close(fd[1]);
        fds.push_back(fd[0]);
        pids.push_back(pid);
    }
    const bool progress = !quiet && isatty(STDERR_FILENO) && !std::getenv("CI");
    const auto start = std::chrono::steady_clock::now();
    std::vector<Row> rows;
    std::vector<std::string> partial(jobs);
    std::vector<bool> open(jobs, true);
    size_t openCount = jobs;
    while (openCount > 0)
    {
        std::vector<pollfd> pfds;
        std::vector<size_t> index;
        for (size_t j = 0; j < jobs; ++j)
        {
            if (open[j])
            {
                pfds.push_back({fds[j], POLLIN, 0});
                index.push_back(j);
            }
        }
        poll(pfds.data(), pfds.size(), -1);
        for (size_t k = 0; k < pfds.size(); ++k)
        {
            if (!(pfds[k].revents & (POLLIN | POLLHUP | POLLERR)))
            {
                continue;
            }
            const size_t j = index[k];
            char buf[4096];
            const ssize_t n = read(fds[j], buf, sizeof(buf));
            if (n <= 0)
            {
                open[j] = false;
                --openCount;
                close(fds[j]);
                continue;
            }
            partial[j].append(buf, static_cast<size_t>(n));
            size_t nl;
            while ((nl = partial[j].find('\n')) != std::string::npos)
            {
                Row row;
                NS_ABORT_MSG_UNLESS(Deserialize(partial[j].substr(0, nl), row), "bad result line from a worker");
                rows.push_back(row);
                partial[j].erase(0, nl + 1);
            }
            if (progress)
            {
                const double elapsed =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                std::cerr << "\r" << rows.size() << "/" << work.size() << " runs, " << Fmt(elapsed, 0) << " s"
                          << std::flush;
            }
        }
    }
    if (progress)
    {
        std::cerr << "\n";
    }
    int failedWorkers = 0;
    for (pid_t pid : pids)
    {
        int status = 0;
        waitpid(pid, &status, 0);
        failedWorkers += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    NS_ABORT_MSG_IF(failedWorkers > 0 || rows.size() != work.size(),
                    failedWorkers << " worker process(es) failed; " << rows.size() << " of " << work.size()
                                  << " runs reported");
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return std::tie(a.config, a.run) < std::tie(b.config, b.run);
    });

    if (!csv.empty())
    {
        std::ofstream out(csv);
        NS_ABORT_MSG_UNLESS(out, "cannot write --csv file '" << csv << "'");
        out << "config,run,completed,completion_s,bytes_received,cwnd_at_2s,cwnd_at_7s,min_cwnd_after_2s,"
               "max_cwnd_after_2s,lost_after_2s,lost_packets,transitions,transition_period_s,events\n";
        for (const Row& row : rows)
        {
            out << configs[row.config].name << ',' << row.run << ',' << row.r.completed << ','
                << (row.r.completed ? Fmt(row.r.completionSeconds, 6) : "") << ',' << row.r.bytesReceived << ','
                << row.r.cwndAtLossEnd << ',' << row.r.cwndAtLate << ',' << row.r.minCwndAfterLoss << ','
                << row.r.maxCwndAfterLoss << ',' << row.r.lostAfterLoss << ',' << row.r.lostPackets << ','
                << row.r.transitions << ',' << Fmt(row.r.meanTransitionPeriod, 6) << ',' << row.r.events << '\n';
        }
    }

    if (runs == 1 && configs.size() == 1)
    {
        const Row& row = rows.front();
        std::cout << configs[row.config].name << " run " << row.run << ": ";
        if (row.r.completed)
        {
            std::cout << "completed in " << Fmt(row.r.completionSeconds, 3) << " s";
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
    std::cout << "Death spiral: " << Fmt(base.transferBytes / 1e6, 1) << " MB download, " << rate << ", RTT "
              << (2 * base.oneWayDelay).GetMilliSeconds() << " ms, buffer " << base.bufferPackets << " packets, "
              << lossPercent << " % loss until " << base.lossDuration.GetSeconds() << " s, timeout "
              << base.timeout.GetSeconds() << " s, ACK policy " << base.ackPolicy << ", runs " << firstRun << ".."
              << firstRun + runs - 1 << "\n\n";
    std::cout << std::left << std::setw(22) << "config" << std::right << std::setw(6) << "runs" << std::setw(11)
              << "completed" << std::setw(9) << "fail %" << std::setw(17) << "95% CI (Wilson)" << std::setw(10)
              << "median s" << std::setw(8) << "p90 s" << " | failing runs: " << std::setw(7) << "pinned"
              << std::setw(12) << "cwnd@2s" << std::setw(12) << "cwnd@7s" << std::setw(13) << "transitions"
              << std::setw(11) << "period ms" << "\n";
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
            pinned += row.r.maxCwndAfterLoss == floor ? 1 : 0;
            cwnd2.push_back(row.r.cwndAtLossEnd);
            cwnd7.push_back(row.r.cwndAtLate);
            transitions.push_back(row.r.transitions);
            if (row.r.transitions >= 2)
            {
                periods.push_back(row.r.meanTransitionPeriod * 1e3);
            }
        }
        const auto [lo, hi] = Wilson(n - done, n);
        std::ostringstream ci;
        ci << "[" << Fmt(100 * lo, 1) << ", " << Fmt(100 * hi, 1) << "]";
        std::ostringstream completed;
        completed << done << "/" << n;
        std::cout << std::left << std::setw(22) << configs[c].name << std::right << std::setw(6) << n
                  << std::setw(11) << completed.str() << std::setw(9) << Fmt(100.0 * (n - done) / n, 1)
                  << std::setw(17) << ci.str() << std::setw(10) << Fmt(Quantile(times, 0.5))
                  << std::setw(8) << Fmt(Quantile(times, 0.9)) << " | " << std::setw(14) << "" << std::setw(7)
                  << (n - done ? std::to_string(pinned) : "-") << std::setw(12) << Fmt(Quantile(cwnd2, 0.5), 0)
                  << std::setw(12) << Fmt(Quantile(cwnd7, 0.5), 0) << std::setw(13)
                  << Fmt(Quantile(transitions, 0.5), 0) << std::setw(11) << Fmt(Quantile(periods, 0.5), 1)
                  << "\n";
    }
    std::cout << "\nfail % = runs not complete within the timeout; failing-run columns are medians; pinned = "
                 "failing runs whose cwnd never left "
              << floor << " B (2 x MaxDatagramSize) after " << base.lossDuration.GetSeconds()
              << " s; transitions = qlog congestion-state changes recovery <-> congestion avoidance after "
              << base.lossDuration.GetSeconds() << " s, period = mean time between them.\n";
    return 0;
}
