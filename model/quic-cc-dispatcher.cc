/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-dispatcher.h"

#include "quic-cc-frames.h"
#include "quic-cc-socket.h"

namespace ns3
{

QuicCcDispatcher::QuicCcDispatcher() = default;
QuicCcDispatcher::~QuicCcDispatcher() = default;

QuicCcDispatcher::Route
QuicCcDispatcher::Dispatch(const uint8_t* bytes,
                           size_t size,
                           const Address& from,
                           bool accepting,
                           Ptr<const Packet> source) const
{
    Route route;
    auto it = m_connections.find(from);
    if (it != m_connections.end())
    {
        route.connection = it->second;
        return route;
    }
    // A new peer: only a well-formed INITIAL opens a connection.
    QuicCcParseResult parsed = QuicCcParse(bytes, size, std::move(source));
    if (!parsed.packet)
    {
        route.dropReason = "listener: " + parsed.error;
        return route;
    }
    if (parsed.packet->type != QuicCcPacketType::INITIAL || !accepting)
    {
        route.dropReason = "listener: no connection for a non-INITIAL packet from a new address";
        return route;
    }
    if (m_closedConnectionIds.count(parsed.packet->connectionId) > 0)
    {
        // A late or duplicated INITIAL of a connection that already ended (RFC 9000
        // Section 10.2: a closed connection's packets are not a new connection).
        route.dropReason =
            "listener: INITIAL of closed connection " + std::to_string(parsed.packet->connectionId);
        return route;
    }
    route.open = true;
    route.connectionId = parsed.packet->connectionId;
    return route;
}

void
QuicCcDispatcher::Add(const Address& peer, Ptr<QuicCcSocket> connection)
{
    m_connections[peer] = connection;
}

void
QuicCcDispatcher::OnClosed(const Address& peer, uint64_t connectionId)
{
    m_closedConnectionIds.insert(connectionId);
    m_connections.erase(peer);
}

void
QuicCcDispatcher::Clear()
{
    m_connections.clear();
}

size_t
QuicCcDispatcher::GetConnectionCount() const
{
    return m_connections.size();
}

} // namespace ns3
