/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_PATH_MTU_H
#define QUIC_CC_PATH_MTU_H

#include "ns3/address.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc-transport
 * IP datagram size of a UDP payload of \p udpPayload bytes sent to \p peer: payload + 8 (UDP
 * header) + 20 (IPv4 header without options) or 40 (IPv6 header without extension headers).
 * \p peer is an InetSocketAddress or Inet6SocketAddress (fatal error otherwise).
 */
uint64_t QuicCcIpDatagramSize(uint64_t udpPayload, const Address& peer);

/**
 * \ingroup quic-cc-transport
 * MTU, bytes, of the device \p node's routing protocol would send a datagram to \p peer through
 * (the route lookup ns-3's TcpSocketBase makes at connect time: RouteOutput without a packet,
 * any output interface); 0 if the node has no IP stack for the address family or no route.
 */
uint32_t QuicCcOutgoingMtu(Ptr<Node> node, const Address& peer);

/**
 * \ingroup quic-cc-transport
 * RFC 9000 Section 14: "UDP datagrams MUST NOT be fragmented at the IP layer". True when the IP
 * datagram carrying \p udpPayload bytes to \p peer exceeds the MTU of \p node's outgoing device
 * (ns-3's Ipv4L3Protocol::SendRealOut would fragment it whatever the DF flag says); each such
 * datagram is logged as a warning (log component QuicCcPathMtu) naming both sizes. False when
 * the MTU is unknown (no route: the UDP socket reports that itself).
 */
bool QuicCcExceedsPathMtu(Ptr<Node> node, const Address& peer, uint64_t udpPayload);

} // namespace ns3

#endif // QUIC_CC_PATH_MTU_H
