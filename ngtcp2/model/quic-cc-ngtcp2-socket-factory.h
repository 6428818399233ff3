/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_SOCKET_FACTORY_H
#define QUIC_CC_NGTCP2_SOCKET_FACTORY_H

#include "quic-cc-ngtcp2-socket.h"

#include "ns3/quic-cc-socket-factory-base.h"

namespace ns3
{

/**
 * \ingroup quic-cc-ngtcp2
 * Creates QuicCcNgtcp2Socket (the ngtcp2 transport) on a node: QuicCcHelper::SetTransport
 * ("ns3::QuicCcNgtcp2SocketFactory") + Install aggregate one, and applications get its TypeId
 * name (BulkSendHelper / PacketSinkHelper / OnOffHelper). Its SocketList, SocketCreated and
 * AssignStreams (one random stream per socket) are the shell factory's (QuicCcSocketFactoryBase).
 */
class QuicCcNgtcp2SocketFactory : public QuicCcSocketFactoryBase
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    QuicCcNgtcp2SocketFactory();

    /// A factory aggregated to \p node (fatal if the node already has one).
    static Ptr<QuicCcNgtcp2SocketFactory> Install(Ptr<Node> node);

    /// The library's own qlog, one file per connection (QuicCcNgtcp2Socket::QlogDirectory).
    void EnableQlog(const std::string& directory) override;
};

} // namespace ns3

#endif // QUIC_CC_NGTCP2_SOCKET_FACTORY_H
