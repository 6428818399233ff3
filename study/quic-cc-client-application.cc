/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-client-application.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcClientApplication");
NS_OBJECT_ENSURE_REGISTERED(QuicCcClientApplication);

TypeId
QuicCcClientApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QuicCcClientApplication").SetParent<Application>().SetGroupName("QuicCc");
    return tid;
}

void
QuicCcClientApplication::SetPeer(const std::string& socketFactory, const Address& peer)
{
    m_factory = socketFactory;
    m_peer = peer;
}

Ptr<Socket>
QuicCcClientApplication::GetSocket() const
{
    return m_socket;
}

void
QuicCcClientApplication::WriteData(Ptr<Packet> p)
{
    m_writer.Write(m_socket, p);
}

void
QuicCcClientApplication::DoDispose()
{
    m_writer.Stop();
    m_socket = nullptr;
    Application::DoDispose();
}

void
QuicCcClientApplication::StartApplication()
{
    m_socket = Socket::CreateSocket(GetNode(), TypeId::LookupByName(m_factory));
    m_socket->SetConnectCallback(MakeCallback(&QuicCcClientApplication::OnConnected, this),
                                 MakeCallback(&QuicCcClientApplication::OnConnectFailed, this));
    NS_ABORT_MSG_IF(m_socket->Bind() != 0 || m_socket->Connect(m_peer) != 0,
                    GetInstanceTypeId().GetName() << ": cannot connect");
}

void
QuicCcClientApplication::StopApplication()
{
    m_next.Cancel();
    m_writer.Stop();
    if (m_socket)
    {
        m_socket->Close();
    }
}

void
QuicCcClientApplication::OnConnected(Ptr<Socket>)
{
    OnEstablished();
}

void
QuicCcClientApplication::OnConnectFailed(Ptr<Socket>)
{
    NS_LOG_WARN(GetInstanceTypeId().GetName() << ": connection failed");
}

} // namespace ns3
