/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_CLIENT_APPLICATION_H
#define QUIC_CC_CLIENT_APPLICATION_H

#include "quic-cc-socket-writer.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/socket.h"

#include <string>

namespace ns3
{

/**
 * \ingroup quic-cc
 * The common part of the study's client applications: at start, a socket of the given factory
 * connects to the peer; OnEstablished runs once the connection succeeds; at stop, the pending
 * event (m_next) is cancelled, writes still waiting for send-buffer space are dropped and the
 * socket closed. A connection that fails is logged.
 */
class QuicCcClientApplication : public Application
{
  public:
    static TypeId GetTypeId();

    /// \param socketFactory e.g. "ns3::QuicCcSocketFactory"; \param peer the server
    void SetPeer(const std::string& socketFactory, const Address& peer);

  protected:
    void DoDispose() override;
    /// The connection is established: start the workload.
    virtual void OnEstablished() = 0;
    /// \return the connected socket
    Ptr<Socket> GetSocket() const;
    /// Write \p p to the connection: at once, or as its send buffer frees (QuicCcSocketWriter).
    void WriteData(Ptr<Packet> p);

    EventId m_next; //!< the workload's next event (cancelled at stop)

  private:
    void StartApplication() override;
    void StopApplication() override;
    void OnConnected(Ptr<Socket> socket);
    void OnConnectFailed(Ptr<Socket> socket);

    std::string m_factory;       //!< socket factory TypeId name
    Address m_peer;              //!< the server
    Ptr<Socket> m_socket;        //!< the connection
    QuicCcSocketWriter m_writer; //!< writes to m_socket, waiting for send-buffer space
};

} // namespace ns3

#endif // QUIC_CC_CLIENT_APPLICATION_H
