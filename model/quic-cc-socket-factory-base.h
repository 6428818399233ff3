/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SOCKET_FACTORY_BASE_H
#define QUIC_CC_SOCKET_FACTORY_BASE_H

#include "quic-cc-socket-base.h"

#include "ns3/object-factory.h"
#include "ns3/socket-factory.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc-transport
 * \brief The socket factory of both QUIC transports, written once: it creates the engine's
 * sockets (QuicCcSocket or QuicCcNgtcp2Socket, both a QuicCcSocketBase) with the attributes
 * given to every socket, keeps every socket of its node (SocketList, accepted connections
 * included, in creation order), announces each on SocketCreated the moment it exists, fixes
 * their random streams (AssignStreams, one policy for both), and writes their qlog files
 * (EnableQlog, the one thing each engine does its own way).
 *
 * QuicCcHelper aggregates one to each node it installs; stock applications reach it by the
 * engine's TypeId name (BulkSendHelper("ns3::QuicCcSocketFactory", ...)). Trace sources of
 * socket k: /NodeList/\<n\>/$\<factory TypeId\>/SocketList/\<k\>/\<TraceSource\>.
 */
class QuicCcSocketFactoryBase : public SocketFactory
{
  public:
    /// SocketCreated trace signature.
    typedef void (*SocketCreatedCallback)(Ptr<QuicCcSocketBase> socket);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// A new socket of the engine on this node, configured with the socket attributes.
    Ptr<Socket> CreateSocket() final;

    /// An attribute given to every socket (e.g. "MaxDatagramSize"); an unknown name is fatal.
    void SetSocketAttribute(const std::string& name, const AttributeValue& value);

    /// The TypeId of the sockets this factory creates (the engine's).
    TypeId GetSocketTypeId() const;

    /**
     * Write one qlog file per connection of the sockets created from now on into
     * \p directory, which exists (QuicCcHelper::EnableQlog creates it). quic-cc attaches a
     * QuicCcQlogWriter to the socket's traces; ngtcp2 writes the library's own qlog.
     */
    virtual void EnableQlog(const std::string& directory) = 0;

    /**
     * Fix the random streams of every socket created from now on, for any number of sockets:
     * socket k of this node (creation order, accepted connections included) gets S streams
     * from SocketStream(k) on, S = GetStreamsPerSocket() (the engine's):
     *  - k < kBlockSockets: stream + S k, inside the block this call reserves;
     *  - k >= kBlockSockets: kExtensionBase + S ((k - kBlockSockets) 2^kNodeIdBits + node id),
     *    a range above every block, keyed by node id, that no two nodes share.
     * Both depend only on the node id and the creation order, so a run is deterministic.
     * Limits, checked here (scenario set-up; fatal error naming them): \p stream + the block
     * must end at or below kExtensionBase, and the node id must be below 2^kNodeIdBits.
     * \return the number of streams reserved: S x kBlockSockets
     */
    int64_t AssignStreams(int64_t stream);
    /// Sockets per node whose streams lie in the block AssignStreams reserves.
    static constexpr int64_t kBlockSockets = 1000;
    /// First stream of the range used by sockets beyond kBlockSockets (2^62; ns-3 accepts
    /// stream numbers below 2^63).
    static constexpr int64_t kExtensionBase = int64_t{1} << 62;
    /// Node ids below 2^kNodeIdBits have an extension range.
    static constexpr int kNodeIdBits = 24;
    /// First stream of socket \p k of this node; needs AssignStreams.
    int64_t SocketStream(uint64_t k) const;
    /// Random streams each socket of this engine uses (its AssignStreams).
    int64_t GetStreamsPerSocket() const;

    /// Sockets created so far (connections in creation order).
    const std::vector<Ptr<QuicCcSocketBase>>& GetSockets() const;

  protected:
    /// \p socketTypeId: the engine's socket; \p streamsPerSocket: the random streams each uses.
    QuicCcSocketFactoryBase(TypeId socketTypeId, int64_t streamsPerSocket);

    /// Called with every socket the factory creates (not accepted ones), before it is announced.
    virtual void ConfigureSocket(Ptr<QuicCcSocketBase> socket);

    void DoDispose() override; //!< disposes every socket of SocketList (breaks the Ptr cycles)

  private:
    void AddSocket(Ptr<QuicCcSocketBase> socket); //!< SocketList, streams, SocketCreated

    ObjectFactory m_socketFactory;                              //!< engine socket + attributes
    int64_t m_streamsPerSocket;                                 //!< the engine's streams
    std::vector<Ptr<QuicCcSocketBase>> m_sockets;               //!< SocketList
    int64_t m_streamBase{-1};                                   //!< first stream, -1 = automatic
    uint32_t m_nodeId{0};                                       //!< node id (set by AssignStreams)
    TracedCallback<Ptr<QuicCcSocketBase>> m_socketCreatedTrace; //!< SocketCreated
};

} // namespace ns3

#endif // QUIC_CC_SOCKET_FACTORY_BASE_H
