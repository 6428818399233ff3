/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-interop-scenario.h"

#include "quic-cc-bulk-transfer.h"
#include "quic-cc-dumbbell-topology.h"
#include "quic-cc-first-socket.h"
#include "quic-cc-flow-spec.h"

#include "ns3/abort.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/queue-disc.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// Bytes a receiving application got, and when the first and the last came.
struct Arrivals
{
    uint64_t bytes{0};
    uint64_t target{0}; //!< stop the simulation when this many arrived (0 = never)
    double first{-1};
    double last{-1};
};

void
OnRx(Arrivals* a, Ptr<const Packet> p, const Address&)
{
    const double now = Simulator::Now().GetSeconds();
    if (a->first < 0)
    {
        a->first = now;
    }
    a->last = now;
    a->bytes += p->GetSize();
    if (a->target > 0 && a->bytes >= a->target)
    {
        a->target = 0;
        Simulator::Stop();
    }
}

/// The cross flow's bytes at the measured flow's first and last arrival.
struct CrossWindow
{
    const Arrivals* measured{nullptr};
    uint64_t bytesAtFirst{0};
    uint64_t bytesAtLast{0};
    bool started{false};
};

void
OnCrossRx(Arrivals* cross, CrossWindow* w, Ptr<const Packet> p, const Address& from)
{
    OnRx(cross, p, from);
    if (w->measured->first >= 0 && !w->started)
    {
        w->started = true;
        w->bytesAtFirst = cross->bytes;
    }
    if (w->started && w->measured->target > 0)
    {
        w->bytesAtLast = cross->bytes; // until the measured flow completes
    }
}

} // namespace

const std::vector<std::string>&
QuicCcInteropStacks()
{
    static const std::vector<std::string> stacks{"quic-cc-reno",
                                                 "quic-cc-cubic",
                                                 "ngtcp2-reno",
                                                 "ngtcp2-cubic",
                                                 "ngtcp2-bbr",
                                                 "tcp-cubic"};
    return stacks;
}

QuicCcTransportSpec
QuicCcInteropTransport(const std::string& stack)
{
    const size_t dash = stack.rfind('-');
    NS_ABORT_MSG_IF(stack == "tcp-cubic" || dash == std::string::npos,
                    "interop: '" << stack << "' is not a QUIC stack");
    return QuicCcTransportSpec(stack.substr(0, dash), stack.substr(dash + 1));
}

QuicCcInteropResult
QuicCcRunInterop(const QuicCcInteropParams& params)
{
    const auto& stacks = QuicCcInteropStacks();
    NS_ABORT_MSG_IF(std::find(stacks.begin(), stacks.end(), params.stack) == stacks.end(),
                    "interop: stack must be quic-cc-reno, quic-cc-cubic, ngtcp2-reno, "
                    "ngtcp2-cubic, ngtcp2-bbr or tcp-cubic, got '"
                        << params.stack << "'");
    NS_ABORT_MSG_IF(params.transferBytes == 0, "interop: transfer size must be > 0, got 0");
    NS_ABORT_MSG_IF(params.queuePackets == 0, "interop: queue must be >= 1 packet, got 0");
    NS_ABORT_MSG_UNLESS(params.timeout > params.start + params.startJitter,
                        "interop: timeout " << params.timeout.As(Time::S)
                                            << " must be after the start");

    RngSeedManager::SetSeed(params.seed);
    RngSeedManager::SetRun(params.run);
    // ns-3 TCP sockets take these from their defaults (the runner's tcp-cross-traffic scenario:
    // 1448-byte segments, SACK, buffers that never limit the flow).
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(params.tcpSegmentSize));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(100u << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(10u << 20));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));

    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    jitter->SetStream(0);
    const Time start =
        params.start + (params.startJitter.IsStrictlyPositive()
                            ? NanoSeconds(jitter->GetInteger(
                                  0,
                                  static_cast<uint32_t>(params.startJitter.GetNanoSeconds() - 1)))
                            : Time(0));

    // Flow 0 is measured, flow 1 (C only) the TCP cross traffic; the access links add no delay.
    QuicCcDumbbellParams path;
    path.bottleneckRate = params.rate;
    path.bottleneckDelay = params.oneWayDelay;
    path.accessRate = params.accessRate;
    path.queueDisc = "ns3::PfifoFastQueueDisc";
    path.queueDiscAttributes = {{"MaxSize", std::to_string(params.queuePackets) + "p"}};
    path.queueDiscBothWays = true;
    const std::vector<Time> accessDelays(params.crossTraffic ? 2 : 1, Time(0));
    const QuicCcDumbbellTopology topology = QuicCcBuildDumbbell(path, accessDelays);

    QuicCcInteropResult result;
    result.startSeconds = start.GetSeconds();
    int64_t stream = 1;
    std::string factory = "ns3::TcpSocketFactory";
    const bool tcp = params.stack == "tcp-cubic";
    QuicCcFirstSocket sender;
    QuicCcHelper quic;
    if (tcp)
    {
        topology.senders.Get(0)->GetObject<TcpL4Protocol>()->SetAttribute(
            "SocketType",
            TypeIdValue(TcpCubic::GetTypeId()));
    }
    else
    {
        QuicCcInteropTransport(params.stack).ApplyTo(quic);
        quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(params.maxDatagramSize));
        quic.SetSocketAttribute("IdleTimeout", TimeValue(params.timeout));
        NodeContainer ends(topology.senders.Get(0), topology.receivers.Get(0));
        quic.Install(ends);
        stream += quic.AssignStreams(ends, stream);
        factory = quic.GetSocketFactoryName();
        sender.Watch(topology.senders.Get(0), MakeNullCallback<void, Ptr<QuicCcSocketBase>>());
    }
    Arrivals measured;
    measured.target = params.transferBytes;
    const QuicCcBulkTransfer transfer = QuicCcInstallBulkTransfer(factory,
                                                                  topology.senders.Get(0),
                                                                  topology.receivers.Get(0),
                                                                  topology.receiverAddress[0],
                                                                  params.transferBytes);
    transfer.source->SetStartTime(start);
    transfer.sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, &measured));

    Arrivals cross;
    CrossWindow window;
    window.measured = &measured;
    if (params.crossTraffic)
    {
        topology.senders.Get(1)->GetObject<TcpL4Protocol>()->SetAttribute(
            "SocketType",
            TypeIdValue(TcpCubic::GetTypeId()));
        // Until the end (iperf -t 3600).
        const QuicCcBulkTransfer iperf = QuicCcInstallBulkTransfer("ns3::TcpSocketFactory",
                                                                   topology.senders.Get(1),
                                                                   topology.receivers.Get(1),
                                                                   topology.receiverAddress[1],
                                                                   0);
        iperf.source->SetStartTime(params.crossStart);
        iperf.sink->TraceConnectWithoutContext("Rx",
                                               MakeBoundCallback(&OnCrossRx, &cross, &window));
    }
    InternetStackHelper internet;
    internet.AssignStreams(topology.all, stream);

    Ptr<QueueDisc> bottleneck =
        topology.forwardTx->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(
            topology.forwardTx);
    Simulator::Stop(params.timeout);
    Simulator::Run();

    result.completed = measured.bytes >= params.transferBytes;
    result.firstSeconds = measured.first;
    result.lastSeconds = measured.last;
    if (result.completed && measured.last > measured.first)
    {
        result.goodputKbps = 8.0 * params.transferBytes / (measured.last - measured.first) / 1e3;
        result.crossBytes = window.bytesAtLast - window.bytesAtFirst;
        result.crossKbps = 8.0 * result.crossBytes / (measured.last - measured.first) / 1e3;
    }
    if (Ptr<QuicCcSocketBase> s = sender.Get())
    {
        result.lostPackets = s->GetPacketsLost();
    }
    result.queueDrops = bottleneck->GetStats().nTotalDroppedPackets;
    Simulator::Destroy();
    return result;
}

} // namespace ns3
