/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SOCKET_FACTORY_H
#define QUIC_CC_SOCKET_FACTORY_H

#include "quic-cc-socket-factory-base.h"
#include "quic-cc-socket.h"

namespace ns3
{

/**
 * \ingroup quic-cc-transport
 * \brief Creates QuicCcSockets (the model transport) on a node; aggregated to the node by
 * QuicCcHelper::Install. Stock applications reach it by TypeId:
 * BulkSendHelper("ns3::QuicCcSocketFactory", ...), PacketSinkHelper("ns3::QuicCcSocketFactory",
 * ...). Its SocketList, SocketCreated and AssignStreams are the shell factory's
 * (QuicCcSocketFactoryBase); trace sources of socket k are at
 * /NodeList/\<n\>/$ns3::QuicCcSocketFactory/SocketList/\<k\>/\<TraceSource\>.
 */
class QuicCcSocketFactory : public QuicCcSocketFactoryBase
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    QuicCcSocketFactory();

    /// Controller prototype every socket forks (null: the socket's CongestionControl TypeId).
    void SetCongestionController(Ptr<QuicCongestionController> cc);
    /// One QuicCcQlogWriter per connection into \p directory (opened when it starts).
    void EnableQlog(const std::string& directory) override;

    /// Random streams per socket (QuicCcSocket::AssignStreams).
    static constexpr int64_t kStreamsPerSocket = 3;

  protected:
    /// Gives the socket the controller prototype (a fork per connection).
    void ConfigureSocket(Ptr<QuicCcSocketBase> socket) override;
    void DoDispose() override; //!< drops the prototype and the qlog directory

  private:
    Ptr<QuicCongestionController> m_cc; //!< controller prototype
};

} // namespace ns3

#endif // QUIC_CC_SOCKET_FACTORY_H
