/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The differential check of quic-cc against the real ngtcp2 library: quic-cc's CUBIC
 * configured as ngtcp2 (QuicCcNgtcp2Profile: separate epoch, app-limited-time idle rule,
 * HyStart++, ACK every 2 packets with a 25 ms max_ack_delay, pacing, ...) against ngtcp2's own
 * CUBIC, on the same paths with the same seeds:
 *
 *   spiral    the death spiral (quic-cc-death-spiral's scenario: 1 Gbps, RTT 10 ms, 30 % loss
 *             both ways until 2 s, 10 MB, 10 s timeout), --runs runs: fail share and the
 *             completion-time distribution
 *   slowstart loss-free slow start, cwnd at the start of each round, and the HyStart++ exit
 *             (100 Mbps, RTT 40 ms, 5000-packet buffer, 20 MB): CSS entry and exit round / cwnd
 *   oneloss   CUBIC after one loss: the 150th data packet dropped in slow start (100 Mbps,
 *             RTT 50 ms, 5000-packet buffer, 8 s): W_max, ssthresh, K, cwnd after the event
 *
 *   ./quic-cc-ngtcp2-diff                          # every part; 100 death-spiral runs each
 *   ./quic-cc-ngtcp2-diff --parts=slowstart,oneloss --csv=diff.csv
 *   ./quic-cc-ngtcp2-diff --parts=spiral --runs=20 --jobs=2
 *
 * Prints one table (quantity, model, ngtcp2, model - ngtcp2) and writes it as CSV with --csv.
 * Every option is checked before the first run: a bad value exits with status 2 and one line
 * "quic-cc-ngtcp2-diff: --<option>=<value>: <reason>" on stderr. Needs the ngtcp2 transport.
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-death-spiral-scenario.h"
#include "quic-cc-ngtcp2-diff-scenario.h"
#include "quic-cc-options.h"
#include "quic-cc-output-file.h"
#include "quic-cc-report.h"
#include "quic-cc-send-buffer.h"

#include "ns3/core-module.h"
#include "ns3/quic-cc-module.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One line of the table.
struct TableRow
{
    std::string part;
    std::string quantity;
    std::optional<double> model;
    std::optional<double> ngtcp2;
    int precision{3};
};

/// The slow-start / HyStart++ path.
QuicCcNgtcp2DiffParams
SlowStartParams(uint64_t mss)
{
    QuicCcNgtcp2DiffParams p;
    p.maxDatagramSize = mss;
    p.afterEvent = {MilliSeconds(100), MilliSeconds(250), MilliSeconds(500), Seconds(1)};
    return p;
}

/// The one-loss path.
QuicCcNgtcp2DiffParams
OneLossParams(uint64_t mss)
{
    QuicCcNgtcp2DiffParams p;
    p.maxDatagramSize = mss;
    p.oneWayDelay = MilliSeconds(25);
    p.dropDataPacket = 150;
    p.duration = Seconds(8);
    p.transferBytes = 100'000'000;
    return p;
}

/// K = cbrt((W_max - cwnd) / mss / C) seconds (RFC 9438 Eq. 2, C = 0.4), from the observed
/// W_max and the reduced cwnd.
double
KSeconds(uint64_t wMax, uint64_t cwnd, uint64_t mss)
{
    return wMax > cwnd ? std::cbrt((static_cast<double>(wMax - cwnd) / mss) / 0.4) : 0.0;
}

/// Rows of the death spiral: fail share and completion-time quantiles.
void
SpiralRows(const std::vector<QuicCcDeathSpiralResult> results[2], std::vector<TableRow>& table)
{
    std::optional<double> fail[2];
    std::vector<double> times[2];
    std::vector<double> lost[2];
    for (int t = 0; t < 2; ++t)
    {
        uint32_t failed = 0;
        for (const QuicCcDeathSpiralResult& r : results[t])
        {
            failed += r.completed ? 0 : 1;
            if (r.completed)
            {
                times[t].push_back(r.completionSeconds);
            }
            lost[t].push_back(static_cast<double>(r.lostPackets));
        }
        fail[t] = 100.0 * failed / results[t].size();
    }
    table.push_back({"spiral", "runs", 1.0 * results[0].size(), 1.0 * results[1].size(), 0});
    table.push_back({"spiral", "fail %", fail[0], fail[1], 1});
    for (const auto& [q, name] : std::vector<std::pair<double, std::string>>{{0.1, "p10"},
                                                                             {0.25, "p25"},
                                                                             {0.5, "median"},
                                                                             {0.75, "p75"},
                                                                             {0.9, "p90"}})
    {
        std::optional<double> v[2];
        for (int t = 0; t < 2; ++t)
        {
            if (!times[t].empty())
            {
                v[t] = QuicCcQuantile(times[t], q);
            }
        }
        table.push_back({"spiral", "completion " + name + " s", v[0], v[1], 3});
    }
    table.push_back({"spiral",
                     "lost packets median",
                     QuicCcQuantile(lost[0], 0.5),
                     QuicCcQuantile(lost[1], 0.5),
                     1});
}

/// Rows "cwnd at <what> + <offset> s" of the samples \p samples of both results.
void
AfterRows(const std::string& part,
          const std::string& what,
          const QuicCcNgtcp2DiffResult r[2],
          std::vector<uint64_t> QuicCcNgtcp2DiffResult::*samples,
          std::vector<TableRow>& table)
{
    const std::vector<Time> offsets =
        (part == "oneloss" ? OneLossParams(1200) : SlowStartParams(1200)).afterEvent;
    for (size_t i = 0; i < offsets.size(); ++i)
    {
        std::optional<double> c[2];
        for (int t = 0; t < 2; ++t)
        {
            const std::vector<uint64_t>& v = r[t].*samples;
            if (i < v.size() && v[i] > 0)
            {
                c[t] = 1.0 * v[i];
            }
        }
        std::ostringstream name;
        name << "cwnd at " << what << " + " << offsets[i].GetSeconds() << " s B";
        table.push_back({part, name.str(), c[0], c[1], 0});
    }
}

/// Rows of the slow-start / HyStart++ path.
void
SlowStartRows(const QuicCcNgtcp2DiffResult r[2], std::vector<TableRow>& table)
{
    // cwnd per round while both are in slow start (before either sets ssthresh).
    size_t rounds = std::min(r[0].roundCwnd.size(), r[1].roundCwnd.size());
    for (int t = 0; t < 2; ++t)
    {
        if (r[t].ssthreshSetSeconds)
        {
            const int last = QuicCcNgtcp2DiffRoundOf(r[t], *r[t].ssthreshSetSeconds);
            rounds = std::min(rounds, static_cast<size_t>(std::max(last + 1, 0)));
        }
    }
    for (size_t i = 0; i < rounds; ++i)
    {
        table.push_back({"slowstart",
                         "cwnd round " + std::to_string(i) + " B",
                         1.0 * r[0].roundCwnd[i],
                         1.0 * r[1].roundCwnd[i],
                         0});
    }
    std::optional<double> exitTime[2];
    std::optional<double> exitRound[2];
    std::optional<double> exitCwnd[2];
    std::optional<double> byLoss[2];
    for (int t = 0; t < 2; ++t)
    {
        if (r[t].ssthreshSetSeconds)
        {
            exitTime[t] = *r[t].ssthreshSetSeconds - r[t].firstGrowthSeconds.value_or(0);
            exitRound[t] = QuicCcNgtcp2DiffRoundOf(r[t], *r[t].ssthreshSetSeconds);
            exitCwnd[t] = 1.0 * r[t].ssthreshFirst;
            byLoss[t] = r[t].ssthreshByLoss ? 1.0 : 0.0;
        }
    }
    std::optional<double> cssRound[2];
    std::optional<double> cssTime[2];
    std::optional<double> cssCwnd[2];
    for (int t = 0; t < 2; ++t)
    {
        if (r[t].cssSeconds && r[t].firstGrowthSeconds)
        {
            cssRound[t] = QuicCcNgtcp2DiffRoundOf(r[t], *r[t].cssSeconds);
            cssTime[t] = *r[t].cssSeconds - *r[t].firstGrowthSeconds;
            cssCwnd[t] = 1.0 * r[t].cwndAtCss;
        }
    }
    std::optional<double> cssTrace;
    if (r[0].cssTraceSeconds && r[0].firstGrowthSeconds)
    {
        cssTrace = *r[0].cssTraceSeconds - *r[0].firstGrowthSeconds;
    }
    table.push_back({"slowstart", "CSS entry round", cssRound[0], cssRound[1], 0});
    table.push_back({"slowstart", "CSS entry s after round 0", cssTime[0], cssTime[1], 3});
    table.push_back({"slowstart", "CSS entry s (model's own trace)", cssTrace, std::nullopt, 3});
    table.push_back({"slowstart", "cwnd at CSS entry B", cssCwnd[0], cssCwnd[1], 0});
    table.push_back({"slowstart", "slow start exit by loss (1/0)", byLoss[0], byLoss[1], 0});
    table.push_back({"slowstart", "slow start exit round", exitRound[0], exitRound[1], 0});
    table.push_back({"slowstart", "slow start exit s after round 0", exitTime[0], exitTime[1], 3});
    table.push_back({"slowstart", "ssthresh at exit B", exitCwnd[0], exitCwnd[1], 0});
    AfterRows("slowstart", "exit", r, &QuicCcNgtcp2DiffResult::cwndAfterExit, table);
    table.push_back(
        {"slowstart", "lost packets", 1.0 * r[0].lostPackets, 1.0 * r[1].lostPackets, 0});
}

/// Rows of the one-loss path.
void
OneLossRows(const QuicCcNgtcp2DiffResult r[2],
            const QuicCcNgtcp2DiffParams& p,
            std::vector<TableRow>& table)
{
    std::optional<double> v[8][2];
    for (int t = 0; t < 2; ++t)
    {
        if (!r[t].eventSeconds)
        {
            continue;
        }
        v[0][t] = *r[t].eventSeconds - r[t].firstGrowthSeconds.value_or(0);
        v[1][t] = 1.0 * r[t].cwndBeforeEvent;
        v[2][t] = 1.0 * r[t].ssthreshAfterEvent;
        v[3][t] = KSeconds(r[t].cwndBeforeEvent, r[t].ssthreshAfterEvent, p.maxDatagramSize);
        if (r[t].regainSeconds)
        {
            v[4][t] = *r[t].regainSeconds - *r[t].eventSeconds;
        }
        v[5][t] = 1.0 * r[t].lostPackets;
    }
    table.push_back({"oneloss", "event s after round 0", v[0][0], v[0][1], 3});
    table.push_back({"oneloss", "W_max B (cwnd before the event)", v[1][0], v[1][1], 0});
    table.push_back({"oneloss", "ssthresh after the event B", v[2][0], v[2][1], 0});
    table.push_back({"oneloss", "K s (from W_max and ssthresh)", v[3][0], v[3][1], 3});
    AfterRows("oneloss", "event", r, &QuicCcNgtcp2DiffResult::cwndAfterEvent, table);
    table.push_back({"oneloss", "time to regain W_max s", v[4][0], v[4][1], 3});
    table.push_back({"oneloss", "lost packets", v[5][0], v[5][1], 0});
}

std::string
Cell(const std::optional<double>& v, int precision)
{
    return v ? QuicCcFormat(*v, precision) : "";
}

/// The two sides of the check, in the order of the table's columns.
const std::string kSides[2] = {"quic-cc", "ngtcp2"};

/// The death spiral on both sides, --runs runs each: its rows of the table.
void
RunSpiral(const QuicCcBatchOptions& batch, uint64_t packetSize, std::vector<TableRow>& table)
{
    const std::string* transports = kSides;
    std::vector<QuicCcDeathSpiralResult> results[2];
    results[0].resize(batch.runs);
    results[1].resize(batch.runs);
    QuicCcRunBatch(
        2 * batch.runs,
        batch.jobs,
        [&](size_t w) {
            QuicCcDeathSpiralParams p =
                QuicCcNgtcp2DiffSpiralParams(transports[w / batch.runs], packetSize);
            p.seed = batch.seed;
            p.run = batch.firstRun + w % batch.runs;
            return QuicCcRecordToLine(QuicCcRunDeathSpiral(p));
        },
        batch.Report([&](size_t w) {
            return "death spiral, " + transports[w / batch.runs] + ", RngRun " +
                   std::to_string(batch.firstRun + w % batch.runs);
        }),
        [&](size_t w, const std::string& line) {
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, results[w / batch.runs][w % batch.runs]),
                                "bad result line from a worker");
        });
    SpiralRows(results, table);
}

/// The slow-start and one-loss paths of \p parts on both sides: their rows of the table.
void
RunPaths(const QuicCcBatchOptions& batch,
         const std::vector<std::string>& parts,
         uint64_t packetSize,
         std::vector<TableRow>& table)
{
    const std::string* transports = kSides;
    const auto wanted = [&](const std::string& part) {
        return std::find(parts.begin(), parts.end(), part) != parts.end();
    };
    std::vector<QuicCcNgtcp2DiffParams> diffParams;
    if (wanted("slowstart"))
    {
        diffParams.push_back(SlowStartParams(packetSize));
    }
    if (wanted("oneloss"))
    {
        diffParams.push_back(OneLossParams(packetSize));
    }
    std::vector<QuicCcNgtcp2DiffResult> diff(2 * diffParams.size());
    QuicCcRunBatch(
        diff.size(),
        batch.jobs,
        [&](size_t w) {
            QuicCcNgtcp2DiffParams p = diffParams[w / 2];
            p.transport = transports[w % 2];
            p.seed = batch.seed;
            p.run = batch.firstRun;
            return QuicCcRecordToLine(QuicCcRunNgtcp2Diff(p));
        },
        QuicCcBatchReport{batch.program,
                          QuicCcProgress::NONE,
                          [&](size_t w) {
                              return std::string(diffParams[w / 2].dropDataPacket == 0
                                                     ? "slowstart, "
                                                     : "oneloss, ") +
                                     transports[w % 2];
                          }},
        [&](size_t w, const std::string& line) {
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, diff[w]),
                                "bad result line from a worker");
        });
    for (size_t i = 0; i < diffParams.size(); ++i)
    {
        if (diffParams[i].dropDataPacket == 0)
        {
            SlowStartRows(&diff[2 * i], table);
        }
        else
        {
            OneLossRows(&diff[2 * i], diffParams[i], table);
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string partsText = "spiral,slowstart,oneloss";
    std::vector<std::string> parts;
    uint64_t packetSize = QuicCongestionController::kDefaultMaxDatagramSize;
    QuicCcOptions options(__FILE__);
    options.Text("parts", "Comma-separated: spiral, slowstart, oneloss", partsText)
        .Then([&parts](const std::string& text) {
            parts = QuicCcSplitList("parts", text);
            for (const std::string& part : parts)
            {
                QuicCcParseChoice("parts", part, {"spiral", "slowstart", "oneloss"});
            }
        });
    options
        .Count("mss",
               "Packet size from the first packet on, both sides, bytes (1200..1472)",
               packetSize,
               1200,
               1472)
        .Socket("MaxDatagramSize");
    const QuicCcBatchOptions& batch =
        options.Batch(100, "Death-spiral runs per side (RngRun firstRun..firstRun+runs-1)");
    // The profile and the scenarios set these; a default given on the command line would be
    // overridden silently.
    options.SetByScenario(QuicCcTransportSpec::SocketAttributeNames("IdleTimeout"));
    options.SetByScenario({"ns3::QuicCcSocket::AckBatchWindow",
                           "ns3::QuicCcSocket::ProbeContent",
                           "ns3::QuicCcSocket::PacketSizing",
                           "ns3::QuicCubic::SendIdleTimeout"});
    for (const QuicCcAttributeSetting& s : QuicCcNgtcp2Profile())
    {
        options.SetByScenario({s.name});
    }
    options.Parse(argc, argv, [&] {
        QuicCcRequire(!QuicCcNgtcp2Version().empty(), "parts", partsText, kQuicCcNgtcp2Missing);
        QuicCcRequireWriteFits({"quic-cc", "ngtcp2"},
                               kQuicCcBulkWriteBytes,
                               "the bulk sender's writes");
    });
    const std::unique_ptr<QuicCcOutputFile> csv =
        batch.OpenCsv("part,quantity,model,ngtcp2,difference,ngtcp2_version\n");
    // Every quic-cc socket and controller of this process runs with the profile.
    QuicCcSetNgtcp2ProfileDefaults();
    std::vector<TableRow> table;
    const bool spiral = std::find(parts.begin(), parts.end(), "spiral") != parts.end();
    if (spiral)
    {
        RunSpiral(batch, packetSize, table);
    }
    RunPaths(batch, parts, packetSize, table);

    const std::string version = QuicCcNgtcp2Version();
    std::cout << "Model vs library: quic-cc's CUBIC with the ngtcp2 profile vs ngtcp2 " << version
              << "'s CUBIC, packets of " << packetSize << " B, RngSeed " << batch.seed
              << ", RngRun " << batch.firstRun;
    if (spiral)
    {
        std::cout << ".." << batch.firstRun + batch.runs - 1 << " (spiral)";
    }
    std::cout << "\n\n"
              << std::left << std::setw(11) << "part" << std::setw(36) << "quantity" << std::right
              << std::setw(12) << "model" << std::setw(12) << "ngtcp2" << std::setw(14)
              << "model-ngtcp2"
              << "\n";
    for (const TableRow& row : table)
    {
        std::optional<double> d;
        if (row.model && row.ngtcp2)
        {
            d = *row.model - *row.ngtcp2;
        }
        std::cout << std::left << std::setw(11) << row.part << std::setw(36) << row.quantity
                  << std::right << std::setw(12) << Cell(row.model, row.precision) << std::setw(12)
                  << Cell(row.ngtcp2, row.precision) << std::setw(14) << Cell(d, row.precision)
                  << "\n";
        if (csv)
        {
            csv->Write(row.part + "," + row.quantity + "," + Cell(row.model, row.precision) + "," +
                       Cell(row.ngtcp2, row.precision) + "," + Cell(d, row.precision) + "," +
                       version + "\n");
        }
    }
    if (csv)
    {
        csv->Commit();
    }
    std::cout << "\nRounds: round 0 starts at the first ACK that grows cwnd, each next one latest "
                 "RTT later. CSS entry: the first cwnd step below one packet before ssthresh is "
                 "set. K is RFC 9438 Eq. 2 on the observed W_max and ssthresh.\n";
    return 0;
}
