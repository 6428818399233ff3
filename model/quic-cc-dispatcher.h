/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DISPATCHER_H
#define QUIC_CC_DISPATCHER_H

#include "ns3/address.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace ns3
{

class QuicCcSocketBase;

/**
 * \ingroup quic-cc-transport
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
 * \ingroup quic-cc-transport
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
    /// Where the first datagram of a new sender goes.
    struct Route
    {
        bool open{false};                     //!< open a connection
        std::optional<uint64_t> connectionId; //!< the opening packet's connection ID (open)
        std::string dropReason;               //!< not opened: why the datagram is dropped
    };

    QuicCcDispatcher();
    ~QuicCcDispatcher();

    /// The connection of \p from, or null (a new sender).
    Ptr<QuicCcSocketBase> Find(const Address& from) const;
    /**
     * Where the first datagram of a new sender goes.
     * \param accepting  false once the listener is closed: new connections are refused
     * \param admission  the engine's verdict on the datagram
     */
    Route Admit(bool accepting, const QuicCcAdmission& admission) const;
    /// A connection was opened for \p peer.
    void Add(const Address& peer, Ptr<QuicCcSocketBase> connection);
    /// The connection of \p peer ended: forget it, remember its ID (if it has one).
    void OnClosed(const Address& peer, std::optional<uint64_t> connectionId);
    /// Forget every connection (dispose).
    void Clear();
    /// Connections open now.
    size_t GetConnectionCount() const;

  private:
    QuicCcDispatcher(const QuicCcDispatcher&) = delete; //!< m_last points into this object
    QuicCcDispatcher& operator=(const QuicCcDispatcher&) = delete;

    std::map<Address, Ptr<QuicCcSocketBase>> m_connections; //!< by peer address
    /// The connection Find() returned last (m_connections.end(): none)
    mutable std::map<Address, Ptr<QuicCcSocketBase>>::const_iterator m_last;
    std::set<uint64_t> m_closedConnectionIds; //!< connections that ended
};

} // namespace ns3

#endif // QUIC_CC_DISPATCHER_H
