/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-dumbbell-flow-traces.h"

#include "ns3/abort.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-header.h"

namespace ns3
{

namespace
{

void
OnRx(QuicCcDumbbellFlow* f, Ptr<const Packet> p, const Address&)
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
        QuicCcDumbbellCloseWindow(f->run); // fairness is measured while every flow competes
        if (++f->run->completed == f->run->flows.size())
        {
            Simulator::Stop();
        }
    }
}

void
OnQuicCwnd(QuicCcDumbbellFlow* f, uint64_t, uint64_t cwnd)
{
    f->cwnd->Update(Simulator::Now(), static_cast<double>(cwnd));
}

void
OnTcpCwnd(QuicCcDumbbellFlow* f, uint32_t, uint32_t cwnd)
{
    f->cwnd->Update(Simulator::Now(), static_cast<double>(cwnd));
}

void
OnTcpTx(QuicCcDumbbellFlow* f, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
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
OnQuicSocketCreated(QuicCcDumbbellFlow* f, Ptr<QuicCcSocketBase> socket)
{
    if (f->quicSender)
    {
        return;
    }
    f->quicSender = socket;
    socket->TraceConnectWithoutContext("CongestionWindow64", MakeBoundCallback(&OnQuicCwnd, f));
}

} // namespace

void
QuicCcDumbbellCloseWindow(QuicCcDumbbellRun* s)
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
QuicCcDumbbellWatchSink(QuicCcDumbbellFlow* f, Ptr<PacketSink> sink)
{
    sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, f));
    f->sink = sink;
}

void
QuicCcDumbbellWatchQuicSender(QuicCcDumbbellFlow* f, Ptr<Node> sender)
{
    Ptr<QuicCcSocketFactoryBase> factory = sender->GetObject<QuicCcSocketFactoryBase>();
    NS_ABORT_MSG_UNLESS(factory, "dumbbell: sender node " << sender->GetId() << " has no QUIC");
    factory->TraceConnectWithoutContext("SocketCreated",
                                        MakeBoundCallback(&OnQuicSocketCreated, f));
}

void
QuicCcDumbbellHookTcpSender(QuicCcDumbbellFlow* f,
                            Ptr<BulkSendApplication> app,
                            const QuicCcFlowGroup* group)
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

} // namespace ns3
