/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-response-server.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcResponseServer");
NS_OBJECT_ENSURE_REGISTERED(QuicCcResponseServer);

uint8_t
QuicCcResponseByte(uint32_t index, uint64_t offset)
{
    return static_cast<uint8_t>((offset * 131 + index * 7 + (offset >> 8)) & 0xff);
}

TypeId
QuicCcResponseServer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuicCcResponseServer")
                            .SetParent<QuicCcServerApplication>()
                            .SetGroupName("QuicCc")
                            .AddConstructor<QuicCcResponseServer>();
    return tid;
}

void
QuicCcResponseServer::Setup(const std::string& socketFactory,
                            const Address& local,
                            uint64_t requestBytes,
                            uint64_t responseBytes,
                            Callback<void, Ptr<Socket>> onAccept)
{
    NS_ABORT_MSG_IF(requestBytes == 0, "response server: request size must be > 0");
    NS_ABORT_MSG_IF(responseBytes == 0 || responseBytes > UINT32_MAX,
                    "response server: response size must be in 1.." << UINT32_MAX << ", got "
                                                                    << responseBytes);
    SetLocal(socketFactory, local);
    m_requestBytes = requestBytes;
    m_responseBytes = responseBytes;
    m_onAccept = onAccept;
}

void
QuicCcResponseServer::DoDispose()
{
    m_onAccept = MakeNullCallback<void, Ptr<Socket>>();
    QuicCcServerApplication::DoDispose();
}

void
QuicCcResponseServer::OnAccepted(Ptr<Socket> socket)
{
    socket->SetRecvCallback(MakeCallback(&QuicCcResponseServer::OnRecv, this));
    if (!m_onAccept.IsNull())
    {
        m_onAccept(socket);
    }
    OnRecv(socket); // data that arrived with the handshake
}

void
QuicCcResponseServer::OnRecv(Ptr<Socket> socket)
{
    while (Ptr<Packet> p = socket->Recv())
    {
        if (p->GetSize() == 0)
        {
            break;
        }
        m_requestOffset += p->GetSize();
        while (m_requestOffset >= m_requestBytes)
        {
            m_requestOffset -= m_requestBytes;
            std::vector<uint8_t> body(m_responseBytes);
            for (uint64_t i = 0; i < m_responseBytes; ++i)
            {
                body[i] = QuicCcResponseByte(m_responses, i);
            }
            WriteData(Create<Packet>(body.data(), static_cast<uint32_t>(m_responseBytes)));
            ++m_responses;
            NS_LOG_INFO("response " << m_responses << " written");
        }
    }
}

} // namespace ns3
