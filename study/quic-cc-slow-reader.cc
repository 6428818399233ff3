/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-slow-reader.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcSlowReader");
NS_OBJECT_ENSURE_REGISTERED(QuicCcSlowReader);

TypeId
QuicCcSlowReader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuicCcSlowReader")
                            .SetParent<QuicCcServerApplication>()
                            .SetGroupName("QuicCc")
                            .AddConstructor<QuicCcSlowReader>();
    return tid;
}

void
QuicCcSlowReader::Setup(const std::string& socketFactory,
                        const Address& local,
                        DataRate rate,
                        Time interval,
                        uint64_t expected)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "slow reader: read rate must be > 0");
    NS_ABORT_MSG_UNLESS(interval.IsStrictlyPositive(), "slow reader: interval must be > 0");
    NS_ABORT_MSG_IF(expected == 0, "slow reader: expected bytes must be > 0");
    SetLocal(socketFactory, local);
    m_rate = rate;
    m_interval = interval;
    m_expected = expected;
}

uint64_t
QuicCcSlowReader::GetBytesRead() const
{
    return m_read;
}

uint64_t
QuicCcSlowReader::GetPeakBacklog() const
{
    return m_peakBacklog;
}

double
QuicCcSlowReader::GetDoneSeconds() const
{
    return m_done;
}

void
QuicCcSlowReader::StopApplication()
{
    m_next.Cancel();
    QuicCcServerApplication::StopApplication();
}

void
QuicCcSlowReader::OnAccepted(Ptr<Socket>)
{
    m_next = Simulator::Schedule(m_interval, &QuicCcSlowReader::Read, this);
}

void
QuicCcSlowReader::Read()
{
    m_peakBacklog = std::max<uint64_t>(m_peakBacklog, GetSocket()->GetRxAvailable());
    // What the rate allows this interval, plus what a short read left unused (a reader that
    // found nothing to read does not save credit beyond one interval).
    const double allowance = m_rate.GetBitRate() / 8.0 * m_interval.GetSeconds();
    m_credit = std::min(m_credit + allowance, 2 * allowance);
    while (m_credit >= 1)
    {
        const uint32_t want = static_cast<uint32_t>(std::min(m_credit, 4294967295.0));
        Ptr<Packet> p = GetSocket()->Recv(want, 0);
        if (!p || p->GetSize() == 0)
        {
            break;
        }
        m_read += p->GetSize();
        m_credit -= p->GetSize();
    }
    if (m_read >= m_expected && m_done < 0)
    {
        m_done = Simulator::Now().GetSeconds();
        Simulator::Stop();
        return;
    }
    m_next = Simulator::Schedule(m_interval, &QuicCcSlowReader::Read, this);
}

} // namespace ns3
