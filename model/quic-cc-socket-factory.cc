/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-socket-factory.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-vector.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcSocketFactory");
NS_OBJECT_ENSURE_REGISTERED(QuicCcSocketFactory);

TypeId
QuicCcSocketFactory::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QuicCcSocketFactory")
            .SetParent<SocketFactory>()
            .SetGroupName("QuicCc")
            .AddConstructor<QuicCcSocketFactory>()
            .AddAttribute("SocketList",
                          "Every QuicCcSocket of this node: created ones and accepted server "
                          "connections, in creation order.",
                          ObjectVectorValue(),
                          MakeObjectVectorAccessor(&QuicCcSocketFactory::m_sockets),
                          MakeObjectVectorChecker<QuicCcSocket>())
            .AddTraceSource("SocketCreated",
                            "A QuicCcSocket was created on this node (also accepted connections); "
                            "connect its trace sources here to catch every value from the start.",
                            MakeTraceSourceAccessor(&QuicCcSocketFactory::m_socketCreatedTrace),
                            "ns3::QuicCcSocketFactory::SocketCreatedCallback");
    return tid;
}

QuicCcSocketFactory::QuicCcSocketFactory()
{
    m_socketFactory.SetTypeId(QuicCcSocket::GetTypeId());
}

void
QuicCcSocketFactory::SetSocketAttribute(const std::string& name, const AttributeValue& value)
{
    m_socketFactory.Set(name, value);
}

void
QuicCcSocketFactory::SetCongestionController(Ptr<QuicCongestionController> cc)
{
    m_cc = cc;
}

Ptr<Socket>
QuicCcSocketFactory::CreateSocket()
{
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(!node, "QuicCcSocketFactory is not aggregated to a node");
    Ptr<QuicCcSocket> socket = m_socketFactory.Create<QuicCcSocket>();
    socket->SetNode(node);
    if (m_cc)
    {
        socket->SetCongestionController(m_cc);
    }
    socket->SetChildCreatedCallback(MakeCallback(&QuicCcSocketFactory::AddSocket, this));
    AddSocket(socket);
    return socket;
}

int64_t
QuicCcSocketFactory::AssignStreams(int64_t stream)
{
    m_streamBase = stream;
    return 3 * kMaxSocketsPerNode;
}

void
QuicCcSocketFactory::AddSocket(Ptr<QuicCcSocket> socket)
{
    if (m_streamBase >= 0)
    {
        NS_ABORT_MSG_IF(static_cast<int64_t>(m_sockets.size()) >= kMaxSocketsPerNode,
                        "QuicCcSocketFactory: more than " << kMaxSocketsPerNode
                                                          << " sockets on one node with assigned streams");
        socket->AssignStreams(m_streamBase + 3 * static_cast<int64_t>(m_sockets.size()));
    }
    m_sockets.push_back(socket);
    m_socketCreatedTrace(socket);
}

const std::vector<Ptr<QuicCcSocket>>&
QuicCcSocketFactory::GetSockets() const
{
    return m_sockets;
}

void
QuicCcSocketFactory::DoDispose()
{
    // Each socket holds its node (and a server connection its listener, which holds it back):
    // dispose them with the node, or those Ptr cycles keep node and sockets alive forever.
    for (const Ptr<QuicCcSocket>& socket : m_sockets)
    {
        socket->Dispose();
    }
    m_sockets.clear();
    m_cc = nullptr;
    SocketFactory::DoDispose();
}

} // namespace ns3
