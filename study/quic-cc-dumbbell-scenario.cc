/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-dumbbell-scenario.h"

#include "quic-cc-periodic-error-model.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-layout-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/quic-cc-socket-factory.h"
#include "ns3/quic-cc-socket.h"
#include "ns3/quic-congestion-controller.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcDumbbellScenario");

namespace
{

/// Most flows one group may hold (each flow is two leaf nodes).
constexpr uint64_t kMaxFlowsPerGroup = 1000;

/// Split \p s at \p sep, ignoring separators inside [...].
std::vector<std::string>
SplitOutsideBrackets(const std::string& s, char sep)
{
    std::vector<std::string> out(1);
    int depth = 0;
    for (char c : s)
    {
        depth += (c == '[') - (c == ']');
        if (c == sep && depth == 0)
        {
            out.emplace_back();
            continue;
        }
        out.back() += c;
    }
    return out;
}

/// Resolve a TypeId by name with an optional "ns3::" prefix; false if unknown.
bool
LookupTypeId(const std::string& name, TypeId* tid)
{
    return TypeId::LookupByNameFailSafe(name, tid) ||
           (name.rfind("ns3::", 0) != 0 && TypeId::LookupByNameFailSafe("ns3::" + name, tid));
}

/// Whether \p tid makes a TcpCongestionOps. By object, not by TypeId parent: ns-3.37 registers
/// TcpCubic with TcpSocketBase as its parent.
bool
IsTcpCongestionOps(TypeId tid)
{
    if (tid.IsChildOf(TcpCongestionOps::GetTypeId()))
    {
        return true;
    }
    if (!tid.HasConstructor())
    {
        return false;
    }
    ObjectFactory factory;
    factory.SetTypeId(tid);
    return static_cast<bool>(DynamicCast<TcpCongestionOps>(factory.Create()));
}

/// Parse one group; "" or the reason it is bad.
std::string
ParseGroup(const std::string& token, QuicCcFlowGroup* g)
{
    g->token = token;
    const std::vector<std::string> parts = SplitOutsideBrackets(token, ':');
    if (parts.size() != 3)
    {
        return "expected transport:controller:count";
    }
    const std::string& transport = parts[0];
    std::string controller = parts[1];
    const std::string& count = parts[2];
    if (transport != "quic" && transport != "tcp")
    {
        return "transport must be quic or tcp, got '" + transport + "'";
    }
    g->tcp = transport == "tcp";

    std::string attributes;
    if (const size_t open = controller.find('['); open != std::string::npos)
    {
        if (controller.back() != ']')
        {
            return "attribute list must end with ']'";
        }
        attributes = controller.substr(open + 1, controller.size() - open - 2);
        controller = controller.substr(0, open);
    }

    TypeId tid;
    if (!g->tcp)
    {
        const std::string name = controller == "cubic"  ? "ns3::QuicCubic"
                                 : controller == "reno" ? "ns3::QuicReno"
                                                        : controller;
        if (!LookupTypeId(name, &tid) || !tid.IsChildOf(QuicCongestionController::GetTypeId()))
        {
            return "unknown QUIC controller '" + controller +
                   "' (cubic, reno, or a QuicCongestionController TypeId)";
        }
    }
    else if (!LookupTypeId(controller, &tid) || !IsTcpCongestionOps(tid))
    {
        return "unknown TCP congestion control '" + controller +
               "' (a TcpCongestionOps TypeId such as TcpCubic, TcpNewReno, TcpLinuxReno)";
    }
    g->typeId = tid.GetName();

    if (!attributes.empty())
    {
        for (const std::string& kv : SplitOutsideBrackets(attributes, '|'))
        {
            const size_t eq = kv.find('=');
            if (eq == std::string::npos || eq == 0)
            {
                return "attribute '" + kv + "' is not Name=Value";
            }
            const std::string name = kv.substr(0, eq);
            const std::string value = kv.substr(eq + 1);
            if (std::string why = QuicCcHelper::CheckAttributeValue(tid, name, StringValue(value));
                !why.empty())
            {
                return why;
            }
            g->attributes.emplace_back(name, value);
        }
    }

    if (count.empty() || count.size() > 6 ||
        !std::all_of(count.begin(), count.end(), [](unsigned char c) { return std::isdigit(c); }))
    {
        return "count must be a positive integer, got '" + count + "'";
    }
    const uint64_t n = std::stoull(count);
    if (n == 0 || n > kMaxFlowsPerGroup)
    {
        return "count must be 1.." + std::to_string(kMaxFlowsPerGroup) + ", got " + count;
    }
    g->count = static_cast<uint32_t>(n);
    return "";
}

/// Time-weighted mean of a piecewise-constant value (cwnd) over [from, to], where \p to is
/// fixed later (Close) or at the end.
class TimeAverage
{
  public:
    explicit TimeAverage(Time from)
        : m_from(from)
    {
    }

    void Update(Time now, double value)
    {
        Accumulate(now);
        m_value = value;
    }

    void Close(Time now)
    {
        Accumulate(now);
        m_closed = true;
    }

    double Mean() const
    {
        return m_covered.IsStrictlyPositive() ? m_integral / m_covered.GetSeconds() : 0;
    }

  private:
    void Accumulate(Time now)
    {
        if (m_closed)
        {
            return;
        }
        const Time begin = std::max(m_last, m_from);
        if (now > begin && m_started)
        {
            m_integral += m_value * (now - begin).GetSeconds();
            m_covered += now - begin;
        }
        m_last = now;
        m_started = true;
    }

    Time m_from;
    Time m_last;
    Time m_covered;
    double m_value{0};
    double m_integral{0};
    bool m_started{false};
    bool m_closed{false};
};

struct RunState;

/// What the trace sinks of one flow write.
struct FlowState
{
    RunState* run{nullptr};
    QuicCcDumbbellFlowResult result;
    std::unique_ptr<TimeAverage> cwnd;
    Ptr<QuicCcSocket> quicSender;
    Ptr<TcpSocketBase> tcpSender;
    Ptr<PacketSink> sink;
    SequenceNumber32 tcpHighestTx{0};
    bool tcpSentAny{false};
};

/// Everything one run shares.
struct RunState
{
    const QuicCcDumbbellParams* params{nullptr};
    std::vector<FlowState> flows;
    Time windowEnd;
    bool windowClosed{false};
    uint32_t completed{0};
};

void
CloseWindow(RunState* s)
{
    if (s->windowClosed)
    {
        return;
    }
    s->windowClosed = true;
    s->windowEnd = Simulator::Now();
    for (auto& f : s->flows)
    {
        f.cwnd->Close(s->windowEnd);
    }
}

void
OnRx(FlowState* f, Ptr<const Packet> p, const Address&)
{
    const Time now = Simulator::Now();
    const QuicCcDumbbellParams& params = *f->run->params;
    const uint64_t bytes = p->GetSize();
    f->result.sinkBytes += bytes;
    const auto bin = static_cast<size_t>(now.GetInteger() / params.interval.GetInteger());
    if (f->result.binBytes.size() <= bin)
    {
        f->result.binBytes.resize(bin + 1, 0);
    }
    f->result.binBytes[bin] += bytes;
    if (!f->run->windowClosed && now >= params.warmup)
    {
        f->result.windowBytes += bytes;
    }
    if (params.transferBytes > 0 && !f->result.completed &&
        f->result.sinkBytes >= params.transferBytes)
    {
        f->result.completed = true;
        f->result.completionSeconds = now.GetSeconds();
        CloseWindow(f->run); // fairness is measured while every flow competes
        if (++f->run->completed == f->run->flows.size())
        {
            Simulator::Stop();
        }
    }
}

void
OnQuicCwnd(FlowState* f, uint64_t, uint64_t cwnd)
{
    f->cwnd->Update(Simulator::Now(), static_cast<double>(cwnd));
}

void
OnTcpCwnd(FlowState* f, uint32_t, uint32_t cwnd)
{
    f->cwnd->Update(Simulator::Now(), static_cast<double>(cwnd));
}

void
OnTcpTx(FlowState* f, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (p->GetSize() == 0)
    {
        return;
    }
    const SequenceNumber32 end = h.GetSequenceNumber() + p->GetSize();
    if (f->tcpSentAny && h.GetSequenceNumber() < f->tcpHighestTx)
    {
        ++f->result.lostPackets; // a retransmitted segment
    }
    if (!f->tcpSentAny || end > f->tcpHighestTx)
    {
        f->tcpHighestTx = end;
    }
    f->tcpSentAny = true;
}

void
OnQuicSocketCreated(FlowState* f, Ptr<QuicCcSocket> socket)
{
    if (f->quicSender)
    {
        return;
    }
    f->quicSender = socket;
    socket->TraceConnectWithoutContext("CongestionWindow64", MakeBoundCallback(&OnQuicCwnd, f));
}

/// Right after BulkSend created its TCP socket (SYN sent, no data yet): install the group's
/// controller with its attributes, and hook the traces.
void
HookTcpSender(FlowState* f, Ptr<BulkSendApplication> app, const QuicCcFlowGroup* group)
{
    Ptr<TcpSocketBase> socket = DynamicCast<TcpSocketBase>(app->GetSocket());
    NS_ABORT_MSG_UNLESS(socket, "dumbbell: flow " << f->result.index << " has no TCP socket");
    if (!group->attributes.empty())
    {
        ObjectFactory factory(group->typeId);
        for (const auto& [name, value] : group->attributes)
        {
            factory.Set(name, StringValue(value));
        }
        socket->SetCongestionControlAlgorithm(factory.Create<TcpCongestionOps>());
    }
    f->tcpSender = socket;
    socket->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnTcpCwnd, f));
    socket->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTcpTx, f));
}

/// The point-to-point channel between a leaf and its router.
Ptr<Channel>
LeafChannel(Ptr<Node> leaf)
{
    return leaf->GetDevice(0)->GetChannel();
}

} // namespace

std::string
QuicCcParseFlowSpec(const std::string& spec, std::vector<QuicCcFlowGroup>* groups)
{
    if (spec.empty())
    {
        return "empty flow list";
    }
    for (const std::string& token : SplitOutsideBrackets(spec, ','))
    {
        QuicCcFlowGroup g;
        if (std::string why = ParseGroup(token, &g); !why.empty())
        {
            return "'" + token + "': " + why;
        }
        groups->push_back(g);
    }
    return "";
}

std::optional<double>
QuicCcJainIndex(const std::vector<double>& x)
{
    double sum = 0;
    double sumSq = 0;
    for (double v : x)
    {
        sum += v;
        sumSq += v * v;
    }
    if (!(sumSq > 0))
    {
        return std::nullopt;
    }
    return sum * sum / (static_cast<double>(x.size()) * sumSq);
}

std::string
QuicCcCheckDumbbellParams(const QuicCcDumbbellParams& p)
{
    std::ostringstream why;
    if (p.groups.empty())
    {
        why << "no flows";
    }
    else if (p.rtts.empty())
    {
        why << "no RTTs";
    }
    else if (p.bottleneckRate.GetBitRate() == 0)
    {
        why << "bottleneck rate must be > 0";
    }
    else if (p.accessRate.GetBitRate() == 0)
    {
        why << "access rate must be > 0";
    }
    else if (p.bottleneckDelay < Time(0))
    {
        why << "bottleneck delay must be >= 0, got " << p.bottleneckDelay.As(Time::MS);
    }
    else if (!(p.lossRate >= 0 && p.lossRate < 1))
    {
        why << "loss rate must be in [0, 1), got " << p.lossRate;
    }
    else if (p.lossRate > 0 && p.lossPeriod > 0)
    {
        why << "random loss and periodic loss exclude each other";
    }
    else if (!p.duration.IsStrictlyPositive())
    {
        why << "duration must be > 0, got " << p.duration.As(Time::S);
    }
    else if (p.warmup < Time(0) || p.warmup >= p.duration)
    {
        why << "warm-up must be in [0, duration), got " << p.warmup.As(Time::S);
    }
    else if (!p.interval.IsStrictlyPositive())
    {
        why << "interval must be > 0, got " << p.interval.As(Time::S);
    }
    else if (p.stagger < Time(0))
    {
        why << "stagger must be >= 0, got " << p.stagger.As(Time::S);
    }
    else if (p.startJitter < Time(0))
    {
        why << "start jitter must be >= 0, got " << p.startJitter.As(Time::S);
    }
    for (const Time& rtt : p.rtts)
    {
        if (why.tellp() == 0 && rtt < 2 * p.bottleneckDelay)
        {
            why << "RTT " << rtt.As(Time::MS) << " is below twice the bottleneck delay ("
                << (2 * p.bottleneckDelay).As(Time::MS) << ")";
        }
    }
    if (why.tellp() == 0)
    {
        QueueSizeValue size;
        if (!size.DeserializeFromString(p.queueSize, MakeQueueSizeChecker()) ||
            size.Get().GetValue() == 0)
        {
            why << "queue size must be like 100p or 150000B, got '" << p.queueSize << "'";
        }
    }
    TypeId tid;
    if (why.tellp() == 0 && !p.queueDisc.empty() &&
        (!LookupTypeId(p.queueDisc, &tid) || !tid.IsChildOf(QueueDisc::GetTypeId())))
    {
        why << "unknown queue disc '" << p.queueDisc
            << "' (a QueueDisc TypeId, e.g. ns3::FqCoDelQueueDisc)";
    }
    return why.str();
}

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

    uint32_t n = 0;
    for (const auto& g : params.groups)
    {
        n += g.count;
    }

    PointToPointHelper leaf;
    leaf.SetDeviceAttribute("DataRate", DataRateValue(params.accessRate));
    PointToPointHelper bottleneck;
    bottleneck.SetDeviceAttribute("DataRate", DataRateValue(params.bottleneckRate));
    bottleneck.SetChannelAttribute("Delay", TimeValue(params.bottleneckDelay));
    bottleneck.SetQueue("ns3::DropTailQueue<Packet>",
                        "MaxSize",
                        StringValue(params.queueDisc.empty() ? params.queueSize : "1p"));
    PointToPointDumbbellHelper dumbbell(n, leaf, n, leaf, bottleneck);

    // Start times first, from their own stream, so they do not depend on the rest of the setup.
    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    jitter->SetStream(0);

    RunState state;
    state.params = &params;
    state.windowEnd = params.duration;
    state.flows.resize(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        const Time rtt = params.rtts[i % params.rtts.size()];
        const Time access = (rtt / 2 - params.bottleneckDelay) / 2;
        LeafChannel(dumbbell.GetLeft(i))->SetAttribute("Delay", TimeValue(access));
        LeafChannel(dumbbell.GetRight(i))->SetAttribute("Delay", TimeValue(access));
        FlowState& f = state.flows[i];
        f.run = &state;
        f.result.index = i;
        f.result.rtt = rtt;
        f.result.start =
            params.stagger * i +
            (params.startJitter.IsStrictlyPositive()
                 ? NanoSeconds(jitter->GetInteger(0, params.startJitter.GetNanoSeconds() - 1))
                 : Time(0));
        f.cwnd = std::make_unique<TimeAverage>(params.warmup);
    }

    InternetStackHelper internet;
    dumbbell.InstallStack(internet);
    dumbbell.AssignIpv4Addresses(Ipv4AddressHelper("10.1.0.0", "255.255.255.0"),
                                 Ipv4AddressHelper("10.2.0.0", "255.255.255.0"),
                                 Ipv4AddressHelper("10.3.0.0", "255.255.255.0"));
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // Address assignment installed ns-3's default queue disc on every device; remove them all so
    // the bottleneck buffer is the one configured here.
    NodeContainer all;
    all.Add(dumbbell.GetLeft());
    all.Add(dumbbell.GetRight());
    for (uint32_t i = 0; i < n; ++i)
    {
        all.Add(dumbbell.GetLeft(i));
        all.Add(dumbbell.GetRight(i));
    }
    for (uint32_t k = 0; k < all.GetN(); ++k)
    {
        for (uint32_t d = 0; d < all.Get(k)->GetNDevices(); ++d)
        {
            Ptr<NetDevice> dev = all.Get(k)->GetDevice(d);
            if (DynamicCast<PointToPointNetDevice>(dev))
            {
                TrafficControlHelper().Uninstall(dev);
            }
        }
    }
    // The routers' device 0 is the bottleneck link (PointToPointDumbbellHelper installs it first).
    Ptr<NetDevice> forwardTx = dumbbell.GetLeft()->GetDevice(0);
    Ptr<NetDevice> forwardRx = dumbbell.GetRight()->GetDevice(0);
    if (!params.queueDisc.empty())
    {
        TypeId tid;
        LookupTypeId(params.queueDisc, &tid);
        TrafficControlHelper tch;
        tch.SetRootQueueDisc(tid.GetName());
        tch.Install(forwardTx);
    }

    int64_t stream = 1;
    Ptr<QuicCcPeriodicErrorModel> periodic;
    if (params.lossRate > 0)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(params.lossRate);
        stream += em->AssignStreams(stream);
        forwardRx->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    else if (params.lossPeriod > 0)
    {
        periodic = CreateObject<QuicCcPeriodicErrorModel>();
        periodic->SetAttribute("Period", UintegerValue(params.lossPeriod));
        periodic->SetAttribute("FirstDrop", UintegerValue(params.lossFirstDrop));
        forwardRx->SetAttribute("ReceiveErrorModel", PointerValue(periodic));
    }

    // quic-cc on every receiver, and on each QUIC sender with its group's controller.
    const auto setSocketAttributes = [&params](QuicCcHelper& quic) {
        quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(params.maxDatagramSize));
        quic.SetSocketAttribute("AckPolicy", StringValue(params.ackPolicy));
        quic.SetSocketAttribute("IdleTimeout", TimeValue(params.duration + Seconds(10)));
        if (!params.qlogDirectory.empty())
        {
            quic.EnableQlog(params.qlogDirectory);
        }
    };
    NodeContainer receivers;
    for (uint32_t i = 0; i < n; ++i)
    {
        receivers.Add(dumbbell.GetRight(i));
    }
    QuicCcHelper receiverQuic;
    setSocketAttributes(receiverQuic);
    receiverQuic.Install(receivers);
    stream += receiverQuic.AssignStreams(receivers, stream);

    FlowMonitorHelper flowMonitorHelper;
    Ptr<FlowMonitor> monitor = flowMonitorHelper.InstallAll();

    const uint16_t port = 50000;
    uint32_t i = 0;
    for (const QuicCcFlowGroup& group : params.groups)
    {
        const std::string factory =
            group.tcp ? "ns3::TcpSocketFactory" : "ns3::QuicCcSocketFactory";
        for (uint32_t k = 0; k < group.count; ++k, ++i)
        {
            FlowState& f = state.flows[i];
            f.result.group = group.token;
            f.result.transport = group.tcp ? "tcp" : "quic";
            f.result.controller = group.typeId;
            f.result.mss = group.tcp ? params.tcpSegmentSize : params.maxDatagramSize;
            Ptr<Node> sender = dumbbell.GetLeft(i);
            if (group.tcp)
            {
                sender->GetObject<TcpL4Protocol>()->SetAttribute(
                    "SocketType",
                    TypeIdValue(TypeId::LookupByName(group.typeId)));
            }
            else
            {
                QuicCcHelper quic;
                quic.SetCongestionControl(group.typeId);
                for (const auto& [name, value] : group.attributes)
                {
                    quic.SetControllerAttribute(name, StringValue(value));
                }
                setSocketAttributes(quic);
                quic.Install(sender);
                stream += quic.AssignStreams(NodeContainer(sender), stream);
                sender->GetObject<QuicCcSocketFactory>()->TraceConnectWithoutContext(
                    "SocketCreated",
                    MakeBoundCallback(&OnQuicSocketCreated, &f));
            }

            PacketSinkHelper sink(factory, InetSocketAddress(Ipv4Address::GetAny(), port));
            ApplicationContainer sinkApp = sink.Install(dumbbell.GetRight(i));
            sinkApp.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, &f));
            f.sink = DynamicCast<PacketSink>(sinkApp.Get(0));
            sinkApp.Start(Seconds(0));

            BulkSendHelper bulk(factory, InetSocketAddress(dumbbell.GetRightIpv4Address(i), port));
            bulk.SetAttribute("MaxBytes", UintegerValue(params.transferBytes));
            bulk.SetAttribute("SendSize", UintegerValue(16384));
            ApplicationContainer bulkApp = bulk.Install(sender);
            bulkApp.Start(f.result.start);
            if (group.tcp)
            {
                Simulator::Schedule(f.result.start + NanoSeconds(1),
                                    &HookTcpSender,
                                    &f,
                                    DynamicCast<BulkSendApplication>(bulkApp.Get(0)),
                                    &group);
            }
        }
    }
    stream += internet.AssignStreams(all, stream);

    Simulator::Stop(params.duration);
    Simulator::Run();
    CloseWindow(&state);

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
        FlowState& f = state.flows[j];
        QuicCcDumbbellFlowResult r = f.result;
        r.goodputMbps = windowSeconds > 0 ? r.windowBytes * 8.0 / windowSeconds / 1e6 : 0;
        r.meanCwndBytes = f.cwnd->Mean();
        r.sinkTotalRx = f.sink->GetTotalRx();
        if (f.quicSender && f.quicSender->GetLossDetection())
        {
            r.lostPackets = f.quicSender->GetLossDetection()->GetLostPacketCount();
        }
        const Ipv4Address src = dumbbell.GetLeftIpv4Address(j);
        const Ipv4Address dst = dumbbell.GetRightIpv4Address(j);
        for (const auto& [id, st] : stats)
        {
            const Ipv4FlowClassifier::FiveTuple t = classifier->FindFlow(id);
            if (t.sourceAddress == src && t.destinationAddress == dst)
            {
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
    return {"ns3::QuicCcSocket::MaxDatagramSize",
            "ns3::QuicCcSocket::AckPolicy",
            "ns3::QuicCcSocket::IdleTimeout",
            "ns3::TcpSocket::SegmentSize",
            "ns3::TcpSocket::SndBufSize",
            "ns3::TcpSocket::RcvBufSize"};
}

} // namespace ns3
