/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ngtcp2-socket-factory.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/string.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcNgtcp2SocketFactory");
NS_OBJECT_ENSURE_REGISTERED(QuicCcNgtcp2SocketFactory);

TypeId
QuicCcNgtcp2SocketFactory::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuicCcNgtcp2SocketFactory")
                            .SetParent<QuicCcSocketFactoryBase>()
                            .SetGroupName("QuicCc")
                            .AddConstructor<QuicCcNgtcp2SocketFactory>();
    return tid;
}

QuicCcNgtcp2SocketFactory::QuicCcNgtcp2SocketFactory()
    : QuicCcSocketFactoryBase(QuicCcNgtcp2Socket::GetTypeId(), 1)
{
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
QuicCcNgtcp2SocketFactory::EnableQlog(const std::string& directory)
{
    SetSocketAttribute("QlogDirectory", StringValue(directory));
}

} // namespace ns3
