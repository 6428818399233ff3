/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Macro benchmark: what one simulated bulk transfer costs in wall-clock time, events
 * and memory, with quic-cc (QuicReno, QuicCubic) and with ns-3's own TCP (TcpLinuxReno,
 * TcpCubic) on the same topology, in the same process image and the same build.
 *
 * Every measurement runs in a worker process of its own (the shared batch runner,
 * QuicCcRunBatch, with one task), so that its peak resident set belongs to that one simulation
 * and no state (allocator, singletons, random streams) leaks from one run into the next. The
 * parent only spawns, collects and prints; it never simulates. --child runs one measurement in
 * the process itself (perf, valgrind, by hand).
 *
 *   transfer-bench [--reps=N] [--scaleReps=N] [--sizeReps=N] [--parts=compare,conns,sizes]
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

#include "ns3/command-line.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace transferbench;

namespace
{

std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, sep))
    {
        if (!item.empty())
        {
            out.push_back(item);
        }
    }
    return out;
}

/// A bad command-line value: one line on stderr naming it; the exit status is 2.
int
BadOption(const std::string& option, const std::string& value, const std::string& reason)
{
    std::cerr << "transfer-bench: --" << option << "=" << value << ": " << reason << std::endl;
    return 2;
}

} // namespace

int
main(int argc, char* argv[])
{
    bool child = false;
    Spec spec;
    uint32_t reps = 7;
    uint32_t scaleReps = 3;
    uint32_t sizeReps = 1;
    std::string parts = "compare,conns,sizes";
    std::string markdown;
    bool callgrind = false;
    std::string connCounts = "1,10,100,1000";
    uint64_t connBytes = 1'000'000;
    uint64_t connBytes1000 = 100'000;

    CommandLine cmd(__FILE__);
    cmd.AddValue("reps", "repetitions of each quic-cc/TCP comparison run (median reported)", reps);
    cmd.AddValue("scaleReps", "repetitions of each connection-count run", scaleReps);
    cmd.AddValue("sizeReps",
                 "repetitions of each transfer-size run (the 1 GB run is long)",
                 sizeReps);
    cmd.AddValue("parts", "comma-separated: compare, conns, sizes", parts);
    cmd.AddValue("connCounts",
                 "comma-separated connection counts of the dumbbell scaling",
                 connCounts);
    cmd.AddValue("connBytes",
                 "bytes per connection in the dumbbell scaling (< 1000 connections)",
                 connBytes);
    cmd.AddValue("connBytes1000", "bytes per connection with >= 1000 connections", connBytes1000);
    cmd.AddValue("callgrind",
                 "also profile each comparison cell once under valgrind's callgrind",
                 callgrind);
    std::string splitProfile;
    cmd.AddValue("splitProfile",
                 "print the own-code / ns-3 floor split of this callgrind output file (transport: "
                 "--proto) and exit",
                 splitProfile);
    cmd.AddValue("markdown", "also write the tables as Markdown to this file", markdown);
    cmd.AddValue("child", "internal: run one measurement and print RESULT", child);
    cmd.AddValue("proto",
                 "internal (--child): quic-reno, quic-cubic, tcp-reno, tcp-cubic, udp-silent "
                 "(dumbbell only), idle",
                 spec.proto);
    cmd.AddValue("bytes", "internal (--child): bytes per connection", spec.bytes);
    cmd.AddValue("conns", "internal (--child): connections", spec.conns);
    cmd.AddValue("dumbbell", "internal (--child): dumbbell topology", spec.dumbbell);
    cmd.AddValue("loss", "internal (--child): 30 % loss for the first 2 s", spec.loss);
    cmd.AddValue("fullOnly",
                 "internal (--child): quic-cc sends only full data packets (PacketSizing FullOnly)",
                 spec.fullOnly);
    cmd.Parse(argc, argv);

    if (!splitProfile.empty())
    {
        const Profile p = TransportOwnShare(splitProfile, IsTcp(spec.proto));
        std::cout << "total " << p.total << " own " << p.own << " ("
                  << QuicCcFormat(100.0 * p.own / std::max<uint64_t>(p.total, 1), 1) << " %) floor "
                  << p.total - p.own << "\n";
        return 0;
    }
    if (child)
    {
        std::string option;
        const std::string why = Unsupported(spec, option);
        if (!why.empty())
        {
            const std::string value = option == "proto"      ? spec.proto
                                      : option == "conns"    ? std::to_string(spec.conns)
                                      : option == "loss"     ? std::to_string(spec.loss)
                                      : option == "fullOnly" ? std::to_string(spec.fullOnly)
                                                             : std::to_string(spec.bytes);
            return BadOption(option, value, why);
        }
        return ChildMain(spec);
    }
    for (const auto& [option, value] :
         {std::pair{"reps", reps}, {"scaleReps", scaleReps}, {"sizeReps", sizeReps}})
    {
        if (value == 0)
        {
            return BadOption(option, "0", "repetitions must be >= 1");
        }
    }
    SetSelfPath();

    const std::vector<std::string> partList = Split(parts, ',');
    auto want = [&](const std::string& p) {
        return std::find(partList.begin(), partList.end(), p) != partList.end();
    };
    for (const auto& p : partList)
    {
        if (p != "compare" && p != "conns" && p != "sizes")
        {
            return BadOption("parts", parts, "unknown part '" + p + "' (compare, conns, sizes)");
        }
    }
    // Connection counts, ascending (the scaling rows compare each with the first).
    std::vector<uint32_t> counts;
    for (const auto& c : Split(connCounts, ','))
    {
        char* end = nullptr;
        const unsigned long v = std::strtoul(c.c_str(), &end, 10);
        if (*end != '\0' || v == 0 || v > 1'000'000 || (!counts.empty() && v <= counts.back()))
        {
            return BadOption("connCounts",
                             connCounts,
                             "counts must be ascending integers in 1..1000000");
        }
        counts.push_back(static_cast<uint32_t>(v));
    }
    if (counts.empty())
    {
        return BadOption("connCounts", connCounts, "no connection count");
    }
    if (connBytes == 0 || connBytes1000 == 0)
    {
        return BadOption(connBytes == 0 ? "connBytes" : "connBytes1000", "0", "must be >= 1");
    }
    // The output path is checked before the long runs (written atomically at the end).
    if (!markdown.empty())
    {
        try
        {
            QuicCcCheckOutputFile("markdown", markdown);
        }
        catch (const QuicCcUsageError& e)
        {
            return BadOption(e.option, e.value, e.reason);
        }
    }

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
        want("compare") ? WriteComparison(md, reps, callgrind, baselineKb) : -1;
    if (want("conns"))
    {
        WriteConnections(md, counts, scaleReps, connBytes, connBytes1000, baselineKb);
    }
    const double gbRssMb = want("sizes") ? WriteSizes(md, sizeReps, baselineKb) : -1;
    WriteMemoryTarget(md, maxRssRatio, gbRssMb);
    std::cout << md.str();
    if (!markdown.empty())
    {
        QuicCcOutputFile out("transfer-bench", markdown);
        out.Write(md.str());
        out.Commit();
    }
    return 0;
}
