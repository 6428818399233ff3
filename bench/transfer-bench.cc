/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Macro benchmark: what one simulated bulk transfer costs in wall-clock time, events
 * and memory, with quic-cc (QuicReno, QuicCubic), with ns-3's own TCP (TcpLinuxReno,
 * TcpCubic) and with the real ngtcp2 library (its Reno, CUBIC and BBR, when built) on the same
 * topology, in the same process image and the same build.
 *
 * Every measurement runs in a worker process of its own (the shared batch runner,
 * QuicCcRunBatch, with one task), so that its peak resident set belongs to that one simulation
 * and no state (allocator, singletons, random streams) leaks from one run into the next. The
 * parent only spawns, collects and prints; it never simulates. --child runs one measurement in
 * the process itself (perf, valgrind, by hand).
 *
 *   transfer-bench [--reps=N] [--scaleReps=N] [--sizeReps=N]
 *                  [--parts=compare,ngtcp2,conns,sizes]
 *                  [--connCounts=1,10,100,1000] [--callgrind=1] [--markdown=FILE]
 *
 * The dumbbell runs quic-cc, ns-3 TCP (same topology, N, applications) and an ns-3 UDP
 * baseline; a --child combination the benchmark does not implement is refused (exit 2).
 *
 * This file wires the options to the parts; the jobs live beside it:
 *   transfer-bench-scenario  what one measurement simulates (workload, two-node path, dumbbell)
 *   transfer-bench-harness   worker processes, RESULT lines, runs under callgrind
 *   callgrind-profile        the callgrind output parser (own code vs ns-3 floor)
 *   transfer-bench-series    repetitions and their medians
 *   transfer-bench-report    the Markdown tables and targets of each part
 */
#include "callgrind-profile.h"
#include "quic-cc-command-line.h"
#include "quic-cc-output-file.h"
#include "quic-cc-report.h"
#include "transfer-bench-harness.h"
#include "transfer-bench-report.h"
#include "transfer-bench-scenario.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace transferbench;

int
main(int argc, char* argv[])
{
    // Every option as text, converted by the shared QuicCcParse* functions: a bad value is one
    // line and exit status 2 (QuicCcCommandLine).
    std::string child = "false";
    std::string reps = "7";
    std::string scaleReps = "3";
    std::string sizeReps = "1";
    std::string parts = "compare,ngtcp2,conns,sizes";
    std::string markdown;
    std::string callgrind = "false";
    std::string connCounts = "1,10,100,1000";
    std::string connBytes = "1000000";
    std::string connBytes1000 = "100000";
    std::string splitProfile;
    Spec spec;
    std::string bytes = std::to_string(spec.bytes);
    std::string conns = std::to_string(spec.conns);
    std::string dumbbell = "false";
    std::string loss = "false";
    std::string fullOnly = "false";

    QuicCcCommandLine cmd(__FILE__);
    cmd.AddValues(
        {{"reps", "repetitions of each quic-cc/TCP comparison run (median reported)", &reps},
         {"scaleReps", "repetitions of each connection-count run", &scaleReps},
         {"sizeReps", "repetitions of each transfer-size run (the 1 GB run is long)", &sizeReps},
         {"parts", "comma-separated: compare, ngtcp2, conns, sizes", &parts},
         {"connCounts", "comma-separated connection counts of the dumbbell scaling", &connCounts},
         {"connBytes",
          "bytes per connection in the dumbbell scaling (< 1000 connections)",
          &connBytes},
         {"connBytes1000", "bytes per connection with >= 1000 connections", &connBytes1000},
         {"splitProfile",
          "print the own-code / ns-3 floor split of this callgrind output file (transport: "
          "--proto) and exit",
          &splitProfile},
         {"markdown", "also write the tables as Markdown to this file", &markdown},
         {"proto",
          "internal (--child): quic-reno, quic-cubic, tcp-reno, tcp-cubic, ngtcp2-reno, "
          "ngtcp2-cubic, ngtcp2-bbr, udp-silent (dumbbell only), idle",
          &spec.proto},
         {"bytes", "internal (--child): bytes per connection", &bytes},
         {"conns", "internal (--child): connections", &conns}});
    cmd.AddFlag("callgrind",
                "also profile each comparison cell once under valgrind's callgrind",
                callgrind);
    cmd.AddFlag("child", "internal: run one measurement and print RESULT", child);
    cmd.AddFlag("dumbbell", "internal (--child): dumbbell topology", dumbbell);
    cmd.AddFlag("loss", "internal (--child): 30 % loss for the first 2 s", loss);
    cmd.AddFlag("fullOnly",
                "internal (--child): quic-cc sends only full data packets (PacketSizing FullOnly)",
                fullOnly);
    cmd.Parse(argc, argv);

    bool isChild = false;
    bool withCallgrind = false;
    uint32_t repsN = 0;
    uint32_t scaleRepsN = 0;
    uint32_t sizeRepsN = 0;
    uint64_t connBytesN = 0;
    uint64_t connBytes1000N = 0;
    std::vector<std::string> partList;
    std::vector<uint32_t> counts; // ascending: the scaling rows compare each with the first
    try
    {
        isChild = QuicCcParseBool("child", child);
        spec.bytes = QuicCcParseBytes("bytes", bytes);
        spec.conns = QuicCcParseUnsigned("conns", conns, 1, 1000000);
        spec.dumbbell = QuicCcParseBool("dumbbell", dumbbell);
        spec.loss = QuicCcParseBool("loss", loss);
        spec.fullOnly = QuicCcParseBool("fullOnly", fullOnly);
        withCallgrind = QuicCcParseBool("callgrind", callgrind);
        repsN = QuicCcParseUnsigned("reps", reps, 1, 1000000);
        scaleRepsN = QuicCcParseUnsigned("scaleReps", scaleReps, 1, 1000000);
        sizeRepsN = QuicCcParseUnsigned("sizeReps", sizeReps, 1, 1000000);
        connBytesN = QuicCcParseBytes("connBytes", connBytes);
        connBytes1000N = QuicCcParseBytes("connBytes1000", connBytes1000);
        for (const std::string& p : QuicCcSplitList("parts", parts))
        {
            partList.push_back(
                QuicCcParseChoice("parts", p, {"compare", "ngtcp2", "conns", "sizes"}));
        }
        for (const std::string& c : QuicCcSplitList("connCounts", connCounts))
        {
            counts.push_back(QuicCcParseUnsigned("connCounts", c, 1, 1000000));
            QuicCcRequire(counts.size() == 1 || counts.back() > counts[counts.size() - 2],
                          "connCounts",
                          connCounts,
                          "counts must be ascending");
        }
        if (isChild)
        {
            std::string option;
            const std::string why = Unsupported(spec, option);
            const std::map<std::string, std::string> given{{"proto", spec.proto},
                                                           {"bytes", bytes},
                                                           {"conns", conns},
                                                           {"dumbbell", dumbbell},
                                                           {"loss", loss},
                                                           {"fullOnly", fullOnly}};
            const auto value = given.find(option);
            QuicCcRequire(why.empty(), option, value == given.end() ? "" : value->second, why);
        }
        // The output path is checked before the long runs (written atomically at the end).
        if (!markdown.empty())
        {
            QuicCcCheckOutputFile("markdown", markdown);
        }
    }
    catch (const QuicCcUsageError& e)
    {
        cmd.Exit(e);
    }
    if (!splitProfile.empty())
    {
        const Profile p = TransportOwnShare(splitProfile, IsTcp(spec.proto));
        std::cout << "total " << p.total << " own " << p.own << " ("
                  << QuicCcFormat(100.0 * p.own / std::max<uint64_t>(p.total, 1), 1) << " %) floor "
                  << p.total - p.own << " own-with-ns3-header-code " << p.ownWithNs3Headers << " ("
                  << QuicCcFormat(100.0 * p.ownWithNs3Headers / std::max<uint64_t>(p.total, 1), 1)
                  << " %)\n";
        return 0;
    }
    if (isChild)
    {
        return ChildMain(spec);
    }
    SetSelfPath();
    auto want = [&](const std::string& p) {
        return std::find(partList.begin(), partList.end(), p) != partList.end();
    };

    // Idle child: ns-3 and quic-cc loaded, nothing simulated. Its peak RSS is subtracted.
    Spec idle;
    idle.proto = "idle";
    std::vector<double> idleRss;
    for (int i = 0; i < 3; ++i)
    {
        idleRss.push_back(static_cast<double>(Spawn(idle).maxRssKb));
    }
    const long baselineKb = static_cast<long>(QuicCcMedian(idleRss));
    std::ostringstream md;
    WriteMethod(md, baselineKb);
    const double maxRssRatio =
        want("compare") ? WriteComparison(md, repsN, withCallgrind, baselineKb) : -1;
    const bool ngtcp2Complete = !want("ngtcp2") || WriteNgtcp2Comparison(md, repsN, baselineKb);
    if (want("conns"))
    {
        WriteConnections(md, counts, scaleRepsN, connBytesN, connBytes1000N, baselineKb);
    }
    const double gbRssMb = want("sizes") ? WriteSizes(md, sizeRepsN, baselineKb) : -1;
    WriteMemoryTarget(md, maxRssRatio, gbRssMb);
    std::cout << md.str();
    if (!ngtcp2Complete)
    {
        std::cerr << "transfer-bench: an ngtcp2 comparison transfer did not complete: no "
                     "results written\n";
        return 1;
    }
    if (!markdown.empty())
    {
        QuicCcOutputFile out("transfer-bench", markdown);
        out.Write(md.str());
        out.Commit();
    }
    return 0;
}
