/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SOCKET_FACTORY_H
#define QUIC_CC_SOCKET_FACTORY_H

#include "quic-cc-socket.h"

#include "ns3/object-factory.h"
#include "ns3/socket-factory.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * \brief Creates QuicCcSockets on a node; aggregated to the node by QuicCcHelper::Install.
 *
 * Stock applications reach it by TypeId: BulkSendHelper("ns3::QuicCcSocketFactory", ...),
 * PacketSinkHelper("ns3::QuicCcSocketFactory", ...). Every socket it creates, and every server
 * socket a listener accepts, is kept in SocketList, so trace sources are reachable at
 * /NodeList/<n>/$ns3::QuicCcSocketFactory/SocketList/<k>/<TraceSource>, and announced on the
 * SocketCreated trace source the moment it exists.
 */
class QuicCcSocketFactory : public SocketFactory
{
  public:
    /// SocketCreated trace signature.
    typedef void (*SocketCreatedCallback)(Ptr<QuicCcSocket> socket);

    static TypeId GetTypeId();
    QuicCcSocketFactory();

    /// A new QuicCcSocket on this node, configured with the socket attributes and controller.
    Ptr<Socket> CreateSocket() override;

    /// Attributes given to every socket (e.g. "MaxDatagramSize"); unknown names are fatal.
    void SetSocketAttribute(const std::string& name, const AttributeValue& value);
    /// Controller prototype every socket forks (null: the socket's CongestionControl TypeId).
    void SetCongestionController(Ptr<QuicCongestionController> cc);
    /**
     * Fix the random streams of every socket created from now on, for any number of sockets:
     * socket k of this node (creation order, accepted connections included) gets the three
     * streams SocketStream(k) .. SocketStream(k) + 2 (see QuicCcSocket::AssignStreams).
     *  - k < kBlockSockets: stream + 3k, inside the block this call reserves;
     *  - k >= kBlockSockets: kExtensionBase + 3 * ((k - kBlockSockets) * 2^kNodeIdBits + node
     *    id), a range above every block, keyed by node id, that no two nodes share.
     * Both depend only on the node id and the creation order, so a run is deterministic.
     * Limits, checked here (scenario set-up; fatal error naming them): \p stream + the block
     * must end at or below kExtensionBase, and the node id must be below 2^kNodeIdBits.
     * \return the number of streams reserved: 3 * kBlockSockets
     */
    int64_t AssignStreams(int64_t stream);
    /// Random streams per socket (QuicCcSocket::AssignStreams).
    static constexpr int64_t kStreamsPerSocket = 3;
    /// Sockets per node whose streams lie in the block AssignStreams reserves.
    static constexpr int64_t kBlockSockets = 1000;
    /// First stream of the range used by sockets beyond kBlockSockets (2^62; ns-3 accepts
    /// stream numbers below 2^63).
    static constexpr int64_t kExtensionBase = int64_t{1} << 62;
    /// Node ids below 2^kNodeIdBits have an extension range.
    static constexpr int kNodeIdBits = 24;
    /// Stream of socket \p k of this node (its first of kStreamsPerSocket); needs AssignStreams.
    int64_t SocketStream(uint64_t k) const;

    /// Sockets created so far (connections in creation order).
    const std::vector<Ptr<QuicCcSocket>>& GetSockets() const;

  protected:
    void DoDispose() override;

  private:
    void AddSocket(Ptr<QuicCcSocket> socket);
    void AddChild(Ptr<QuicCcSocketBase> socket); //!< an accepted connection

    ObjectFactory m_socketFactory;                          //!< QuicCcSocket + attributes
    Ptr<QuicCongestionController> m_cc;                     //!< controller prototype
    std::vector<Ptr<QuicCcSocket>> m_sockets;               //!< SocketList
    int64_t m_streamBase{-1};                               //!< first stream, -1 = automatic
    uint32_t m_nodeId{0};                                   //!< node id (set by AssignStreams)
    TracedCallback<Ptr<QuicCcSocket>> m_socketCreatedTrace; //!< SocketCreated
};

} // namespace ns3

#endif // QUIC_CC_SOCKET_FACTORY_H
