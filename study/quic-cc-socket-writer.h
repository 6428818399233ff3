/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SOCKET_WRITER_H
#define QUIC_CC_SOCKET_WRITER_H

#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"

#include <cstdint>
#include <deque>

namespace ns3
{

/**
 * \ingroup quic-cc
 * An application's writes to one connected socket that wait for send-buffer space, as a real
 * application blocks on a full buffer (and as BulkSendApplication waits for its send callback).
 *
 * Write(p) hands \p p to the socket in one Send when nothing is waiting and the free send buffer
 * (GetTxAvailable) holds it: then it is exactly the Send the application would make itself.
 * Otherwise the data waits, in order, behind what already waits, and goes out in pieces as the
 * buffer frees (the socket's send callback): as much as fits at a time, never reordered. A Send
 * the socket refuses although its free buffer holds the data is a fatal error (a socket that
 * reports space it does not take is a defect).
 */
class QuicCcSocketWriter
{
  public:
    QuicCcSocketWriter() = default;
    /// Clears the send callback it set on the socket.
    ~QuicCcSocketWriter();
    QuicCcSocketWriter(const QuicCcSocketWriter&) = delete;
    QuicCcSocketWriter& operator=(const QuicCcSocketWriter&) = delete;

    /// Write \p p to \p socket (the same socket on every call) at once or as space frees.
    void Write(Ptr<Socket> socket, Ptr<Packet> p);

    /// \return bytes given to Write and not yet handed to the socket
    uint64_t GetWaitingBytes() const;

    /// Drop what waits and clear the send callback (the application stops or is disposed).
    void Stop();

  private:
    /// Hand waiting data to the socket while its send buffer has room.
    void Drain();
    /// The socket's send callback: room in its send buffer.
    void OnSendSpace(Ptr<Socket> socket, uint32_t available);
    /// One Send of \p p, which the free send buffer holds.
    void Send(Ptr<Packet> p);

    Ptr<Socket> m_socket;              //!< the socket written to
    std::deque<Ptr<Packet>> m_waiting; //!< data not yet handed to it, in order
    uint64_t m_waitingBytes{0};        //!< bytes in m_waiting
    bool m_callbackSet{false};         //!< the send callback is ours
    bool m_draining{false};            //!< inside Drain (a send callback from within a Send)
};

} // namespace ns3

#endif // QUIC_CC_SOCKET_WRITER_H
