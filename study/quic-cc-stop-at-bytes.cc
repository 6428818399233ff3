/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-stop-at-bytes.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/simulator.h"

namespace ns3
{

QuicCcStopAtBytes::QuicCcStopAtBytes(uint64_t target)
    : m_target(target)
{
}

void
QuicCcStopAtBytes::Watch(Ptr<Application> sink)
{
    NS_ABORT_MSG_UNLESS(
        sink &&
            sink->TraceConnectWithoutContext("Rx", MakeCallback(&QuicCcStopAtBytes::OnRx, this)),
        "QuicCcStopAtBytes: the application has no \"Rx\" trace source");
}

bool
QuicCcStopAtBytes::IsComplete() const
{
    return m_complete;
}

double
QuicCcStopAtBytes::GetCompletionSeconds() const
{
    return m_completionSeconds;
}

uint64_t
QuicCcStopAtBytes::GetReceived() const
{
    return m_received;
}

void
QuicCcStopAtBytes::OnRx(Ptr<const Packet> packet, const Address&)
{
    m_received += packet->GetSize();
    if (!m_complete && m_received >= m_target)
    {
        m_complete = true;
        m_completionSeconds = Simulator::Now().GetSeconds();
        Simulator::Stop();
    }
}

} // namespace ns3
