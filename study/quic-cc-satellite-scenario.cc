/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-satellite-scenario.h"

#include "quic-cc-first-socket.h"
#include "quic-cc-periodic-error-model.h"
#include "quic-cc-random-streams.h"
#include "quic-cc-single-path.h"
#include "quic-cc-stop-at-bytes.h"

#include "ns3/abort.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <utility>

namespace ns3
{

namespace
{

/// Everything the trace sinks of one run write.
struct SatelliteState
{
    QuicCcSatelliteResult result;
    QuicCcFirstSocket sender; //!< the sending socket, either transport
    Ptr<ErrorModel> loss;     //!< switched on at the handshake's completion
    uint64_t returnWireBytes{0};
};

void
OnCwnd(SatelliteState* s, uint64_t, uint64_t cwnd)
{
    s->result.peakCwnd = std::max(s->result.peakCwnd, cwnd);
}

void
OnSsthresh(SatelliteState* s, uint64_t, uint64_t ssthresh)
{
    if (!s->result.ssthreshSeconds && ssthresh != std::numeric_limits<uint64_t>::max() &&
        ssthresh != std::numeric_limits<uint32_t>::max())
    {
        s->result.ssthreshSeconds = Simulator::Now().GetSeconds();
    }
}

void
OnState(SatelliteState* s, QuicCongestionState, QuicCongestionState newState)
{
    if (newState == QUIC_CC_RECOVERY && !s->result.firstEventSeconds)
    {
        s->result.firstEventSeconds = Simulator::Now().GetSeconds();
    }
}

void
OnHandshakeCompleted(SatelliteState* s)
{
    s->result.handshakeSeconds = Simulator::Now().GetSeconds();
    if (s->loss)
    {
        s->loss->Enable();
    }
}

void
ConnectSender(SatelliteState* s, Ptr<QuicCcSocketBase> socket)
{
    socket->TraceConnectWithoutContext("HandshakeCompleted",
                                       MakeBoundCallback(&OnHandshakeCompleted, s));
    socket->TraceConnectWithoutContext("CongestionWindow64", MakeBoundCallback(&OnCwnd, s));
    socket->TraceConnectWithoutContext("SlowStartThreshold64", MakeBoundCallback(&OnSsthresh, s));
    socket->TraceConnectWithoutContext("CongestionState", MakeBoundCallback(&OnState, s));
}

void
OnReturnTx(SatelliteState* s, Ptr<const Packet> packet)
{
    ++s->result.returnPackets;
    s->returnWireBytes += packet->GetSize();
}

void
OnTcDrop(uint64_t* drops, Ptr<const Packet>)
{
    ++*drops;
}

/// The device's drop-tail queue, resized to \p delay of its rate, in bytes.
Ptr<Queue<Packet>>
SizeQueue(Ptr<NetDevice> device, DataRate rate, Time delay)
{
    Ptr<Queue<Packet>> queue = DynamicCast<PointToPointNetDevice>(device)->GetQueue();
    const auto bytes = static_cast<uint32_t>(rate.GetBitRate() * delay.GetSeconds() / 8);
    queue->SetAttribute("MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, bytes)));
    return queue;
}

} // namespace

namespace
{

/// Each configuration as a transport, in the order of the study's rows. quic-cc's controllers
/// run with the true-idle study's CUBIC settings (LastActivity idle rule, epoch shared with the
/// recovery start) and HyStart++ only where named.
const QuicCcTransportRows&
Configs()
{
    const auto model = [](const std::string& controller, bool hyStart) {
        QuicCcTransportSpec spec("quic-cc", controller);
        spec.SetController("IdleRestart", StringValue("LastActivity"));
        spec.SetController("EpochSource", StringValue("SharedWithRecovery"));
        spec.SetController("HyStart", BooleanValue(hyStart));
        return spec;
    };
    static const QuicCcTransportRows configs{
        {"reno", [model] { return model("reno", false); }},
        {"cubic", [model] { return model("cubic", false); }},
        {"cubic-hystart", [model] { return model("cubic", true); }},
        {"ngtcp2-cubic", [] { return QuicCcTransportSpec("ngtcp2", "cubic"); }},
        {"ngtcp2-bbr", [] { return QuicCcTransportSpec("ngtcp2", "bbr"); }}};
    return configs;
}

} // namespace

const std::vector<std::string>&
QuicCcSatelliteConfigs()
{
    static const std::vector<std::string> names = QuicCcRowNames(Configs());
    return names;
}

QuicCcTransportSpec
QuicCcSatelliteTransport(const std::string& config)
{
    return QuicCcRowTransport(Configs(), config, "satellite");
}

QuicCcSatelliteResult
QuicCcRunSatellite(const QuicCcSatelliteParams& params)
{
    QuicCcTransportSpec spec = QuicCcSatelliteTransport(params.config);
    NS_ABORT_MSG_IF(params.ackRatio == 0, "satellite: ACK ratio must be >= 1, got 0");
    NS_ABORT_MSG_IF(params.transferBytes == 0, "satellite: transfer size must be > 0, got 0");
    NS_ABORT_MSG_UNLESS(params.maxQueueDelay.IsStrictlyPositive(),
                        "satellite: queue delay cap must be > 0, got " << params.maxQueueDelay);
    NS_ABORT_MSG_UNLESS(params.timeout.IsStrictlyPositive(),
                        "satellite: timeout must be > 0, got " << params.timeout);

    // Node 0 = data sender (QUIC client), node 1 = data receiver (QUIC server); device 0 sends
    // the data at forwardRate, device 1 the ACKs at returnRate.
    QuicCcSinglePath path(params.seed, params.run, params.forwardRate, params.oneWayDelay, 1);
    path.devices.Get(1)->SetAttribute("DataRate", DataRateValue(params.returnRate));
    SatelliteState state;
    Ptr<Queue<Packet>> forwardQueue =
        SizeQueue(path.devices.Get(0), params.forwardRate, params.maxQueueDelay);
    Ptr<Queue<Packet>> returnQueue =
        SizeQueue(path.devices.Get(1), params.returnRate, params.maxQueueDelay);
    path.devices.Get(1)->TraceConnectWithoutContext("PhyTxBegin",
                                                    MakeBoundCallback(&OnReturnTx, &state));
    Ptr<QuicCcPeriodicErrorModel> loss;
    if (params.lossPeriod > 0)
    {
        // One model on both devices: one count over both directions, every packet counted.
        loss = CreateObject<QuicCcPeriodicErrorModel>();
        loss->SetAttribute("Period", UintegerValue(params.lossPeriod));
        loss->SetAttribute("FirstDrop", UintegerValue(params.lossFirstDrop));
        loss->SetAttribute("MinSize", UintegerValue(0));
        loss->Disable();
        state.loss = loss;
        path.devices.Get(0)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
        path.devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
    }
    path.InstallInternet();
    // Without a queue disc, a packet that meets a full device queue (a stopped one: no room for
    // another full packet) is dropped by the traffic-control layer, not by the queue.
    uint64_t tcDrops[2] = {0, 0};
    for (uint32_t i = 0; i < 2; ++i)
    {
        NS_ABORT_UNLESS(
            path.nodes.Get(i)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
                "TcDrop",
                MakeBoundCallback(&OnTcDrop, &tcDrops[i])));
    }

    int64_t stream = 1;
    stream += QuicCcInternetStreamBlock(path.nodes); // the stack's streams come last
    // The receiver's ACK policy: RFC 9000's on quic-cc's socket (ngtcp2 has no other), an ACK
    // every ackRatio-th ack-eliciting packet, max_ack_delay; the same names on either transport.
    spec.SetSocket("AckPolicy", StringValue("Rfc9000"));
    spec.SetSocket("AckElicitingThreshold", UintegerValue(params.ackRatio));
    spec.SetSocket("MaxAckDelay", TimeValue(params.maxAckDelay));
    QuicCcHelper quic;
    spec.ApplyTo(quic);
    quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(params.maxDatagramSize));
    quic.SetSocketAttribute("IdleTimeout", TimeValue(params.timeout));
    quic.Install(path.nodes);
    stream += quic.AssignStreams(path.nodes, stream);
    state.sender.Watch(path.nodes.Get(0), MakeBoundCallback(&ConnectSender, &state));
    path.internet.AssignStreams(path.nodes, stream);

    QuicCcStopAtBytes transfer(params.transferBytes);
    path.InstallDownload(quic.GetSocketFactoryName(), params.transferBytes, transfer);
    Simulator::Stop(params.timeout);
    Simulator::Run();

    QuicCcSatelliteResult result = state.result;
    transfer.Report(result);
    const double seconds =
        result.completed ? result.completionSeconds : Simulator::Now().GetSeconds();
    result.returnBytesPerSecond = seconds > 0 ? state.returnWireBytes / seconds : 0;
    result.drops = loss ? loss->GetDropped() : 0;
    result.forwardQueueDrops = forwardQueue->GetTotalDroppedPackets() + tcDrops[0];
    result.returnQueueDrops = returnQueue->GetTotalDroppedPackets() + tcDrops[1];
    Ptr<QuicCcSocketBase> sender = state.sender.Get();
    result.lostPackets = sender ? sender->GetPacketsLost() : 0;
    state.loss = nullptr;
    Simulator::Destroy();
    return result;
}

} // namespace ns3
