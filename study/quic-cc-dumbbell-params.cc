/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-dumbbell-params.h"

#include "ns3/object-factory.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

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
    else if (p.duration.GetInteger() / p.interval.GetInteger() > kQuicCcDumbbellMaxBins)
    {
        // Each flow keeps a byte count per bin: 1ns bins over 30 s would be 240 GB a flow.
        why << "interval cuts the duration (" << p.duration.As(Time::S) << ") into more than "
            << kQuicCcDumbbellMaxBins << " goodput bins";
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
        (!QuicCcLookupTypeId(p.queueDisc, &tid) || !tid.IsChildOf(QueueDisc::GetTypeId())))
    {
        why << "unknown queue disc '" << p.queueDisc
            << "' (a QueueDisc TypeId, e.g. ns3::FqCoDelQueueDisc)";
    }
    if (why.tellp() == 0 && !p.queueDiscAttributes.empty() && p.queueDisc.empty())
    {
        why << "queue disc attributes given without a queue disc";
    }
    // Each attribute on an instance: a value its checker takes may still be refused by the
    // queue disc (FqCoDelQueueDisc's MaxSize in bytes).
    Ptr<QueueDisc> probe;
    if (why.tellp() == 0 && !p.queueDiscAttributes.empty())
    {
        probe = ObjectFactory(tid.GetName()).Create<QueueDisc>();
    }
    for (const auto& [name, value] : p.queueDiscAttributes)
    {
        TypeId::AttributeInformation info;
        if (why.tellp() == 0 && !tid.LookupAttributeByName(name, &info))
        {
            why << "queue disc " << tid.GetName() << " has no attribute '" << name << "'";
        }
        else if (why.tellp() == 0 && !probe->SetAttributeFailSafe(name, StringValue(value)))
        {
            why << "queue disc attribute " << tid.GetName() << "::" << name << " does not take '"
                << value << "'";
        }
    }
    if (probe)
    {
        probe->Dispose();
    }
    return why.str();
}

std::string
QuicCcCheckDumbbellGoodputWindow(const QuicCcDumbbellParams& p)
{
    std::ostringstream why;
    // A handshake and a first round of data take two base RTTs: a shorter window measures
    // nothing (of the flow with the longest RTT).
    const Time measurable = 2 * *std::max_element(p.rtts.begin(), p.rtts.end());
    uint32_t flows = 0;
    for (const QuicCcFlowGroup& g : p.groups)
    {
        flows += g.count;
    }
    if (p.duration - p.warmup < measurable)
    {
        why << "measurement window from the warm-up (" << p.warmup.As(Time::S) << ") to the end ("
            << p.duration.As(Time::S) << ") is shorter than two base RTTs ("
            << measurable.As(Time::MS) << "): too short to measure anything";
    }
    else if (flows > 1 && p.stagger * (flows - 1) > p.duration - measurable)
    {
        why << "stagger " << p.stagger.As(Time::S) << " starts the last flow at "
            << (p.stagger * (flows - 1)).As(Time::S) << ", less than two base RTTs ("
            << measurable.As(Time::MS) << ") before the end (" << p.duration.As(Time::S) << ")";
    }
    return why.str();
}

} // namespace ns3
