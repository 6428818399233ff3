/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "transfer-bench-report.h"

#include "quic-cc-report.h"
#include "quic-cc-transport-spec.h"
#include "transfer-bench-harness.h"
#include "transfer-bench-series.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>

namespace transferbench
{

/// Largest connection count with ngtcp2 rows in the dumbbell scaling.
constexpr uint32_t kNgtcp2MaxConns = 1000;

namespace
{

std::string
ReadFirst(const char* path, const std::string& key)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
    {
        if (line.rfind(key, 0) == 0)
        {
            const size_t colon = line.find(':');
            std::string v = colon == std::string::npos ? line : line.substr(colon + 1);
            v.erase(0, v.find_first_not_of(" \t"));
            return v;
        }
    }
    return "unknown";
}

bool
IsVirtualMachine()
{
    return ReadFirst("/proc/cpuinfo", "flags").find("hypervisor") != std::string::npos;
}

std::string
LoadAverage()
{
    std::ifstream in("/proc/loadavg");
    double one = 0;
    double five = 0;
    double fifteen = 0;
    in >> one >> five >> fifteen;
    std::ostringstream os;
    os << one << " / " << five << " / " << fifteen << " (1 / 5 / 15 min)";
    return os.str();
}

std::string
SizeName(uint64_t bytes)
{
    if (bytes >= 1'000'000'000 && bytes % 1'000'000'000 == 0)
    {
        return std::to_string(bytes / 1'000'000'000) + " GB";
    }
    if (bytes >= 1'000'000 && bytes % 1'000'000 == 0)
    {
        return std::to_string(bytes / 1'000'000) + " MB";
    }
    if (bytes >= 1'000 && bytes % 1'000 == 0)
    {
        return std::to_string(bytes / 1'000) + " kB";
    }
    return std::to_string(bytes) + " B";
}

/// \p v in fixed notation with \p digits decimals.
std::string
Fixed(double v, int digits)
{
    return ns3::QuicCcFormat(v, digits);
}

/// One row of a per-transport table: \p r's first run and medians, under loss label \p loss.
std::string
SeriesRow(const std::string& loss, const Series& r)
{
    const Outcome& o = r.runs.front();
    std::ostringstream row;
    row << "| " << loss << " | " << r.spec.proto << " | "
        << (o.completed ? Fixed(o.simSeconds, 3)
                        : "not completed (" + std::to_string(o.received) + " B)")
        << " | " << o.events << (r.deterministic ? "" : " (varies!)") << " | "
        << Fixed(r.cpu * 1e3, 1) << " | " << Fixed(r.spread * 100, 0) << " % | "
        << Fixed(r.wall * 1e3, 1) << " | " << Fixed(r.cpu * 1e9 / o.events, 0) << " | "
        << Fixed(r.rssMb, 1) << " |\n";
    return row.str();
}

/// The header of the per-transport table SeriesRow() fills.
constexpr char kSeriesHeader[] =
    "| loss | transport | completed at (sim s) | events | CPU per transfer (ms) | CPU "
    "spread | wall per transfer (ms) | ns CPU per event | peak RSS (MiB) |\n"
    "|---|---|---|---|---|---|---|---|---|\n";

} // namespace

void
WriteMethod(std::ostream& md, long baselineKb)
{
    md << "Machine: " << std::thread::hardware_concurrency() << " CPUs (nproc), "
       << ReadFirst("/proc/cpuinfo", "model name") << ", " << ReadFirst("/proc/meminfo", "MemTotal")
       << " RAM" << (IsVirtualMachine() ? ", virtual machine" : "") << "; compiler "
       << QUICCC_BENCH_COMPILER << "; build type " << QUICCC_BENCH_BUILD_TYPE
       << " (quic-cc); ns-3 3.37 from Debian libns3-dev (release build). Load average when the "
          "run started: "
       << LoadAverage() << ".\n\n"
       << "Every measurement is one worker process (a fork of the benchmark, which never "
          "simulates). Time covers "
          "building the topology, Simulator::Run and Simulator::Destroy of that one simulation; "
          "CPU is the worker's process CPU time over that span (robust when other processes share "
          "the machine), wall the elapsed time. Memory is the worker's peak resident set "
          "(getrusage "
          "ru_maxrss; every worker first faults in all pages of the mapped libraries) minus that "
          "of an idle worker that simulates "
          "nothing ("
       << Fixed(baselineKb / 1024.0, 1) << " MiB).\n\n";
}

double
WriteComparison(std::ostream& md, uint32_t reps, bool callgrind, long baselineKb)
{
    const uint64_t segment = QuicStreamPayloadPerDatagram();
    double maxRssRatio = -1;
    std::cerr << "compare (" << reps << " repetitions each):\n";
    md << "### Same 10 MB transfer, quic-cc vs ns-3 TCP\n\n"
       << "Two nodes, one 100 Mbps link with 5 ms delay each way (RTT 10 ms), drop-tail queue "
       << kQueuePackets << " packets per device; BulkSend (" << kSendSize
       << "-byte writes) to PacketSink. quic-cc: " << kDatagram
       << "-byte datagrams, receiver ACK policy Rfc9000 (every 2nd packet), other attributes "
          "default (HyStart++ on). TCP (TcpLinuxReno, TcpCubic with ns-3 defaults): "
          "SegmentSize "
       << segment << " B = 1350 B datagram - " << (kDatagram - segment)
       << " B of quic-cc overhead per data packet (short header 9 B + 2-byte packet number; "
          "STREAM frame type 1 B + 4-byte offset + 2-byte length, as in the middle of the "
          "transfer), so both carry the same application bytes per data packet and send the "
          "same number of them; delayed ACK every 2nd segment, SACK and timestamps on (ns-3 "
          "defaults), 128 MiB socket buffers like quic-cc. Loss: a RateErrorModel drops 30 % "
          "of the packets each device receives (both directions) until t = 2 s. Median of "
       << reps << " runs (the runs are deterministic: the same events each time).\n\n"
       << kSeriesHeader;
    std::vector<std::string> ratioRows;
    std::vector<std::string> sizingRows;
    double minSizingRatio = 1e9;
    double maxSizingRatio = 0;
    double minSizingIr = 1e9;
    double maxSizingIr = 0;
    double maxIrRatio = 0;  // default sizing, quic-cc / TCP instructions
    double maxOwnShare = 0; // quic-cc's own code, share of its run's instructions
    std::vector<std::string> profileRows;
    double minRatio = 1e9;
    double maxRatio = 0;
    for (bool loss : {false, true})
    {
        std::vector<Series> series;
        for (const std::string proto : {"quic-reno", "tcp-reno", "quic-cubic", "tcp-cubic"})
        {
            Spec s;
            s.proto = proto;
            s.loss = loss;
            series.push_back(Measure(s, reps, baselineKb));
            md << SeriesRow(loss ? "30 % for 2 s" : "0 %", series.back());
        }
        for (size_t i = 0; i < 2; ++i)
        {
            const Series& q = series[2 * i];
            const Series& t = series[2 * i + 1];
            const double ratio = q.cpu / t.cpu;
            minRatio = std::min(minRatio, ratio);
            maxRatio = std::max(maxRatio, ratio);
            const double evRatio =
                static_cast<double>(q.runs.front().events) / t.runs.front().events;
            const double rssRatio = q.rssMb / std::max(t.rssMb, 0.1);
            maxRssRatio = std::max(maxRssRatio, rssRatio);
            std::ostringstream row;
            row << "| " << (loss ? "30 % for 2 s" : "0 %") << " | " << q.spec.proto << " / "
                << t.spec.proto << " | " << Fixed(ratio, 2) << " | " << Fixed(q.wall / t.wall, 2)
                << " | " << Fixed(evRatio, 2) << " | " << Fixed(ratio / evRatio, 2) << " | "
                << Fixed(rssRatio, 2) << " | " << (ratio <= 0.8 ? "yes" : "**no**") << " | "
                << (rssRatio <= 1.5 ? "yes" : "**no**") << " |\n";
            ratioRows.push_back(row.str());
            // The same quic-cc cell with ns-3 TCP's packet sizing (only full data packets).
            Spec full = q.spec;
            full.fullOnly = true;
            const Series f = Measure(full, reps, baselineKb);
            const double fullRatio = f.cpu / t.cpu;
            const double fullEvRatio =
                static_cast<double>(f.runs.front().events) / t.runs.front().events;
            double tcpIr = 0;
            if (callgrind)
            {
                const Profile pq = ProfileRun(q.spec);
                const Profile pt = ProfileRun(t.spec);
                tcpIr = static_cast<double>(pt.total);
                maxIrRatio = std::max(maxIrRatio, static_cast<double>(pq.total) / pt.total);
                maxOwnShare = std::max(maxOwnShare, static_cast<double>(pq.own) / pq.total);
                std::ostringstream prow;
                prow << "| " << (loss ? "30 % for 2 s" : "0 %") << " | " << q.spec.proto << " / "
                     << t.spec.proto << " | " << Fixed(pq.total / 1e6, 1) << " | "
                     << Fixed(pq.own / 1e6, 1) << " (" << Fixed(100.0 * pq.own / pq.total, 1)
                     << " %) | " << Fixed(pq.ownWithNs3Headers / 1e6, 1) << " ("
                     << Fixed(100.0 * pq.ownWithNs3Headers / pq.total, 1) << " %) | "
                     << Fixed((pq.total - pq.own) / 1e6, 1) << " | " << Fixed(pt.total / 1e6, 1)
                     << " | " << Fixed(pt.own / 1e6, 1) << " ("
                     << Fixed(100.0 * pt.own / pt.total, 1) << " %) | "
                     << Fixed(static_cast<double>(pq.total) / pt.total, 2) << " | "
                     << Fixed(static_cast<double>(pq.total - pq.own) / pt.total, 2) << " |\n";
                profileRows.push_back(prow.str());
            }
            minSizingRatio = std::min(minSizingRatio, fullRatio);
            maxSizingRatio = std::max(maxSizingRatio, fullRatio);
            std::ostringstream srow;
            srow << "| " << (loss ? "30 % for 2 s" : "0 %") << " | " << q.spec.proto << " / "
                 << t.spec.proto << " | " << q.runs.front().events << " | " << f.runs.front().events
                 << " | " << Fixed(f.cpu * 1e3, 1) << " | " << Fixed(fullRatio, 2) << " | "
                 << Fixed(fullEvRatio, 2) << " | " << Fixed(fullRatio / fullEvRatio, 2) << " |";
            if (callgrind)
            {
                const Profile pf = ProfileRun(full);
                const double irRatio = static_cast<double>(pf.total) / tcpIr;
                minSizingIr = std::min(minSizingIr, irRatio);
                maxSizingIr = std::max(maxSizingIr, irRatio);
                srow << " " << Fixed(pf.total / 1e6, 1) << " | " << Fixed(pf.own / 1e6, 1) << " ("
                     << Fixed(100.0 * pf.own / pf.total, 1) << " %) | " << Fixed(irRatio, 2)
                     << " |";
            }
            sizingRows.push_back(srow.str() + "\n");
        }
    }
    md << "\nRatios quic-cc / ns-3 TCP. Targets: CPU ratio <= 0.80 and peak RSS ratio <= 1.5 "
          "in every cell.\n\n"
       << "| loss | pair | CPU ratio | wall ratio | events ratio | CPU per event ratio | "
          "memory "
          "ratio | CPU <= 0.80 | RSS <= 1.5 |\n"
       << "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& r : ratioRows)
    {
        md << r;
    }
    if (callgrind)
    {
        md << "\nInstructions per cell (callgrind, one run each, Ir in millions). Own code: the "
              "self cost of the functions a transport defines plus their calls into the C/C++ "
              "runtime (malloc, memcpy, containers); TCP's are the functions named ns3::Tcp*, "
              "quic-cc's those of libns3-quic-cc except ns-3's inline and template code "
              "compiled into it (functions defined in ns-3's headers: the Packet destructor, "
              "Ptr, Time conversions, traced values), which is ns-3's code as it is when TCP "
              "calls it. \"With ns-3 header code\" counts that code as quic-cc's too. The "
              "floor is the rest (ns-3's IPv4/UDP/point-to-point, Packet, scheduler, "
              "applications). \"Floor / TCP\" is the ratio a quic-cc whose own code cost "
              "nothing would reach.\n\n"
           << "| loss | pair | quic-cc Ir | quic-cc own | with ns-3 header code | quic-cc floor | "
              "TCP Ir | TCP own | Ir ratio | floor / TCP |\n"
           << "|---|---|---|---|---|---|---|---|---|---|\n";
        for (const auto& r : profileRows)
        {
            md << r;
        }
        const bool irMet = maxIrRatio <= 0.8 && maxOwnShare <= 0.12;
        md << "\nTarget 1 (instructions): quic-cc / ns-3 TCP <= 0.80 by instructions and "
              "quic-cc's own code <= 12 % of its run in every cell, default packet sizing: "
           << (irMet ? "met" : "**not met**") << " (largest Ir ratio " << Fixed(maxIrRatio, 2)
           << ", largest own share " << Fixed(100.0 * maxOwnShare, 1) << " %).\n";
    }
    md << "\nMemory: BulkSend hands the whole 10 MB to the socket at once (SndBufSize is "
          "128 MiB) as virtual, zero-filled ns-3 packets. quic-cc's send stream keeps those "
          "packets and its datagrams carry fragments of them, as ns-3 TCP's TcpTxBuffer and "
          "segments do, and its receive stream keeps fragments of the received datagrams, as "
          "TcpRxBuffer keeps segments, so neither transport holds the stream's bytes in "
          "memory.\n";
    md << "\nPacket sizing. By default (PacketSizing FreeWindow, as quiche) quic-cc sizes each "
          "data packet to the free congestion window, so a window that grows by less than a "
          "packet per ACK (CUBIC in congestion avoidance) sends extra short packets; ns-3 "
          "TCP sends only full segments while more data waits (sender-side silly-window "
          "avoidance in TcpSocketBase::SendPendingData). The same quic-cc cells with "
          "PacketSizing FullOnly, ns-3 TCP's rule (median of "
       << reps << " runs; the TCP runs are the ones above):\n\n"
       << "| loss | pair | quic-cc events, FreeWindow | quic-cc events, FullOnly | quic-cc "
          "CPU, FullOnly (ms) | CPU ratio | events ratio | CPU per event ratio |"
       << (callgrind ? " quic-cc Ir, FullOnly | quic-cc own | Ir ratio |\n"
                       "|---|---|---|---|---|---|---|---|---|---|---|\n"
                     : "\n|---|---|---|---|---|---|---|---|\n");
    for (const auto& r : sizingRows)
    {
        md << r;
    }
    md << "\nTarget 1 (CPU): quic-cc / ns-3 TCP <= 0.80 in every cell: "
       << (maxRatio <= 0.8 ? "met" : "**not met**") << " (CPU ratio " << Fixed(minRatio, 2)
       << " to " << Fixed(maxRatio, 2) << "; with ns-3 TCP's packet sizing "
       << Fixed(minSizingRatio, 2) << " to " << Fixed(maxSizingRatio, 2)
       << (callgrind
               ? ", instruction ratio " + Fixed(minSizingIr, 2) + " to " + Fixed(maxSizingIr, 2)
               : std::string())
       << ")" << (maxRatio <= 0.8 ? "" : "; what is left: section \"What is left\" at the end")
       << ".\n\n";
    return maxRssRatio;
}

void
WriteConnections(std::ostream& md,
                 const std::vector<uint32_t>& counts,
                 uint32_t scaleReps,
                 uint64_t connBytes,
                 uint64_t connBytes1000,
                 long baselineKb)
{
    std::ostringstream scaleTarget;
    std::cerr << "connections (" << scaleReps << " repetitions each):\n";
    md << "### Concurrent connections on one dumbbell bottleneck, quic-cc vs ns-3 TCP\n\n"
       << "QuicCubic and ns-3 TcpCubic (settings of the comparison above), and up to "
       << kNgtcp2MaxConns
       << " connections the real ngtcp2 library's CUBIC (ngtcp2-cubic, where built; its stream "
          "bytes are real: it holds those in flight, the rest stays in BulkSend's packets); "
          "leaf pairs = min(N, "
          "10): "
          "sender leaf -- access, 0.5 ms -- R1 -- bottleneck, 4 ms -- R2 -- access, 0.5 ms -- "
          "receiver leaf (RTT 10 ms). The bottleneck gives every connection the same share: "
          "max(100 Mbps, N x 10 Mbps), drop-tail queue max(100, N) packets (with a fixed 100 "
          "Mbps, 1000 connections at quic-cc's 2-packet minimum window alone overload the "
          "path: "
          "a congestion collapse in which not all of them finish). Access links run at "
          "max(1 Gbps, N x 10 Mbps), 10x the share of their leaf pair's connections, so "
          "packets queue only at the bottleneck. Every device has the plain point-to-point "
          "drop-tail queue (100 packets; no traffic-control queue disc, whose per-flow "
          "state would count as per-connection memory). Connection c runs on leaf "
          "pair c mod 10 and starts at c x 10 us; the run ends when every byte arrived. "
          "Transfer per connection: "
       << SizeName(connBytes) << " for N < 1000, " << SizeName(connBytes1000)
       << " for N >= 1000. Baseline: the same nodes, links and routes with one bound, "
          "connected ns-3 UDP socket per connection (and one per receiver leaf) that sends "
          "nothing; \"beyond baseline\" is (peak RSS - the baseline's) / N. Median of "
       << scaleReps << " runs.\n\n"
       << "| connections | bytes each | transport | completed at (sim s) | events | CPU (s) | "
          "CPU per connection (ms) | vs first row | peak RSS (MiB) | RSS per connection (kiB) "
          "| "
          "beyond baseline (kiB) |\n"
       << "|---|---|---|---|---|---|---|---|---|---|---|\n";
    std::ostringstream ratios;
    ratios << "| connections | CPU quic-cc / TCP | RSS quic-cc / TCP | RSS beyond baseline "
              "quic-cc / TCP |\n"
           << "|---|---|---|---|\n";
    std::map<std::string, double> firstCpuPerConn;
    std::map<uint32_t, std::map<std::string, double>> cpuPerConnAt; // ms
    std::ostringstream ngtcp2Target;
    for (uint32_t conns : counts)
    {
        std::map<std::string, Series> r;
        // The real ngtcp2 library up to 1000 connections (beyond, tens of CPU minutes).
        std::vector<std::string> protos{"udp-silent", "quic-cubic", "tcp-cubic"};
        if (!ns3::QuicCcNgtcp2Version().empty() && conns <= kNgtcp2MaxConns)
        {
            protos.push_back("ngtcp2-cubic");
        }
        for (const std::string& proto : protos)
        {
            Spec s;
            s.proto = proto;
            s.conns = conns;
            s.bytes = conns >= 1000 ? connBytes1000 : connBytes;
            s.dumbbell = true;
            r[proto] = Measure(s, proto == kUdpSilent ? 1 : scaleReps, baselineKb);
        }
        const double base = r[kUdpSilent].rssMb;
        for (const std::string& proto : protos)
        {
            if (proto == kUdpSilent)
            {
                continue;
            }
            const Series& x = r[proto];
            const Outcome& o = x.runs.front();
            const double perConn = x.cpu * 1e3 / conns;
            cpuPerConnAt[conns][proto] = perConn;
            if (!firstCpuPerConn.count(proto))
            {
                firstCpuPerConn[proto] = perConn;
            }
            md << "| " << conns << " | " << SizeName(x.spec.bytes) << " | " << proto << " | "
               << (o.completed ? Fixed(o.simSeconds, 3)
                               : "not completed (" + std::to_string(o.received) + " B)")
               << " | " << o.events << " | " << Fixed(x.cpu, 3) << " | " << Fixed(perConn, 2)
               << " | " << Fixed(perConn / firstCpuPerConn[proto], 2) << "x | " << Fixed(x.rssMb, 1)
               << " | " << Fixed(x.rssMb * 1024 / conns, 1) << " | "
               << Fixed((x.rssMb - base) * 1024 / conns, 1) << " |\n";
        }
        const Series& q = r["quic-cubic"];
        const Series& t = r["tcp-cubic"];
        if (conns == kNgtcp2MaxConns && r.count("ngtcp2-cubic"))
        {
            const Series& n = r["ngtcp2-cubic"];
            const double beyond = (n.rssMb - base) * 1024 * 1.024 / conns; // kB
            ngtcp2Target << "Target 3 (ngtcp2 scale): " << conns
                         << " ngtcp2 connections complete, RSS per connection within 100 kB "
                            "beyond the ns-3 UDP baseline: "
                         << (n.runs.front().completed && beyond <= 100 ? "met" : "**not met**")
                         << " (" << (n.runs.front().completed ? "completed" : "NOT completed")
                         << ", " << Fixed(beyond, 1) << " kB per connection; quic-cc "
                         << Fixed((q.rssMb - base) * 1024 * 1.024 / conns, 1) << " kB, TCP "
                         << Fixed((t.rssMb - base) * 1024 * 1.024 / conns, 1) << " kB; "
                         << Fixed(n.cpu * 1e3 / conns, 2) << " ms CPU per connection).\n\n";
        }
        ratios << "| " << conns << " | " << Fixed(q.cpu / t.cpu, 2) << " | "
               << Fixed(q.rssMb / std::max(t.rssMb, 0.1), 2) << " | "
               << Fixed((q.rssMb - base) / std::max(t.rssMb - base, 0.1), 2) << " |\n";
        md << "| " << conns << " | | udp-silent baseline | | " << r[kUdpSilent].runs.front().events
           << " | " << Fixed(r[kUdpSilent].cpu, 3) << " | | | " << Fixed(base, 1) << " | "
           << Fixed(base * 1024 / conns, 1) << " | |\n";
        if (conns == counts.back())
        {
            const double beyond = (q.rssMb - base) * 1024 / conns;
            scaleTarget << "Target 3 (scale): " << conns
                        << " connections complete, RSS per connection "
                        << "under 40 kB beyond the ns-3 UDP baseline: "
                        << (conns >= 10000 && q.runs.front().completed && beyond * 1.024 < 40
                                ? "met"
                            : conns >= 10000
                                ? "**not met**"
                                : "not measured (10,000 connections: make bench-scale)")
                        << " (" << conns << " connections: "
                        << (q.runs.front().completed ? "completed" : "NOT completed") << ", "
                        << Fixed(beyond * 1.024, 1) << " kB per connection beyond the baseline, "
                        << Fixed(q.cpu * 1e3 / conns, 2) << " ms CPU per connection; TCP "
                        << Fixed((t.rssMb - base) * 1024 * 1.024 / conns, 1) << " kB, "
                        << Fixed(t.cpu * 1e3 / conns, 2) << " ms)"
                        << (conns >= 10000 && !(q.runs.front().completed && beyond * 1.024 < 40)
                                ? "; what is left: section \"What is left\" at the end"
                                : "")
                        << ".\n\n";
        }
    }
    md << "\nRatios measured side by side in this run:\n\n" << ratios.str();
    if (cpuPerConnAt.count(1000) && counts.back() > 1000)
    {
        const double q =
            cpuPerConnAt[counts.back()]["quic-cubic"] / cpuPerConnAt[1000]["quic-cubic"];
        const double t = cpuPerConnAt[counts.back()]["tcp-cubic"] / cpuPerConnAt[1000]["tcp-cubic"];
        md << "\nScaling: CPU per connection at " << counts.back() << " connections within 1.3x of "
           << "the 1000-connection figure: " << (q <= 1.3 ? "met" : "**not met**") << " (quic-cc "
           << Fixed(q, 2) << "x, ns-3 TCP " << Fixed(t, 2) << "x on the same topology).\n";
    }
    md << "\n" << scaleTarget.str() << ngtcp2Target.str();
}

double
WriteSizes(std::ostream& md, uint32_t sizeReps, long baselineKb)
{
    const uint64_t segment = QuicStreamPayloadPerDatagram();
    double gbRssMb = -1;
    std::cerr << "sizes (" << sizeReps << " repetitions each):\n";
    md << "### Transfer size, one quic-cc connection\n\n"
       << "QuicCubic on the two-node path of the comparison, no loss. Linear cost means a flat "
          "ns per byte. Median of "
       << sizeReps << " run(s).\n\n"
       << "| size | completed at (sim s) | events | events per data packet | CPU (s) | wall "
          "(s) | "
          "ns CPU per byte | vs 10 MB | peak RSS (MiB) |\n"
       << "|---|---|---|---|---|---|---|---|---|\n";
    double first = 0;
    double worst = 0;
    for (uint64_t bytes : {10'000'000ull, 100'000'000ull, 1'000'000'000ull})
    {
        Spec s;
        s.proto = "quic-cubic";
        s.bytes = bytes;
        Series r = Measure(s, sizeReps, baselineKb);
        const Outcome& o = r.runs.front();
        const double nsPerByte = r.cpu * 1e9 / static_cast<double>(bytes);
        first = first == 0 ? nsPerByte : first;
        worst = std::max(worst, nsPerByte / first);
        const double packets = static_cast<double>(bytes) / static_cast<double>(segment);
        md << "| " << SizeName(bytes) << " | "
           << (o.completed ? Fixed(o.simSeconds, 3) : "not completed") << " | " << o.events << " | "
           << Fixed(o.events / packets, 2) << " | " << Fixed(r.cpu, 2) << " | " << Fixed(r.wall, 2)
           << " | " << Fixed(nsPerByte, 2) << " | " << Fixed(nsPerByte / first, 2) << "x | "
           << Fixed(r.rssMb, 1) << " |\n";
        gbRssMb = bytes == 1'000'000'000ull ? r.rssMb : gbRssMb;
    }
    md << "\nTarget 4 (keep): cost grows linearly with bytes (ns per byte within 25 % of the "
          "10 MB "
          "run's): "
       << (worst <= 1.25 ? "met" : "**not met**") << " (largest ratio " << Fixed(worst, 2)
       << "x).\n\n";
    return gbRssMb;
}

void
WriteMemoryTarget(std::ostream& md, double maxRssRatio, double gbRssMb)
{
    if (maxRssRatio < 0 && gbRssMb < 0)
    {
        return;
    }
    const bool met =
        maxRssRatio >= 0 && maxRssRatio <= 1.5 && gbRssMb >= 0 && gbRssMb * 1.048576 < 50;
    md << "Target 2 (memory): peak RSS quic-cc / ns-3 TCP <= 1.5 in every cell and a 1 GB "
          "transfer "
          "under 50 MB: "
       << (met                              ? "met"
           : maxRssRatio < 0 || gbRssMb < 0 ? "not measured (needs parts compare and sizes)"
                                            : "**not met**")
       << " (largest RSS ratio " << (maxRssRatio < 0 ? std::string("-") : Fixed(maxRssRatio, 2))
       << ", 1 GB: " << (gbRssMb < 0 ? std::string("-") : Fixed(gbRssMb * 1.048576, 1) + " MB")
       << ").\n\n";
}

bool
WriteNgtcp2Comparison(std::ostream& md, uint32_t reps, long baselineKb)
{
    md << "### Same 10 MB transfer, quic-cc vs the real ngtcp2 library\n\n";
    const std::string version = ns3::QuicCcNgtcp2Version();
    if (version.empty())
    {
        md << "Skipped: this build has no ngtcp2 transport (configure with "
              "-DQUICCC_NGTCP2=ON).\n\n";
        return true;
    }
    std::cerr << "ngtcp2 (" << reps << " repetitions each):\n";
    md << "The comparison's path, transfer and loss phase, over ns3::QuicCcNgtcp2SocketFactory: "
          "ngtcp2 "
       << version << " in the same simulation (its own controller, pacing, ACK policy and frames; "
       << kDatagram
       << "-byte UDP payloads from the first packet; the handshake's sizes and round trips "
          "modelled, its cryptography not) against quic-cc with the comparison's settings. "
          "The CPU per transfer is what simulating one transfer costs, the library's own work "
          "included. Median of "
       << reps
       << " runs; every transfer must deliver all its bytes (else the benchmark "
          "fails).\n\n"
       << kSeriesHeader;
    std::vector<std::string> ratioRows;
    bool complete = true;
    for (bool loss : {false, true})
    {
        const std::string label = loss ? "30 % for 2 s" : "0 %";
        std::map<std::string, Series> series;
        for (const std::string proto :
             {"quic-reno", "ngtcp2-reno", "quic-cubic", "ngtcp2-cubic", "ngtcp2-bbr"})
        {
            Spec s;
            s.proto = proto;
            s.loss = loss;
            const Series r = Measure(s, reps, baselineKb);
            for (const Outcome& o : r.runs)
            {
                if (!o.completed || o.received != s.bytes)
                {
                    std::cerr << "transfer-bench: " << proto << " (" << label << ") delivered "
                              << o.received << " of " << s.bytes << " bytes\n";
                    complete = false;
                }
            }
            md << SeriesRow(label, r);
            series.emplace(proto, r);
        }
        for (const std::string cc : {"reno", "cubic"})
        {
            const Series& n = series.at("ngtcp2-" + cc);
            const Series& q = series.at("quic-" + cc);
            const double evRatio =
                static_cast<double>(n.runs.front().events) / q.runs.front().events;
            std::ostringstream row;
            row << "| " << label << " | " << n.spec.proto << " / " << q.spec.proto << " | "
                << Fixed(n.cpu / q.cpu, 2) << " | " << Fixed(n.wall / q.wall, 2) << " | "
                << Fixed(evRatio, 2) << " | " << Fixed(n.cpu / q.cpu / evRatio, 2) << " | "
                << Fixed(n.runs.front().simSeconds / q.runs.front().simSeconds, 2) << " |\n";
            ratioRows.push_back(row.str());
        }
    }
    md << "\nRatios ngtcp2 / quic-cc, same run (no target: a measurement of what a real stack "
          "costs in the simulator):\n\n"
       << "| loss | pair | CPU ratio | wall ratio | events ratio | CPU per event ratio | "
          "completion time ratio |\n"
       << "|---|---|---|---|---|---|---|\n";
    for (const auto& r : ratioRows)
    {
        md << r;
    }
    md << "\n";
    return complete;
}

} // namespace transferbench
