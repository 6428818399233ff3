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
    socket->SetChildCreatedCallback(MakeCallback(&QuicCcSocketFactory::AddChild, this));
    AddSocket(socket);
    return socket;
}

int64_t
QuicCcSocketFactory::AssignStreams(int64_t stream)
{
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(!node,
                    "QuicCcSocketFactory::AssignStreams: the factory is not aggregated to a node");
    const int64_t block = kStreamsPerSocket * kBlockSockets;
    NS_ABORT_MSG_IF(stream < 0 || stream > kExtensionBase - block,
                    "QuicCcSocketFactory::AssignStreams: stream "
                        << stream << " on node " << node->GetId() << " is outside 0.."
                        << kExtensionBase - block << " (the node's block of " << block
                        << " streams must end below 2^62, where quic-cc's range for sockets beyond "
                        << kBlockSockets << " per node starts)");
    NS_ABORT_MSG_IF(node->GetId() >= (uint32_t{1} << kNodeIdBits),
                    "QuicCcSocketFactory::AssignStreams: node id "
                        << node->GetId() << " is not below 2^" << kNodeIdBits
                        << " (nodes with fixed quic-cc streams)");
    m_streamBase = stream;
    m_nodeId = node->GetId();
    // Sockets that exist already get theirs now, as in ns-3 (AssignStreams fixes the streams of
    // the objects it reaches).
    for (size_t k = 0; k < m_sockets.size(); ++k)
    {
        m_sockets[k]->AssignStreams(SocketStream(k));
    }
    return block;
}

int64_t
QuicCcSocketFactory::SocketStream(uint64_t k) const
{
    if (k < static_cast<uint64_t>(kBlockSockets))
    {
        return m_streamBase + kStreamsPerSocket * static_cast<int64_t>(k);
    }
    // The extension range holds 2^(60 - kNodeIdBits) sockets per node: more than any machine's
    // memory holds (each socket is kilobytes), so this is not a limit a scenario can reach.
    const uint64_t extra = k - kBlockSockets;
    NS_ABORT_MSG_IF(extra >= (uint64_t{1} << (60 - kNodeIdBits)),
                    "QuicCcSocketFactory: socket " << k << " of node " << m_nodeId
                                                   << " is beyond quic-cc's stream space");
    return kExtensionBase +
           kStreamsPerSocket * static_cast<int64_t>((extra << kNodeIdBits) | m_nodeId);
}

void
QuicCcSocketFactory::AddSocket(Ptr<QuicCcSocket> socket)
{
    if (m_streamBase >= 0)
    {
        socket->AssignStreams(SocketStream(m_sockets.size()));
    }
    m_sockets.push_back(socket);
    m_socketCreatedTrace(socket);
}

void
QuicCcSocketFactory::AddChild(Ptr<QuicCcSocketBase> socket)
{
    AddSocket(DynamicCast<QuicCcSocket>(socket));
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
