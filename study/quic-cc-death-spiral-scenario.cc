/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-death-spiral-scenario.h"

#include "quic-cc-bulk-transfer.h"
#include "quic-cc-drop-tail-link.h"
#include "quic-cc-first-socket.h"
#include "quic-cc-random-streams.h"
#include "quic-cc-single-path.h"
#include "quic-cc-stop-at-bytes.h"

#include "ns3/abort.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/quic-cc-helper.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace ns3
{

namespace
{

/// Everything the trace sinks of one run write.
struct RunState
{
    const QuicCcDeathSpiralParams* params{nullptr};
    QuicCcDeathSpiralResult result;
    QuicCcFirstSocket sender;                     //!< the client's (sending) socket
    std::vector<Ptr<RateErrorModel>> errorModels; //!< enabled at the handshake unless handshakeLoss
    bool lossStarted{false};                      //!< the sender's first packet came
    uint64_t cwnd{0};
    uint64_t lostAtLossEnd{0};
    QuicCongestionState lastState{QUIC_CC_SLOW_START};
    uint32_t recoveryEntries{0};
    Time firstRecoveryEntry;
    Time lastRecoveryEntry;
};

bool
IsRecoveryCaFlip(QuicCongestionState a, QuicCongestionState b)
{
    return (a == QUIC_CC_RECOVERY && b == QUIC_CC_CONGESTION_AVOIDANCE) ||
           (a == QUIC_CC_CONGESTION_AVOIDANCE && b == QUIC_CC_RECOVERY);
}

void
OnCwnd(RunState* s, uint64_t, uint64_t cwnd)
{
    s->cwnd = cwnd;
    if (Simulator::Now() >= s->params->observeFrom)
    {
        s->result.minCwndAfterLoss = std::min(s->result.minCwndAfterLoss, cwnd);
        s->result.maxCwndAfterLoss = std::max(s->result.maxCwndAfterLoss, cwnd);
    }
    if (Simulator::Now() >= s->params->sampleLate)
    {
        s->result.maxCwndAfterLate = std::max(s->result.maxCwndAfterLate, cwnd);
    }
}

void
OnState(RunState* s, QuicCongestionState oldState, QuicCongestionState newState)
{
    const Time now = Simulator::Now();
    if (now < s->params->lossDuration || !IsRecoveryCaFlip(oldState, newState))
    {
        return;
    }
    ++s->result.transitions;
    if (newState == QUIC_CC_RECOVERY)
    {
        if (s->recoveryEntries == 0)
        {
            s->firstRecoveryEntry = now;
        }
        s->lastRecoveryEntry = now;
        ++s->recoveryEntries;
    }
}

void
OnSenderReceived(RunState* s, uint64_t, uint64_t)
{
    // Without handshakeLoss the loss starts with the server's first packet: for quic-cc the
    // instant the client's handshake completes; ngtcp2's may complete a flight later.
    if (!s->lossStarted)
    {
        s->lossStarted = true;
        if (!s->params->handshakeLoss && Simulator::Now() < s->params->lossDuration)
        {
            for (auto& em : s->errorModels)
            {
                em->Enable();
            }
        }
    }
}

void
OnHandshakeCompleted(RunState* s)
{
    s->result.handshakeSeconds = Simulator::Now().GetSeconds();
}

/// The sender's traces: QuicCcSocket and QuicCcNgtcp2Socket have the same names and signatures.
void
ConnectSender(RunState* s, Ptr<QuicCcSocketBase> socket)
{
    socket->TraceConnectWithoutContext("PacketReceived", MakeBoundCallback(&OnSenderReceived, s));
    socket->TraceConnectWithoutContext("HandshakeCompleted",
                                       MakeBoundCallback(&OnHandshakeCompleted, s));
    socket->TraceConnectWithoutContext("CongestionWindow64", MakeBoundCallback(&OnCwnd, s));
    socket->TraceConnectWithoutContext("CongestionState", MakeBoundCallback(&OnState, s));
}

uint64_t
SenderLost(const RunState* s)
{
    Ptr<QuicCcSocketBase> sender = s->sender.Get();
    return sender ? sender->GetPacketsLost() : 0;
}

void
SampleAtLossEnd(RunState* s)
{
    s->result.cwndAtLossEnd = s->cwnd;
}

void
StartObserving(RunState* s)
{
    s->result.minCwndAfterLoss = s->cwnd;
    s->result.maxCwndAfterLoss = s->cwnd;
    s->lostAtLossEnd = SenderLost(s);
}

void
SampleLate(RunState* s)
{
    s->result.cwndAtLate = s->cwnd;
    s->result.maxCwndAfterLate = s->cwnd;
}

/// A uniform [0, max] delay model, as an attribute string (each socket gets its own stream).
std::string
Uniform(Time max)
{
    std::ostringstream os;
    os << "ns3::UniformRandomVariable[Min=0.0|Max=" << max.GetSeconds() << "]";
    return os.str();
}

} // namespace

QuicCcDeathSpiralResult
QuicCcRunDeathSpiral(const QuicCcDeathSpiralParams& params)
{
    NS_ABORT_MSG_IF(params.transferBytes == 0, "death spiral: transfer size must be > 0, got 0");
    NS_ABORT_MSG_UNLESS(params.lossRate >= 0 && params.lossRate <= 1,
                        "death spiral: loss rate must be in [0, 1], got " << params.lossRate);
    NS_ABORT_MSG_UNLESS(params.oneWayDelay.IsPositive(),
                        "death spiral: one-way delay must be >= 0, got " << params.oneWayDelay);
    NS_ABORT_MSG_UNLESS(params.timeout.IsStrictlyPositive(),
                        "death spiral: timeout must be > 0, got " << params.timeout);
    NS_ABORT_MSG_UNLESS(params.lossDuration.IsPositive(),
                        "death spiral: loss duration must be >= 0, got " << params.lossDuration);
    NS_ABORT_MSG_IF(params.bufferPackets == 0, "death spiral: buffer must be >= 1 packet, got 0");
    NS_ABORT_MSG_IF(params.rate.GetBitRate() == 0,
                    "death spiral: rate must be > 0, got " << params.rate);

    // Node 0 = data sender (QUIC client), node 1 = data receiver (QUIC server).
    QuicCcSinglePath path(params);
    const NodeContainer& nodes = path.nodes;

    RunState state;
    state.params = &params;
    state.result.minCwndAfterLoss = std::numeric_limits<uint64_t>::max();

    // Random loss in both directions until lossDuration (ns-3 RateErrorModel, per packet), from
    // t = 0 or (handshakeLoss false) from the sender's handshake on (OnSenderReceived).
    std::vector<Ptr<RateErrorModel>>& errorModels = state.errorModels;
    for (uint32_t i = 0; i < path.devices.GetN(); ++i)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(params.lossRate);
        if (!params.handshakeLoss)
        {
            em->Disable();
        }
        path.devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        errorModels.push_back(em);
        Simulator::Schedule(params.lossDuration, &RateErrorModel::Disable, em);
    }

    // Without ns-3's default root queue disc (FqCoDel, 10240 packets) in front of the device: the
    // bottleneck buffer is the drop-tail device queue above.
    path.InstallInternet();

    // The transport with its settings; the host model where the transport has it.
    QuicCcTransportSpec transport = params.quic;
    if (params.sendJitterMax.IsStrictlyPositive())
    {
        transport.SetSocket("SendDelay", StringValue(Uniform(params.sendJitterMax)));
    }
    if (params.ackProcessingDelayMax.IsStrictlyPositive())
    {
        transport.SetSocket("AckProcessingDelay",
                            StringValue(Uniform(params.ackProcessingDelayMax)));
    }
    QuicCcHelper quic;
    transport.ApplyTo(quic);
    // Set with the same names on either transport.
    quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(params.maxDatagramSize));
    quic.SetSocketAttribute("IdleTimeout", TimeValue(params.timeout));
    if (!params.qlogDirectory.empty())
    {
        quic.EnableQlog(params.qlogDirectory);
    }
    // Every random stream fixed: a run does not depend on earlier runs in the same process.
    int64_t stream = 1;
    for (auto& em : errorModels)
    {
        stream += em->AssignStreams(stream);
    }
    stream += QuicCcInternetStreamBlock(nodes); // the stack's streams come last
    quic.Install(nodes);
    stream += quic.AssignStreams(nodes, stream);
    state.sender.Watch(nodes.Get(0), MakeBoundCallback(&ConnectSender, &state));
    path.internet.AssignStreams(nodes, stream);

    QuicCcStopAtBytes transfer(params.transferBytes);
    path.InstallDownload(quic.GetSocketFactoryName(), params.transferBytes, transfer);

    Simulator::Schedule(params.lossDuration, &SampleAtLossEnd, &state);
    Simulator::Schedule(params.observeFrom, &StartObserving, &state);
    Simulator::Schedule(params.sampleLate, &SampleLate, &state);
    Simulator::Stop(params.timeout);
    Simulator::Run();

    QuicCcDeathSpiralResult result = state.result;
    transfer.Report(result);
    result.endSeconds = Simulator::Now().GetSeconds();
    if (Simulator::Now() < params.sampleLate)
    {
        result.cwndAtLate = state.cwnd;
        result.maxCwndAfterLate = state.cwnd;
    }
    if (Simulator::Now() < params.lossDuration)
    {
        result.cwndAtLossEnd = state.cwnd;
    }
    if (Simulator::Now() < params.observeFrom)
    {
        result.minCwndAfterLoss = state.cwnd;
        result.maxCwndAfterLoss = state.cwnd;
    }
    result.lostPackets = SenderLost(&state);
    result.lostAfterLoss = result.lostPackets - std::min(result.lostPackets, state.lostAtLossEnd);
    if (state.recoveryEntries >= 2)
    {
        result.meanCyclePeriod = (state.lastRecoveryEntry - state.firstRecoveryEntry).GetSeconds() /
                                 (state.recoveryEntries - 1);
    }
    result.events = Simulator::GetEventCount();
    Simulator::Destroy();
    return result;
}

} // namespace ns3
