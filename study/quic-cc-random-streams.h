/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_RANDOM_STREAMS_H
#define QUIC_CC_RANDOM_STREAMS_H

#include "ns3/node-container.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc
 * The random streams a study keeps free for the Internet stack of \p nodes before the streams of
 * its transport: 5 per node, what InternetStackHelper::AssignStreams took on ns-3.37 (IPv4
 * global routing, the IPv6 fragment and routing extensions, ARP, ICMPv6).
 *
 * ns-3.48's stack takes 10 per node (IPv6 global routing besides). A study therefore assigns the
 * stack's streams after every other (InternetStackHelper::AssignStreams with the last free
 * stream) and skips this block in their place, so the transport's streams (ngtcp2's rand
 * callback: packet numbers skipped, connection IDs; QuicCcSocket's host jitter) are the same on
 * every ns-3 release, and the same as the results measured on 3.37 before.
 */
inline int64_t
QuicCcInternetStreamBlock(const NodeContainer& nodes)
{
    return 5 * static_cast<int64_t>(nodes.GetN());
}

} // namespace ns3

#endif // QUIC_CC_RANDOM_STREAMS_H
