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
     * Fix the random streams of every socket created from now on: socket k of this node gets
     * streams stream + 3k .. stream + 3k + 2 (see QuicCcSocket::AssignStreams).
     * \return the number of streams reserved (3 * MaxSocketsPerNode streams are reserved)
     */
    int64_t AssignStreams(int64_t stream);
    /// Sockets per node whose streams AssignStreams reserves.
    static constexpr int64_t kMaxSocketsPerNode = 1000;

    /// Sockets created so far (connections in creation order).
    const std::vector<Ptr<QuicCcSocket>>& GetSockets() const;

  protected:
    void DoDispose() override;

  private:
    void AddSocket(Ptr<QuicCcSocket> socket);

    ObjectFactory m_socketFactory;              //!< QuicCcSocket + attributes
    Ptr<QuicCongestionController> m_cc;         //!< controller prototype
    std::vector<Ptr<QuicCcSocket>> m_sockets;   //!< SocketList
    int64_t m_streamBase{-1};                   //!< first stream, -1 = automatic
    TracedCallback<Ptr<QuicCcSocket>> m_socketCreatedTrace; //!< SocketCreated
};

} // namespace ns3

#endif // QUIC_CC_SOCKET_FACTORY_H
