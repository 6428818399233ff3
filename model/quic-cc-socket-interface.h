/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SOCKET_INTERFACE_H
#define QUIC_CC_SOCKET_INTERFACE_H

#include "ns3/socket.h"

#include <ostream>

/**
 * \ingroup quic-cc
 * The ns3::Socket interface, declared once for the two socket classes that implement all of it
 * (QuicCcSocket and the ngtcp2 transport's QuicCcNgtcp2Socket): write QUICCC_SOCKET_OVERRIDES in
 * the public part of the class and define each function in its .cc.
 */
#define QUICCC_SOCKET_OVERRIDES                                                                    \
    Socket::SocketErrno GetErrno() const override;                                                 \
    Socket::SocketType GetSocketType() const override;                                             \
    Ptr<Node> GetNode() const override;                                                            \
    int Bind(const Address& address) override;                                                     \
    int Bind() override;                                                                           \
    int Bind6() override;                                                                          \
    int Close() override;                                                                          \
    int ShutdownSend() override;                                                                   \
    int ShutdownRecv() override;                                                                   \
    int Connect(const Address& address) override;                                                  \
    int Listen() override;                                                                         \
    uint32_t GetTxAvailable() const override;                                                      \
    int Send(Ptr<Packet> p, uint32_t flags) override;                                              \
    int SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress) override;                  \
    uint32_t GetRxAvailable() const override;                                                      \
    Ptr<Packet> Recv(uint32_t maxSize, uint32_t flags) override;                                   \
    Ptr<Packet> RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress) override;         \
    int GetSockName(Address& address) const override;                                              \
    int GetPeerName(Address& address) const override;                                              \
    bool SetAllowBroadcast(bool allowBroadcast) override;                                          \
    bool GetAllowBroadcast() const override

namespace ns3
{

/**
 * \ingroup quic-cc
 * What an ns-3 QUIC socket of this module is (QuicCcSocket, QuicCcNgtcp2Socket): not yet
 * connected or listening, the client end (Connect), a listener (Listen), or a connection the
 * listener accepted (the server end).
 */
enum class QuicCcSocketRole
{
    NONE,
    CLIENT,
    LISTENER,
    ACCEPTED,
};

/// The role's name, for logs (NONE, CLIENT, LISTENER, ACCEPTED).
inline std::ostream&
operator<<(std::ostream& os, QuicCcSocketRole role)
{
    static const char* const kNames[] = {"NONE", "CLIENT", "LISTENER", "ACCEPTED"};
    return os << kNames[static_cast<int>(role)];
}

} // namespace ns3

#endif // QUIC_CC_SOCKET_INTERFACE_H
