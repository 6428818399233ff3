/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Macro benchmark (issue #7): what one simulated bulk transfer costs in wall-clock time, events
 * and memory, with quic-cc (QuicReno, QuicCubic) and with ns-3's own TCP (TcpLinuxReno,
 * TcpCubic) on the same topology, in the same process image and the same build.
 *
 * Every measurement runs in its own child process (this binary re-executed with --child), so
 * that the peak resident set wait4() reports belongs to that one simulation and no state
 * (allocator, singletons, random streams) leaks from one run into the next. The parent only
 * spawns, collects and prints; it never simulates.
 *
 *   transfer-bench [--reps=N] [--scaleReps=N] [--sizeReps=N] [--parts=compare,conns,sizes]
 *                  [--markdown=FILE]
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/quic-cc-frames.h"
#include "ns3/traffic-control-module.h"
#include "ns3/quic-cc-helper.h"

#include "quic-cc-stop-at-bytes.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

// ------------------------------------------------------------------------------------ workload

/// Path of every single-connection run: RTT 10 ms, 100 Mbps (the topology).
constexpr char kRate[] = "100Mbps";
constexpr int64_t kOneWayDelayUs = 5000;
/// Drop-tail queue of each device, packets (about one BDP: 100 Mbps x 10 ms / 1378 B = 91).
constexpr uint32_t kQueuePackets = 100;
/// quic-cc's datagram size (UDP payload), bytes.
constexpr uint64_t kDatagram = 1350;
/// Application write size of BulkSend, for both transports.
constexpr uint32_t kSendSize = 16384;

/**
 * STREAM payload of one full quic-cc datagram in the middle of a 10 MB transfer: 1350 B minus
 * the short header (9 B + packet-number varint, 2 B for numbers 64..16383) minus the STREAM
 * frame overhead (type 1 B + offset varint, 4 B for offsets 16384..2^30-1, + length varint
 * 2 B). ns-3 TCP gets this as its SegmentSize, so both carry the same application bytes per
 * data packet and send the same number of data packets.
 */
uint64_t
QuicStreamPayloadPerDatagram()
{
    QuicCcPacket packet;
    packet.packetNumber = 4000; // mid-transfer of 10 MB (~7500 packets)
    const uint64_t header = QuicCcHeaderSize(packet);
    const uint64_t stream = QuicCcStreamFrameOverhead(5'000'000, kDatagram);
    return kDatagram - header - stream;
}

/// What a child process runs.
struct Spec
{
    std::string proto{"quic-cubic"}; //!< quic-reno, quic-cubic, tcp-reno, tcp-cubic
    uint64_t bytes{10'000'000};      //!< per connection
    uint32_t conns{1};               //!< connections
    bool dumbbell{false};            //!< dumbbell topology (else the two-node path)
    bool loss{false};                //!< 30 % loss both ways for the first 2 s
};

/// What a child process reports.
struct Outcome
{
    bool completed{false};
    double simSeconds{0};  //!< simulated time the last byte arrived (or the stop time)
    uint64_t events{0};    //!< Simulator::GetEventCount() after Run()
    double wallTotal{0};   //!< s: build topology + Run + Destroy
    double wallRun{0};     //!< s: Simulator::Run only
    double cpuTotal{0};    //!< s: process CPU time over the same span as wallTotal
    uint64_t received{0};  //!< bytes at the sinks
    long maxRssKb{0};      //!< parent side: wait4 ru_maxrss of the child
};

bool
IsTcp(const std::string& proto)
{
    return proto.rfind("tcp-", 0) == 0;
}

void
ConfigureTransport(const Spec& spec)
{
    if (IsTcp(spec.proto))
    {
        const std::string tid = spec.proto == "tcp-reno" ? "ns3::TcpLinuxReno" : "ns3::TcpCubic";
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TypeId::LookupByName(tid)));
        Config::SetDefault("ns3::TcpSocket::SegmentSize",
                           UintegerValue(QuicStreamPayloadPerDatagram()));
        // quic-cc's buffers (128 MiB each way), so neither side is window-limited by its socket.
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(128u << 20));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(128u << 20));
        // Delayed ACK every 2nd segment is ns-3's default (DelAckCount 2), as quic-cc Rfc9000.
    }
}

/// quic-cc on \p nodes with the benchmark's socket settings.
QuicCcHelper
InstallQuic(const Spec& spec, NodeContainer nodes)
{
    QuicCcHelper quic;
    quic.SetCongestionControl(spec.proto == "quic-reno" ? "ns3::QuicReno" : "ns3::QuicCubic");
    quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(kDatagram));
    // ACK every 2nd ack-eliciting packet, like TCP's delayed ACK (DelAckCount 2).
    quic.SetSocketAttribute("AckPolicy", StringValue("Rfc9000"));
    quic.SetSocketAttribute("IdleTimeout", TimeValue(Seconds(60)));
    quic.Install(nodes);
    return quic;
}

Time
StopTime(const Spec& spec, double bottleneckBps)
{
    // Three times the ideal transfer time, plus 30 s for the lossy start.
    const double ideal = static_cast<double>(spec.bytes) * spec.conns * 8 / bottleneckBps;
    return Seconds(3 * ideal + 30);
}

/// Dumbbell bottleneck: 10 Mbps per connection (at least 100 Mbps), so every connection gets the
/// same share whatever N is (1000 connections at 2 packets each, quic-cc's minimum window,
/// would otherwise overload a 100 Mbps, 10 ms path on their own).
double
DumbbellRateBps(uint32_t conns)
{
    return std::max(100e6, conns * 10e6);
}

/// Dumbbell bottleneck queue, packets.
uint32_t
DumbbellQueuePackets(uint32_t conns)
{
    return std::max<uint32_t>(kQueuePackets, conns);
}

double
Since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Process CPU time (user + system), seconds.
double
CpuNow()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/**
 * One transfer of spec.bytes from node 0 to node 1 over one 100 Mbps, 5 ms link; with loss,
 * a RateErrorModel drops 30 % of the packets each device receives until t = 2 s.
 */
Outcome
RunSingle(const Spec& spec)
{
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = CpuNow();
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    ConfigureTransport(spec);

    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(kRate));
    p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(kOneWayDelayUs)));
    p2p.SetQueue("ns3::DropTailQueue<Packet>",
                 "MaxSize",
                 QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, kQueuePackets)));
    NetDeviceContainer devices = p2p.Install(nodes);
    std::vector<Ptr<RateErrorModel>> errorModels;
    if (spec.loss)
    {
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            em->SetRate(0.3);
            devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
            Simulator::Schedule(Seconds(2), &RateErrorModel::Disable, em);
            errorModels.push_back(em);
        }
    }
    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper ipv4("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifaces = ipv4.Assign(devices);
    // Ipv4AddressHelper installs ns-3's default root queue disc (FqCoDel); remove it so the
    // bottleneck is the plain drop-tail device queue described above.
    TrafficControlHelper().Uninstall(devices);

    int64_t stream = 1;
    for (auto& em : errorModels)
    {
        stream += em->AssignStreams(stream);
    }
    stream += internet.AssignStreams(nodes, stream);
    std::string factory = "ns3::TcpSocketFactory";
    if (!IsTcp(spec.proto))
    {
        QuicCcHelper quic = InstallQuic(spec, nodes);
        stream += quic.AssignStreams(nodes, stream);
        factory = "ns3::QuicCcSocketFactory";
    }

    QuicCcStopAtBytes counter(spec.bytes);
    const uint16_t port = 4433;
    PacketSinkHelper sink(factory, InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sink.Install(nodes.Get(1));
    counter.Watch(sinkApp.Get(0));
    BulkSendHelper bulk(factory, InetSocketAddress(ifaces.GetAddress(1), port));
    bulk.SetAttribute("MaxBytes", UintegerValue(spec.bytes));
    bulk.SetAttribute("SendSize", UintegerValue(kSendSize));
    bulk.Install(nodes.Get(0));

    Simulator::Stop(StopTime(spec, 100e6));
    const auto r0 = std::chrono::steady_clock::now();
    Simulator::Run();
    Outcome out;
    out.wallRun = Since(r0);
    out.events = Simulator::GetEventCount();
    out.completed = counter.IsComplete();
    out.simSeconds = counter.IsComplete() ? counter.GetCompletionSeconds() : Simulator::Now().GetSeconds();
    out.received = counter.GetReceived();
    Simulator::Destroy();
    out.wallTotal = Since(t0);
    out.cpuTotal = CpuNow() - c0;
    return out;
}

/**
 * spec.conns quic-cc connections of spec.bytes each through a dumbbell:
 *
 *   sender leaf i --1 Gbps, 0.5 ms-- R1 ==bottleneck, 4 ms== R2 --1 Gbps, 0.5 ms-- receiver leaf i
 *
 * RTT 10 ms; min(conns, 10) leaf pairs, connection c on pair c % 10; connection c starts at
 * c x 10 us. Bottleneck: DumbbellRateBps(), drop-tail queue of DumbbellQueuePackets().
 */
Outcome
RunDumbbell(const Spec& spec)
{
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = CpuNow();
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    ConfigureTransport(spec);
    const uint32_t leaves = std::min<uint32_t>(spec.conns, 10);

    NodeContainer routers;
    routers.Create(2);
    NodeContainer senders;
    senders.Create(leaves);
    NodeContainer receivers;
    receivers.Create(leaves);
    NodeContainer all(routers, senders, receivers);

    PointToPointHelper bottleneck;
    bottleneck.SetDeviceAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(DumbbellRateBps(spec.conns)))));
    bottleneck.SetChannelAttribute("Delay", TimeValue(MilliSeconds(4)));
    bottleneck.SetQueue("ns3::DropTailQueue<Packet>",
                        "MaxSize",
                        QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, DumbbellQueuePackets(spec.conns))));
    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    access.SetChannelAttribute("Delay", TimeValue(MicroSeconds(500)));
    // Access links keep ns-3's default FqCoDel root queue disc (they are 10x faster than the
    // bottleneck, so it rarely holds packets).

    InternetStackHelper internet;
    internet.Install(all);
    Ipv4AddressHelper ipv4;
    ipv4.SetBase("10.0.0.0", "255.255.255.252");
    NetDeviceContainer core = bottleneck.Install(routers.Get(0), routers.Get(1));
    ipv4.Assign(core);
    TrafficControlHelper().Uninstall(core); // plain drop-tail bottleneck, no FqCoDel
    std::vector<Ipv4Address> receiverAddr;
    for (uint32_t i = 0; i < leaves; ++i)
    {
        ipv4.SetBase(Ipv4Address((10u << 24) | (1u << 16) | (i << 8)), "255.255.255.0");
        ipv4.Assign(access.Install(senders.Get(i), routers.Get(0)));
        ipv4.SetBase(Ipv4Address((10u << 24) | (2u << 16) | (i << 8)), "255.255.255.0");
        receiverAddr.push_back(ipv4.Assign(access.Install(receivers.Get(i), routers.Get(1))).GetAddress(0));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    int64_t stream = 1;
    stream += internet.AssignStreams(all, stream);
    QuicCcHelper quic = InstallQuic(spec, all);
    stream += quic.AssignStreams(all, stream);

    QuicCcStopAtBytes counter(spec.bytes * spec.conns);
    const uint16_t port = 4433;
    PacketSinkHelper sink("ns3::QuicCcSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinks = sink.Install(receivers);
    for (uint32_t i = 0; i < sinks.GetN(); ++i)
    {
        counter.Watch(sinks.Get(i));
    }
    for (uint32_t c = 0; c < spec.conns; ++c)
    {
        BulkSendHelper bulk("ns3::QuicCcSocketFactory", InetSocketAddress(receiverAddr[c % leaves], port));
        bulk.SetAttribute("MaxBytes", UintegerValue(spec.bytes));
        bulk.SetAttribute("SendSize", UintegerValue(kSendSize));
        ApplicationContainer app = bulk.Install(senders.Get(c % leaves));
        app.Start(MicroSeconds(10 * c));
    }

    Simulator::Stop(StopTime(spec, DumbbellRateBps(spec.conns)));
    const auto r0 = std::chrono::steady_clock::now();
    Simulator::Run();
    Outcome out;
    out.wallRun = Since(r0);
    out.events = Simulator::GetEventCount();
    out.completed = counter.IsComplete();
    out.simSeconds = counter.IsComplete() ? counter.GetCompletionSeconds() : Simulator::Now().GetSeconds();
    out.received = counter.GetReceived();
    Simulator::Destroy();
    out.wallTotal = Since(t0);
    out.cpuTotal = CpuNow() - c0;
    return out;
}

// ------------------------------------------------------------------------- process harness

std::string g_self; //!< path of this executable

/**
 * Run \p spec in a fresh process (this binary with --child) and collect its outcome; the
 * child's peak resident set comes from wait4(). An empty proto runs an idle child (baseline).
 */
Outcome
Spawn(const Spec& spec)
{
    int fds[2];
    if (pipe(fds) != 0)
    {
        NS_FATAL_ERROR("transfer-bench: pipe() failed: " << std::strerror(errno));
    }
    std::vector<std::string> args{g_self,
                                  "--child",
                                  "--proto=" + (spec.proto.empty() ? std::string("idle") : spec.proto),
                                  "--bytes=" + std::to_string(spec.bytes),
                                  "--conns=" + std::to_string(spec.conns),
                                  std::string("--dumbbell=") + (spec.dumbbell ? "1" : "0"),
                                  std::string("--loss=") + (spec.loss ? "1" : "0")};
    const pid_t pid = fork();
    if (pid < 0)
    {
        NS_FATAL_ERROR("transfer-bench: fork() failed: " << std::strerror(errno));
    }
    if (pid == 0)
    {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[1]);
        std::vector<char*> argv;
        for (auto& a : args)
        {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        execv(g_self.c_str(), argv.data());
        std::perror("transfer-bench: execv");
        _exit(127);
    }
    close(fds[1]);
    std::string text;
    char buf[512];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof(buf))) > 0)
    {
        text.append(buf, static_cast<size_t>(n));
    }
    close(fds[0]);
    int status = 0;
    struct rusage ru;
    std::memset(&ru, 0, sizeof(ru));
    wait4(pid, &status, 0, &ru);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        NS_FATAL_ERROR("transfer-bench: child for " << spec.proto << " " << spec.bytes << " B x "
                                                    << spec.conns << " failed (status " << status
                                                    << "); its output: " << text);
    }
    Outcome out;
    std::istringstream is(text.substr(text.find("RESULT ") + 7));
    int completed = 0;
    is >> completed >> out.simSeconds >> out.events >> out.wallTotal >> out.wallRun >> out.received >>
        out.cpuTotal;
    out.completed = completed != 0;
    out.maxRssKb = ru.ru_maxrss;
    return out;
}

int
ChildMain(const Spec& spec)
{
    Outcome out;
    if (spec.proto != "idle")
    {
        out = spec.dumbbell ? RunDumbbell(spec) : RunSingle(spec);
    }
    std::cout << std::setprecision(9) << "RESULT " << out.completed << " " << out.simSeconds << " "
              << out.events << " " << out.wallTotal << " " << out.wallRun << " " << out.received << " "
              << out.cpuTotal
              << std::endl;
    return 0;
}

// ------------------------------------------------------------------------------- statistics

double
Median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Repetitions of one spec, summarised.
struct Series
{
    Spec spec;
    std::vector<Outcome> runs;
    double wall{0};     //!< median wall total, s
    double wallRun{0};  //!< median wall of Run(), s
    double cpu{0};      //!< median CPU time over the wall-total span, s
    double rssMb{0};    //!< median peak RSS above the idle child's, MiB
    double spread{0};   //!< (max - min) / median of the CPU time
    bool deterministic{true}; //!< every repetition executed the same events and completed alike
};

Series
Measure(const Spec& spec, uint32_t reps, long baselineKb)
{
    Series s;
    s.spec = spec;
    std::vector<double> wall;
    std::vector<double> run;
    std::vector<double> rss;
    std::vector<double> cpu;
    for (uint32_t i = 0; i < reps; ++i)
    {
        Outcome o = Spawn(spec);
        s.runs.push_back(o);
        wall.push_back(o.wallTotal);
        run.push_back(o.wallRun);
        cpu.push_back(o.cpuTotal);
        rss.push_back(static_cast<double>(o.maxRssKb - baselineKb) / 1024.0);
        s.deterministic = s.deterministic && o.events == s.runs.front().events &&
                          o.completed == s.runs.front().completed &&
                          o.simSeconds == s.runs.front().simSeconds;
    }
    s.wall = Median(wall);
    s.wallRun = Median(run);
    s.cpu = Median(cpu);
    s.rssMb = Median(rss);
    s.spread = (*std::max_element(cpu.begin(), cpu.end()) - *std::min_element(cpu.begin(), cpu.end())) / s.cpu;
    std::cerr << "  " << std::left << std::setw(11) << spec.proto << std::right << std::setw(11)
              << spec.bytes << " B x" << std::setw(5) << spec.conns << (spec.loss ? " loss" : "     ")
              << "  wall " << std::fixed << std::setprecision(3) << s.wall << " s  cpu " << s.cpu
              << " s  events "
              << s.runs.front().events << "  rss +" << std::setprecision(1) << s.rssMb << " MiB"
              << (s.runs.front().completed ? "" : "  NOT COMPLETED") << std::defaultfloat << "\n";
    return s;
}

// --------------------------------------------------------------------------------- reporting

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
Fixed(double v, int digits)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(digits) << v;
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
    std::string connCounts = "1,10,100,1000";
    uint64_t connBytes = 1'000'000;
    uint64_t connBytes1000 = 100'000;

    CommandLine cmd(__FILE__);
    cmd.AddValue("reps", "repetitions of each quic-cc/TCP comparison run (median reported)", reps);
    cmd.AddValue("scaleReps", "repetitions of each connection-count run", scaleReps);
    cmd.AddValue("sizeReps", "repetitions of each transfer-size run (the 1 GB run is long)", sizeReps);
    cmd.AddValue("parts", "comma-separated: compare, conns, sizes", parts);
    cmd.AddValue("connCounts", "comma-separated connection counts of the dumbbell scaling", connCounts);
    cmd.AddValue("connBytes", "bytes per connection in the dumbbell scaling (< 1000 connections)", connBytes);
    cmd.AddValue("connBytes1000", "bytes per connection with >= 1000 connections", connBytes1000);
    cmd.AddValue("markdown", "also write the tables as Markdown to this file", markdown);
    cmd.AddValue("child", "internal: run one measurement and print RESULT", child);
    cmd.AddValue("proto", "internal (--child): quic-reno, quic-cubic, tcp-reno, tcp-cubic, idle", spec.proto);
    cmd.AddValue("bytes", "internal (--child): bytes per connection", spec.bytes);
    cmd.AddValue("conns", "internal (--child): connections", spec.conns);
    cmd.AddValue("dumbbell", "internal (--child): dumbbell topology", spec.dumbbell);
    cmd.AddValue("loss", "internal (--child): 30 % loss for the first 2 s", spec.loss);
    cmd.Parse(argc, argv);

    if (child)
    {
        return ChildMain(spec);
    }
    NS_ABORT_MSG_IF(reps == 0 || scaleReps == 0 || sizeReps == 0,
                    "transfer-bench: repetitions must be >= 1 (reps " << reps << ", scaleReps "
                                                                      << scaleReps << ", sizeReps "
                                                                      << sizeReps << ")");
    char selfPath[4096];
    const ssize_t len = readlink("/proc/self/exe", selfPath, sizeof(selfPath) - 1);
    NS_ABORT_MSG_IF(len <= 0, "transfer-bench: cannot read /proc/self/exe");
    selfPath[len] = '\0';
    g_self = selfPath;

    const std::vector<std::string> partList = Split(parts, ',');
    auto want = [&](const std::string& p) {
        return std::find(partList.begin(), partList.end(), p) != partList.end();
    };
    for (const auto& p : partList)
    {
        NS_ABORT_MSG_UNLESS(p == "compare" || p == "conns" || p == "sizes",
                            "transfer-bench: unknown part '" << p << "' (compare, conns, sizes)");
    }

    std::ostringstream md;
    // Idle child: ns-3 and quic-cc loaded, nothing simulated. Its peak RSS is subtracted.
    Spec idle;
    idle.proto = "";
    std::vector<double> idleRss;
    for (int i = 0; i < 3; ++i)
    {
        idleRss.push_back(static_cast<double>(Spawn(idle).maxRssKb));
    }
    const long baselineKb = static_cast<long>(Median(idleRss));
    md << "Machine: " << std::thread::hardware_concurrency() << " CPUs (nproc), "
       << ReadFirst("/proc/cpuinfo", "model name") << ", " << ReadFirst("/proc/meminfo", "MemTotal")
       << " RAM" << (IsVirtualMachine() ? ", virtual machine" : "") << "; compiler " << QUICCC_BENCH_COMPILER << "; build type " << QUICCC_BENCH_BUILD_TYPE
       << " (quic-cc); ns-3 3.37 from Debian libns3-dev (release build). Load average when the "
          "run started: "
       << LoadAverage() << ".\n\n"
       << "Every measurement is one child process (this binary re-executed). Time covers "
          "building the topology, Simulator::Run and Simulator::Destroy of that one simulation; "
          "CPU is the child's process CPU time over that span (robust when other processes share "
          "the machine), wall the elapsed time. Memory is the child's peak resident set (wait4 "
          "ru_maxrss) minus that of an idle child that loads the same libraries and simulates "
          "nothing ("
       << Fixed(baselineKb / 1024.0, 1) << " MiB).\n\n";

    const uint64_t segment = QuicStreamPayloadPerDatagram();
    if (want("compare"))
    {
        std::cerr << "compare (" << reps << " repetitions each):\n";
        md << "### Same 10 MB transfer, quic-cc vs ns-3 TCP\n\n"
           << "Two nodes, one 100 Mbps link with 5 ms delay each way (RTT 10 ms), drop-tail queue "
           << kQueuePackets << " packets per device; BulkSend (" << kSendSize
           << "-byte writes) to PacketSink. quic-cc: " << kDatagram
           << "-byte datagrams, receiver ACK policy Rfc9000 (every 2nd packet), other attributes "
              "default (HyStart++ on). TCP (TcpLinuxReno, TcpCubic with ns-3 defaults): SegmentSize "
           << segment << " B = 1350 B datagram - " << (kDatagram - segment)
           << " B of quic-cc overhead per data packet (short header 9 B + 2-byte packet number; "
              "STREAM frame type 1 B + 4-byte offset + 2-byte length, as in the middle of the "
              "transfer), so both carry the same application bytes per data packet and send the "
              "same number of them; delayed ACK every 2nd segment, SACK and timestamps on (ns-3 "
              "defaults), 128 MiB socket buffers like quic-cc. Loss: a RateErrorModel drops 30 % "
              "of the packets each device receives (both directions) until t = 2 s. Median of "
           << reps << " runs (the runs are deterministic: the same events each time).\n\n"
           << "| loss | transport | completed at (sim s) | events | CPU per transfer (ms) | CPU "
              "spread | wall per transfer (ms) | ns CPU per event | peak RSS (MiB) |\n"
           << "|---|---|---|---|---|---|---|---|---|\n";
        std::vector<std::string> ratioRows;
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
                const Series& r = series.back();
                const Outcome& o = r.runs.front();
                md << "| " << (loss ? "30 % for 2 s" : "0 %") << " | " << proto << " | "
                   << (o.completed ? Fixed(o.simSeconds, 3) : "not completed (" + std::to_string(o.received) + " B)")
                   << " | " << o.events << (r.deterministic ? "" : " (varies!)") << " | "
                   << Fixed(r.cpu * 1e3, 1) << " | " << Fixed(r.spread * 100, 0) << " % | "
                   << Fixed(r.wall * 1e3, 1) << " | " << Fixed(r.cpu * 1e9 / o.events, 0) << " | "
                   << Fixed(r.rssMb, 1) << " |\n";
            }
            for (size_t i = 0; i < 2; ++i)
            {
                const Series& q = series[2 * i];
                const Series& t = series[2 * i + 1];
                const double ratio = q.cpu / t.cpu;
                minRatio = std::min(minRatio, ratio);
                maxRatio = std::max(maxRatio, ratio);
                const double evRatio = static_cast<double>(q.runs.front().events) / t.runs.front().events;
                std::ostringstream row;
                row << "| " << (loss ? "30 % for 2 s" : "0 %") << " | " << q.spec.proto << " / "
                    << t.spec.proto << " | " << Fixed(ratio, 2) << " | " << Fixed(q.wall / t.wall, 2)
                    << " | " << Fixed(evRatio, 2) << " | " << Fixed(ratio / evRatio, 2) << " | "
                    << Fixed(q.rssMb / std::max(t.rssMb, 0.1), 2) << " | "
                    << (ratio <= 0.5 ? "yes" : "**no**") << " |\n";
                ratioRows.push_back(row.str());
            }
        }
        md << "\nRatios quic-cc / ns-3 TCP. Target: a simulated transfer costs at most half of "
              "ns-3 TCP's (CPU ratio <= 0.50).\n\n"
           << "| loss | pair | CPU ratio | wall ratio | events ratio | CPU per event ratio | memory "
              "ratio | target met |\n"
           << "|---|---|---|---|---|---|---|---|\n";
        for (const auto& r : ratioRows)
        {
            md << r;
        }
        md << "\nMemory: quic-cc keeps the stream's real bytes (BulkSend hands the whole 10 MB to the "
              "socket at once: SndBufSize is 128 MiB), while ns-3 TCP's payload is zero-filled "
              "virtual data that occupies no memory; hence the memory ratio.\n";
        md << "\nTarget: a simulated transfer costs at most half of ns-3 TCP's: "
           << (maxRatio <= 0.5 ? "met" : minRatio <= 0.5 ? "**partly met**" : "**not met**")
           << " (CPU ratio quic-cc / TCP " << Fixed(minRatio, 2) << " to " << Fixed(maxRatio, 2)
           << ").\n\n";
    }

    if (want("conns"))
    {
        std::cerr << "connections (" << scaleReps << " repetitions each):\n";
        md << "### Concurrent quic-cc connections on one dumbbell bottleneck\n\n"
           << "QuicCubic; leaf pairs = min(N, 10): sender leaf -- 1 Gbps, 0.5 ms -- R1 -- bottleneck, "
              "4 ms -- R2 -- 1 Gbps, 0.5 ms -- receiver leaf (RTT 10 ms). The bottleneck gives every "
              "connection the same share: max(100 Mbps, N x 10 Mbps), drop-tail queue max(100, N) "
              "packets (with a fixed 100 Mbps, 1000 connections at quic-cc's 2-packet minimum window "
              "alone overload the path: a congestion collapse in which not all of them finish). "
              "Connection c runs on leaf pair c mod 10 and starts at c x 10 us; the run ends when "
              "every byte arrived. Transfer per connection: "
           << SizeName(connBytes) << " for N < 1000, " << SizeName(connBytes1000)
           << " for N >= 1000 (to keep that run short). Median of " << scaleReps << " runs.\n\n"
           << "| connections | bytes each | total bytes | completed at (sim s) | events | CPU (s) | "
              "wall (s) | CPU per connection (ms) | ns CPU per byte | peak RSS (MiB) | RSS per "
              "connection (kiB) |\n"
           << "|---|---|---|---|---|---|---|---|---|---|---|\n";
        for (const auto& c : Split(connCounts, ','))
        {
            Spec s;
            s.proto = "quic-cubic";
            s.conns = static_cast<uint32_t>(std::stoul(c));
            NS_ABORT_MSG_IF(s.conns == 0, "transfer-bench: a connection count must be >= 1");
            s.bytes = s.conns >= 1000 ? connBytes1000 : connBytes;
            s.dumbbell = true;
            Series r = Measure(s, scaleReps, baselineKb);
            const Outcome& o = r.runs.front();
            const double total = static_cast<double>(s.bytes) * s.conns;
            md << "| " << s.conns << " | " << SizeName(s.bytes) << " | " << SizeName(static_cast<uint64_t>(total))
               << " | " << (o.completed ? Fixed(o.simSeconds, 3) : "not completed (" + std::to_string(o.received) + " B)")
               << " | " << o.events << " | " << Fixed(r.cpu, 3) << " | " << Fixed(r.wall, 3) << " | "
               << Fixed(r.cpu * 1e3 / s.conns, 2) << " | " << Fixed(r.cpu * 1e9 / total, 1) << " | "
               << Fixed(r.rssMb, 1) << " | " << Fixed(r.rssMb * 1024 / s.conns, 1) << " |\n";
        }
        md << "\n";
    }

    if (want("sizes"))
    {
        std::cerr << "sizes (" << sizeReps << " repetitions each):\n";
        md << "### Transfer size, one quic-cc connection\n\n"
           << "QuicCubic on the two-node path of the comparison, no loss. Linear cost means a flat "
              "ns per byte. Median of "
           << sizeReps << " run(s).\n\n"
           << "| size | completed at (sim s) | events | events per data packet | CPU (s) | wall (s) | "
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
            md << "| " << SizeName(bytes) << " | " << (o.completed ? Fixed(o.simSeconds, 3) : "not completed")
               << " | " << o.events << " | " << Fixed(o.events / packets, 2) << " | " << Fixed(r.cpu, 2)
               << " | " << Fixed(r.wall, 2) << " | " << Fixed(nsPerByte, 2) << " | "
               << Fixed(nsPerByte / first, 2) << "x | " << Fixed(r.rssMb, 1) << " |\n";
        }
        md << "\nTarget: cost grows linearly with bytes (ns per byte within 25 % of the 10 MB "
              "run's): "
           << (worst <= 1.25 ? "met" : "**not met**") << " (largest ratio " << Fixed(worst, 2)
           << "x).\n\n";
    }

    std::cout << md.str();
    if (!markdown.empty())
    {
        std::ofstream out(markdown);
        NS_ABORT_MSG_UNLESS(out, "transfer-bench: cannot write " << markdown);
        out << md.str();
    }
    return 0;
}
