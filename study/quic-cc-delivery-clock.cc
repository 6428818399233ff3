/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-delivery-clock.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

namespace ns3
{

QuicCcDeliveryClock::QuicCcDeliveryClock(std::vector<uint64_t> marks)
    : m_marks(std::move(marks))
{
}

void
QuicCcDeliveryClock::Watch(Ptr<Application> sink)
{
    NS_ABORT_MSG_UNLESS(
        sink->TraceConnectWithoutContext("Rx", MakeCallback(&QuicCcDeliveryClock::OnRx, this)),
        "QuicCcDeliveryClock: the application has no Rx trace");
}

const std::vector<double>&
QuicCcDeliveryClock::GetTimes() const
{
    return m_times;
}

uint64_t
QuicCcDeliveryClock::GetReceived() const
{
    return m_received;
}

void
QuicCcDeliveryClock::OnRx(Ptr<const Packet> packet, const Address&)
{
    m_received += packet->GetSize();
    while (m_times.size() < m_marks.size() && m_received >= m_marks[m_times.size()])
    {
        m_times.push_back(Simulator::Now().GetSeconds());
    }
    if (!m_marks.empty() && m_times.size() == m_marks.size())
    {
        Simulator::Stop();
    }
}

} // namespace ns3
