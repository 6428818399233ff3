/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-cubic-growth-scenario.h"

#include "quic-cc-first-socket.h"
#include "quic-cc-ngtcp2-diff-scenario.h"
#include "quic-cc-periodic-error-model.h"
#include "quic-cc-random-streams.h"
#include "quic-cc-single-path.h"
#include "quic-cc-stop-at-bytes.h"
#include "quic-cc-time-average.h"

#include "ns3/abort.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/quic-cc-helper.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

namespace ns3
{

namespace
{

/// RFC 9438 Section 5.1's C, segments / s^3.
constexpr double kRfc9438C = 0.4;

/// Everything the trace sinks of one run write.
struct GrowthState
{
    const QuicCcCubicGrowthParams* params{nullptr};
    QuicCcCubicGrowthResult result;
    QuicCcFirstSocket sender; //!< the sending socket, either transport
    QuicCcTimeAverage cwndAverage{Time(0)};
    uint64_t cwnd{0};
    uint64_t ssthresh{std::numeric_limits<uint64_t>::max()}; //!< as last traced
    uint64_t peakCwnd{0}; //!< largest cwnd before the first event
};

void
SampleAfterEvent(GrowthState* s, size_t i)
{
    s->result.cwndAt[i] = s->cwnd;
}

void
OnCwnd(GrowthState* s, uint64_t oldCwnd, uint64_t cwnd)
{
    QuicCcCubicGrowthResult& r = s->result;
    s->cwnd = cwnd;
    s->cwndAverage.Update(Simulator::Now(), static_cast<double>(cwnd));
    if (!r.eventSeconds)
    {
        s->peakCwnd = std::max(s->peakCwnd, cwnd);
        return;
    }
    const double since = Simulator::Now().GetSeconds() - *r.eventSeconds;
    if (r.events == 1 && !r.growthSeconds && cwnd > oldCwnd && since > 0)
    {
        r.growthSeconds = since;
    }
    if (r.events == 1 && !r.regainSeconds && cwnd >= r.wMax)
    {
        r.regainSeconds = since;
    }
}

void
OnState(GrowthState* s, QuicCongestionState, QuicCongestionState newState)
{
    if (newState != QUIC_CC_RECOVERY)
    {
        return;
    }
    QuicCcCubicGrowthResult& r = s->result;
    ++r.events;
    if (r.events > 1)
    {
        return;
    }
    r.eventSeconds = Simulator::Now().GetSeconds();
    // Slow start only grows cwnd: the largest value before the event is W_max.
    r.wMax = std::max(s->peakCwnd, s->cwnd);
    r.cwndAfterEvent = s->ssthresh; // if its trace fired first; else OnSsthresh sets it
    r.cwndAt.assign(s->params->afterEvent.size(), 0);
    for (size_t i = 0; i < s->params->afterEvent.size(); ++i)
    {
        Simulator::Schedule(s->params->afterEvent[i], &SampleAfterEvent, s, i);
    }
}

void
OnSsthresh(GrowthState* s, uint64_t, uint64_t ssthresh)
{
    QuicCcCubicGrowthResult& r = s->result;
    s->ssthresh = ssthresh;
    // The event's own reduction, whichever of the ssthresh and state traces fires first.
    if (r.events == 1 && *r.eventSeconds == Simulator::Now().GetSeconds())
    {
        r.cwndAfterEvent = ssthresh;
    }
}

void
OnRtt(GrowthState* s, Time latest, Time, Time)
{
    const double rtt = latest.GetSeconds();
    if (s->result.minRttSeconds == 0 || rtt < s->result.minRttSeconds)
    {
        s->result.minRttSeconds = rtt;
    }
}

/// QuicCcSocket and QuicCcNgtcp2Socket have the same trace names and signatures.
void
ConnectSender(GrowthState* s, Ptr<QuicCcSocketBase> socket)
{
    socket->TraceConnectWithoutContext("CongestionWindow64", MakeBoundCallback(&OnCwnd, s));
    socket->TraceConnectWithoutContext("SlowStartThreshold64", MakeBoundCallback(&OnSsthresh, s));
    socket->TraceConnectWithoutContext("CongestionState", MakeBoundCallback(&OnState, s));
    socket->TraceConnectWithoutContext("Rtt", MakeBoundCallback(&OnRtt, s));
}

void
CountFrom(uint64_t* receivedAt, const QuicCcStopAtBytes* transfer)
{
    *receivedAt = transfer->GetReceived();
}

} // namespace

namespace
{

/// Each stack's CUBIC as a transport, in the order of the study's rows.
const QuicCcTransportRows&
Stacks()
{
    static const QuicCcTransportRows stacks{
        {"ngtcp2", [] { return QuicCcTransportSpec("ngtcp2", "cubic"); }},
        {"ngtcp2-profile", [] { return QuicCcNgtcp2DiffTransport("quic-cc"); }},
        {"ngtcp2-profile-per-packet",
         [] {
             QuicCcTransportSpec spec = QuicCcNgtcp2DiffTransport("quic-cc");
             spec.SetController("CubicStep", StringValue("PerPacket"));
             return spec;
         }},
        {"quiche", [] { return QuicCcTransportSpec("quic-cc", "cubic"); }}};
    return stacks;
}

} // namespace

const std::vector<std::string>&
QuicCcCubicGrowthStacks()
{
    static const std::vector<std::string> names = QuicCcRowNames(Stacks());
    return names;
}

QuicCcTransportSpec
QuicCcCubicGrowthTransport(const std::string& stack)
{
    return QuicCcRowTransport(Stacks(), stack, "cubic growth");
}

QuicCcCubicGrowthResult
QuicCcRunCubicGrowth(const QuicCcCubicGrowthParams& params)
{
    QuicCcTransportSpec spec = QuicCcCubicGrowthTransport(params.stack);
    NS_ABORT_MSG_IF(params.ackRatio == 0, "cubic growth: ACK ratio must be >= 1, got 0");
    NS_ABORT_MSG_IF(params.dropDataPacket > 0 && params.lossPeriod > 0,
                    "cubic growth: one loss (dropDataPacket) or periodic loss (lossPeriod), "
                    "not both");
    NS_ABORT_MSG_UNLESS(params.duration.IsStrictlyPositive(),
                        "cubic growth: duration must be > 0, got " << params.duration);
    NS_ABORT_MSG_UNLESS(params.measureFrom < params.duration,
                        "cubic growth: measureFrom " << params.measureFrom.As(Time::S)
                                                     << " must be before the end "
                                                     << params.duration.As(Time::S));

    // Node 0 = data sender (QUIC client), node 1 = data receiver (QUIC server).
    QuicCcSinglePath path(params);
    Ptr<QuicCcPeriodicErrorModel> loss;
    if (params.dropDataPacket > 0 || params.lossPeriod > 0)
    {
        loss = QuicCcDropDataPackets(path.devices.Get(1),
                                     params.dropDataPacket > 0 ? params.dropDataPacket
                                                               : params.lossFirstDrop,
                                     params.lossPeriod,
                                     params.maxDatagramSize);
    }
    path.InstallInternet();

    GrowthState state;
    state.params = &params;
    state.cwndAverage = QuicCcTimeAverage(params.measureFrom);
    int64_t stream = 1;
    stream += QuicCcInternetStreamBlock(path.nodes); // the stack's streams come last
    // The receiver's ACK policy: RFC 9000's on quic-cc's socket (ngtcp2 has no other), an ACK
    // every ackRatio-th ack-eliciting packet, max_ack_delay; set with the same names on either
    // transport, after the stack's own settings.
    spec.SetSocket("AckPolicy", StringValue("Rfc9000"));
    spec.SetSocket("AckElicitingThreshold", UintegerValue(params.ackRatio));
    spec.SetSocket("MaxAckDelay", TimeValue(params.maxAckDelay));
    QuicCcHelper quic;
    spec.ApplyTo(quic);
    quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(params.maxDatagramSize));
    quic.SetSocketAttribute("IdleTimeout", TimeValue(params.duration));
    quic.Install(path.nodes);
    stream += quic.AssignStreams(path.nodes, stream);
    state.sender.Watch(path.nodes.Get(0), MakeBoundCallback(&ConnectSender, &state));
    path.internet.AssignStreams(path.nodes, stream);

    // A bulk transfer longer than the run.
    QuicCcStopAtBytes transfer(std::numeric_limits<uint64_t>::max() / 2);
    path.InstallDownload(quic.GetSocketFactoryName(), 0, transfer);
    uint64_t receivedAtStart = 0;
    Simulator::Schedule(params.measureFrom, &CountFrom, &receivedAtStart, &transfer);
    Simulator::Stop(params.duration);
    Simulator::Run();

    QuicCcCubicGrowthResult result = state.result;
    state.cwndAverage.Close(Simulator::Now());
    result.meanCwnd = state.cwndAverage.Mean();
    result.goodputMbps = (transfer.GetReceived() - receivedAtStart) * 8.0 /
                         (params.duration - params.measureFrom).GetSeconds() / 1e6;
    result.drops = loss ? loss->GetDropped() : 0;
    Ptr<QuicCcSocketBase> sender = state.sender.Get();
    result.lostPackets = sender ? sender->GetPacketsLost() : 0;
    Simulator::Destroy();
    return result;
}

double
QuicCcRfc9438K(double wMax, double cwndEpoch, double mss)
{
    return wMax > cwndEpoch ? std::cbrt((wMax - cwndEpoch) / mss / kRfc9438C) : 0.0;
}

double
QuicCcRfc9438CubicAt(double t, double wMax, double cwndEpoch, double mss)
{
    const double k = QuicCcRfc9438K(wMax, cwndEpoch, mss);
    return (kRfc9438C * std::pow(t - k, 3.0)) * mss + wMax;
}

} // namespace ns3
