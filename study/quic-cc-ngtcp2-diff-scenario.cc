/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ngtcp2-diff-scenario.h"

#include "quic-cc-bulk-transfer.h"
#include "quic-cc-drop-tail-link.h"
#include "quic-cc-first-socket.h"
#include "quic-cc-periodic-error-model.h"
#include "quic-cc-random-streams.h"
#include "quic-cc-single-path.h"
#include "quic-cc-stop-at-bytes.h"

#include "ns3/abort.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/quic-cc-ngtcp2-profile.h"

#include <algorithm>
#include <limits>

namespace ns3
{

namespace
{

/// Everything the trace sinks of one run write.
struct DiffState
{
    const QuicCcNgtcp2DiffParams* params{nullptr};
    QuicCcNgtcp2DiffResult result;
    QuicCcFirstSocket sender; //!< the sending socket, either transport
    uint64_t cwnd{0};
    uint64_t ssthresh{0};
    uint64_t initialCwnd{0}; //!< the first cwnd reported
    uint64_t peakCwnd{0};
    Time latestRtt;
};

uint64_t
LostSoFar(const DiffState* s)
{
    Ptr<QuicCcSocketBase> sender = s->sender.Get();
    return sender ? sender->GetPacketsLost() : 0;
}

void
StartRound(DiffState* s)
{
    s->result.roundCwnd.push_back(s->cwnd);
    s->result.roundStart.push_back(Simulator::Now().GetSeconds());
    if (s->result.roundCwnd.size() < s->params->rounds)
    {
        // Before the first RTT sample (at the handshake): the path's propagation RTT.
        const Time rtt =
            s->latestRtt.IsStrictlyPositive() ? s->latestRtt : 2 * s->params->oneWayDelay;
        Simulator::Schedule(rtt, &StartRound, s);
    }
}

void
SampleAfterEvent(DiffState* s, size_t i)
{
    s->result.cwndAfterEvent[i] = s->cwnd;
}

void
SampleAfterExit(DiffState* s, size_t i)
{
    s->result.cwndAfterExit[i] = s->cwnd;
}

void
OnCwnd(DiffState* s, uint64_t oldCwnd, uint64_t cwnd)
{
    s->cwnd = cwnd;
    QuicCcNgtcp2DiffResult& r = s->result;
    if (s->initialCwnd == 0)
    {
        s->initialCwnd = cwnd;
    }
    if (cwnd > oldCwnd && cwnd > s->initialCwnd + s->params->maxDatagramSize &&
        !r.firstGrowthSeconds)
    {
        // The first ACK of data that grows cwnd opens round 0 (either stack). ngtcp2 also grows
        // cwnd by the client Initial's ACK (one packet, ngtcp2_rtb.c ngtcp2_rtb_recv_ack feeds
        // every packet number space to the controller): that step does not count.
        r.firstGrowthSeconds = Simulator::Now().GetSeconds();
        s->cwnd = oldCwnd;
        StartRound(s);
        s->cwnd = cwnd;
    }
    if (!r.ssthreshSetSeconds && !r.cssSeconds && cwnd > oldCwnd && oldCwnd > 0 &&
        cwnd - oldCwnd < s->params->maxDatagramSize)
    {
        // In slow start an ACK adds at least one packet's bytes (ngtcp2: bytes_delivered; the
        // model: one mss per acked packet); in CSS a quarter of that: the first smaller step is
        // the CSS entry, seen the same way on both stacks.
        r.cssSeconds = Simulator::Now().GetSeconds();
        r.cwndAtCss = oldCwnd;
    }
    if (!r.ssthreshSetSeconds)
    {
        s->peakCwnd = std::max(s->peakCwnd, cwnd);
    }
    if (r.eventSeconds && !r.regainSeconds && cwnd >= r.cwndBeforeEvent)
    {
        r.regainSeconds = Simulator::Now().GetSeconds();
    }
}

void
OnSsthresh(DiffState* s, uint64_t, uint64_t ssthresh)
{
    QuicCcNgtcp2DiffResult& r = s->result;
    if (!r.ssthreshSetSeconds && ssthresh != std::numeric_limits<uint64_t>::max() &&
        ssthresh != std::numeric_limits<uint32_t>::max())
    {
        r.ssthreshSetSeconds = Simulator::Now().GetSeconds();
        r.ssthreshFirst = ssthresh;
        r.ssthreshByLoss = LostSoFar(s) > 0;
        r.peakCwndBefore = s->peakCwnd;
        r.cwndAfterExit.assign(s->params->afterEvent.size(), 0);
        for (size_t i = 0; i < s->params->afterEvent.size(); ++i)
        {
            Simulator::Schedule(s->params->afterEvent[i], &SampleAfterExit, s, i);
        }
    }
    s->ssthresh = ssthresh;
    if (r.eventSeconds && *r.eventSeconds == Simulator::Now().GetSeconds())
    {
        r.ssthreshAfterEvent = ssthresh; // the event's own value, whichever trace fires first
    }
}

void
OnState(DiffState* s, QuicCongestionState, QuicCongestionState newState)
{
    QuicCcNgtcp2DiffResult& r = s->result;
    if (newState == QUIC_CC_CONSERVATIVE_SLOW_START && !r.cssTraceSeconds)
    {
        r.cssTraceSeconds = Simulator::Now().GetSeconds(); // the model's own report
    }
    if (newState == QUIC_CC_RECOVERY && !r.eventSeconds)
    {
        r.eventSeconds = Simulator::Now().GetSeconds();
        // Slow start (and CSS) only grow cwnd: the largest value before the event is W_max.
        r.cwndBeforeEvent = std::max(s->peakCwnd, s->cwnd);
        r.ssthreshAfterEvent = s->ssthresh;
        r.cwndAfterEvent.assign(s->params->afterEvent.size(), 0);
        for (size_t i = 0; i < s->params->afterEvent.size(); ++i)
        {
            Simulator::Schedule(s->params->afterEvent[i], &SampleAfterEvent, s, i);
        }
    }
}

void
OnRtt(DiffState* s, Time latest, Time, Time)
{
    s->latestRtt = latest;
}

void
OnHandshakeCompleted(DiffState* s)
{
    s->result.handshakeSeconds = Simulator::Now().GetSeconds();
}

/// QuicCcSocket and QuicCcNgtcp2Socket have the same trace names and signatures.
void
ConnectSender(DiffState* s, Ptr<QuicCcSocketBase> socket)
{
    socket->TraceConnectWithoutContext("HandshakeCompleted",
                                       MakeBoundCallback(&OnHandshakeCompleted, s));
    socket->TraceConnectWithoutContext("CongestionWindow64", MakeBoundCallback(&OnCwnd, s));
    socket->TraceConnectWithoutContext("SlowStartThreshold64", MakeBoundCallback(&OnSsthresh, s));
    socket->TraceConnectWithoutContext("CongestionState", MakeBoundCallback(&OnState, s));
    socket->TraceConnectWithoutContext("Rtt", MakeBoundCallback(&OnRtt, s));
}

} // namespace

QuicCcNgtcp2DiffResult
QuicCcRunNgtcp2Diff(const QuicCcNgtcp2DiffParams& params)
{
    NS_ABORT_MSG_IF(params.transferBytes == 0, "ngtcp2 diff: transfer size must be > 0, got 0");
    NS_ABORT_MSG_IF(params.bufferPackets == 0, "ngtcp2 diff: buffer must be >= 1 packet, got 0");
    NS_ABORT_MSG_UNLESS(params.duration.IsStrictlyPositive(),
                        "ngtcp2 diff: duration must be > 0, got " << params.duration);
    NS_ABORT_MSG_IF(params.rounds == 0, "ngtcp2 diff: rounds must be >= 1, got 0");

    // Node 0 = data sender (QUIC client), node 1 = data receiver (QUIC server).
    QuicCcSinglePath path(params);
    const NodeContainer& nodes = path.nodes;
    if (params.dropDataPacket > 0)
    {
        QuicCcDropDataPackets(path.devices.Get(1),
                              params.dropDataPacket,
                              0,
                              params.maxDatagramSize);
    }

    path.InstallInternet();

    DiffState state;
    state.params = &params;
    int64_t stream = 1;
    stream += QuicCcInternetStreamBlock(nodes); // the stack's streams come last
    QuicCcHelper quic;
    QuicCcNgtcp2DiffTransport(params.transport).ApplyTo(quic);
    quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(params.maxDatagramSize));
    quic.SetSocketAttribute("IdleTimeout", TimeValue(params.duration));
    quic.Install(nodes);
    stream += quic.AssignStreams(nodes, stream);
    state.sender.Watch(nodes.Get(0), MakeBoundCallback(&ConnectSender, &state));
    path.internet.AssignStreams(nodes, stream);

    QuicCcStopAtBytes transfer(params.transferBytes);
    path.InstallDownload(quic.GetSocketFactoryName(), params.transferBytes, transfer);
    Simulator::Stop(params.duration);
    Simulator::Run();

    QuicCcNgtcp2DiffResult result = state.result;
    transfer.Report(result);
    result.lostPackets = LostSoFar(&state);
    Simulator::Destroy();
    return result;
}

int
QuicCcNgtcp2DiffRoundOf(const QuicCcNgtcp2DiffResult& result, double t)
{
    int round = -1;
    for (size_t r = 0; r < result.roundStart.size() && result.roundStart[r] <= t; ++r)
    {
        round = static_cast<int>(r);
    }
    return round;
}

QuicCcTransportSpec
QuicCcNgtcp2DiffTransport(const std::string& transport)
{
    QuicCcTransportSpec spec(transport, "cubic");
    // The profile is quic-cc's configuration: its socket settings are for quic-cc's socket (the
    // library keeps its own, among them the same 25 ms max_ack_delay and 333 ms initial RTT).
    const std::string cubic = "ns3::QuicCubic::";
    const std::string socket = "ns3::QuicCcSocket::";
    for (const QuicCcAttributeSetting& s : QuicCcNgtcp2Profile())
    {
        if (s.name.rfind(cubic, 0) == 0)
        {
            spec.SetController(s.name.substr(cubic.size()), StringValue(s.value));
        }
        else if (s.name.rfind(socket, 0) == 0)
        {
            spec.SetSocket(s.name.substr(socket.size()), StringValue(s.value), {"quic-cc"});
        }
        else
        {
            spec.SetDefault(s.name, StringValue(s.value)); // the controller's HyStart++
        }
    }
    return spec;
}

QuicCcDeathSpiralParams
QuicCcNgtcp2DiffSpiralParams(const std::string& transport, uint64_t mss)
{
    QuicCcDeathSpiralParams p;
    p.quic = QuicCcNgtcp2DiffTransport(transport);
    p.maxDatagramSize = mss;
    return p;
}

} // namespace ns3
