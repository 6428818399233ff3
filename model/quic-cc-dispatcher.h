/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DISPATCHER_H
#define QUIC_CC_DISPATCHER_H

#include "ns3/address.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace ns3
{

class QuicCcSocketBase;

/**
 * \ingroup quic-cc
 * Whether a listener opens a connection for the first datagram from a new address: the
 * transport engine's verdict on the datagram (QuicCcSocketBase::Admit).
 */
struct QuicCcAdmission
{
    bool admit{false};                    //!< a well-formed first packet of a connection
    std::optional<uint64_t> connectionId; //!< its connection ID, where the engine has one
    std::string dropReason;               //!< not admitted: why
};

/**
 * \ingroup quic-cc
 * \brief A listener's connection table, for both transports: routes each datagram arriving on
 * the listener's UDP socket to the connection of its sender, decides whether a datagram from a
 * new sender may open a connection, and remembers the connection IDs of connections that ended
 * so that late first packets do not reopen them (RFC 9000 Section 10.2).
 *
 * Connections are found by the peer's address (no connection migration: the address identifies
 * the connection; the connection ID is checked by the connection itself). Whether a datagram
 * can open a connection is the engine's call (a QuicCcAdmission), asked only for new senders.
 */
class QuicCcDispatcher
{
  public:
    /// Where a datagram goes.
    struct Route
    {
        Ptr<QuicCcSocketBase> connection;     //!< an existing connection, or null
        bool open{false};                     //!< no connection yet: open one
        std::optional<uint64_t> connectionId; //!< the opening packet's connection ID (open)
        std::string dropReason;               //!< neither: why the datagram is dropped
    };

    QuicCcDispatcher();
    ~QuicCcDispatcher();

    /**
     * Route a datagram from \p from.
     * \param accepting  false once the listener is closed: new connections are refused
     * \param admit  the engine's verdict on the datagram, called only for a new sender
     */
    Route Dispatch(const Address& from,
                   bool accepting,
                   const std::function<QuicCcAdmission()>& admit) const;
    /// A connection was opened for \p peer.
    void Add(const Address& peer, Ptr<QuicCcSocketBase> connection);
    /// The connection of \p peer ended: forget it, remember its ID (if it has one).
    void OnClosed(const Address& peer, std::optional<uint64_t> connectionId);
    /// Forget every connection (dispose).
    void Clear();
    /// Connections open now.
    size_t GetConnectionCount() const;

  private:
    std::map<Address, Ptr<QuicCcSocketBase>> m_connections; //!< by peer address
    std::set<uint64_t> m_closedConnectionIds;               //!< connections that ended
};

} // namespace ns3

#endif // QUIC_CC_DISPATCHER_H
