/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SERVER_APPLICATION_H
#define QUIC_CC_SERVER_APPLICATION_H

#include "quic-cc-socket-writer.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/socket.h"

#include <string>

namespace ns3
{

/**
 * \ingroup quic-cc
 * The common part of the study's server applications: at start, a socket of the given factory
 * listens on the local address; the first accepted connection goes to OnAccepted (a second one
 * is a fatal error: each workload has one connection); at stop, the listener closes and writes
 * still waiting for send-buffer space are dropped.
 */
class QuicCcServerApplication : public Application
{
  public:
    static TypeId GetTypeId();

    /// \param socketFactory e.g. "ns3::QuicCcSocketFactory"; \param local where to listen
    void SetLocal(const std::string& socketFactory, const Address& local);

  protected:
    void DoDispose() override;
    /// The connection is accepted: start the workload on \p socket.
    virtual void OnAccepted(Ptr<Socket> socket) = 0;
    /// \return the accepted socket (null before)
    Ptr<Socket> GetSocket() const;
    /// Write \p p to the accepted connection: at once, or as its send buffer frees
    /// (QuicCcSocketWriter).
    void WriteData(Ptr<Packet> p);
    void StopApplication() override; //!< closes the listener

  private:
    void StartApplication() override;
    void OnAccept(Ptr<Socket> socket, const Address& from);

    std::string m_factory;       //!< socket factory TypeId name
    Address m_local;             //!< listening address
    Ptr<Socket> m_listener;      //!< the listener
    Ptr<Socket> m_socket;        //!< the accepted connection
    QuicCcSocketWriter m_writer; //!< writes to m_socket, waiting for send-buffer space
};

} // namespace ns3

#endif // QUIC_CC_SERVER_APPLICATION_H
