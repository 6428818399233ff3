/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-first-socket.h"

#include "ns3/abort.h"
#include "ns3/quic-cc-socket-factory.h"

namespace ns3
{

void
QuicCcFirstSocket::Watch(Ptr<Node> node, Callback<void, Ptr<QuicCcSocket>> onFirst)
{
    Ptr<QuicCcSocketFactory> factory = node->GetObject<QuicCcSocketFactory>();
    NS_ABORT_MSG_UNLESS(factory,
                        "QuicCcFirstSocket: node " << node->GetId()
                                                   << " has no QuicCcSocketFactory");
    m_onFirst = onFirst;
    factory->TraceConnectWithoutContext("SocketCreated",
                                        MakeCallback(&QuicCcFirstSocket::OnCreated, this));
}

Ptr<QuicCcSocket>
QuicCcFirstSocket::Get() const
{
    return m_socket;
}

void
QuicCcFirstSocket::OnCreated(Ptr<QuicCcSocket> socket)
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
