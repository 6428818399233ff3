/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-path-mtu.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-route.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/packet.h"
#include "ns3/socket.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcPathMtu");

namespace
{
constexpr uint64_t kUdpHeader = 8;   //!< bytes (RFC 768)
constexpr uint64_t kIpv4Header = 20; //!< bytes, no options (RFC 791)
constexpr uint64_t kIpv6Header = 40; //!< bytes, no extension headers (RFC 8200)

/// MTU of the route's output device, 0 without a route.
template <typename Route>
uint32_t
DeviceMtu(Ptr<Route> route)
{
    return route && route->GetOutputDevice() ? route->GetOutputDevice()->GetMtu() : 0;
}
} // namespace

uint64_t
QuicCcIpDatagramSize(uint64_t udpPayload, const Address& peer)
{
    if (InetSocketAddress::IsMatchingType(peer))
    {
        return udpPayload + kUdpHeader + kIpv4Header;
    }
    NS_ABORT_MSG_UNLESS(Inet6SocketAddress::IsMatchingType(peer),
                        "QuicCcIpDatagramSize: peer " << peer << " is not an IPv4/IPv6 address");
    return udpPayload + kUdpHeader + kIpv6Header;
}

uint32_t
QuicCcOutgoingMtu(Ptr<Node> node, const Address& peer)
{
    Socket::SocketErrno err = Socket::ERROR_NOTERROR;
    if (InetSocketAddress::IsMatchingType(peer))
    {
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        if (!ipv4 || !ipv4->GetRoutingProtocol())
        {
            return 0;
        }
        Ipv4Header header;
        header.SetDestination(InetSocketAddress::ConvertFrom(peer).GetIpv4());
        return DeviceMtu(ipv4->GetRoutingProtocol()->RouteOutput(nullptr, header, nullptr, err));
    }
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    if (!Inet6SocketAddress::IsMatchingType(peer) || !ipv6 || !ipv6->GetRoutingProtocol())
    {
        return 0;
    }
    Ipv6Header header;
    header.SetDestination(Inet6SocketAddress::ConvertFrom(peer).GetIpv6());
    return DeviceMtu(ipv6->GetRoutingProtocol()->RouteOutput(nullptr, header, nullptr, err));
}

bool
QuicCcExceedsPathMtu(Ptr<Node> node, const Address& peer, uint64_t udpPayload)
{
    const uint64_t ipSize = QuicCcIpDatagramSize(udpPayload, peer);
    // Per datagram: fits every device of the node (the common case) -> no route lookup.
    const uint32_t devices = node->GetNDevices();
    bool fitsEveryDevice = devices > 0;
    for (uint32_t i = 0; i < devices && fitsEveryDevice; ++i)
    {
        fitsEveryDevice = ipSize <= node->GetDevice(i)->GetMtu();
    }
    if (fitsEveryDevice)
    {
        return false;
    }
    const uint32_t mtu = QuicCcOutgoingMtu(node, peer);
    if (mtu == 0 || ipSize <= mtu)
    {
        return false;
    }
    NS_LOG_WARN("node " << node->GetId() << ": " << ipSize << "-byte IP datagram (" << udpPayload
                        << "-byte UDP payload) exceeds the outgoing MTU of " << mtu
                        << " bytes; dropped, not fragmented (RFC 9000 Section 14)");
    return true;
}

} // namespace ns3
