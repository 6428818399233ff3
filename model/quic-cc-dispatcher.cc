/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-dispatcher.h"

#include "quic-cc-socket-base.h"

namespace ns3
{

QuicCcDispatcher::QuicCcDispatcher()
    : m_last(m_connections.end())
{
}

QuicCcDispatcher::~QuicCcDispatcher() = default;

Ptr<QuicCcSocketBase>
QuicCcDispatcher::Find(const Address& from) const
{
    // Datagrams come in runs from one peer: one equality test finds the last one's connection
    // (a map look-up compares Addresses through ns-3's operator<, ~300 instructions each).
    if (m_last != m_connections.end() && m_last->first == from)
    {
        return m_last->second;
    }
    auto it = m_connections.find(from);
    if (it == m_connections.end())
    {
        return nullptr;
    }
    m_last = it;
    return it->second;
}

QuicCcDispatcher::Route
QuicCcDispatcher::Admit(bool accepting, const QuicCcAdmission& admission) const
{
    Route route;
    if (!admission.admit)
    {
        route.dropReason = admission.dropReason;
        return route;
    }
    if (!accepting)
    {
        route.dropReason = "listener: closed, no new connection";
        return route;
    }
    if (admission.connectionId && m_closedConnectionIds.count(*admission.connectionId) > 0)
    {
        // A late or duplicated first packet of a connection that already ended (RFC 9000
        // Section 10.2: a closed connection's packets are not a new connection).
        route.dropReason =
            "listener: INITIAL of closed connection " + std::to_string(*admission.connectionId);
        return route;
    }
    route.open = true;
    route.connectionId = admission.connectionId;
    return route;
}

void
QuicCcDispatcher::Add(const Address& peer, Ptr<QuicCcSocketBase> connection)
{
    m_connections[peer] = connection;
}

void
QuicCcDispatcher::OnClosed(const Address& peer, std::optional<uint64_t> connectionId)
{
    if (connectionId)
    {
        m_closedConnectionIds.insert(*connectionId);
    }
    if (m_last != m_connections.end() && m_last->first == peer)
    {
        m_last = m_connections.end();
    }
    m_connections.erase(peer);
}

void
QuicCcDispatcher::Clear()
{
    m_connections.clear();
    m_last = m_connections.end();
}

size_t
QuicCcDispatcher::GetConnectionCount() const
{
    return m_connections.size();
}

} // namespace ns3
