/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "transfer-bench-scenario.h"

#include "quic-cc-drop-tail-link.h"
#include "quic-cc-stop-at-bytes.h"
#include "quic-cc-transport-spec.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/quic-cc-frames.h"
#include "ns3/quic-cc-helper.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

using namespace ns3;

namespace transferbench
{

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

bool
IsTcp(const std::string& proto)
{
    return proto.rfind("tcp-", 0) == 0;
}

bool
IsNgtcp2(const std::string& proto)
{
    return proto.rfind("ngtcp2-", 0) == 0;
}

std::string
Unsupported(const Spec& spec, std::string& option)
{
    const std::vector<std::string> protos{"quic-reno",
                                          "quic-cubic",
                                          "tcp-reno",
                                          "tcp-cubic",
                                          "ngtcp2-reno",
                                          "ngtcp2-cubic",
                                          "ngtcp2-bbr",
                                          kUdpSilent,
                                          "idle"};
    option = "proto";
    if (std::find(protos.begin(), protos.end(), spec.proto) == protos.end())
    {
        return "not one of quic-reno, quic-cubic, tcp-reno, tcp-cubic, ngtcp2-reno, "
               "ngtcp2-cubic, ngtcp2-bbr, udp-silent, idle";
    }
    if (IsNgtcp2(spec.proto) && QuicCcNgtcp2Version().empty())
    {
        return "this build has no ngtcp2 transport (configure with -DQUICCC_NGTCP2=ON)";
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

namespace
{

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

/**
 * The transport of \p spec on \p nodes (random streams from \p stream on, advanced): quic-cc with
 * the benchmark's socket settings, the real ngtcp2 library with its own controller and the same
 * datagram size, or ns-3 TCP (set up by ConfigureTransport). Returns the socket factory's name.
 */
std::string
InstallTransport(const Spec& spec, NodeContainer nodes, int64_t& stream)
{
    if (IsTcp(spec.proto))
    {
        return "ns3::TcpSocketFactory";
    }
    // quic-reno, quic-cubic, ngtcp2-bbr, ...: the transport, then its controller.
    const size_t dash = spec.proto.find('-');
    QuicCcTransportSpec transport(IsNgtcp2(spec.proto) ? "ngtcp2" : "quic-cc",
                                  spec.proto.substr(dash + 1));
    // quic-cc: an ACK every 2nd ack-eliciting packet, like TCP's delayed ACK (DelAckCount 2);
    // ngtcp2 runs its own ACK policy (also every 2nd).
    transport.SetSocket("AckPolicy", StringValue("Rfc9000"));
    if (spec.fullOnly)
    {
        transport.SetSocket("PacketSizing", StringValue("FullOnly"));
    }
    QuicCcHelper quic;
    transport.ApplyTo(quic);
    quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(kDatagram));
    quic.SetSocketAttribute("IdleTimeout", TimeValue(Seconds(60)));
    quic.Install(nodes);
    stream += quic.AssignStreams(nodes, stream);
    return quic.GetSocketFactoryName();
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

/// When the set-up of a simulation started.
struct Start
{
    std::chrono::steady_clock::time_point wall; //!< steady clock
    double cpu;                                 //!< process CPU time, s
};

/**
 * Simulator::Run (its stop time already set), then Simulator::Destroy; the outcome of the
 * simulation whose set-up began at \p start, read from \p counter (null: nothing to receive).
 */
Outcome
RunAndMeasure(const Start& start, const QuicCcStopAtBytes* counter)
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
    out.wallTotal = Since(start.wall);
    out.cpuTotal = CpuNow() - start.cpu;
    return out;
}

/**
 * One transfer of spec.bytes from node 0 to node 1 over one 100 Mbps, 5 ms link; with loss,
 * a RateErrorModel drops 30 % of the packets each device receives until t = 2 s.
 */
Outcome
RunSingle(const Spec& spec, const Start& start)
{
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devices = QuicCcInstallDropTailLink(nodes.Get(0),
                                                           nodes.Get(1),
                                                           DataRate(kRate),
                                                           MicroSeconds(kOneWayDelayUs),
                                                           kQueuePackets);
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
    // Without ns-3's default root queue disc: the bottleneck is the plain drop-tail device queue.
    Ipv4InterfaceContainer ifaces = QuicCcAssignWithoutQueueDisc(ipv4, devices);

    int64_t stream = 1;
    for (auto& em : errorModels)
    {
        stream += em->AssignStreams(stream);
    }
    stream += internet.AssignStreams(nodes, stream);
    const std::string factory = InstallTransport(spec, nodes, stream);

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
    return RunAndMeasure(start, &counter);
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
RunDumbbell(const Spec& spec, const Start& start)
{
    const uint32_t leaves = std::min<uint32_t>(spec.conns, 10);

    NodeContainer routers;
    routers.Create(2);
    NodeContainer senders;
    senders.Create(leaves);
    NodeContainer receivers;
    receivers.Create(leaves);
    NodeContainer all(routers, senders, receivers);

    const DataRate accessRate(static_cast<uint64_t>(DumbbellAccessRateBps(spec.conns)));

    InternetStackHelper internet;
    internet.Install(all);
    Ipv4AddressHelper ipv4;
    ipv4.SetBase("10.0.0.0", "255.255.255.252");
    // Every link without ns-3's default root queue disc (FqCoDel, which creates a CoDel queue
    // disc per flow): plain drop-tail device queues; the access links' hold ns-3's default 100.
    const NetDeviceContainer core =
        QuicCcInstallDropTailLink(routers.Get(0),
                                  routers.Get(1),
                                  DataRate(static_cast<uint64_t>(DumbbellRateBps(spec.conns))),
                                  MilliSeconds(4),
                                  DumbbellQueuePackets(spec.conns));
    QuicCcAssignWithoutQueueDisc(ipv4, core);
    std::vector<Ipv4Address> receiverAddr;
    for (uint32_t i = 0; i < leaves; ++i)
    {
        ipv4.SetBase(Ipv4Address((10u << 24) | (1u << 16) | (i << 8)), "255.255.255.0");
        QuicCcAssignWithoutQueueDisc(ipv4,
                                     QuicCcInstallDropTailLink(senders.Get(i),
                                                               routers.Get(0),
                                                               accessRate,
                                                               MicroSeconds(500),
                                                               kQueuePackets));
        ipv4.SetBase(Ipv4Address((10u << 24) | (2u << 16) | (i << 8)), "255.255.255.0");
        const NetDeviceContainer down = QuicCcInstallDropTailLink(receivers.Get(i),
                                                                  routers.Get(1),
                                                                  accessRate,
                                                                  MicroSeconds(500),
                                                                  kQueuePackets);
        receiverAddr.push_back(QuicCcAssignWithoutQueueDisc(ipv4, down).GetAddress(0));
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
        return RunAndMeasure(start, nullptr);
    }
    const std::string factory = InstallTransport(spec, all, stream);

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
    return RunAndMeasure(start, &counter);
}

} // namespace

Outcome
RunSpec(const Spec& spec)
{
    if (spec.proto == "idle")
    {
        return Outcome{};
    }
    const Start start{std::chrono::steady_clock::now(), CpuNow()};
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    ConfigureTransport(spec);
    return spec.dumbbell ? RunDumbbell(spec, start) : RunSingle(spec, start);
}

} // namespace transferbench
