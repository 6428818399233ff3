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
 */
#include "quic-cc-batch-runner.h"
#include "quic-cc-stop-at-bytes.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/quic-cc-frames.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

// ------------------------------------------------------------------------------------ workload

/// Path of every single-connection run: RTT 10 ms, 100 Mbps.
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
    bool fullOnly{false}; //!< quic-cc: PacketSizing FullOnly (ns-3 TCP's rule), else FreeWindow
};

/// What a child process reports.
struct Outcome
{
    bool completed{false};
    double simSeconds{0}; //!< simulated time the last byte arrived (or the stop time)
    uint64_t events{0};   //!< Simulator::GetEventCount() after Run()
    double wallTotal{0};  //!< s: build topology + Run + Destroy
    double wallRun{0};    //!< s: Simulator::Run only
    double cpuTotal{0};   //!< s: process CPU time over the same span as wallTotal
    uint64_t received{0}; //!< bytes at the sinks
    long maxRssKb{0};     //!< peak resident set of the worker process, kiB (getrusage)
};

bool
IsTcp(const std::string& proto)
{
    return proto.rfind("tcp-", 0) == 0;
}

/// Dumbbell baseline: one idle ns-3 UDP socket per connection (nothing sent).
constexpr char kUdpSilent[] = "udp-silent";

/**
 * Why a child cannot run \p spec ("" if it can): every combination the benchmark does not
 * implement is refused, never replaced by another.
 * \param option  set to the command-line option at fault
 */
std::string
Unsupported(const Spec& spec, std::string& option)
{
    const std::vector<std::string> protos{"quic-reno",
                                          "quic-cubic",
                                          "tcp-reno",
                                          "tcp-cubic",
                                          kUdpSilent,
                                          "idle"};
    option = "proto";
    if (std::find(protos.begin(), protos.end(), spec.proto) == protos.end())
    {
        return "not one of quic-reno, quic-cubic, tcp-reno, tcp-cubic, udp-silent, idle";
    }
    if (spec.proto == kUdpSilent && !spec.dumbbell)
    {
        return "the UDP baseline exists only on the dumbbell (--dumbbell=1)";
    }
    option = "conns";
    if (spec.conns == 0)
    {
        return "must be >= 1";
    }
    if (spec.conns > 1 && !spec.dumbbell)
    {
        return "several connections run only on the dumbbell (--dumbbell=1)";
    }
    option = "loss";
    if (spec.loss && spec.dumbbell)
    {
        return "the loss phase exists only on the two-node path (--dumbbell=0)";
    }
    option = "fullOnly";
    if (spec.fullOnly && spec.proto.rfind("quic-", 0) != 0)
    {
        return "packet sizing is a quic-cc setting (--proto=quic-reno or quic-cubic)";
    }
    option = "bytes";
    if (spec.bytes == 0)
    {
        return "must be >= 1";
    }
    return "";
}

void
ConfigureTransport(const Spec& spec)
{
    if (IsTcp(spec.proto))
    {
        const std::string tid = spec.proto == "tcp-reno" ? "ns3::TcpLinuxReno" : "ns3::TcpCubic";
        Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                           TypeIdValue(TypeId::LookupByName(tid)));
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
    if (spec.fullOnly)
    {
        quic.SetSocketAttribute("PacketSizing", StringValue("FullOnly"));
    }
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

/// Dumbbell access links: as fast as the bottleneck (at least 1 Gbps), so each is 10x faster than
/// the share of the connections on its leaf pair (N / 10 x 10 Mbps with 10 leaf pairs) and the
/// bottleneck stays the only link where packets queue, whatever N is.
double
DumbbellAccessRateBps(uint32_t conns)
{
    return std::max(1e9, DumbbellRateBps(conns));
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
 * Simulator::Run (its stop time already set), then Simulator::Destroy; the outcome of the
 * simulation whose set-up started at \p t0 (wall) and \p c0 (CPU), read from \p counter
 * (null: nothing to receive).
 */
Outcome
RunAndMeasure(std::chrono::steady_clock::time_point t0, double c0, const QuicCcStopAtBytes* counter)
{
    const auto r0 = std::chrono::steady_clock::now();
    Simulator::Run();
    Outcome out;
    out.wallRun = Since(r0);
    out.events = Simulator::GetEventCount();
    out.completed = counter ? counter->IsComplete() : true;
    out.simSeconds = counter && counter->IsComplete() ? counter->GetCompletionSeconds()
                                                      : Simulator::Now().GetSeconds();
    out.received = counter ? counter->GetReceived() : 0;
    Simulator::Destroy();
    out.wallTotal = Since(t0);
    out.cpuTotal = CpuNow() - c0;
    return out;
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
    return RunAndMeasure(t0, c0, &counter);
}

/**
 * spec.conns connections (quic-cc or ns-3 TCP, BulkSend to PacketSink) of spec.bytes each
 * through a dumbbell, or with kUdpSilent the same topology with one idle UDP socket per
 * connection:
 *
 *   sender leaf i --access, 0.5 ms-- R1 ==bottleneck, 4 ms== R2 --access, 0.5 ms-- receiver leaf i
 *
 * RTT 10 ms; min(conns, 10) leaf pairs, connection c on pair c % 10; connection c starts at
 * c x 10 us. Bottleneck: DumbbellRateBps(), drop-tail queue of DumbbellQueuePackets(); access
 * links: DumbbellAccessRateBps(). Every device has ns-3's plain point-to-point drop-tail queue (no
 * traffic-control queue disc, whose per-flow state would count as per-connection memory).
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
    bottleneck.SetDeviceAttribute(
        "DataRate",
        DataRateValue(DataRate(static_cast<uint64_t>(DumbbellRateBps(spec.conns)))));
    bottleneck.SetChannelAttribute("Delay", TimeValue(MilliSeconds(4)));
    bottleneck.SetQueue(
        "ns3::DropTailQueue<Packet>",
        "MaxSize",
        QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, DumbbellQueuePackets(spec.conns))));
    PointToPointHelper access;
    access.SetDeviceAttribute(
        "DataRate",
        DataRateValue(DataRate(static_cast<uint64_t>(DumbbellAccessRateBps(spec.conns)))));
    access.SetChannelAttribute("Delay", TimeValue(MicroSeconds(500)));

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
        // Ipv4AddressHelper::Assign installs ns-3's default root queue disc (FqCoDel, which
        // creates a CoDel queue disc per flow); removed as on the bottleneck.
        ipv4.SetBase(Ipv4Address((10u << 24) | (1u << 16) | (i << 8)), "255.255.255.0");
        const NetDeviceContainer up = access.Install(senders.Get(i), routers.Get(0));
        ipv4.Assign(up);
        TrafficControlHelper().Uninstall(up);
        ipv4.SetBase(Ipv4Address((10u << 24) | (2u << 16) | (i << 8)), "255.255.255.0");
        const NetDeviceContainer down = access.Install(receivers.Get(i), routers.Get(1));
        receiverAddr.push_back(ipv4.Assign(down).GetAddress(0));
        TrafficControlHelper().Uninstall(down);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    int64_t stream = 1;
    stream += internet.AssignStreams(all, stream);
    const uint16_t port = 4433;
    if (spec.proto == kUdpSilent)
    {
        // The ns-3 node/socket baseline: the same nodes, links and routing, and one bound and
        // connected ns-3 UDP socket per connection on its sender leaf (a quic-cc client owns one
        // too) plus one on each receiver leaf; nothing is sent.
        std::vector<Ptr<Socket>> sockets;
        for (uint32_t i = 0; i < leaves; ++i)
        {
            sockets.push_back(
                Socket::CreateSocket(receivers.Get(i), UdpSocketFactory::GetTypeId()));
            sockets.back()->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        }
        for (uint32_t c = 0; c < spec.conns; ++c)
        {
            sockets.push_back(
                Socket::CreateSocket(senders.Get(c % leaves), UdpSocketFactory::GetTypeId()));
            sockets.back()->Bind();
            sockets.back()->Connect(InetSocketAddress(receiverAddr[c % leaves], port));
        }
        Simulator::Stop(Seconds(1));
        return RunAndMeasure(t0, c0, nullptr);
    }
    std::string factory = "ns3::TcpSocketFactory";
    if (!IsTcp(spec.proto))
    {
        QuicCcHelper quic = InstallQuic(spec, all);
        stream += quic.AssignStreams(all, stream);
        factory = "ns3::QuicCcSocketFactory";
    }

    QuicCcStopAtBytes counter(spec.bytes * spec.conns);
    PacketSinkHelper sink(factory, InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinks = sink.Install(receivers);
    for (uint32_t i = 0; i < sinks.GetN(); ++i)
    {
        counter.Watch(sinks.Get(i));
    }
    for (uint32_t c = 0; c < spec.conns; ++c)
    {
        BulkSendHelper bulk(factory, InetSocketAddress(receiverAddr[c % leaves], port));
        bulk.SetAttribute("MaxBytes", UintegerValue(spec.bytes));
        bulk.SetAttribute("SendSize", UintegerValue(kSendSize));
        ApplicationContainer app = bulk.Install(senders.Get(c % leaves));
        app.Start(MicroSeconds(10 * c));
    }

    Simulator::Stop(StopTime(spec, DumbbellRateBps(spec.conns)));
    return RunAndMeasure(t0, c0, &counter);
}

// ------------------------------------------------------------------------- process harness

std::string g_self; //!< path of this executable

/**
 * Fault in every page of every readable file mapping of this process (the ns-3 and quic-cc
 * libraries, the C++ runtime). A worker forked from the parent starts without the parent's file
 * pages in its resident set and would count each library page it touches as its own; with all
 * of them resident from the start in every worker (idle one included), the peak resident set
 * above the idle worker's is what the simulation itself allocated, as in a freshly started
 * process.
 */
void
TouchMappedFiles()
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    while (std::getline(maps, line))
    {
        std::istringstream is(line);
        std::string range;
        std::string perms;
        std::string offset;
        std::string dev;
        std::string inode;
        std::string path;
        is >> range >> perms >> offset >> dev >> inode >> path;
        if (path.empty() || path[0] != '/' || perms[0] != 'r')
        {
            continue;
        }
        const uintptr_t begin = std::stoull(range.substr(0, range.find('-')), nullptr, 16);
        const uintptr_t end = std::stoull(range.substr(range.find('-') + 1), nullptr, 16);
        for (uintptr_t a = begin; a < end; a += page)
        {
            (void)*reinterpret_cast<const volatile char*>(a);
        }
    }
}

/// The outcome of \p spec as one line ("RESULT completed sim events wall wallRun received cpu
/// rss").
std::string
RunToLine(const Spec& spec)
{
    TouchMappedFiles();
    Outcome out;
    if (spec.proto != "idle")
    {
        out = spec.dumbbell ? RunDumbbell(spec) : RunSingle(spec);
    }
    struct rusage ru;
    std::memset(&ru, 0, sizeof(ru));
    getrusage(RUSAGE_SELF, &ru);
    std::ostringstream os;
    os << std::setprecision(9) << "RESULT " << out.completed << " " << out.simSeconds << " "
       << out.events << " " << out.wallTotal << " " << out.wallRun << " " << out.received << " "
       << out.cpuTotal << " " << ru.ru_maxrss;
    return os.str();
}

/**
 * Run \p spec in a worker process of its own (QuicCcRunBatch with one task and one worker: a
 * fork of this process, which never simulates) and collect its outcome, including the
 * worker's peak resident set (getrusage in the worker). An "idle" proto simulates nothing: the
 * baseline every peak RSS is reported above.
 */
Outcome
Spawn(const Spec& spec)
{
    const std::string line =
        QuicCcRunBatch(1, 1, [&spec](size_t) { return RunToLine(spec); }).front();
    Outcome out;
    std::istringstream is(line.substr(line.find("RESULT ") + 7));
    int completed = 0;
    is >> completed >> out.simSeconds >> out.events >> out.wallTotal >> out.wallRun >>
        out.received >> out.cpuTotal >> out.maxRssKb;
    out.completed = completed != 0;
    return out;
}

/// --child: one measurement in this process (for perf, valgrind and by-hand runs).
int
ChildMain(const Spec& spec)
{
    std::cout << RunToLine(spec) << std::endl;
    return 0;
}

// -------------------------------------------------------------------------------- callgrind

/// Instructions of one simulation under callgrind.
struct Profile
{
    uint64_t total{0}; //!< every instruction of the run
    uint64_t own{0};   //!< the transport's own code (see TransportOwnShare)
};

/**
 * Read a callgrind output file (format of valgrind's callgrind_annotate: ob/fn name
 * compression, "calls=" lines followed by the call's inclusive cost). The transport's own code
 * is the self cost of its functions (quic-cc: everything in libns3-quic-cc; TCP: functions
 * named ns3::Tcp*) plus the inclusive cost of their calls into the C and C++ runtime (malloc,
 * memcpy, containers' out-of-line code); everything else (ns-3's IP, UDP, point-to-point,
 * Packet, scheduler, applications) is the floor both transports share.
 */
Profile
TransportOwnShare(const std::string& path, bool tcp)
{
    std::ifstream in(path);
    NS_ABORT_MSG_UNLESS(in, "transfer-bench: cannot read callgrind output " << path);
    std::map<std::string, std::string> objects;
    std::map<std::string, std::string> functions;
    // "(id) name" defines id, "(id)" refers to it.
    auto name = [](std::map<std::string, std::string>& table, const std::string& v) {
        if (v.empty() || v[0] != '(')
        {
            return v;
        }
        const size_t close = v.find(')');
        const std::string id = v.substr(0, close + 1);
        if (close + 1 < v.size())
        {
            table[id] = v.substr(close + 2);
        }
        return table[id];
    };
    auto isOwn = [tcp](const std::string& ob, const std::string& fn) {
        return tcp ? fn.rfind("ns3::Tcp", 0) == 0 : ob.find("libns3-quic-cc") != std::string::npos;
    };
    auto isRuntime = [](const std::string& ob) {
        return ob.find("libc.so") != std::string::npos ||
               ob.find("libstdc++") != std::string::npos ||
               ob.find("libm.so") != std::string::npos || ob.find("ld-linux") != std::string::npos;
    };
    Profile prof;
    std::string ob;
    std::string fn;
    std::string cob;
    bool callCost = false;  // the next cost line is a call's inclusive cost
    bool countCall = false; // ... and it counts as own code
    std::string line;
    while (std::getline(in, line))
    {
        if (line.empty())
        {
            continue;
        }
        const char c = line[0];
        if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*')
        {
            std::istringstream is(line);
            std::string position;
            uint64_t ir = 0;
            is >> position >> ir;
            if (callCost)
            {
                prof.own += countCall ? ir : 0;
                callCost = false;
                cob.clear();
            }
            else if (isOwn(ob, fn))
            {
                prof.own += ir;
            }
            continue;
        }
        const size_t eq = line.find('=');
        const std::string key = line.substr(0, eq == std::string::npos ? 0 : eq);
        const std::string value = eq == std::string::npos ? "" : line.substr(eq + 1);
        if (key == "ob")
        {
            ob = name(objects, value);
        }
        else if (key == "fn")
        {
            fn = name(functions, value);
        }
        else if (key == "cob")
        {
            cob = name(objects, value);
        }
        else if (key == "cfn" || key == "cfi" || key == "cfl")
        {
            if (key == "cfn")
            {
                name(functions, value);
            }
        }
        else if (key == "calls")
        {
            callCost = true;
            countCall = isOwn(ob, fn) && isRuntime(cob.empty() ? ob : cob);
        }
        else if (line.rfind("summary:", 0) == 0 || line.rfind("totals:", 0) == 0)
        {
            std::istringstream is(line.substr(line.find(':') + 1));
            uint64_t total = 0;
            is >> total;
            prof.total = std::max(prof.total, total);
        }
    }
    return prof;
}

/// One run of \p spec under valgrind's callgrind (a child process); its instruction counts.
Profile
ProfileRun(const Spec& spec)
{
    char dir[] = "/tmp/transfer-bench-XXXXXX";
    NS_ABORT_MSG_IF(!mkdtemp(dir), "transfer-bench: mkdtemp failed: " << std::strerror(errno));
    const std::string out = std::string(dir) + "/callgrind.out";
    std::ostringstream cmd;
    cmd << "valgrind --tool=callgrind --callgrind-out-file=" << out << " " << g_self
        << " --child --proto=" << spec.proto << " --bytes=" << spec.bytes
        << " --conns=" << spec.conns << " --dumbbell=" << spec.dumbbell << " --loss=" << spec.loss
        << " --fullOnly=" << spec.fullOnly << " > /dev/null 2>&1";
    const int rc = std::system(cmd.str().c_str());
    NS_ABORT_MSG_IF(rc != 0,
                    "transfer-bench: '" << cmd.str() << "' failed (status " << rc
                                        << "); is valgrind installed (Debian package valgrind)?");
    const Profile p = TransportOwnShare(out, IsTcp(spec.proto));
    std::remove(out.c_str());
    rmdir(dir);
    return p;
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
    double wall{0};           //!< median wall total, s
    double wallRun{0};        //!< median wall of Run(), s
    double cpu{0};            //!< median CPU time over the wall-total span, s
    double rssMb{0};          //!< median peak RSS above the idle child's, MiB
    double spread{0};         //!< (max - min) / median of the CPU time
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
    s.spread =
        (*std::max_element(cpu.begin(), cpu.end()) - *std::min_element(cpu.begin(), cpu.end())) /
        s.cpu;
    std::cerr << "  " << std::left << std::setw(11) << spec.proto << std::right << std::setw(11)
              << spec.bytes << " B x" << std::setw(5) << spec.conns
              << (spec.loss ? " loss" : "     ") << "  wall " << std::fixed << std::setprecision(3)
              << s.wall << " s  cpu " << s.cpu << " s  events " << s.runs.front().events
              << "  rss +" << std::setprecision(1) << s.rssMb << " MiB"
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
                  << Fixed(100.0 * p.own / std::max<uint64_t>(p.total, 1), 1) << " %) floor "
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
        std::ofstream probe(markdown + ".tmp");
        if (!probe)
        {
            return BadOption("markdown", markdown, "cannot write " + markdown + ".tmp");
        }
    }
    std::ostringstream scaleTarget;
    double maxRssRatio = -1; // largest quic-cc / TCP peak RSS ratio of the comparison (-1: not run)
    double gbRssMb = -1; // peak RSS of the 1 GB transfer above the idle child, MiB (-1: not run)

    std::ostringstream md;
    // Idle child: ns-3 and quic-cc loaded, nothing simulated. Its peak RSS is subtracted.
    Spec idle;
    idle.proto = "idle";
    std::vector<double> idleRss;
    for (int i = 0; i < 3; ++i)
    {
        idleRss.push_back(static_cast<double>(Spawn(idle).maxRssKb));
    }
    const long baselineKb = static_cast<long>(Median(idleRss));
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

    const uint64_t segment = QuicStreamPayloadPerDatagram();
    if (want("compare"))
    {
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
           << "| loss | transport | completed at (sim s) | events | CPU per transfer (ms) | CPU "
              "spread | wall per transfer (ms) | ns CPU per event | peak RSS (MiB) |\n"
           << "|---|---|---|---|---|---|---|---|---|\n";
        std::vector<std::string> ratioRows;
        std::vector<std::string> sizingRows;
        double minSizingRatio = 1e9;
        double maxSizingRatio = 0;
        double minSizingIr = 1e9;
        double maxSizingIr = 0;
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
                const Series& r = series.back();
                const Outcome& o = r.runs.front();
                md << "| " << (loss ? "30 % for 2 s" : "0 %") << " | " << proto << " | "
                   << (o.completed ? Fixed(o.simSeconds, 3)
                                   : "not completed (" + std::to_string(o.received) + " B)")
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
                const double evRatio =
                    static_cast<double>(q.runs.front().events) / t.runs.front().events;
                const double rssRatio = q.rssMb / std::max(t.rssMb, 0.1);
                maxRssRatio = std::max(maxRssRatio, rssRatio);
                std::ostringstream row;
                row << "| " << (loss ? "30 % for 2 s" : "0 %") << " | " << q.spec.proto << " / "
                    << t.spec.proto << " | " << Fixed(ratio, 2) << " | "
                    << Fixed(q.wall / t.wall, 2) << " | " << Fixed(evRatio, 2) << " | "
                    << Fixed(ratio / evRatio, 2) << " | " << Fixed(rssRatio, 2) << " | "
                    << (ratio <= 0.8 ? "yes" : "**no**") << " | "
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
                    std::ostringstream prow;
                    prow << "| " << (loss ? "30 % for 2 s" : "0 %") << " | " << q.spec.proto
                         << " / " << t.spec.proto << " | " << Fixed(pq.total / 1e6, 1) << " | "
                         << Fixed(pq.own / 1e6, 1) << " (" << Fixed(100.0 * pq.own / pq.total, 1)
                         << " %) | " << Fixed((pq.total - pq.own) / 1e6, 1) << " | "
                         << Fixed(pt.total / 1e6, 1) << " | " << Fixed(pt.own / 1e6, 1) << " ("
                         << Fixed(100.0 * pt.own / pt.total, 1) << " %) | "
                         << Fixed(static_cast<double>(pq.total) / pt.total, 2) << " | "
                         << Fixed(static_cast<double>(pq.total - pq.own) / pt.total, 2) << " |\n";
                    profileRows.push_back(prow.str());
                }
                minSizingRatio = std::min(minSizingRatio, fullRatio);
                maxSizingRatio = std::max(maxSizingRatio, fullRatio);
                std::ostringstream srow;
                srow << "| " << (loss ? "30 % for 2 s" : "0 %") << " | " << q.spec.proto << " / "
                     << t.spec.proto << " | " << q.runs.front().events << " | "
                     << f.runs.front().events << " | " << Fixed(f.cpu * 1e3, 1) << " | "
                     << Fixed(fullRatio, 2) << " | " << Fixed(fullEvRatio, 2) << " | "
                     << Fixed(fullRatio / fullEvRatio, 2) << " |";
                if (callgrind)
                {
                    const Profile pf = ProfileRun(full);
                    const double irRatio = static_cast<double>(pf.total) / tcpIr;
                    minSizingIr = std::min(minSizingIr, irRatio);
                    maxSizingIr = std::max(maxSizingIr, irRatio);
                    srow << " " << Fixed(pf.total / 1e6, 1) << " | " << Fixed(pf.own / 1e6, 1)
                         << " (" << Fixed(100.0 * pf.own / pf.total, 1) << " %) | "
                         << Fixed(irRatio, 2) << " |";
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
            md << "\nInstructions per cell (callgrind, one run each, Ir in millions). Own code: "
                  "quic-cc = "
                  "self cost of libns3-quic-cc plus its calls into the C/C++ runtime (malloc, "
                  "memcpy, "
                  "containers); TCP = the same for functions named ns3::Tcp*. The floor is the "
                  "rest "
                  "(ns-3's IPv4/UDP/point-to-point, Packet, scheduler, applications). \"Floor / "
                  "TCP\" "
                  "is the ratio a quic-cc whose own code cost nothing would reach.\n\n"
               << "| loss | pair | quic-cc Ir | quic-cc own | quic-cc floor | TCP Ir | TCP own | "
                  "Ir ratio | "
                  "floor / TCP |\n"
               << "|---|---|---|---|---|---|---|---|---|\n";
            for (const auto& r : profileRows)
            {
                md << r;
            }
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
    }

    if (want("conns"))
    {
        std::cerr << "connections (" << scaleReps << " repetitions each):\n";
        md << "### Concurrent connections on one dumbbell bottleneck, quic-cc vs ns-3 TCP\n\n"
           << "QuicCubic and ns-3 TcpCubic (settings of the comparison above); leaf pairs = min(N, "
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
        for (uint32_t conns : counts)
        {
            std::map<std::string, Series> r;
            for (const std::string proto : {"udp-silent", "quic-cubic", "tcp-cubic"})
            {
                Spec s;
                s.proto = proto;
                s.conns = conns;
                s.bytes = conns >= 1000 ? connBytes1000 : connBytes;
                s.dumbbell = true;
                r[proto] = Measure(s, proto == kUdpSilent ? 1 : scaleReps, baselineKb);
            }
            const double base = r[kUdpSilent].rssMb;
            for (const std::string proto : {"quic-cubic", "tcp-cubic"})
            {
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
                   << " | " << Fixed(perConn / firstCpuPerConn[proto], 2) << "x | "
                   << Fixed(x.rssMb, 1) << " | " << Fixed(x.rssMb * 1024 / conns, 1) << " | "
                   << Fixed((x.rssMb - base) * 1024 / conns, 1) << " |\n";
            }
            const Series& q = r["quic-cubic"];
            const Series& t = r["tcp-cubic"];
            ratios << "| " << conns << " | " << Fixed(q.cpu / t.cpu, 2) << " | "
                   << Fixed(q.rssMb / std::max(t.rssMb, 0.1), 2) << " | "
                   << Fixed((q.rssMb - base) / std::max(t.rssMb - base, 0.1), 2) << " |\n";
            md << "| " << conns << " | | udp-silent baseline | | "
               << r[kUdpSilent].runs.front().events << " | " << Fixed(r[kUdpSilent].cpu, 3)
               << " | | | " << Fixed(base, 1) << " | " << Fixed(base * 1024 / conns, 1) << " | |\n";
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
                            << Fixed(beyond * 1.024, 1)
                            << " kB per connection beyond the baseline, "
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
            const double t =
                cpuPerConnAt[counts.back()]["tcp-cubic"] / cpuPerConnAt[1000]["tcp-cubic"];
            md << "\nScaling: CPU per connection at " << counts.back()
               << " connections within 1.3x of "
               << "the 1000-connection figure: " << (q <= 1.3 ? "met" : "**not met**")
               << " (quic-cc " << Fixed(q, 2) << "x, ns-3 TCP " << Fixed(t, 2)
               << "x on the same topology).\n";
        }
        md << "\n" << scaleTarget.str();
    }

    if (want("sizes"))
    {
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
               << (o.completed ? Fixed(o.simSeconds, 3) : "not completed") << " | " << o.events
               << " | " << Fixed(o.events / packets, 2) << " | " << Fixed(r.cpu, 2) << " | "
               << Fixed(r.wall, 2) << " | " << Fixed(nsPerByte, 2) << " | "
               << Fixed(nsPerByte / first, 2) << "x | " << Fixed(r.rssMb, 1) << " |\n";
            gbRssMb = bytes == 1'000'000'000ull ? r.rssMb : gbRssMb;
        }
        md << "\nTarget 4 (keep): cost grows linearly with bytes (ns per byte within 25 % of the "
              "10 MB "
              "run's): "
           << (worst <= 1.25 ? "met" : "**not met**") << " (largest ratio " << Fixed(worst, 2)
           << "x).\n\n";
    }

    if (maxRssRatio >= 0 || gbRssMb >= 0)
    {
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
    std::cout << md.str();
    if (!markdown.empty())
    {
        {
            std::ofstream out(markdown + ".tmp");
            out << md.str();
            if (!out.flush())
            {
                std::cerr << "transfer-bench: writing " << markdown << ".tmp failed" << std::endl;
                return 1;
            }
        }
        if (std::rename((markdown + ".tmp").c_str(), markdown.c_str()) != 0)
        {
            std::cerr << "transfer-bench: cannot rename " << markdown
                      << ".tmp: " << std::strerror(errno) << std::endl;
            return 1;
        }
    }
    return 0;
}
