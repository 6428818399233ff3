/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The CUBIC "death spiral" (Cloudflare 2026, "When idle isn't idle"), reproduced in ns-3.
 *
 *   data sender ========== bottleneck ========== data receiver
 *   BulkSend, QUIC client  rate 1 Gbps, one-way 5 ms,  PacketSink, QUIC server
 *                     drop-tail 1000 packets,
 *                     30 % random loss both ways until 2 s
 *
 * A 10 MB download; a run fails if it is not done 10 s after it starts. Each configuration
 * (cubic with an IdleRestart value, or reno) runs over the same RngRun values 1..N. Independent
 * runs execute in separate processes (--jobs, default: all cores).
 *
 *   ./quic-cc-death-spiral          # cubic-LastSent, cubic-LastActivity, reno; 100 runs each
 *   ./quic-cc-death-spiral --cc=cubic --idle-restart=LastSent --runs=1 --firstRun=7
 *   ./quic-cc-death-spiral --runs=20 --ackPolicy=Rfc9000 --csv=out.csv
 *   ./quic-cc-death-spiral --transport=all   # also the real ngtcp2 library: ngtcp2-cubic, -reno,
 * -bbr
 *   ./quic-cc-death-spiral --loss=10% --lossDuration=1s --dryRun=true   # only check the options
 *
 * Every option is checked before the first run: a bad value exits with status 2 and one line
 * "quic-cc-death-spiral: --<option>=<value>: <reason>" on stderr. --loss takes a percentage
 * ("30%") or a fraction ("0.3"), as ns-3's error models do.
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-command-line.h"
#include "quic-cc-death-spiral-scenario.h"
#include "quic-cc-ngtcp2-transport.h"
#include "quic-cc-output-file.h"
#include "quic-cc-report.h"
#include "quic-cc-send-buffer.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One configuration of the comparison.
struct RunConfig
{
    std::string name;                 //!< "cubic-LastSent", ..., "reno"
    std::string controller;           //!< "cubic" or "reno"
    std::string idleRestart;          //!< IdleRestart value (cubic)
    std::string transport{"quic-cc"}; //!< "quic-cc" or "ngtcp2" (the real library)
};

/// The ngtcp2 rows --cc selects: ngtcp2-cubic, ngtcp2-reno, ngtcp2-bbr (all when empty).
std::vector<RunConfig>
Ngtcp2Configs(const std::string& cc)
{
    std::vector<RunConfig> out;
    for (const std::string& name : QuicCcNgtcp2Controllers())
    {
        if (cc.empty() || cc == name)
        {
            out.push_back({"ngtcp2-" + name, name, "", "ngtcp2"});
        }
    }
    return out;
}

/// The linked ngtcp2's version when a configuration uses it, else "".
std::string
Ngtcp2VersionUsed(const std::vector<RunConfig>& configs)
{
    for (const RunConfig& c : configs)
    {
        if (c.transport == "ngtcp2")
        {
            return QuicCcNgtcp2Version();
        }
    }
    return "";
}

/// One finished run.
struct Row
{
    size_t config{0};
    uint32_t run{0};
    QuicCcDeathSpiralResult r;
};

/// The configurations --cc and --idle-restart select (both already validated).
std::vector<RunConfig>
SelectConfigs(const std::string& cc, const std::string& idle)
{
    const std::vector<std::string> allIdle{"LastSent",
                                           "LastActivity",
                                           "LastSentClamped",
                                           "Off",
                                           "AckGap",
                                           "AppLimitedTime",
                                           "EpochReset"};
    std::vector<RunConfig> out;
    if (cc == "reno")
    {
        return {{"reno", "reno", ""}};
    }
    std::vector<std::string> modes;
    if (idle == "all")
    {
        modes = allIdle;
    }
    else if (!idle.empty())
    {
        modes = {idle};
    }
    else
    {
        modes = cc.empty() ? std::vector<std::string>{"LastSent", "LastActivity"}
                           : std::vector<std::string>{"LastActivity"};
    }
    for (const std::string& mode : modes)
    {
        out.push_back({"cubic-" + mode, "cubic", mode});
    }
    if (cc.empty() && (idle.empty() || idle == "all"))
    {
        out.push_back({"reno", "reno", ""});
    }
    return out;
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

/// The CSV header. Sample times are columns of their own, so the names do not depend on the
/// parameters; the ngtcp2 version is a column when an ngtcp2 row is in the batch.
std::string
CsvHeader(const std::vector<RunConfig>& configs)
{
    return std::string("config,run,completed,completion_s,handshake_s,bytes_received,loss_end_s,"
                       "cwnd_at_loss_end,late_sample_s,cwnd_at_late_sample,"
                       "min_cwnd_after_loss_end,max_cwnd_after_loss_end,lost_after_loss_end,"
                       "lost_packets,transitions,cycle_period_s,events") +
           (Ngtcp2VersionUsed(configs).empty() ? "" : ",ngtcp2_version") + "\n";
}

/// One CSV row: one run.
std::string
CsvRow(const Row& row, const std::vector<RunConfig>& configs, const QuicCcDeathSpiralParams& base)
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
        out << ',' << (configs[row.config].transport == "ngtcp2" ? ngtcp2 : "");
    }
    out << '\n';
    return out.str();
}

/// The table: one line per configuration.
void
PrintTable(const std::vector<Row>& rows,
           const std::vector<RunConfig>& configs,
           const QuicCcDeathSpiralParams& base,
           const std::string& rate,
           uint32_t firstRun,
           uint32_t runs)
{
    const uint64_t floor = 2 * base.maxDatagramSize;
    const std::string atLossEnd = "cwnd@" + Secs(base.lossDuration) + "s";
    const std::string atLate = "cwnd@" + Secs(base.sampleLate) + "s";
    std::cout << "Death spiral: " << QuicCcFormat(base.transferBytes / 1e6, 1) << " MB download, "
              << rate << ", RTT " << (2 * base.oneWayDelay).GetMilliSeconds() << " ms, buffer "
              << base.bufferPackets << " packets, " << 100 * base.lossRate << " % loss until "
              << Secs(base.lossDuration) << " s, timeout " << Secs(base.timeout)
              << " s, ACK policy " << base.ackPolicy << ", runs " << firstRun << ".."
              << firstRun + runs - 1 << "\n";
    const std::string ngtcp2 = Ngtcp2VersionUsed(configs);
    if (!ngtcp2.empty())
    {
        std::cout << "ngtcp2-* rows: the real ngtcp2 " << ngtcp2
                  << " library with its own controller and ACK policy (--transport)\n";
    }
    std::cout << "\n";
    std::cout << std::left << std::setw(22) << "config" << std::right << std::setw(6) << "runs"
              << std::setw(11) << "completed" << std::setw(9) << "fail %" << std::setw(17)
              << "95% CI (Wilson)" << std::setw(10) << "median s" << std::setw(8) << "p90 s"
              << " | failing runs: " << std::setw(7) << "pinned" << ' ' << std::setw(11)
              << atLossEnd << ' ' << std::setw(11) << atLate << std::setw(13) << "transitions"
              << std::setw(11) << "cycle ms"
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
        std::cout << std::left << std::setw(22) << configs[c].name << std::right << std::setw(6)
                  << n << std::setw(11) << completed.str() << std::setw(9)
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
    std::cout
        << "\nfail % = runs not complete within the timeout; failing-run columns are medians; "
           "pinned = "
           "failing runs whose cwnd is "
        << floor << " B (2 x MaxDatagramSize) at " << Secs(base.sampleLate)
        << " s and never grows after; transitions = qlog congestion-state changes recovery <-> "
           "congestion "
           "avoidance after "
        << Secs(base.lossDuration)
        << " s (both directions); cycle = mean time between successive entries into recovery.\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    const QuicCcDeathSpiralParams defaults;
    std::string cc;
    std::string idleRestart;
    std::string transport = "quic-cc";
    QuicCcBatchOptions batch(100);
    std::string qlog;
    std::string rate = "1Gbps";
    std::string delay = "5ms";
    std::string buffer = "1000";
    std::string loss = "30%";
    std::string lossDuration = "2s";
    std::string lateSample; // default: 5/8 of the way from the end of the loss to the timeout
    std::string timeout;    // default: 8 s after the end of the loss
    std::string transfer = "10MB";
    std::string mss = std::to_string(QuicCongestionController::kDefaultMaxDatagramSize);
    std::string hystart = "true";
    std::string ackPolicy = "ReceiveBatch";
    std::string ackBatchWindow = "50us";
    std::string ackThreshold = "2";
    std::string sendJitter = "0s";
    std::string ackDelayJitter = "0s";
    std::string epoch = "shared";
    std::string pacing = "Off";
    std::string persistentCongestion = "false";
    std::string packetSizing = "FreeWindow";
    std::string handshakeLoss = "true";
    std::string maxAckDelay = "25ms";
    std::string maxAckRanges = "32";
    std::string probeContent = "Data";

    QuicCcCommandLine cmd(__FILE__);
    cmd.AddValue(
        "cc",
        "Controller: cubic or reno (default: compare cubic-LastSent, cubic-LastActivity, reno)",
        cc);
    cmd.AddValue("transport", QuicCcTransportHelp(), transport);
    cmd.AddValue("idle-restart",
                 "CUBIC IdleRestart: LastSent, LastActivity, LastSentClamped, Off, AckGap, "
                 "AppLimitedTime, EpochReset or all",
                 idleRestart);
    cmd.AddValue("epoch", "CUBIC EpochSource: shared (R is the epoch, quiche) or separate", epoch);
    cmd.AddValue("pacing", "Sender pacing: Off or Rfc9002 (RFC 9002 Section 7.7)", pacing);
    cmd.AddValue("persistentCongestion",
                 "RFC 9002 Section 7.6 persistent congestion (true/false)",
                 persistentCongestion);
    cmd.AddValue("packetSizing",
                 "Data packet sizing: FreeWindow (quiche) or FullOnly",
                 packetSizing);
    cmd.AddValue("handshakeLoss",
                 "Whether the loss phase also hits the handshake (true/false; false: loss starts "
                 "when the sender's handshake completes)",
                 handshakeLoss);
    batch.Add(cmd, "Runs per configuration (RngRun firstRun..firstRun+runs-1)");
    cmd.AddValue(
        "qlog",
        "Write qlog files (.sqlog; the socket attribute QlogSchema picks the schema) of every run "
        "into DIRECTORY/<config>-run<N>/",
        qlog);
    cmd.AddValue("rate", "Bottleneck rate", rate);
    cmd.AddValue("delay", "One-way propagation delay (RTT = 2 x delay)", delay);
    cmd.AddValue("buffer", "Bottleneck drop-tail buffer, packets", buffer);
    cmd.AddValue("loss",
                 "Random packet loss in both directions: a percentage (30%) or a fraction (0.3)",
                 loss);
    cmd.AddValue("lossDuration",
                 "Loss is switched off at this time (the first cwnd sample)",
                 lossDuration);
    cmd.AddValue("lateSample",
                 "Time of the second cwnd sample, at or after --lossDuration and before "
                 "--timeout (default: 5/8 of the way from one to the other, 7s with their "
                 "defaults)",
                 lateSample);
    cmd.AddValue("timeout",
                 "A run not complete by then fails (default: --lossDuration + 8s, 10s)",
                 timeout);
    cmd.AddValue("size", "Download size (e.g. 10MB, 10000000)", transfer);
    cmd.AddValue("mss", "MaxDatagramSize, bytes (1200..1472 on this 1500-byte MTU path)", mss);
    cmd.AddFlag("hystart", "HyStart++ on the controller", hystart);
    cmd.AddValue("ackPolicy", "Receiver ACK policy: ReceiveBatch or Rfc9000", ackPolicy);
    cmd.AddValue("ackBatchWindow", "ReceiveBatch window", ackBatchWindow);
    cmd.AddValue("ackThreshold",
                 "Rfc9000 policy: ACK every n-th ack-eliciting packet (1 = every packet)",
                 ackThreshold);
    cmd.AddValue("maxAckDelay",
                 "Socket MaxAckDelay: the receiver's ACK timer (Rfc9000 policy) and the PTO's "
                 "max_ack_delay term",
                 maxAckDelay);
    cmd.AddValue("maxAckRanges",
                 "Socket MaxAckRanges: most ACK ranges per ACK frame",
                 maxAckRanges);
    cmd.AddValue("probeContent",
                 "Socket ProbeContent: Data (quiche: a PTO probe carries data) or Ping",
                 probeContent);
    cmd.AddValue("sendJitter",
                 "Host model: max uniform delay before each packet of a burst",
                 sendJitter);
    cmd.AddValue("ackDelayJitter",
                 "Host model: max uniform delay before each ACK is processed",
                 ackDelayJitter);
    // Attributes the scenario sets from options: as attribute defaults they would be overridden.
    // These take the option's value as written (the constraints are checked with it).
    cmd.AttributesSetTo({{"ns3::QuicCcSocket::MaxDatagramSize", "mss"},
                         {"ns3::QuicCcSocket::AckPolicy", "ackPolicy"},
                         {"ns3::QuicCcSocket::AckBatchWindow", "ackBatchWindow"},
                         {"ns3::QuicCcSocket::AckElicitingThreshold", "ackThreshold"},
                         {"ns3::QuicCcSocket::MaxAckDelay", "maxAckDelay"},
                         {"ns3::QuicCcSocket::MaxAckRanges", "maxAckRanges"},
                         {"ns3::QuicCcSocket::IdleTimeout", "timeout"}});
    cmd.AttributesSetBy({{"ns3::QuicCcSocket::ProbeContent", "probeContent"},
                         {"ns3::QuicCcSocket::Pacing", "pacing"},
                         {"ns3::QuicCcSocket::PersistentCongestion", "persistentCongestion"},
                         {"ns3::QuicCcSocket::PacketSizing", "packetSizing"},
                         {"ns3::QuicCcSocket::SendDelay", "sendJitter"},
                         {"ns3::QuicCcSocket::AckProcessingDelay", "ackDelayJitter"},
                         {"ns3::QuicCubic::IdleRestart", "idle-restart"},
                         {"ns3::QuicCubic::EpochSource", "epoch"},
                         {"ns3::QuicCubic::HyStart", "hystart"},
                         {"ns3::QuicReno::HyStart", "hystart"}});
    // The transports' attributes the scenario sets on every socket: refused as defaults.
    cmd.AttributesSetBy(QuicCcTransportAttributesSetBy({{"MaxDatagramSize", "mss"},
                                                        {"MaxAckDelay", "maxAckDelay"},
                                                        {"IdleTimeout", "timeout"},
                                                        {"QlogDirectory", "qlog"}}));
    cmd.Parse(argc, argv);

    QuicCcDeathSpiralParams base;
    std::vector<RunConfig> configs;
    try
    {
        const QuicCcTransportChoice transports = QuicCcParseTransport(transport);
        transports.RequireAttributesUsed(cmd.GetGivenAttributes());
        QuicCcRequireWriteFits(transports.quicCc,
                               transports.ngtcp2,
                               kQuicCcBulkWriteBytes,
                               "the bulk sender's writes");
        if (!cc.empty())
        {
            if (transports.quicCc)
            {
                QuicCcParseChoice("cc", cc, {"cubic", "reno"});
            }
            else
            {
                QuicCcParseChoice("cc", cc, QuicCcNgtcp2Controllers());
            }
        }
        transports.RequireQuicCcFor("idle-restart",
                                    idleRestart,
                                    !idleRestart.empty(),
                                    "ngtcp2 has its own CUBIC");
        // The options of quic-cc's socket and controllers (ngtcp2 has its own HyStart++,
        // pacing, ACK policy and packet sizing; --mss and --maxAckDelay apply to both).
        for (const auto& [option, text] : {std::pair{"epoch", &epoch},
                                           {"pacing", &pacing},
                                           {"persistentCongestion", &persistentCongestion},
                                           {"packetSizing", &packetSizing},
                                           {"hystart", &hystart},
                                           {"ackPolicy", &ackPolicy},
                                           {"ackBatchWindow", &ackBatchWindow},
                                           {"ackThreshold", &ackThreshold},
                                           {"maxAckRanges", &maxAckRanges},
                                           {"probeContent", &probeContent},
                                           {"sendJitter", &sendJitter},
                                           {"ackDelayJitter", &ackDelayJitter}})
        {
            transports.RequireQuicCcFor(option,
                                        *text,
                                        cmd.WasGiven(option),
                                        "a quic-cc option; ngtcp2 has its own");
        }
        if (!idleRestart.empty())
        {
            QuicCcParseChoice("idle-restart",
                              idleRestart,
                              {"LastSent",
                               "LastActivity",
                               "LastSentClamped",
                               "Off",
                               "AckGap",
                               "AppLimitedTime",
                               "EpochReset",
                               "all"});
        }
        QuicCcRequire(!(cc == "reno" && !idleRestart.empty()),
                      "idle-restart",
                      idleRestart,
                      "has no effect with --cc=reno (IdleRestart is a CUBIC attribute)");
        batch.Parse();
        base.seed = batch.seed;
        base.rate = QuicCcParseRate("rate", rate);
        base.oneWayDelay = QuicCcParseTime("delay", delay);
        base.bufferPackets =
            QuicCcParseUnsigned("buffer", buffer, 1, std::numeric_limits<uint32_t>::max());
        base.lossRate = QuicCcParseLoss("loss", loss);
        base.lossDuration = QuicCcParseTime("lossDuration", lossDuration);
        base.handshakeLoss = QuicCcParseBool("handshakeLoss", handshakeLoss);
        base.observeFrom = base.lossDuration;
        // Defaults follow the options given; an error names only options given (a default
        // by what it is and its value).
        const auto bound = [&](const std::string& option,
                               const std::string& text,
                               Time value,
                               const std::string& what) {
            return cmd.WasGiven(option) ? "--" + option + "=" + text
                                        : what + " (" + Secs(value) + "s)";
        };
        base.timeout =
            timeout.empty() ? base.lossDuration + Seconds(8) : QuicCcParseTime("timeout", timeout);
        QuicCcRequire(
            base.timeout > base.lossDuration,
            "timeout",
            timeout,
            "must be after " +
                bound("lossDuration", lossDuration, base.lossDuration, "the end of the loss"));
        base.sampleLate =
            lateSample.empty()
                ? base.lossDuration +
                      TimeStep((base.timeout - base.lossDuration).GetTimeStep() * 5 / 8)
                : QuicCcParseTime("lateSample", lateSample);
        QuicCcRequire(
            base.sampleLate >= base.lossDuration && base.sampleLate < base.timeout,
            "lateSample",
            lateSample,
            "must be at or after " +
                bound("lossDuration", lossDuration, base.lossDuration, "the end of the loss") +
                " and before " + bound("timeout", timeout, base.timeout, "the timeout"));
        base.transferBytes = QuicCcParseBytes("size", transfer);
        // RFC 9000 Section 14: at least 1200 B; at most the 1500-byte MTU less IPv4 and UDP
        // headers.
        base.maxDatagramSize = QuicCcParseUnsigned("mss", mss, 1200, 1472);
        base.hyStart = QuicCcParseBool("hystart", hystart);
        base.ackPolicy = QuicCcParseChoice("ackPolicy", ackPolicy, {"ReceiveBatch", "Rfc9000"});
        base.ackBatchWindow = QuicCcParseTime("ackBatchWindow", ackBatchWindow);
        base.ackElicitingThreshold = QuicCcParseUnsigned("ackThreshold",
                                                         ackThreshold,
                                                         1,
                                                         std::numeric_limits<uint32_t>::max());
        QuicCcRequire(!(cmd.WasGiven("ackThreshold") && base.ackPolicy != "Rfc9000"),
                      "ackThreshold",
                      ackThreshold,
                      "has no effect with --ackPolicy=" + base.ackPolicy +
                          " (only Rfc9000 uses it)");
        QuicCcRequire(!(cmd.WasGiven("ackBatchWindow") && base.ackPolicy != "ReceiveBatch"),
                      "ackBatchWindow",
                      ackBatchWindow,
                      "has no effect with --ackPolicy=" + base.ackPolicy +
                          " (only ReceiveBatch uses it)");
        base.maxAckDelay = QuicCcParseTime("maxAckDelay", maxAckDelay);
        base.maxAckRanges = QuicCcParseUnsigned("maxAckRanges",
                                                maxAckRanges,
                                                1,
                                                std::numeric_limits<uint32_t>::max());
        base.probeContent = QuicCcParseChoice("probeContent", probeContent, {"Data", "Ping"});
        base.epochSource = QuicCcParseChoice("epoch", epoch, {"shared", "separate"}) == "shared"
                               ? "SharedWithRecovery"
                               : "Separate";
        base.pacing = QuicCcParseChoice("pacing", pacing, {"Off", "Rfc9002"});
        base.persistentCongestion = QuicCcParseBool("persistentCongestion", persistentCongestion);
        base.packetSizing =
            QuicCcParseChoice("packetSizing", packetSizing, {"FreeWindow", "FullOnly"});
        base.sendJitterMax = QuicCcParseTime("sendJitter", sendJitter);
        base.ackProcessingDelayMax = QuicCcParseTime("ackDelayJitter", ackDelayJitter);
        QuicCcCheckOutputs({{"csv", batch.csv}, {"qlog", qlog, true}});
        if (transports.quicCc)
        {
            configs = SelectConfigs(cc, idleRestart);
        }
        if (transports.ngtcp2)
        {
            const std::vector<RunConfig> ng = Ngtcp2Configs(cc);
            configs.insert(configs.end(), ng.begin(), ng.end());
        }
    }
    catch (const QuicCcUsageError& e)
    {
        cmd.Exit(e);
    }
    if (batch.dryRun)
    {
        return 0;
    }

    // In the CSV's order (configuration, then run), so that each row is written as it finishes.
    std::vector<std::pair<size_t, uint32_t>> work; // (config, run)
    for (size_t c = 0; c < configs.size(); ++c)
    {
        for (uint32_t i = 0; i < batch.runs; ++i)
        {
            work.emplace_back(c, batch.firstRun + i);
        }
    }
    const std::unique_ptr<QuicCcOutputFile> csv = batch.OpenCsv(cmd, CsvHeader(configs));
    std::vector<Row> rows(work.size());

    // Independent simulations in separate processes; results come back as lines on a pipe.
    QuicCcRunBatch(
        work.size(),
        batch.jobs,
        [&](size_t w) {
            QuicCcDeathSpiralParams p = base;
            p.controller = configs[work[w].first].controller;
            p.transport = configs[work[w].first].transport;
            p.idleRestart = configs[work[w].first].idleRestart.empty()
                                ? "LastActivity"
                                : configs[work[w].first].idleRestart;
            p.run = work[w].second;
            if (!qlog.empty())
            {
                p.qlogDirectory =
                    qlog + "/" + configs[work[w].first].name + "-run" + std::to_string(p.run);
            }
            return QuicCcRecordToLine(QuicCcRunDeathSpiral(p));
        },
        batch.Report(cmd,
                     [&](size_t w) {
                         return configs[work[w].first].name + ", RngRun " +
                                std::to_string(work[w].second);
                     }),
        [&](size_t w, const std::string& line) {
            rows[w].config = work[w].first;
            rows[w].run = work[w].second;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, rows[w].r),
                                "bad result line from a worker");
            if (csv)
            {
                csv->Write(CsvRow(rows[w], configs, base));
            }
        });
    if (csv)
    {
        csv->Commit();
    }

    if (batch.runs == 1 && configs.size() == 1)
    {
        const Row& row = rows.front();
        std::cout << configs[row.config].name << " run " << row.run << ": ";
        if (row.r.completed)
        {
            std::cout << "completed in " << QuicCcFormat(row.r.completionSeconds, 3) << " s";
        }
        else
        {
            std::cout << "FAILED: " << row.r.bytesReceived << " of " << base.transferBytes
                      << " bytes after " << Secs(base.timeout) << " s";
        }
        std::cout << "; cwnd at " << Secs(base.lossDuration) << " s = "
                  << (row.r.endSeconds < base.lossDuration.GetSeconds()
                          ? "-"
                          : std::to_string(row.r.cwndAtLossEnd))
                  << " B, at " << Secs(base.sampleLate) << " s = "
                  << (row.r.endSeconds < base.sampleLate.GetSeconds()
                          ? "-"
                          : std::to_string(row.r.cwndAtLate))
                  << " B; recovery<->CA transitions after " << Secs(base.lossDuration)
                  << " s: " << row.r.transitions << "; lost packets " << row.r.lostPackets << "\n";
        return 0;
    }
    PrintTable(rows, configs, base, rate, batch.firstRun, batch.runs);
    return 0;
}
