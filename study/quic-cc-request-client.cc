/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-request-client.h"

#include "quic-cc-response-server.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcRequestClient");
NS_OBJECT_ENSURE_REGISTERED(QuicCcRequestClient);

TypeId
QuicCcRequestClient::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuicCcRequestClient")
                            .SetParent<QuicCcClientApplication>()
                            .SetGroupName("QuicCc")
                            .AddConstructor<QuicCcRequestClient>();
    return tid;
}

void
QuicCcRequestClient::Setup(const std::string& socketFactory,
                           const Address& peer,
                           uint64_t requestBytes,
                           uint64_t responseBytes,
                           Ptr<RandomVariableStream> think,
                           uint32_t requests)
{
    NS_ABORT_MSG_IF(requestBytes == 0 || requestBytes > UINT32_MAX,
                    "request client: request size must be in 1.." << UINT32_MAX << ", got "
                                                                  << requestBytes);
    NS_ABORT_MSG_IF(responseBytes == 0, "request client: response size must be > 0");
    NS_ABORT_MSG_UNLESS(think, "request client: no think-time model");
    SetPeer(socketFactory, peer);
    m_requestBytes = requestBytes;
    m_responseBytes = responseBytes;
    m_think = think;
    m_requests = requests;
}

const std::vector<double>&
QuicCcRequestClient::GetResponseTimes() const
{
    return m_responseTimes;
}

const std::vector<double>&
QuicCcRequestClient::GetRequestTimes() const
{
    return m_requestTimes;
}

uint64_t
QuicCcRequestClient::GetCorruptBytes() const
{
    return m_corrupt;
}

uint64_t
QuicCcRequestClient::GetResponseBytesReceived() const
{
    return m_totalReceived;
}

void
QuicCcRequestClient::DoDispose()
{
    m_think = nullptr;
    QuicCcClientApplication::DoDispose();
}

void
QuicCcRequestClient::OnEstablished()
{
    GetSocket()->SetRecvCallback(MakeCallback(&QuicCcRequestClient::OnRecv, this));
    SendRequest();
}

void
QuicCcRequestClient::SendRequest()
{
    WriteData(Create<Packet>(static_cast<uint32_t>(m_requestBytes)));
    m_requestTime = Simulator::Now().GetSeconds();
    m_requestTimes.push_back(m_requestTime);
    m_responseOffset = 0;
}

void
QuicCcRequestClient::OnRecv(Ptr<Socket> socket)
{
    while (Ptr<Packet> p = socket->Recv())
    {
        if (p->GetSize() == 0)
        {
            break;
        }
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        for (uint8_t b : bytes)
        {
            const uint32_t index = static_cast<uint32_t>(m_responseTimes.size());
            m_corrupt += (m_responseTimes.size() >= m_requests ||
                          b != QuicCcResponseByte(index, m_responseOffset))
                             ? 1
                             : 0;
            ++m_totalReceived;
            if (++m_responseOffset < m_responseBytes)
            {
                continue;
            }
            m_responseTimes.push_back(Simulator::Now().GetSeconds() - m_requestTime);
            m_responseOffset = 0;
            if (m_responseTimes.size() == m_requests)
            {
                Simulator::Stop();
            }
            else
            {
                m_next = Simulator::Schedule(Seconds(m_think->GetValue()),
                                             &QuicCcRequestClient::SendRequest,
                                             this);
            }
        }
    }
}

} // namespace ns3
