/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-server-application.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(QuicCcServerApplication);

TypeId
QuicCcServerApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QuicCcServerApplication").SetParent<Application>().SetGroupName("QuicCc");
    return tid;
}

void
QuicCcServerApplication::SetLocal(const std::string& socketFactory, const Address& local)
{
    m_factory = socketFactory;
    m_local = local;
}

Ptr<Socket>
QuicCcServerApplication::GetSocket() const
{
    return m_socket;
}

void
QuicCcServerApplication::WriteData(Ptr<Packet> p)
{
    m_writer.Write(m_socket, p);
}

void
QuicCcServerApplication::DoDispose()
{
    m_writer.Stop();
    m_listener = nullptr;
    m_socket = nullptr;
    Application::DoDispose();
}

void
QuicCcServerApplication::StartApplication()
{
    m_listener = Socket::CreateSocket(GetNode(), TypeId::LookupByName(m_factory));
    NS_ABORT_MSG_IF(m_listener->Bind(m_local) != 0 || m_listener->Listen() != 0,
                    GetInstanceTypeId().GetName() << ": cannot listen");
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&QuicCcServerApplication::OnAccept, this));
}

void
QuicCcServerApplication::StopApplication()
{
    m_writer.Stop();
    if (m_listener)
    {
        m_listener->Close();
    }
}

void
QuicCcServerApplication::OnAccept(Ptr<Socket> socket, const Address&)
{
    NS_ABORT_MSG_IF(m_socket, GetInstanceTypeId().GetName() << ": a second connection");
    m_socket = socket;
    OnAccepted(socket);
}

} // namespace ns3
