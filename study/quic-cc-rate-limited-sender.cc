/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-rate-limited-sender.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcRateLimitedSender");
NS_OBJECT_ENSURE_REGISTERED(QuicCcRateLimitedSender);

TypeId
QuicCcRateLimitedSender::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuicCcRateLimitedSender")
                            .SetParent<QuicCcClientApplication>()
                            .SetGroupName("QuicCc")
                            .AddConstructor<QuicCcRateLimitedSender>();
    return tid;
}

void
QuicCcRateLimitedSender::Setup(const std::string& socketFactory,
                               const Address& peer,
                               DataRate rate,
                               uint64_t writeBytes,
                               Time limitedFor,
                               uint64_t bulkBytes,
                               Callback<void> onBulk)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "rate-limited sender: rate must be > 0");
    NS_ABORT_MSG_IF(writeBytes == 0 || writeBytes > UINT32_MAX,
                    "rate-limited sender: write size must be in 1.." << UINT32_MAX);
    NS_ABORT_MSG_IF(bulkBytes == 0 || bulkBytes > UINT32_MAX,
                    "rate-limited sender: bulk size must be in 1.." << UINT32_MAX);
    NS_ABORT_MSG_IF(limitedFor.IsStrictlyNegative(),
                    "rate-limited sender: limited phase must be >= 0");
    SetPeer(socketFactory, peer);
    m_interval = rate.CalculateBytesTxTime(writeBytes);
    m_writeBytes = writeBytes;
    m_writes = static_cast<uint64_t>(std::ceil(limitedFor.GetSeconds() / m_interval.GetSeconds()));
    m_bulkBytes = bulkBytes;
    m_onBulk = onBulk;
}

uint64_t
QuicCcRateLimitedSender::GetLimitedBytes() const
{
    return m_writes * m_writeBytes;
}

double
QuicCcRateLimitedSender::GetBulkTime() const
{
    return m_bulkTime;
}

void
QuicCcRateLimitedSender::DoDispose()
{
    m_onBulk = MakeNullCallback<void>();
    QuicCcClientApplication::DoDispose();
}

void
QuicCcRateLimitedSender::OnEstablished()
{
    Write();
}

void
QuicCcRateLimitedSender::Write()
{
    if (m_written == m_writes)
    {
        WriteBulk();
        return;
    }
    WriteData(Create<Packet>(static_cast<uint32_t>(m_writeBytes)));
    ++m_written;
    m_next = Simulator::Schedule(m_interval, &QuicCcRateLimitedSender::Write, this);
}

void
QuicCcRateLimitedSender::WriteBulk()
{
    if (!m_onBulk.IsNull())
    {
        m_onBulk();
    }
    m_bulkTime = Simulator::Now().GetSeconds();
    WriteData(Create<Packet>(static_cast<uint32_t>(m_bulkBytes)));
}

} // namespace ns3
