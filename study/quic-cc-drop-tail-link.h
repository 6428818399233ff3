/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DROP_TAIL_LINK_H
#define QUIC_CC_DROP_TAIL_LINK_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/queue-size.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc
 * One point-to-point link between \p a and \p b (ns-3 PointToPointHelper): \p rate, one-way
 * \p delay, and a drop-tail device queue of \p queuePackets packets on each device. Returns the
 * two devices (a's first).
 */
NetDeviceContainer QuicCcInstallDropTailLink(Ptr<Node> a,
                                             Ptr<Node> b,
                                             DataRate rate,
                                             Time delay,
                                             uint32_t queuePackets);

/// QuicCcInstallDropTailLink with a device queue of \p queue (packets or bytes) on each device.
NetDeviceContainer QuicCcInstallDropTailLink(Ptr<Node> a,
                                             Ptr<Node> b,
                                             DataRate rate,
                                             Time delay,
                                             QueueSize queue);

/**
 * \ingroup quic-cc
 * Assign IPv4 addresses to \p devices from \p ipv4 (Ipv4AddressHelper::Assign), then remove the
 * root queue disc that Assign installs (ns-3's default FqCoDel, TrafficControlHelper::Uninstall),
 * so that the device's drop-tail queue is the only buffer. The nodes need an Internet stack.
 */
Ipv4InterfaceContainer QuicCcAssignWithoutQueueDisc(Ipv4AddressHelper& ipv4,
                                                    const NetDeviceContainer& devices);

} // namespace ns3

#endif // QUIC_CC_DROP_TAIL_LINK_H
