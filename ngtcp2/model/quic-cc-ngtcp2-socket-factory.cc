/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ngtcp2-socket-factory.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-vector.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcNgtcp2SocketFactory");
NS_OBJECT_ENSURE_REGISTERED(QuicCcNgtcp2SocketFactory);

TypeId
QuicCcNgtcp2SocketFactory::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QuicCcNgtcp2SocketFactory")
            .SetParent<SocketFactory>()
            .SetGroupName("QuicCc")
            .AddConstructor<QuicCcNgtcp2SocketFactory>()
            .AddAttribute("SocketList",
                          "Every QuicCcNgtcp2Socket of this node, accepted connections included, "
                          "in creation order.",
                          ObjectVectorValue(),
                          MakeObjectVectorAccessor(&QuicCcNgtcp2SocketFactory::m_sockets),
                          MakeObjectVectorChecker<QuicCcNgtcp2Socket>())
            .AddTraceSource(
                "SocketCreated",
                "A QuicCcNgtcp2Socket was created on this node (also accepted "
                "connections, before their first datagram).",
                MakeTraceSourceAccessor(&QuicCcNgtcp2SocketFactory::m_socketCreatedTrace),
                "ns3::QuicCcNgtcp2SocketFactory::SocketCreatedCallback");
    return tid;
}

QuicCcNgtcp2SocketFactory::QuicCcNgtcp2SocketFactory()
{
    m_socketFactory.SetTypeId(QuicCcNgtcp2Socket::GetTypeId());
}

Ptr<QuicCcNgtcp2SocketFactory>
QuicCcNgtcp2SocketFactory::Install(Ptr<Node> node)
{
    NS_ABORT_MSG_IF(node->GetObject<QuicCcNgtcp2SocketFactory>(),
                    "QuicCcNgtcp2SocketFactory::Install: node " << node->GetId()
                                                                << " already has one");
    Ptr<QuicCcNgtcp2SocketFactory> factory = CreateObject<QuicCcNgtcp2SocketFactory>();
    node->AggregateObject(factory);
    return factory;
}

void
QuicCcNgtcp2SocketFactory::SetSocketAttribute(const std::string& name, const AttributeValue& value)
{
    m_socketFactory.Set(name, value);
}

Ptr<Socket>
QuicCcNgtcp2SocketFactory::CreateSocket()
{
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(!node, "QuicCcNgtcp2SocketFactory is not aggregated to a node");
    Ptr<QuicCcNgtcp2Socket> socket = m_socketFactory.Create<QuicCcNgtcp2Socket>();
    socket->SetNode(node);
    socket->SetChildCreatedCallback(MakeCallback(&QuicCcNgtcp2SocketFactory::AddChild, this));
    AddSocket(socket);
    return socket;
}

void
QuicCcNgtcp2SocketFactory::AddSocket(Ptr<QuicCcNgtcp2Socket> socket)
{
    if (m_streamBase >= 0)
    {
        const auto k = static_cast<int64_t>(m_sockets.size());
        NS_ABORT_MSG_IF(k >= kMaxSockets,
                        "QuicCcNgtcp2SocketFactory: more than " << kMaxSockets
                                                                << " sockets on one node after "
                                                                   "AssignStreams");
        socket->AssignStreams(m_streamBase + k);
    }
    socket->SetChildCreatedCallback(MakeCallback(&QuicCcNgtcp2SocketFactory::AddChild, this));
    m_sockets.push_back(socket);
    m_socketCreatedTrace(socket);
}

void
QuicCcNgtcp2SocketFactory::AddChild(Ptr<QuicCcSocketBase> socket)
{
    AddSocket(DynamicCast<QuicCcNgtcp2Socket>(socket));
}

int64_t
QuicCcNgtcp2SocketFactory::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(stream < 0,
                    "QuicCcNgtcp2SocketFactory::AssignStreams: stream must be >= 0, got "
                        << stream);
    m_streamBase = stream;
    for (size_t k = 0; k < m_sockets.size(); ++k)
    {
        m_sockets[k]->AssignStreams(stream + static_cast<int64_t>(k));
    }
    return kMaxSockets;
}

const std::vector<Ptr<QuicCcNgtcp2Socket>>&
QuicCcNgtcp2SocketFactory::GetSockets() const
{
    return m_sockets;
}

void
QuicCcNgtcp2SocketFactory::DoDispose()
{
    // Every socket ends with the node: its qlog is completed and the listener <-> accepted
    // connection references are broken (QuicCcNgtcp2Socket::DoDispose).
    for (auto& socket : m_sockets)
    {
        socket->Dispose();
    }
    m_sockets.clear();
    SocketFactory::DoDispose();
}

} // namespace ns3
