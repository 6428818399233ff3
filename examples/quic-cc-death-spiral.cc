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
#include "quic-cc-death-spiral-report.h"
#include "quic-cc-death-spiral-scenario.h"
#include "quic-cc-options.h"
#include "quic-cc-output-file.h"
#include "quic-cc-send-buffer.h"

#include "ns3/core-module.h"

#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kMax32 = std::numeric_limits<uint32_t>::max();

/// CUBIC's idle-restart rules: "LastSent", "LastActivity", ... (its IdleRestart's names).
std::vector<std::string>
IdleRestartRules()
{
    return QuicCcAttributeNames("ns3::QuicCubic::IdleRestart");
}

/// A time in seconds as the messages write it: "2s", "4.5s".
std::string
Secs(Time t)
{
    std::ostringstream os;
    os << t.GetSeconds() << "s";
    return os.str();
}

/// The configurations --cc, --idle-restart and --transport select (all three already checked).
std::vector<QuicCcDeathSpiralConfig>
SelectConfigs(const QuicCcOptions& options, const std::string& cc, const std::string& idle)
{
    const QuicCcTransportChoice& transports = options.GetTransports();
    std::vector<QuicCcDeathSpiralConfig> out;
    const auto add = [&](const std::string& name,
                         const std::string& transport,
                         const std::string& controller,
                         const std::string& idleRestart) {
        QuicCcTransportSpec quic = options.GetTransportSpec(transport, controller);
        quic.SetController("IdleRestart", StringValue(idleRestart));
        out.push_back({name, quic});
    };
    if (transports.Runs("quic-cc"))
    {
        std::vector<std::string> modes;
        if (cc == "reno")
        {
            modes = {};
        }
        else if (idle == "all")
        {
            modes = IdleRestartRules();
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
            add("cubic-" + mode, "quic-cc", "cubic", mode);
        }
        if (cc == "reno" || (cc.empty() && (idle.empty() || idle == "all")))
        {
            add("reno", "quic-cc", "reno", "LastActivity");
        }
    }
    if (transports.Runs("ngtcp2"))
    {
        for (const std::string& name : QuicCcTransportSpec::Controllers("ngtcp2"))
        {
            if (cc.empty() || cc == name)
            {
                add("ngtcp2-" + name, "ngtcp2", name, "LastActivity");
            }
        }
    }
    return out;
}

/// The options not of the scenario's parameters.
struct Choices
{
    std::string cc;          //!< --cc
    std::string idleRestart; //!< --idle-restart
    std::string qlog;        //!< --qlog
};

/// The option table: each option once, most into \p base (whose values are the defaults).
void
Declare(QuicCcOptions& options, QuicCcDeathSpiralParams& base, Choices& choices)
{
    options.Transport();
    options
        .Text("cc",
              "Controller: cubic or reno (default: compare cubic-LastSent, cubic-LastActivity, "
              "reno); with --transport=ngtcp2 also bbr",
              choices.cc)
        .Then([&options](const std::string& text) {
            QuicCcParseChoice("cc", text, options.GetTransports().Controllers());
        });
    options
        .Choice("idle-restart",
                "CUBIC IdleRestart: LastSent, LastActivity, LastSentClamped, Off, AckGap, "
                "AppLimitedTime, EpochReset or all",
                choices.idleRestart,
                [] {
                    std::vector<std::string> rules = IdleRestartRules();
                    rules.emplace_back("all");
                    return rules;
                }())
        .Controller("IdleRestart")
        .Why("ngtcp2 has its own CUBIC")
        .OnlyWith("cc", {"", "cubic"}, "IdleRestart is a CUBIC attribute");
    options
        .Choice("epoch",
                "CUBIC EpochSource: shared (R is the epoch, quiche) or separate",
                {"shared", "separate"})
        .Controller("EpochSource")
        .Map({{"shared", "SharedWithRecovery"}, {"separate", "Separate"}});
    options.Choice("pacing", "Sender pacing: Off or Rfc9002 (RFC 9002 Section 7.7)", {})
        .Socket("Pacing");
    options.Bool("persistentCongestion", "RFC 9002 Section 7.6 persistent congestion (true/false)")
        .Socket("PersistentCongestion");
    options.Choice("packetSizing", "Data packet sizing: FreeWindow (quiche) or FullOnly", {})
        .Socket("PacketSizing");
    options.Bool("handshakeLoss",
                 "Whether the loss phase also hits the handshake (true/false; false: loss starts "
                 "when the sender's handshake completes)",
                 base.handshakeLoss);
    options.Batch(100, "Runs per configuration (RngRun firstRun..firstRun+runs-1)");
    options.Qlog("qlog",
                 "Write qlog files (.sqlog; the socket attribute QlogSchema picks the schema) of "
                 "every run into DIRECTORY/<config>-run<N>/",
                 choices.qlog);
    options.Rate("rate", "Bottleneck rate", base.rate);
    options.Duration("delay", "One-way propagation delay (RTT = 2 x delay)", base.oneWayDelay);
    options.Count("buffer", "Bottleneck drop-tail buffer, packets", base.bufferPackets, 1, kMax32);
    options.Loss("loss",
                 "Random packet loss in both directions: a percentage (30%) or a fraction (0.3)",
                 base.lossRate);
    options.Duration("lossDuration",
                     "Loss is switched off at this time (the first cwnd sample)",
                     base.lossDuration);
    options
        .Duration("lateSample",
                  "Time of the second cwnd sample, at or after --lossDuration and before "
                  "--timeout (default: 5/8 of the way from one to the other, 7s with their "
                  "defaults)",
                  base.sampleLate)
        .Default("");
    options
        .Duration("timeout",
                  "A run not complete by then fails (default: --lossDuration + 8s, 10s)",
                  base.timeout)
        .Default("")
        .Socket("IdleTimeout");
    options.Bytes("size", "Download size (e.g. 10MB, 10000000)", base.transferBytes);
    options
        .Count("mss",
               "MaxDatagramSize, bytes (1200..1472 on this 1500-byte MTU path)",
               base.maxDatagramSize,
               1200,
               1472)
        .Socket("MaxDatagramSize");
    options.Flag("hystart", "HyStart++ on the controller").Controller("HyStart");
    options
        .Choice("ackPolicy",
                "Receiver ACK policy: ReceiveBatch or Rfc9000",
                {"ReceiveBatch", "Rfc9000"})
        .Socket("AckPolicy");
    options.Duration("ackBatchWindow", "ReceiveBatch window")
        .Socket("AckBatchWindow")
        .OnlyWith("ackPolicy", {"ReceiveBatch"}, "only ReceiveBatch uses it");
    options
        .Count("ackThreshold",
               "Rfc9000 policy: ACK every n-th ack-eliciting packet (1 = every packet)",
               1,
               kMax32)
        .Socket("AckElicitingThreshold")
        .OnlyOn("quic-cc")
        .OnlyWith("ackPolicy", {"Rfc9000"}, "only Rfc9000 uses it");
    options
        .Duration("maxAckDelay",
                  "Socket MaxAckDelay: the receiver's ACK timer (Rfc9000 policy) and "
                  "the PTO's "
                  "max_ack_delay term")
        .Socket("MaxAckDelay");
    options.Count("maxAckRanges", "Socket MaxAckRanges: most ACK ranges per ACK frame", 1, kMax32)
        .Socket("MaxAckRanges");
    options
        .Choice("probeContent",
                "Socket ProbeContent: Data (quiche: a PTO probe carries data) or Ping",
                {})
        .Socket("ProbeContent");
    options
        .Duration("sendJitter",
                  "Host model: max uniform delay before each packet of a burst",
                  base.sendJitterMax)
        .Socket("SendDelay");
    options
        .Duration("ackDelayJitter",
                  "Host model: max uniform delay before each ACK is processed",
                  base.ackProcessingDelayMax)
        .Socket("AckProcessingDelay");
}

/// The checks between options: the derived defaults and their order (an error names only what
/// the user wrote; a default by what it is and its value).
void
Check(const QuicCcOptions& options, QuicCcDeathSpiralParams& base)
{
    QuicCcRequireWriteFits(options.GetTransports().transports,
                           kQuicCcBulkWriteBytes,
                           "the bulk sender's writes");
    base.seed = options.GetBatch().seed;
    base.observeFrom = base.lossDuration;
    // Defaults follow the options given; an error names only options given.
    const std::string lossEnd =
        options.Named("lossDuration", "the end of the loss", Secs(base.lossDuration));
    if (!options.Given("timeout"))
    {
        base.timeout = base.lossDuration + Seconds(8);
    }
    QuicCcRequire(base.timeout > base.lossDuration,
                  "timeout",
                  options.GetText("timeout"),
                  "must be after " + lossEnd);
    if (!options.Given("lateSample"))
    {
        base.sampleLate =
            base.lossDuration + TimeStep((base.timeout - base.lossDuration).GetTimeStep() * 5 / 8);
    }
    QuicCcRequire(base.sampleLate >= base.lossDuration && base.sampleLate < base.timeout,
                  "lateSample",
                  options.GetText("lateSample"),
                  "must be at or after " + lossEnd + " and before " +
                      options.Named("timeout", "the timeout", Secs(base.timeout)));
}

} // namespace

int
main(int argc, char* argv[])
{
    QuicCcDeathSpiralParams base;
    Choices choices;
    QuicCcOptions options(__FILE__);
    Declare(options, base, choices);
    options.Parse(argc, argv, [&] { Check(options, base); });
    const QuicCcBatchOptions& batch = options.GetBatch();
    const std::vector<QuicCcDeathSpiralConfig> configs =
        SelectConfigs(options, choices.cc, choices.idleRestart);

    // In the CSV's order (configuration, then run), so that each row is written as it
    // finishes.
    std::vector<QuicCcDeathSpiralRow> rows;
    for (size_t c = 0; c < configs.size(); ++c)
    {
        for (uint32_t i = 0; i < batch.runs; ++i)
        {
            rows.push_back({c, batch.firstRun + i, {}});
        }
    }
    const std::unique_ptr<QuicCcOutputFile> csv =
        batch.OpenCsv(QuicCcDeathSpiralCsvHeader(configs));
    // Independent simulations in separate processes; results come back as lines on a
    // pipe.
    QuicCcRunBatch(
        rows.size(),
        batch.jobs,
        [&](size_t w) {
            QuicCcDeathSpiralParams p = base;
            p.quic = configs[rows[w].config].quic;
            p.run = rows[w].run;
            if (!choices.qlog.empty())
            {
                p.qlogDirectory = choices.qlog + "/" + configs[rows[w].config].name + "-run" +
                                  std::to_string(p.run);
            }
            return QuicCcRecordToLine(QuicCcRunDeathSpiral(p));
        },
        batch.Report([&](size_t w) {
            return configs[rows[w].config].name + ", RngRun " + std::to_string(rows[w].run);
        }),
        [&](size_t w, const std::string& line) {
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, rows[w].r),
                                "bad result line from a worker");
            if (csv)
            {
                csv->Write(QuicCcDeathSpiralCsvRow(rows[w], configs, base));
            }
        });
    if (csv)
    {
        csv->Commit();
    }
    if (rows.size() == 1)
    {
        QuicCcPrintDeathSpiralRun(std::cout, rows.front(), configs, base);
        return 0;
    }
    QuicCcPrintDeathSpiralTable(std::cout,
                                rows,
                                configs,
                                base,
                                options.GetText("rate"),
                                options.GetText("ackPolicy"),
                                batch.firstRun,
                                batch.runs);
    return 0;
}
