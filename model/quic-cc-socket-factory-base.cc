/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-socket-factory-base.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-vector.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcSocketFactoryBase");
NS_OBJECT_ENSURE_REGISTERED(QuicCcSocketFactoryBase);

TypeId
QuicCcSocketFactoryBase::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QuicCcSocketFactoryBase")
            .SetParent<SocketFactory>()
            .SetGroupName("QuicCc")
            .AddAttribute("SocketList",
                          "Every socket of this node: created ones and accepted server "
                          "connections, in creation order.",
                          ObjectVectorValue(),
                          MakeObjectVectorAccessor(&QuicCcSocketFactoryBase::m_sockets),
                          MakeObjectVectorChecker<QuicCcSocketBase>())
            .AddTraceSource("SocketCreated",
                            "A socket was created on this node (also accepted connections, "
                            "before their first datagram); connect its trace sources here to "
                            "catch every value from the start.",
                            MakeTraceSourceAccessor(&QuicCcSocketFactoryBase::m_socketCreatedTrace),
                            "ns3::QuicCcSocketFactoryBase::SocketCreatedCallback");
    return tid;
}

QuicCcSocketFactoryBase::QuicCcSocketFactoryBase(TypeId socketTypeId, int64_t streamsPerSocket)
    : m_streamsPerSocket(streamsPerSocket)
{
    m_socketFactory.SetTypeId(socketTypeId);
}

void
QuicCcSocketFactoryBase::SetSocketAttribute(const std::string& name, const AttributeValue& value)
{
    m_socketFactory.Set(name, value);
}

TypeId
QuicCcSocketFactoryBase::GetSocketTypeId() const
{
    return m_socketFactory.GetTypeId();
}

void
QuicCcSocketFactoryBase::ConfigureSocket(Ptr<QuicCcSocketBase>)
{
}

Ptr<Socket>
QuicCcSocketFactoryBase::CreateSocket()
{
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(!node, GetInstanceTypeId().GetName() << " is not aggregated to a node");
    Ptr<QuicCcSocketBase> socket = m_socketFactory.Create<QuicCcSocketBase>();
    socket->SetNode(node);
    ConfigureSocket(socket);
    AddSocket(socket);
    return socket;
}

int64_t
QuicCcSocketFactoryBase::AssignStreams(int64_t stream)
{
    const std::string name = GetInstanceTypeId().GetName();
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(!node, name << "::AssignStreams: the factory is not aggregated to a node");
    const int64_t block = m_streamsPerSocket * kBlockSockets;
    NS_ABORT_MSG_IF(stream < 0 || stream > kExtensionBase - block,
                    name << "::AssignStreams: stream " << stream << " on node " << node->GetId()
                         << " is outside 0.." << kExtensionBase - block << " (the node's block of "
                         << block << " streams must end below 2^62, where the range for sockets "
                         << "beyond " << kBlockSockets << " per node starts)");
    NS_ABORT_MSG_IF(node->GetId() >= (uint32_t{1} << kNodeIdBits),
                    name << "::AssignStreams: node id " << node->GetId() << " is not below 2^"
                         << kNodeIdBits << " (nodes with fixed streams)");
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
QuicCcSocketFactoryBase::SocketStream(uint64_t k) const
{
    if (k < static_cast<uint64_t>(kBlockSockets))
    {
        return m_streamBase + m_streamsPerSocket * static_cast<int64_t>(k);
    }
    // The extension range holds 2^(60 - kNodeIdBits) sockets per node: more than any machine's
    // memory holds (each socket is kilobytes), so this is not a limit a scenario can reach.
    const uint64_t extra = k - kBlockSockets;
    NS_ABORT_MSG_IF(extra >= (uint64_t{1} << (60 - kNodeIdBits)),
                    GetInstanceTypeId().GetName() << ": socket " << k << " of node " << m_nodeId
                                                  << " is beyond the stream space");
    return kExtensionBase +
           m_streamsPerSocket * static_cast<int64_t>((extra << kNodeIdBits) | m_nodeId);
}

int64_t
QuicCcSocketFactoryBase::GetStreamsPerSocket() const
{
    return m_streamsPerSocket;
}

void
QuicCcSocketFactoryBase::AddSocket(Ptr<QuicCcSocketBase> socket)
{
    if (m_streamBase >= 0)
    {
        socket->AssignStreams(SocketStream(m_sockets.size()));
    }
    socket->SetChildCreatedCallback(MakeCallback(&QuicCcSocketFactoryBase::AddSocket, this));
    m_sockets.push_back(socket);
    m_socketCreatedTrace(socket);
}

const std::vector<Ptr<QuicCcSocketBase>>&
QuicCcSocketFactoryBase::GetSockets() const
{
    return m_sockets;
}

void
QuicCcSocketFactoryBase::DoDispose()
{
    // Each socket holds its node (and an accepted connection its listener, which holds it
    // back): dispose them with the node, or those Ptr cycles keep node and sockets alive
    // forever. Disposing also completes each socket's qlog.
    for (const Ptr<QuicCcSocketBase>& socket : m_sockets)
    {
        socket->Dispose();
    }
    m_sockets.clear();
    SocketFactory::DoDispose();
}

} // namespace ns3
