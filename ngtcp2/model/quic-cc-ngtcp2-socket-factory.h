/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_SOCKET_FACTORY_H
#define QUIC_CC_NGTCP2_SOCKET_FACTORY_H

#include "quic-cc-ngtcp2-socket.h"

#include "ns3/object-factory.h"
#include "ns3/socket-factory.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Creates QuicCcNgtcp2Socket: aggregate one to a node (Install) and give its TypeId name,
 * "ns3::QuicCcNgtcp2SocketFactory", to BulkSendHelper / PacketSinkHelper / OnOffHelper.
 */
class QuicCcNgtcp2SocketFactory : public SocketFactory
{
  public:
    /// SocketCreated trace signature.
    typedef void (*SocketCreatedCallback)(Ptr<QuicCcNgtcp2Socket> socket);

    static TypeId GetTypeId();
    QuicCcNgtcp2SocketFactory();

    /// A factory aggregated to \p node (fatal if the node already has one).
    static Ptr<QuicCcNgtcp2SocketFactory> Install(Ptr<Node> node);

    Ptr<Socket> CreateSocket() override;
    /// Attributes given to every socket (e.g. "CongestionControl"); unknown names are fatal.
    void SetSocketAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Fix the random streams: socket k of this node (creation order, accepted connections
     * included) uses stream \p stream + k. Returns the streams reserved (kMaxSockets).
     */
    int64_t AssignStreams(int64_t stream);
    /// Sockets per node AssignStreams reserves streams for (more is a fatal error).
    static constexpr int64_t kMaxSockets = 1000;
    const std::vector<Ptr<QuicCcNgtcp2Socket>>& GetSockets() const; //!< creation order

  protected:
    void DoDispose() override;

  private:
    void AddSocket(Ptr<QuicCcNgtcp2Socket> socket);
    void AddChild(Ptr<QuicCcSocketBase> socket); //!< an accepted connection

    ObjectFactory m_socketFactory;
    std::vector<Ptr<QuicCcNgtcp2Socket>> m_sockets;
    int64_t m_streamBase{-1};
    TracedCallback<Ptr<QuicCcNgtcp2Socket>> m_socketCreatedTrace;
};

} // namespace ns3

#endif // QUIC_CC_NGTCP2_SOCKET_FACTORY_H
