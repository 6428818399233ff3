/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-chunked-sender.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcChunkedSender");
NS_OBJECT_ENSURE_REGISTERED(QuicCcChunkedSender);

TypeId
QuicCcChunkedSender::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuicCcChunkedSender")
                            .SetParent<QuicCcClientApplication>()
                            .SetGroupName("QuicCc")
                            .AddConstructor<QuicCcChunkedSender>();
    return tid;
}

void
QuicCcChunkedSender::Setup(const std::string& socketFactory,
                           const Address& peer,
                           uint64_t chunkBytes,
                           Time period,
                           uint32_t chunks)
{
    NS_ABORT_MSG_IF(chunkBytes == 0 || chunkBytes > UINT32_MAX,
                    "chunked sender: chunk size must be in 1.." << UINT32_MAX << ", got "
                                                                << chunkBytes);
    NS_ABORT_MSG_UNLESS(period.IsStrictlyPositive(),
                        "chunked sender: period must be > 0, got " << period);
    SetPeer(socketFactory, peer);
    m_chunkBytes = chunkBytes;
    m_period = period;
    m_chunks = chunks;
}

const std::vector<double>&
QuicCcChunkedSender::GetWriteTimes() const
{
    return m_writeTimes;
}

void
QuicCcChunkedSender::OnEstablished()
{
    WriteChunk();
}

void
QuicCcChunkedSender::WriteChunk()
{
    WriteData(Create<Packet>(static_cast<uint32_t>(m_chunkBytes)));
    m_writeTimes.push_back(Simulator::Now().GetSeconds());
    NS_LOG_INFO("chunk " << m_writeTimes.size() << " of " << m_chunkBytes << " bytes written");
    if (m_writeTimes.size() < m_chunks)
    {
        m_next = Simulator::Schedule(m_period, &QuicCcChunkedSender::WriteChunk, this);
    }
}

} // namespace ns3
