/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-dumbbell-scenario.h"

#include "quic-cc-dumbbell-flow-traces.h"
#include "quic-cc-dumbbell-topology.h"
#include "quic-cc-periodic-error-model.h"
#include "quic-cc-report.h"
#include "quic-cc-send-buffer.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/quic-cc-ecn.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/quic-cc-socket-factory.h"
#include "ns3/quic-cc-socket.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcDumbbellScenario");

namespace
{

/// Destination port of the cross traffic (QuicCcDumbbellParams::crossTrafficRate).
constexpr uint16_t kCrossTrafficPort = 9;

/// QueueDisc "SojournTime": keep \p sojourn in ms.
void
RecordSojourn(std::vector<double>* out, Time sojourn)
{
    out->push_back(sojourn.GetSeconds() * 1e3);
}

} // namespace

QuicCcDumbbellResult
QuicCcRunDumbbell(const QuicCcDumbbellParams& params)
{
    const std::string bad = QuicCcCheckDumbbellParams(params);
    NS_ABORT_MSG_UNLESS(bad.empty(), "dumbbell: " << bad);

    RngSeedManager::SetSeed(params.seed);
    RngSeedManager::SetRun(params.run);
    // ns-3 TCP sockets take these from their defaults (no per-socket setting before connect).
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(params.tcpSegmentSize));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(8u << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(8u << 20));
    // ECN on both ends of every flow, either transport (sockets read these when created).
    Config::SetDefault("ns3::QuicCcSocketBase::Ecn", BooleanValue(params.ecn));
    Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue(params.ecn ? "On" : "Off"));

    uint32_t n = 0;
    for (const auto& g : params.groups)
    {
        n += g.count;
    }

    // Start times first, from their own stream, so they do not depend on the rest of the setup.
    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    jitter->SetStream(0);

    QuicCcDumbbellRun state;
    state.params = &params;
    state.windowEnd = params.duration;
    state.flows.resize(n);
    std::vector<Time> accessDelays;
    for (uint32_t i = 0; i < n; ++i)
    {
        const Time rtt = params.rtts[i % params.rtts.size()];
        accessDelays.push_back((rtt / 2 - params.bottleneckDelay) / 2);
        QuicCcDumbbellFlow& f = state.flows[i];
        f.run = &state;
        f.result.index = i;
        f.result.rtt = rtt;
        f.result.start =
            params.stagger * i +
            (params.startJitter.IsStrictlyPositive()
                 ? NanoSeconds(jitter->GetInteger(0, params.startJitter.GetNanoSeconds() - 1))
                 : Time(0));
        f.cwnd = std::make_unique<QuicCcTimeAverage>(params.warmup);
    }
    const QuicCcDumbbellTopology dumbbell = QuicCcBuildDumbbell(params, accessDelays);

    int64_t stream = 1;
    Ptr<QuicCcPeriodicErrorModel> periodic;
    if (params.lossRate > 0)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(params.lossRate);
        stream += em->AssignStreams(stream);
        dumbbell.forwardRx->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    else if (params.lossPeriod > 0)
    {
        periodic = CreateObject<QuicCcPeriodicErrorModel>();
        periodic->SetAttribute("Period", UintegerValue(params.lossPeriod));
        periodic->SetAttribute("FirstDrop", UintegerValue(params.lossFirstDrop));
        dumbbell.forwardRx->SetAttribute("ReceiveErrorModel", PointerValue(periodic));
    }

    // quic-cc on every receiver, and each QUIC flow's transport on its sender (and on its receiver
    // when that has not got it: the receiver's PacketSink needs the factory too).
    const Time idleTimeout = params.duration + Seconds(10);
    const auto install = [&params, &stream, idleTimeout](QuicCcTransportSpec transport,
                                                         NodeContainer nodes) {
        transport.SetSocket("AckPolicy", StringValue(params.ackPolicy));
        QuicCcHelper quic;
        transport.ApplyTo(quic);
        // Set with the same names on either transport.
        quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(params.maxDatagramSize));
        quic.SetSocketAttribute("IdleTimeout", TimeValue(idleTimeout));
        if (!params.qlogDirectory.empty())
        {
            quic.EnableQlog(params.qlogDirectory);
        }
        quic.Install(nodes);
        stream += quic.AssignStreams(nodes, stream);
        return quic.GetSocketFactoryName();
    };
    install(QuicCcTransportSpec(), dumbbell.receivers);

    FlowMonitorHelper flowMonitorHelper;
    Ptr<FlowMonitor> monitor = flowMonitorHelper.InstallAll();

    const uint16_t port = 50000;
    uint32_t i = 0;
    for (const QuicCcFlowGroup& group : params.groups)
    {
        const bool tcp = group.transport == "tcp";
        std::string factory = "ns3::TcpSocketFactory";
        for (uint32_t k = 0; k < group.count; ++k, ++i)
        {
            QuicCcDumbbellFlow& f = state.flows[i];
            f.result.group = group.token;
            f.result.transport = group.transport;
            f.result.controller = group.label;
            f.result.libraryVersion = tcp ? "" : group.quic.GetLibraryVersion();
            f.result.mss = tcp ? params.tcpSegmentSize : params.maxDatagramSize;
            Ptr<Node> sender = dumbbell.senders.Get(i);
            if (tcp)
            {
                sender->GetObject<TcpL4Protocol>()->SetAttribute(
                    "SocketType",
                    TypeIdValue(TypeId::LookupByName(group.typeId)));
            }
            else
            {
                NodeContainer ends(sender);
                Ptr<Node> receiver = dumbbell.receivers.Get(i);
                const TypeId transport = TypeId::LookupByName(group.quic.GetSocketFactoryName());
                if (!receiver->GetObject<QuicCcSocketFactoryBase>(transport))
                {
                    ends.Add(receiver);
                }
                factory = install(group.quic, ends);
                QuicCcDumbbellWatchQuicSender(&f, sender);
            }

            PacketSinkHelper sink(factory, InetSocketAddress(Ipv4Address::GetAny(), port));
            ApplicationContainer sinkApp = sink.Install(dumbbell.receivers.Get(i));
            QuicCcDumbbellWatchSink(&f, DynamicCast<PacketSink>(sinkApp.Get(0)));
            sinkApp.Start(Seconds(0));

            BulkSendHelper bulk(factory, InetSocketAddress(dumbbell.receiverAddress[i], port));
            bulk.SetAttribute("MaxBytes", UintegerValue(params.transferBytes));
            bulk.SetAttribute("SendSize", UintegerValue(kQuicCcBulkWriteBytes));
            ApplicationContainer bulkApp = bulk.Install(sender);
            bulkApp.Start(f.result.start);
            if (tcp)
            {
                Simulator::Schedule(f.result.start + NanoSeconds(1),
                                    &QuicCcDumbbellHookTcpSender,
                                    &f,
                                    DynamicCast<BulkSendApplication>(bulkApp.Get(0)),
                                    &group);
            }
        }
    }
    if (params.crossTrafficRate.GetBitRate() > 0)
    {
        PacketSinkHelper crossSink("ns3::UdpSocketFactory",
                                   InetSocketAddress(Ipv4Address::GetAny(), kCrossTrafficPort));
        crossSink.Install(dumbbell.receivers.Get(0)).Start(Seconds(0));
        OnOffHelper cross("ns3::UdpSocketFactory",
                          InetSocketAddress(dumbbell.receiverAddress[0], kCrossTrafficPort));
        cross.SetConstantRate(params.crossTrafficRate, 1200);
        cross.SetAttribute("OnTime", StringValue("ns3::ExponentialRandomVariable[Mean=1]"));
        cross.SetAttribute("OffTime", StringValue("ns3::ExponentialRandomVariable[Mean=1]"));
        cross.Install(dumbbell.senders.Get(0)).Start(Seconds(0));
        stream += cross.AssignStreams(NodeContainer(dumbbell.senders.Get(0)), stream);
    }
    InternetStackHelper internet;
    stream += internet.AssignStreams(dumbbell.all, stream);

    std::vector<double> sojournMs;
    if (dumbbell.queueDisc)
    {
        dumbbell.queueDisc->TraceConnectWithoutContext(
            "SojournTime",
            MakeBoundCallback(&RecordSojourn, &sojournMs));
    }
    Simulator::Stop(params.duration);
    Simulator::Run();
    QuicCcDumbbellCloseWindow(&state);

    QuicCcDumbbellResult result;
    result.windowStart = params.warmup;
    result.windowEnd = state.windowEnd;
    const double windowSeconds =
        std::max((result.windowEnd - result.windowStart).GetSeconds(), 0.0);

    monitor->CheckForLostPackets();
    Ptr<Ipv4FlowClassifier> classifier =
        DynamicCast<Ipv4FlowClassifier>(flowMonitorHelper.GetClassifier());
    const FlowMonitor::FlowStatsContainer stats = monitor->GetFlowStats();

    std::vector<double> goodputs;
    for (uint32_t j = 0; j < n; ++j)
    {
        QuicCcDumbbellFlow& f = state.flows[j];
        QuicCcDumbbellFlowResult r = f.result;
        r.goodputMbps = windowSeconds > 0 ? r.windowBytes * 8.0 / windowSeconds / 1e6 : 0;
        r.meanCwndBytes = f.cwnd->Mean();
        r.sinkTotalRx = f.sink->GetTotalRx();
        if (f.quicSender)
        {
            r.lostPackets = f.quicSender->GetPacketsLost();
            r.ecnCongestionEvents = f.quicSender->GetEcnCongestionEvents();
            r.ecnState = QuicCcEcnStateName(f.quicSender->GetEcnState());
        }
        const Ipv4Address src = dumbbell.senderAddress[j];
        const Ipv4Address dst = dumbbell.receiverAddress[j];
        for (const auto& [id, st] : stats)
        {
            const Ipv4FlowClassifier::FiveTuple t = classifier->FindFlow(id);
            if (t.sourceAddress == src && t.destinationAddress == dst && t.destinationPort == port)
            {
                if (st.packetsDropped.size() > Ipv4FlowProbe::DROP_QUEUE_DISC)
                {
                    r.queueDiscDrops += st.packetsDropped[Ipv4FlowProbe::DROP_QUEUE_DISC];
                }
                r.wireTxPackets += st.txPackets;
                r.wireRxPackets += st.rxPackets;
                r.wireTxBytes += st.txBytes;
                r.wireRxBytes += st.rxBytes;
            }
        }
        const size_t bins = static_cast<size_t>(
            std::ceil(Simulator::Now().GetSeconds() / params.interval.GetSeconds()));
        r.binBytes.resize(std::max(bins, r.binBytes.size()), 0);
        goodputs.push_back(r.goodputMbps);
        result.totalGoodputMbps += r.goodputMbps;
        result.flows.push_back(std::move(r));
    }
    result.jainIndex = QuicCcJainIndex(goodputs);
    result.periodicDrops = periodic ? periodic->GetDropped() : 0;
    result.events = Simulator::GetEventCount();
    if (dumbbell.queueDisc)
    {
        const QueueDisc::Stats& st = dumbbell.queueDisc->GetStats();
        result.queueDrops = st.nTotalDroppedPackets;
        result.queueMarks = st.nTotalMarkedPackets;
        if (!sojournMs.empty())
        {
            result.sojournP50Ms = QuicCcQuantile(sojournMs, 0.5);
            result.sojournP99Ms = QuicCcQuantile(sojournMs, 0.99);
        }
    }
    for (auto& f : state.flows)
    {
        f.quicSender = nullptr;
        f.tcpSender = nullptr;
        f.sink = nullptr;
    }
    Simulator::Destroy();
    return result;
}

std::vector<std::string>
QuicCcDumbbellSetAttributes()
{
    std::vector<std::string> out;
    for (const char* attribute : {"MaxDatagramSize", "AckPolicy", "IdleTimeout"})
    {
        const std::vector<std::string> names = QuicCcTransportSpec::SocketAttributeNames(attribute);
        out.insert(out.end(), names.begin(), names.end());
    }
    for (const char* attribute : {"ns3::TcpSocket::SegmentSize",
                                  "ns3::TcpSocket::SndBufSize",
                                  "ns3::TcpSocket::RcvBufSize",
                                  "ns3::QuicCcSocketBase::Ecn",
                                  "ns3::TcpSocketBase::UseEcn"})
    {
        out.emplace_back(attribute);
    }
    return out;
}

} // namespace ns3
