/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-hystart-lab-scenario.h"

#include "quic-cc-bulk-transfer.h"
#include "quic-cc-first-socket.h"
#include "quic-cc-random-streams.h"
#include "quic-cc-stop-at-bytes.h"

#include "ns3/abort.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/quic-cc-frames.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/quic-cc-socket.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace ns3
{

namespace
{

/// Configuration names, in the order of the 2020 post's tables.
const std::vector<std::string> kConfigs{"tcp-cubic",
                                        "reno",
                                        "reno-hystart",
                                        "cubic",
                                        "cubic-hystart"};

/// The rows of the real ngtcp2 library are named "ngtcp2-" + its controller.
const std::string kNgtcp2Prefix = "ngtcp2-";

/// The ngtcp2 rows: kNgtcp2Prefix + each of its controllers.
std::vector<std::string>
Ngtcp2Configs()
{
    std::vector<std::string> out;
    for (const std::string& controller : QuicCcTransportSpec::Controllers("ngtcp2"))
    {
        out.push_back(kNgtcp2Prefix + controller);
    }
    return out;
}

/// Bytes of ns-3's TCP send and receive buffers for "tcp-cubic": as large as quic-cc's default
/// SndBufSize/RcvBufSize, so neither transport is window-limited by its buffers (the ns-3
/// default of 128 KiB would cap TCP at about 3.5 BDP, below the deep queue).
constexpr uint32_t kTcpBufferBytes = 128u << 20;

/// Bytes a point-to-point device queue adds to a UDP payload: UDP 8 + IPv4 20 + PPP 2.
constexpr uint64_t kWireOverhead = 30;

/// Sets an ns-3 attribute default for the lifetime of the object and restores the old one after.
class ScopedDefault
{
  public:
    /**
     * \param name  "ns3::Type::Attribute" (fatal error if the type or attribute is unknown)
     * \param value  the temporary default
     */
    ScopedDefault(const std::string& name, const AttributeValue& value)
        : m_name(name)
    {
        const std::string::size_type sep = name.rfind("::");
        NS_ABORT_MSG_IF(sep == std::string::npos,
                        "ScopedDefault: bad attribute path '" << name << "'");
        TypeId tid;
        NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid),
                            "ScopedDefault: unknown TypeId in '" << name << "'");
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_UNLESS(tid.LookupAttributeByName(name.substr(sep + 2), &info),
                            "ScopedDefault: unknown attribute '" << name << "'");
        m_saved = info.initialValue;
        Config::SetDefault(name, value);
    }

    ~ScopedDefault()
    {
        Config::SetDefault(m_name, *m_saved);
    }

    ScopedDefault(const ScopedDefault&) = delete;
    ScopedDefault& operator=(const ScopedDefault&) = delete;

  private:
    std::string m_name;                //!< attribute path
    Ptr<const AttributeValue> m_saved; //!< default before this object
};

/// Everything the trace sinks of one run write.
struct RunState
{
    const QuicCcHystartLabParams* params{nullptr};
    QuicCcHystartLabResult result;
    QuicCcFirstSocket quicSender; //!< the client's (sending) QUIC socket, either transport
};

void
NoteDataDrop(RunState* s)
{
    if (s->result.queueDrops + s->result.errorDrops == 0)
    {
        s->result.firstDropSeconds = Simulator::Now().GetSeconds();
    }
}

/// A packet offered to the data-direction bottleneck queue (PPP frame: payload + kWireOverhead).
void
CountOffered(RunState* s, Ptr<const Packet> p)
{
    ++s->result.sentPackets;
    s->result.smallPackets += p->GetSize() < kSmallPacketBytes + kWireOverhead ? 1 : 0;
}

void
OnQueueDrop(RunState* s, Ptr<const Packet> p)
{
    NoteDataDrop(s);
    ++s->result.queueDrops;
    CountOffered(s, p);
}

void
OnEnqueue(RunState* s, Ptr<const Packet> p)
{
    CountOffered(s, p);
}

void
OnDataErrorDrop(RunState* s, Ptr<const Packet>)
{
    NoteDataDrop(s);
    ++s->result.errorDrops;
}

void
OnAckErrorDrop(RunState* s, Ptr<const Packet>)
{
    ++s->result.ackErrorDrops;
}

void
OnQuicCwnd(RunState* s, uint64_t, uint64_t cwnd)
{
    s->result.peakCwnd = std::max(s->result.peakCwnd, cwnd);
}

void
OnTcpCwnd(RunState* s, uint32_t, uint32_t cwnd)
{
    s->result.peakCwnd = std::max<uint64_t>(s->result.peakCwnd, cwnd);
}

void
ConnectQuicSender(RunState* s, Ptr<QuicCcSocketBase> socket)
{
    socket->TraceConnectWithoutContext("CongestionWindow64", MakeBoundCallback(&OnQuicCwnd, s));
}

/// BulkSend creates its TCP socket when it starts (t = 0); trace it just after.
void
ConnectTcpCwnd(RunState* s, Ptr<BulkSendApplication> app)
{
    Ptr<Socket> socket = app->GetSocket();
    NS_ABORT_MSG_IF(!socket, "HyStart++ lab: the TCP BulkSend has no socket at t = 0+");
    socket->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnTcpCwnd, s));
}

/// Random per-packet loss on the receive side of \p device; returns the model.
Ptr<RateErrorModel>
AddLoss(Ptr<NetDevice> device, double rate)
{
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    em->SetRate(rate);
    device->SetAttribute("ReceiveErrorModel", PointerValue(em));
    return em;
}

} // namespace

const std::vector<std::string>&
QuicCcHystartLabConfigs()
{
    return kConfigs;
}

const std::vector<std::string>&
QuicCcHystartLabNgtcp2Configs()
{
    static const std::vector<std::string> configs = Ngtcp2Configs();
    return configs;
}

QuicCcTransportSpec
QuicCcHystartLabTransport(const std::string& config, QuicCcTransportSpec settings)
{
    if (settings.SetFromRowName(config))
    {
        return settings;
    }
    NS_ABORT_MSG_UNLESS(config == "reno" || config == "reno-hystart" || config == "cubic" ||
                            config == "cubic-hystart",
                        "HyStart++ lab: '" << config << "' is not a QUIC configuration");
    settings.SetTransport("quic-cc", config.rfind("cubic", 0) == 0 ? "cubic" : "reno");
    settings.SetController("HyStart", BooleanValue(config.find("-hystart") != std::string::npos));
    return settings;
}

double
QuicCcHystartLabBdpPackets(const QuicCcHystartLabParams& params)
{
    NS_ABORT_MSG_IF(params.maxDatagramSize == 0, "HyStart++ lab: MaxDatagramSize must be > 0");
    const double bdpBytes = params.rate.GetBitRate() * (2 * params.oneWayDelay).GetSeconds() / 8.0;
    return bdpBytes / static_cast<double>(params.maxDatagramSize);
}

uint32_t
QuicCcHystartLabBufferPackets(const QuicCcHystartLabParams& params, double bdpMultiple)
{
    NS_ABORT_MSG_UNLESS(bdpMultiple > 0,
                        "HyStart++ lab: buffer must be a positive multiple of the BDP, got "
                            << bdpMultiple);
    const double packets = std::round(bdpMultiple * QuicCcHystartLabBdpPackets(params));
    return static_cast<uint32_t>(std::max(1.0, packets));
}

uint32_t
QuicCcHystartLabTcpSegmentSize(const QuicCcHystartLabParams& params)
{
    // A full QUIC data packet: header (type byte, connection id, packet number) + one STREAM
    // frame (type byte, offset, length) + data. The largest packet number and offset of the
    // transfer fix the varint sizes (2 and 4 bytes for 8 MB of 1350 B packets).
    const uint64_t largestPacketNumber = params.transferBytes / params.maxDatagramSize + 1;
    const uint64_t overhead =
        kQuicCcFixedHeaderSize + QuicCcVarIntSize(largestPacketNumber) +
        QuicCcStreamFrameOverhead(params.transferBytes, params.maxDatagramSize);
    NS_ABORT_MSG_UNLESS(params.maxDatagramSize > overhead,
                        "HyStart++ lab: MaxDatagramSize " << params.maxDatagramSize
                                                          << " leaves no room for data");
    return static_cast<uint32_t>(params.maxDatagramSize - overhead);
}

QuicCcHystartLabResult
QuicCcRunHystartLab(const QuicCcHystartLabParams& params)
{
    const std::vector<std::string>& ngtcp2Configs = QuicCcHystartLabNgtcp2Configs();
    NS_ABORT_MSG_IF(std::find(ngtcp2Configs.begin(), ngtcp2Configs.end(), params.config) ==
                            ngtcp2Configs.end() &&
                        std::find(kConfigs.begin(), kConfigs.end(), params.config) ==
                            kConfigs.end(),
                    "HyStart++ lab: configuration must be tcp-cubic, reno, reno-hystart, cubic, "
                    "cubic-hystart, ngtcp2-cubic, ngtcp2-reno or ngtcp2-bbr, got '"
                        << params.config << "'");
    NS_ABORT_MSG_IF(params.transferBytes == 0, "HyStart++ lab: transfer size must be > 0, got 0");
    NS_ABORT_MSG_IF(params.bufferPackets == 0, "HyStart++ lab: buffer must be >= 1 packet, got 0");
    NS_ABORT_MSG_UNLESS(params.lossRate >= 0 && params.lossRate <= 1,
                        "HyStart++ lab: loss rate must be in [0, 1], got " << params.lossRate);
    const bool tcp = params.config == "tcp-cubic";

    RngSeedManager::SetSeed(params.seed);
    RngSeedManager::SetRun(params.run);

    // TCP defaults for this run only (restored when these go out of scope).
    std::vector<std::unique_ptr<ScopedDefault>> tcpDefaults;
    if (tcp)
    {
        tcpDefaults.push_back(
            std::make_unique<ScopedDefault>("ns3::TcpSocket::SegmentSize",
                                            UintegerValue(QuicCcHystartLabTcpSegmentSize(params))));
        tcpDefaults.push_back(std::make_unique<ScopedDefault>("ns3::TcpSocket::SndBufSize",
                                                              UintegerValue(kTcpBufferBytes)));
        tcpDefaults.push_back(std::make_unique<ScopedDefault>("ns3::TcpSocket::RcvBufSize",
                                                              UintegerValue(kTcpBufferBytes)));
    }

    // HyStart++'s L is an attribute of the component each controller creates: a default for
    // this run only.
    const ScopedDefault hyStartL("ns3::QuicHyStartPlusPlus::L", UintegerValue(params.hyStartL));

    NodeContainer nodes; // 0 = data sender (QUIC client), 1 = data receiver (QUIC server)
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(params.rate));
    p2p.SetChannelAttribute("Delay", TimeValue(params.oneWayDelay));
    const QueueSize buffer =
        params.bufferInBytes
            ? QueueSize(QueueSizeUnit::BYTES,
                        params.bufferPackets * (params.maxDatagramSize + kWireOverhead))
            : QueueSize(QueueSizeUnit::PACKETS, params.bufferPackets);
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(buffer));
    // No flow control: IP hands every packet to the device, so the drop-tail device queue is the
    // only buffer (otherwise ns-3 puts its default FqCoDel queue disc in front of it).
    p2p.DisableFlowControl();
    NetDeviceContainer devices = p2p.Install(nodes);

    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper ipv4("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifaces = ipv4.Assign(devices);

    RunState state;
    state.params = &params;
    Ptr<Queue<Packet>> bottleneck = devices.Get(0)->GetObject<PointToPointNetDevice>()->GetQueue();
    bottleneck->TraceConnectWithoutContext("Drop", MakeBoundCallback(&OnQueueDrop, &state));
    bottleneck->TraceConnectWithoutContext("Enqueue", MakeBoundCallback(&OnEnqueue, &state));

    // Random loss on the data direction (node 0 -> node 1): the receiver's receive side, after the
    // bottleneck queue, like netem loss on the path. ACKs (node 1 -> node 0) get the same loss
    // only with ackLoss.
    std::vector<Ptr<RateErrorModel>> errorModels;
    if (params.lossRate > 0)
    {
        errorModels.push_back(AddLoss(devices.Get(1), params.lossRate));
        devices.Get(1)->TraceConnectWithoutContext("PhyRxDrop",
                                                   MakeBoundCallback(&OnDataErrorDrop, &state));
        if (params.ackLoss)
        {
            errorModels.push_back(AddLoss(devices.Get(0), params.lossRate));
            devices.Get(0)->TraceConnectWithoutContext("PhyRxDrop",
                                                       MakeBoundCallback(&OnAckErrorDrop, &state));
        }
    }

    QuicCcHelper quic;
    std::string socketFactory = "ns3::TcpSocketFactory";
    if (tcp)
    {
        for (uint32_t i = 0; i < nodes.GetN(); ++i)
        {
            nodes.Get(i)->GetObject<TcpL4Protocol>()->SetAttribute(
                "SocketType",
                TypeIdValue(TcpCubic::GetTypeId()));
        }
    }
    else
    {
        QuicCcHystartLabTransport(params.config, params.quic).ApplyTo(quic);
    }

    // Every random stream fixed: a run does not depend on earlier runs in the same process.
    int64_t stream = 1;
    for (auto& em : errorModels)
    {
        stream += em->AssignStreams(stream);
    }
    stream += QuicCcInternetStreamBlock(nodes); // the stack's streams come last
    if (!tcp)
    {
        // Set with the same names on either transport.
        quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(params.maxDatagramSize));
        quic.SetSocketAttribute("IdleTimeout", TimeValue(params.timeout));
        socketFactory = quic.GetSocketFactoryName();
        quic.Install(nodes);
        stream += quic.AssignStreams(nodes, stream);
        state.quicSender.Watch(nodes.Get(0), MakeBoundCallback(&ConnectQuicSender, &state));
    }
    internet.AssignStreams(nodes, stream);

    const QuicCcBulkTransfer apps = QuicCcInstallBulkTransfer(socketFactory,
                                                              nodes.Get(0),
                                                              nodes.Get(1),
                                                              ifaces.GetAddress(1),
                                                              params.transferBytes);
    QuicCcStopAtBytes transfer(params.transferBytes);
    transfer.Watch(apps.sink);
    if (tcp)
    {
        Simulator::Schedule(NanoSeconds(1), &ConnectTcpCwnd, &state, apps.source);
    }

    Simulator::Stop(params.timeout);
    Simulator::Run();

    QuicCcHystartLabResult result = state.result;
    transfer.Report(result);
    if (tcp)
    {
        result.lostPackets = result.queueDrops + result.errorDrops;
    }
    else if (Ptr<QuicCcSocketBase> sender = state.quicSender.Get())
    {
        result.lostPackets = sender->GetPacketsLost();
        // quic-cc's loss detection also finds the spurious ones (ngtcp2's does not say).
        if (Ptr<QuicCcSocket> model = DynamicCast<QuicCcSocket>(sender);
            model && model->GetLossDetection())
        {
            result.spuriousLosses = model->GetLossDetection()->GetSpuriousLossCount();
        }
    }
    result.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return result;
}

} // namespace ns3
