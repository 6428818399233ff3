/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-first-socket.h"

#include "ns3/abort.h"
#include "ns3/quic-cc-socket-factory-base.h"

namespace ns3
{

void
QuicCcFirstSocket::Watch(Ptr<Node> node, Callback<void, Ptr<QuicCcSocketBase>> onFirst)
{
    Ptr<QuicCcSocketFactoryBase> factory = node->GetObject<QuicCcSocketFactoryBase>();
    NS_ABORT_MSG_UNLESS(factory,
                        "QuicCcFirstSocket: node " << node->GetId()
                                                   << " has no QUIC socket factory");
    m_onFirst = onFirst;
    factory->TraceConnectWithoutContext("SocketCreated",
                                        MakeCallback(&QuicCcFirstSocket::OnCreated, this));
}

Ptr<QuicCcSocketBase>
QuicCcFirstSocket::Get() const
{
    return m_socket;
}

void
QuicCcFirstSocket::OnCreated(Ptr<QuicCcSocketBase> socket)
{
    if (m_socket)
    {
        return;
    }
    m_socket = socket;
    if (!m_onFirst.IsNull())
    {
        m_onFirst(socket);
    }
}

} // namespace ns3
