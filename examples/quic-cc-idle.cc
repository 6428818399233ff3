/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * When idle is idle: workloads with real pauses, and what each idle-restart design does at the
 * resume.
 *
 *   data sender ========== bottleneck ========== data receiver
 *                 100 Mbps, one-way 10 ms (RTT 20 ms), drop-tail 0.5 BDP
 *
 * Workloads (--workload): chunked (S bytes every T seconds, one socket write per chunk),
 * request-response (one connection, think time fixed or exponential), rate-limited (a share of
 * the bottleneck, then bulk), onoff (ns-3's OnOffApplication over ns3::QuicCcSocketFactory).
 * Each run is bounded to --pauses pauses. Per pause: idle duration; cwnd, ssthresh, W_max, K and
 * the epoch before the pause and after the first send; the burst at the resume (bytes in the
 * first 1 ms and 0.1 x smoothed_rtt, longest back-to-back train); packets lost of those sent in
 * the first RTT; the peak cwnd in the first 3 RTTs over the cwnd before the pause; the chunk's or
 * response's completion time. --falseIdleRuns adds the death-spiral fail share (false idle,
 * QuicCcRunDeathSpiral with its defaults) of the same configuration. --flowControl=on|off puts
 * receiver flow control (RFC 9000 Section 4, QuicCcSocket::FlowControl) on or off for every run,
 * false-idle runs included (default: the attribute's default, off).
 *
 *   ./quic-cc-idle                                     # headline rows, 100 runs each
 *   ./quic-cc-idle --configs=cubic-Off,cubic-LastActivity --runs=1 --pauseCsv=p.csv
 *   ./quic-cc-idle --workload=request-response --think=2s --thinkDistribution=exponential
 *   ./quic-cc-idle --configs=all --runs=20 --falseIdleRuns=20 --csv=runs.csv
 *   ./quic-cc-idle --transport=all --runs=5   # also the real ngtcp2 library: ngtcp2-cubic, -reno,
 *                                              # -bbr
 *
 * Every option is checked before the first run: a bad value exits with status 2 and one line
 * "quic-cc-idle: --<option>=<value>: <reason>" on stderr.
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-command-line.h"
#include "quic-cc-death-spiral-scenario.h"
#include "quic-cc-idle-scenario.h"
#include "quic-cc-ngtcp2-transport.h"
#include "quic-cc-output-file.h"
#include "quic-cc-report.h"
#include "quic-cc-send-buffer.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One row of the table.
struct RunConfig
{
    std::string name;
    std::string controller;                        //!< cubic or reno
    std::string idleRestart{"LastActivity"};       //!< cubic only
    std::string epochSource{"SharedWithRecovery"}; //!< cubic only
    std::string pacing{"Off"};
    bool restartWindow{false};
    std::string transport{"quic-cc"}; //!< "quic-cc" or "ngtcp2" (the real library)

    /// This row's sender and RngRun \p run into the parameters of either scenario.
    template <typename Params>
    void ApplyTo(Params& p, uint32_t run) const
    {
        p.transport = transport;
        p.controller = controller;
        p.idleRestart = idleRestart;
        p.epochSource = epochSource;
        p.pacing = pacing;
        p.run = run;
    }
};

const std::vector<std::string> kRules{"LastSent",
                                      "LastActivity",
                                      "LastSentClamped",
                                      "Off",
                                      "AckGap",
                                      "AppLimitedTime",
                                      "EpochReset"};

/// Every row: each IdleRestart rule x epoch {shared, separate} x pacing {Off, Rfc9002}, the
/// restart window on three of them, Reno with and without pacing and with the restart window.
std::vector<RunConfig>
AllConfigs()
{
    std::vector<RunConfig> out;
    for (const std::string& rule : kRules)
    {
        for (const bool separate : {false, true})
        {
            for (const bool paced : {false, true})
            {
                RunConfig c;
                c.name = "cubic-" + rule + (separate ? "-separate" : "") + (paced ? "-paced" : "");
                c.controller = "cubic";
                c.idleRestart = rule;
                c.epochSource = separate ? "Separate" : "SharedWithRecovery";
                c.pacing = paced ? "Rfc9002" : "Off";
                out.push_back(c);
            }
        }
    }
    for (const char* rule : {"LastSent", "LastActivity", "Off"})
    {
        RunConfig c;
        c.name = std::string("cubic-") + rule + "-rw";
        c.controller = "cubic";
        c.idleRestart = rule;
        c.restartWindow = true;
        out.push_back(c);
    }
    RunConfig reno;
    reno.name = "reno";
    reno.controller = "reno";
    out.push_back(reno);
    reno.name = "reno-paced";
    reno.pacing = "Rfc9002";
    out.push_back(reno);
    reno.name = "reno-rw";
    reno.pacing = "Off";
    reno.restartWindow = true;
    out.push_back(reno);
    return out;
}

const std::vector<std::string> kHeadline{"cubic-LastSent",
                                         "cubic-LastActivity",
                                         "cubic-Off",
                                         "reno"};

/// --configs: names, "headline", "others" (all but the headline rows) or "all".
std::vector<RunConfig>
SelectConfigs(const std::string& text)
{
    const std::vector<RunConfig> all = AllConfigs();
    std::vector<std::string> names{"headline", "others", "all"};
    for (const RunConfig& c : all)
    {
        names.push_back(c.name);
    }
    std::vector<RunConfig> out;
    for (const std::string& item : QuicCcSplitList("configs", text))
    {
        QuicCcRequire(std::find(names.begin(), names.end(), item) != names.end(),
                      "configs",
                      item,
                      "must be headline, others, all or a row: cubic-<IdleRestart>[-separate]"
                      "[-paced], cubic-LastSent-rw, cubic-LastActivity-rw, cubic-Off-rw, reno, "
                      "reno-paced or reno-rw");
        for (const RunConfig& c : all)
        {
            const bool headline =
                std::find(kHeadline.begin(), kHeadline.end(), c.name) != kHeadline.end();
            const bool take = item == "all" || (item == "headline" && headline) ||
                              (item == "others" && !headline) || item == c.name;
            const bool dup = std::any_of(out.begin(), out.end(), [&](const RunConfig& o) {
                return o.name == c.name;
            });
            if (take && !dup)
            {
                out.push_back(c);
            }
        }
    }
    return out;
}

/// One finished run (true idle, or a death-spiral run when falseIdle).
struct Row
{
    size_t config{0};
    uint32_t run{0};
    bool falseIdle{false};
    QuicCcIdleResult r;
    bool dsCompleted{false}; //!< falseIdle: the death-spiral download completed
};

std::string
Serialize(const Row& row)
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
Deserialize(const std::string& line, Row& row)
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

std::string
RunsCsv(const std::vector<Row>& rows, const std::vector<RunConfig>& configs)
{
    std::ostringstream os;
    // The campaign tool's contract: key columns before "run", then "completed" and
    // "completion_s" (here the median over the run's chunks or responses).
    os << "config,run,completed,completion_s,pauses,lost_packets,corrupt_bytes,idle_s_median,"
          "burst_1ms_max,burst_tenth_rtt_max,longest_train_max,lost_first_rtt_total,"
          "pauses_with_loss,pauses_with_loss_3rtt,peak_ratio_max,completion_s_max,"
          "false_idle_completed,peak_backlog\n";
    for (const Row& row : rows)
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
        for (const Row& other : rows)
        {
            if (other.falseIdle && other.config == row.config && other.run == row.run)
            {
                falseIdle = other.dsCompleted ? "1" : "0";
            }
        }
        os << configs[row.config].name << ',' << row.run << ',' << row.r.completed << ','
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
PausesCsv(const std::vector<Row>& rows, const std::vector<RunConfig>& configs)
{
    std::ostringstream os;
    os << "config,run,pause,idle_start_s,idle_s,srtt_s,cwnd_before,ssthresh_before,wmax_before,"
          "k_before,epoch_before,cwnd_after,ssthresh_after,wmax_after,k_after,epoch_after,"
          "burst_1ms,burst_tenth_rtt,longest_train,lost_first_rtt,lost_first_3rtt,peak_cwnd_3rtt,"
          "peak_ratio,"
          "completion_s\n";
    for (const Row& row : rows)
    {
        for (size_t i = 0; !row.falseIdle && i < row.r.pauses.size(); ++i)
        {
            const QuicCcIdlePause& p = row.r.pauses[i];
            os << configs[row.config].name << ',' << row.run << ',' << i + 1 << ','
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

/// The slow-reader table: no pauses; the transfer's completion and the receiver's backlog.
void
PrintBacklogTable(const std::vector<Row>& rows,
                  const std::vector<RunConfig>& configs,
                  bool flowControl)
{
    std::cout << "quic-cc-idle, workload slow-reader; median [p10, p90] over the runs\n\n"
              << std::left << std::setw(30) << "config" << std::right << std::setw(6) << "runs"
              << std::setw(7) << "done"
              << " " << std::setw(23) << "completion ms"
              << " " << std::setw(25) << "peak backlog kB"
              << "\n";
    const std::vector<std::vector<const Row*>> byConfig = QuicCcRowsByConfig(rows, configs.size());
    for (size_t c = 0; c < configs.size(); ++c)
    {
        uint32_t n = 0;
        uint32_t done = 0;
        std::vector<double> completion;
        std::vector<double> backlog;
        for (const Row* row : byConfig[c])
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
        std::cout << std::left << std::setw(30) << configs[c].name << std::right << std::setw(6)
                  << n << std::setw(7) << done << " " << std::setw(23) << Spread(completion, 0)
                  << " " << std::setw(25) << Spread(backlog, 0) << "\n";
    }
    std::cout << "\nbacklog = most bytes received but not yet read by the application ("
              << (flowControl ? "flow control on: at most the stream window, InitialMaxStreamData"
                              : "no receiver flow control: nothing bounds it")
              << ").\n";
}

void
PrintTable(const std::vector<Row>& rows,
           const std::vector<RunConfig>& configs,
           const std::string& workload,
           uint32_t falseIdleRuns)
{
    std::cout << "quic-cc-idle, workload " << workload
              << "; per pause: median [p10, p90] over all pauses of a configuration\n\n";
    std::cout << std::left << std::setw(30) << "config" << std::right << std::setw(6) << "runs"
              << std::setw(7) << "done" << std::setw(7) << "pauses" << std::setw(22)
              << "burst 1ms kB" << std::setw(20) << "train pkts" << std::setw(24)
              << "loss in RTT1 % [CI]" << std::setw(24) << "loss in RTT1-3 % [CI]" << std::setw(24)
              << "completion ms"
              << " " << std::setw(21) << "peak cwnd 3RTT / pre" << std::setw(22)
              << "same, grown pauses";
    if (falseIdleRuns > 0)
    {
        std::cout << std::setw(26) << "false-idle fail % [CI]";
    }
    std::cout << "\n";
    const std::vector<std::vector<const Row*>> byConfig = QuicCcRowsByConfig(rows, configs.size());
    for (size_t c = 0; c < configs.size(); ++c)
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
        for (const Row* row : byConfig[c])
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
        std::cout << std::left << std::setw(30) << configs[c].name << std::right << std::setw(6)
                  << n << std::setw(7) << done << std::setw(7) << pauses << std::setw(22)
                  << Spread(burst, 1) << std::setw(20) << Spread(train, 0) << std::setw(24)
                  << Share(withLoss, pauses) << std::setw(24) << Share(withLoss3, pauses) << " "
                  << std::setw(23) << Spread(completion, 0) << " " << std::setw(21)
                  << Spread(peak, 2) << std::setw(22) << Spread(peakGrown, 2);
        if (falseIdleRuns > 0)
        {
            std::cout << std::setw(26) << Share(dsFailed, dsRuns);
        }
        std::cout << "\n";
    }
    std::cout << "\nburst = bytes sent in the first 1 ms after the resume; train = most packets "
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
        std::cout << "; false idle = quic-cc-death-spiral's scenario (defaults) with the same "
                     "controller settings, "
                  << falseIdleRuns << " runs";
    }
    std::cout << ".\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string workload = "chunked";
    std::string configsText = "headline";
    QuicCcBatchOptions batch(100);
    std::string pauseCsv;
    std::string qlog;
    std::string rate = "100Mbps";
    std::string delay = "10ms";
    std::string buffer = "0.5";
    std::string loss = "0";
    std::string lossOn = "1s";
    std::string lossOff = "3s";
    std::string mss = std::to_string(QuicCongestionController::kDefaultMaxDatagramSize);
    std::string pauses = "10";
    std::string chunk = "2MB";
    std::string period = "2s";
    std::string request = "1000";
    std::string response = "2MB";
    std::string think = "2s";
    std::string thinkDistribution = "fixed";
    std::string fraction = "0.5";
    std::string limitedFor = "5s";
    std::string bulk = "10MB";
    std::string readRate = "20Mbps";
    std::string onTime = "1s";
    std::string offTime = "2s";
    std::string minPause = "100ms";
    std::string timeout;
    std::string falseIdleRuns = "0";
    std::string flowControl;
    std::string transport = "quic-cc";

    QuicCcCommandLine cmd(__FILE__);
    cmd.AddValue("workload",
                 "chunked, request-response, rate-limited, slow-reader or onoff",
                 workload);
    cmd.AddValue("configs",
                 "Comma-separated rows: names (cubic-<IdleRestart>[-separate][-paced], "
                 "cubic-<rule>-rw, reno, reno-paced, reno-rw), headline, others or all",
                 configsText);
    cmd.AddValue("transport", QuicCcTransportHelp(), transport);
    batch.Add(cmd, "Runs per configuration (RngRun firstRun..firstRun+runs-1)");
    cmd.AddValue("pauseCsv", "Write one row per pause to this CSV file", pauseCsv);
    cmd.AddValue("qlog", "Write qlog files of every run into DIRECTORY/<config>-run<N>/", qlog);
    cmd.AddValue("rate", "Bottleneck rate", rate);
    cmd.AddValue("delay", "One-way propagation delay (RTT = 2 x delay)", delay);
    cmd.AddValue("buffer", "Drop-tail bottleneck buffer as a multiple of the BDP (> 0)", buffer);
    cmd.AddValue("loss",
                 "Random loss on the data direction during loss phases: 1% or 0.01 (0 = none)",
                 loss);
    cmd.AddValue("lossOn", "Loss phases: mean length of a loss phase (exponential)", lossOn);
    cmd.AddValue("lossOff",
                 "Loss phases: mean time between loss phases (exponential; the run starts "
                 "without loss)",
                 lossOff);
    cmd.AddValue("mss", "MaxDatagramSize, bytes (1200..1472)", mss);
    cmd.AddValues(
        {{"pauses", "Pauses per run (chunks, requests or on periods = pauses + 1)", &pauses},
         {"chunk", "chunked: chunk size (e.g. 2MB)", &chunk},
         {"period", "chunked: time between chunk writes", &period},
         {"request", "request-response: request size", &request},
         {"response", "request-response: response size", &response},
         {"think", "request-response: think time (the mean if exponential)", &think},
         {"thinkDistribution", "request-response: fixed or exponential", &thinkDistribution},
         {"fraction", "rate-limited, onoff: share of the bottleneck rate, in (0, 1]", &fraction},
         {"limitedFor", "rate-limited: length of the rate-limited phase", &limitedFor},
         {"bulk", "rate-limited, slow-reader: bytes written at once", &bulk},
         {"readRate",
          "slow-reader: the receiving application's read rate (below --rate)",
          &readRate},
         {"onTime", "onoff: on period", &onTime},
         {"offTime", "onoff: off period", &offTime},
         {"minPause", "Idle periods shorter than this are not pauses", &minPause},
         {"timeout", "A run not done by then is incomplete (default: from the workload)", &timeout},
         {"falseIdleRuns",
          "Also run this many death-spiral runs (false idle) per configuration",
          &falseIdleRuns},
         {"flowControl",
          "Receiver flow control (RFC 9000 Section 4, QuicCcSocket::FlowControl) in every "
          "quic-cc run: on or off (default: the attribute's default; ngtcp2 always has its own)",
          &flowControl}});
    cmd.AttributesSetTo({{"ns3::QuicCcSocket::MaxDatagramSize", "mss"}});
    // The transports' attributes the scenario sets on every socket: refused as defaults.
    cmd.AttributesSetBy(QuicCcTransportAttributesSetBy(
        {{"MaxDatagramSize", "mss"}, {"IdleTimeout", "timeout"}, {"QlogDirectory", "qlog"}}));
    cmd.Parse(argc, argv);

    QuicCcIdleParams base;
    std::vector<RunConfig> configs;
    uint32_t dsRuns = 0;
    try
    {
        base.workload = QuicCcParseChoice(
            "workload",
            workload,
            {"chunked", "request-response", "rate-limited", "slow-reader", "onoff"});
        // --transport picks the rows: --configs's quic-cc rows, the ngtcp2 rows, or both.
        const QuicCcTransportChoice transports = QuicCcParseTransport(transport);
        transports.RequireAttributesUsed(cmd.GetGivenAttributes());
        transports.RequireQuicCcFor("configs",
                                    configsText,
                                    cmd.WasGiven("configs"),
                                    "it selects quic-cc rows; the ngtcp2 rows are ngtcp2-cubic, "
                                    "ngtcp2-reno and ngtcp2-bbr");
        if (transports.quicCc)
        {
            configs = SelectConfigs(configsText);
        }
        for (const std::string& controller :
             transports.ngtcp2 ? QuicCcNgtcp2Controllers() : std::vector<std::string>{})
        {
            RunConfig c;
            c.name = "ngtcp2-" + controller;
            c.controller = controller;
            c.transport = "ngtcp2";
            configs.push_back(c);
        }

        // An option of another workload is a mistake, not a silent no-op.
        struct Owned
        {
            const char* option;
            const std::string* text;
            std::vector<std::string> workloads;
        };

        const std::vector<Owned> owners{
            {"chunk", &chunk, {"chunked"}},
            {"period", &period, {"chunked"}},
            {"request", &request, {"request-response"}},
            {"response", &response, {"request-response"}},
            {"think", &think, {"request-response"}},
            {"thinkDistribution", &thinkDistribution, {"request-response"}},
            {"fraction", &fraction, {"rate-limited", "onoff"}},
            {"limitedFor", &limitedFor, {"rate-limited"}},
            {"bulk", &bulk, {"rate-limited", "slow-reader"}},
            {"readRate", &readRate, {"slow-reader"}},
            {"onTime", &onTime, {"onoff"}},
            {"offTime", &offTime, {"onoff"}}};
        // Whether --option is one of the selected workload's (only those are checked below).
        const auto uses = [&](const std::string& option) {
            const auto o = std::find_if(owners.begin(), owners.end(), [&](const Owned& x) {
                return x.option == option;
            });
            return std::find(o->workloads.begin(), o->workloads.end(), workload) !=
                   o->workloads.end();
        };
        for (const Owned& o : owners)
        {
            QuicCcRequire(!cmd.WasGiven(o.option) || uses(o.option),
                          o.option,
                          *o.text,
                          "has no effect with --workload=" + workload);
        }
        QuicCcRequire(!cmd.WasGiven("flowControl") || transports.quicCc,
                      "flowControl",
                      flowControl,
                      "has no effect with --transport=ngtcp2 (ngtcp2 always applies its own "
                      "flow control)");
        batch.Parse();
        base.seed = batch.seed;
        base.rate = QuicCcParseRate("rate", rate);
        base.oneWayDelay = QuicCcParseTime("delay", delay);
        base.maxDatagramSize = QuicCcParseUnsigned("mss", mss, 1200, 1472);
        const double bdpMultiple = QuicCcParseNonNegative("buffer", buffer);
        QuicCcRequire(bdpMultiple > 0, "buffer", buffer, "must be a BDP multiple > 0 (0.5)");
        const double bdpPackets = base.rate.GetBitRate() / 8.0 * 2 * base.oneWayDelay.GetSeconds() /
                                  (base.maxDatagramSize + 28);
        const double bufferPackets = std::round(bdpMultiple * bdpPackets);
        QuicCcRequire(bufferPackets >= 1 && bufferPackets <= 1e9,
                      "buffer",
                      buffer,
                      "is " + std::to_string(static_cast<uint64_t>(bufferPackets)) +
                          " packets on this path (BDP " + std::to_string(bdpPackets) +
                          " packets); it must be 1 to 10^9 packets");
        base.bufferPackets = static_cast<uint32_t>(bufferPackets);
        base.lossRate = QuicCcParseLoss("loss", loss);
        base.lossOnMean = QuicCcParseTime("lossOn", lossOn);
        QuicCcRequire(base.lossOnMean.IsStrictlyPositive(), "lossOn", lossOn, "must be > 0");
        base.lossOffMean = QuicCcParseTime("lossOff", lossOff);
        QuicCcRequire(base.lossOffMean.IsStrictlyPositive(), "lossOff", lossOff, "must be > 0");
        for (const auto& [option, text] : {std::pair{"lossOn", &lossOn}, {"lossOff", &lossOff}})
        {
            QuicCcRequire(!cmd.WasGiven(option) || base.lossRate > 0,
                          option,
                          *text,
                          "has no effect without --loss");
        }
        base.pauses = QuicCcParseUnsigned("pauses", pauses, 1, 100000);
        // One write per chunk, request, response or bulk: each must fit the send buffer (the
        // SndBufSize default, after any --ns3::QuicCcSocket::SndBufSize=...).
        const auto socketDefault = [](const std::string& socket, const std::string& name) {
            TypeId::AttributeInformation info;
            NS_ABORT_UNLESS(TypeId::LookupByName(socket).LookupAttributeByName(name, &info));
            return info.initialValue;
        };
        const QuicCcSendBuffer smallest =
            QuicCcSmallestSendBuffer(transports.quicCc, transports.ngtcp2);
        const uint64_t sendBuffer = smallest.bytes;
        const std::string& sendBufferAttribute = smallest.attribute;
        // A write of the selected workload that does not fit: names --option if given, else
        // the send buffer the user set below the option's default.
        const auto requireFits = [&](const char* option, const std::string& text, uint64_t bytes) {
            if (!uses(option) || bytes <= sendBuffer)
            {
                return;
            }
            QuicCcRequire(!cmd.WasGiven(option),
                          option,
                          text,
                          "must be at most the socket's send buffer (SndBufSize), " +
                              std::to_string(sendBuffer) + " bytes");
            QuicCcRequire(false,
                          sendBufferAttribute,
                          std::to_string(sendBuffer),
                          "is below --" + std::string(option) + "'s default " + text +
                              " (one write per " + option + " must fit the send buffer)");
        };
        for (const auto& [attribute, value] : cmd.GetGivenAttributes())
        {
            QuicCcRequire(flowControl.empty() || attribute != "ns3::QuicCcSocket::FlowControl",
                          attribute,
                          value,
                          "--flowControl=" + flowControl + " sets it: give one of the two");
        }
        base.flowControl =
            flowControl.empty()
                ? DynamicCast<const BooleanValue>(socketDefault("ns3::QuicCcSocket", "FlowControl"))
                      ->Get()
                : QuicCcParseChoice("flowControl", flowControl, {"on", "off"}) == "on";
        for (const char* window : {"InitialMaxData", "InitialMaxStreamData"})
        {
            // With --flowControl=on, as the attribute's own check does (one datagram at least).
            const uint64_t bytes =
                DynamicCast<const UintegerValue>(socketDefault("ns3::QuicCcSocket", window))->Get();
            QuicCcRequire(!base.flowControl || bytes >= base.maxDatagramSize,
                          std::string("ns3::QuicCcSocket::") + window,
                          std::to_string(bytes),
                          "must hold at least one datagram (" +
                              std::to_string(base.maxDatagramSize) + " B) with flow control on");
        }
        base.chunkBytes = QuicCcParseBytes("chunk", chunk);
        requireFits("chunk", chunk, base.chunkBytes);
        base.period = QuicCcParseTime("period", period);
        QuicCcRequire(base.period.IsStrictlyPositive(), "period", period, "must be > 0");
        base.requestBytes = QuicCcParseBytes("request", request);
        requireFits("request", request, base.requestBytes);
        base.responseBytes = QuicCcParseBytes("response", response);
        requireFits("response", response, base.responseBytes);
        base.thinkTime = QuicCcParseTime("think", think);
        QuicCcRequire(base.thinkTime.IsStrictlyPositive(), "think", think, "must be > 0");
        base.thinkExponential =
            QuicCcParseChoice("thinkDistribution", thinkDistribution, {"fixed", "exponential"}) ==
            "exponential";
        base.fraction = QuicCcParseNonNegative("fraction", fraction);
        QuicCcRequire(base.fraction > 0 && base.fraction <= 1,
                      "fraction",
                      fraction,
                      "must be in (0, 1] (a share of the bottleneck rate; above 1 the sender "
                      "is not rate-limited)");
        base.limitedFor = QuicCcParseTime("limitedFor", limitedFor);
        QuicCcRequire(base.limitedFor.IsStrictlyPositive(),
                      "limitedFor",
                      limitedFor,
                      "must be > 0");
        base.bulkBytes = QuicCcParseBytes("bulk", bulk);
        requireFits("bulk", bulk, base.bulkBytes);
        base.readRate = QuicCcParseRate("readRate", readRate);
        if (uses("readRate") && !(base.readRate < base.rate))
        {
            QuicCcRequire(!cmd.WasGiven("readRate"),
                          "readRate",
                          readRate,
                          "must be below the bottleneck rate --rate=" + rate +
                              " (a faster reader never limits the transfer)");
            QuicCcRequire(false,
                          "rate",
                          rate,
                          "must be above --readRate's default " + readRate +
                              " (a faster reader never limits the transfer)");
        }
        base.onTime = QuicCcParseTime("onTime", onTime);
        QuicCcRequire(base.onTime.IsStrictlyPositive(), "onTime", onTime, "must be > 0");
        base.offTime = QuicCcParseTime("offTime", offTime);
        QuicCcRequire(base.offTime.IsStrictlyPositive(), "offTime", offTime, "must be > 0");
        // rate-limited and onoff write datagrams of --mss bytes at fraction x rate: at least one
        // in the rate-limited phase or on period.
        if (uses("fraction"))
        {
            const Time phase = workload == "onoff" ? base.onTime : base.limitedFor;
            const double bits = base.rate.GetBitRate() * base.fraction * phase.GetSeconds();
            const std::string phaseOption = workload == "onoff" ? "onTime" : "limitedFor";
            const std::string phaseText = workload == "onoff" ? onTime : limitedFor;
            // Name the phase only if the user gave it and not --fraction.
            const bool namePhase = cmd.WasGiven(phaseOption) && !cmd.WasGiven("fraction");
            QuicCcRequire(bits >= 8.0 * base.maxDatagramSize,
                          namePhase ? phaseOption : "fraction",
                          namePhase ? phaseText : fraction,
                          "at fraction x rate, less than one " +
                              std::to_string(base.maxDatagramSize) + "-byte datagram per " +
                              (workload == "onoff" ? "on period" : "rate-limited phase"));
        }
        base.minPause = QuicCcParseTime("minPause", minPause);
        QuicCcRequire(base.minPause.IsStrictlyPositive(), "minPause", minPause, "must be > 0");
        // Default timeout: the workload's own length plus 30 s, computed in double (no wrap);
        // the option that sets the length is named when that is too long for a Time.
        const double periods = base.pauses + 1.0;
        double lengthSeconds = 0;
        std::pair<const char*, const std::string*> lengthOption{"period", &period};
        if (base.workload == "chunked")
        {
            lengthSeconds = periods * base.period.GetSeconds();
        }
        else if (base.workload == "request-response")
        {
            lengthSeconds = periods * base.thinkTime.GetSeconds() * (base.thinkExponential ? 5 : 1);
            lengthOption = {"think", &think};
        }
        else if (base.workload == "rate-limited")
        {
            lengthSeconds = base.limitedFor.GetSeconds();
            lengthOption = {"limitedFor", &limitedFor};
        }
        else if (base.workload == "slow-reader")
        {
            lengthSeconds = base.bulkBytes * 8.0 / base.readRate.GetBitRate();
            lengthOption = {"readRate", &readRate};
        }
        else
        {
            lengthSeconds = periods * (base.onTime + base.offTime).GetSeconds();
            lengthOption = {"onTime", &onTime};
        }
        QuicCcRequire(!timeout.empty() || lengthSeconds + 30 <= kQuicCcMaxOptionSeconds,
                      lengthOption.first,
                      *lengthOption.second,
                      "makes the workload (and the default --timeout) longer than 1000000s; "
                      "give fewer --pauses or a shorter " +
                          std::string(lengthOption.first));
        base.timeout =
            timeout.empty() ? Seconds(lengthSeconds + 30) : QuicCcParseTime("timeout", timeout);
        QuicCcRequire(base.timeout.IsStrictlyPositive(), "timeout", timeout, "must be > 0");
        dsRuns = QuicCcParseUnsigned("falseIdleRuns", falseIdleRuns, 0, 1000000);
        QuicCcCheckOutputs({{"csv", batch.csv}, {"pauseCsv", pauseCsv}, {"qlog", qlog, true}});
    }
    catch (const QuicCcUsageError& e)
    {
        cmd.Exit(e);
    }
    if (batch.dryRun)
    {
        return 0;
    }

    struct Work
    {
        size_t config;
        uint32_t run;
        bool falseIdle;
    };

    std::vector<Work> work;
    for (uint32_t i = 0; i < std::max(batch.runs, dsRuns); ++i)
    {
        for (size_t c = 0; c < configs.size(); ++c)
        {
            if (i < batch.runs)
            {
                work.push_back({c, batch.firstRun + i, false});
            }
            if (i < dsRuns)
            {
                work.push_back({c, batch.firstRun + i, true});
            }
        }
    }

    const std::vector<std::string> lines = QuicCcRunBatch(
        work.size(),
        batch.jobs,
        [&](size_t w) {
            const RunConfig& c = configs[work[w].config];
            Row row;
            row.config = work[w].config;
            row.run = work[w].run;
            row.falseIdle = work[w].falseIdle;
            if (row.falseIdle)
            {
                // The death-spiral scenario has no RestartWindow parameter: the attribute
                // default, set for every task (a worker runs several).
                Config::SetDefault("ns3::QuicCongestionController::RestartWindow",
                                   BooleanValue(c.restartWindow));
                Config::SetDefault("ns3::QuicCcSocket::FlowControl",
                                   BooleanValue(base.flowControl));
                QuicCcDeathSpiralParams p;
                c.ApplyTo(p, row.run);
                p.seed = batch.seed;
                row.dsCompleted = QuicCcRunDeathSpiral(p).completed;
                return Serialize(row);
            }
            QuicCcIdleParams p = base;
            c.ApplyTo(p, row.run);
            p.restartWindow = c.restartWindow;
            if (!qlog.empty())
            {
                p.qlogDirectory = qlog + "/" + c.name + "-run" + std::to_string(p.run);
            }
            row.r = QuicCcRunIdle(p);
            return Serialize(row);
        },
        batch.Report(cmd, [&](size_t w) {
            return configs[work[w].config].name + ", RngRun " + std::to_string(work[w].run) +
                   (work[w].falseIdle ? ", false idle" : "");
        }));
    std::vector<Row> rows;
    for (const std::string& line : lines)
    {
        Row row;
        NS_ABORT_MSG_UNLESS(Deserialize(line, row), "bad result line from a worker");
        rows.push_back(row);
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return std::tie(a.config, a.falseIdle, a.run) < std::tie(b.config, b.falseIdle, b.run);
    });
    if (!batch.csv.empty())
    {
        QuicCcOutputFile csv(cmd.GetProgramName(), batch.csv);
        csv.Write(RunsCsv(rows, configs));
        csv.Commit();
    }
    if (!pauseCsv.empty())
    {
        QuicCcOutputFile pauses(cmd.GetProgramName(), pauseCsv);
        pauses.Write(PausesCsv(rows, configs));
        pauses.Commit();
    }
    if (base.workload == "slow-reader")
    {
        PrintBacklogTable(rows, configs, base.flowControl);
    }
    else
    {
        PrintTable(rows, configs, base.workload, dsRuns);
    }
    if (configs.back().transport == "ngtcp2")
    {
        std::cout << "ngtcp2-* rows: the real ngtcp2 " << QuicCcNgtcp2Version()
                  << " library (--transport) with its own controller, pacing, ACK policy and "
                     "flow control; W_max, K and the epoch are ngtcp2's own, not visible (empty "
                     "in --pauseCsv).\n";
    }
    return 0;
}
