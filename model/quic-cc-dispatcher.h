/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DISPATCHER_H
#define QUIC_CC_DISPATCHER_H

#include "ns3/address.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace ns3
{

class QuicCcSocket;

/**
 * \ingroup quic-cc
 * \brief A listener's connection table: routes each datagram arriving on the listener's UDP
 * socket to the connection of its sender, decides whether a datagram from a new sender may
 * open a connection, and remembers the connection IDs of connections that ended so that late
 * INITIALs do not reopen them (RFC 9000 Section 10.2).
 *
 * Connections are found by the peer's address (quic-cc has no connection migration, so the
 * address identifies the connection; the connection ID is checked by the connection itself).
 * Only a well-formed INITIAL opens a connection. The listener creates the connection
 * (QuicCcSocket) with a copy of its configuration (QuicCcConnection::Config::CloneForConnection).
 */
class QuicCcDispatcher
{
  public:
    /// Where a datagram goes.
    struct Route
    {
        Ptr<QuicCcSocket> connection; //!< an existing connection, or null
        bool open{false};             //!< no connection yet: open one with connectionId
        uint64_t connectionId{0};     //!< the INITIAL's connection ID (open only)
        std::string dropReason;       //!< neither: why the datagram is dropped
    };

    QuicCcDispatcher();
    ~QuicCcDispatcher();

    /**
     * Route a datagram from \p from.
     * \param accepting  false once the listener is closed: new connections are refused
     * \param source  null, or the ns-3 packet that holds \p bytes (as for QuicCcParse)
     */
    Route Dispatch(const uint8_t* bytes,
                   size_t size,
                   const Address& from,
                   bool accepting,
                   Ptr<const Packet> source = nullptr) const;
    /// A connection was opened for \p peer.
    void Add(const Address& peer, Ptr<QuicCcSocket> connection);
    /// The connection of \p peer ended: forget it, remember its ID.
    void OnClosed(const Address& peer, uint64_t connectionId);
    /// Forget every connection (dispose).
    void Clear();
    /// Connections open now.
    size_t GetConnectionCount() const;

  private:
    std::map<Address, Ptr<QuicCcSocket>> m_connections; //!< by peer address
    std::set<uint64_t> m_closedConnectionIds;           //!< connections that ended
};

} // namespace ns3

#endif // QUIC_CC_DISPATCHER_H
