/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_FIRST_SOCKET_H
#define QUIC_CC_FIRST_SOCKET_H

#include "ns3/callback.h"
#include "ns3/node.h"
#include "ns3/ptr.h"
#include "ns3/quic-cc-socket-base.h"

namespace ns3
{

/**
 * \ingroup quic-cc
 * Keeps the first socket that a node's QUIC socket factory creates (either transport's:
 * QuicCcSocketFactoryBase's "SocketCreated" trace) — on a sender node, the sending application's
 * socket — and hands it once to a callback, which can connect the socket's trace sources before its
 * first packet. The object must outlive Simulator::Run.
 */
class QuicCcFirstSocket
{
  public:
    /// Watch \p node (fatal error if it has no QUIC socket factory); \p onFirst may be null.
    void Watch(Ptr<Node> node, Callback<void, Ptr<QuicCcSocketBase>> onFirst);
    /// \return the first socket, or null before one was created
    Ptr<QuicCcSocketBase> Get() const;

  private:
    /// "SocketCreated" trace sink
    void OnCreated(Ptr<QuicCcSocketBase> socket);

    Ptr<QuicCcSocketBase> m_socket;                  //!< the first socket
    Callback<void, Ptr<QuicCcSocketBase>> m_onFirst; //!< called once with it
};

} // namespace ns3

#endif // QUIC_CC_FIRST_SOCKET_H
