/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DUMBBELL_TOPOLOGY_H
#define QUIC_CC_DUMBBELL_TOPOLOGY_H

#include "quic-cc-dumbbell-params.h"

#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node-container.h"
#include "ns3/queue-disc.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * The nodes of a dumbbell (QuicCcBuildDumbbell) and the devices of its bottleneck.
 */
struct QuicCcDumbbellTopology
{
    NodeContainer senders;                    //!< left leaves, sender i of flow i
    NodeContainer receivers;                  //!< right leaves, receiver i of flow i
    NodeContainer all;                        //!< left, right router, sender 0, receiver 0, ...
    std::vector<Ipv4Address> receiverAddress; //!< receiver i's address
    std::vector<Ipv4Address> senderAddress;   //!< sender i's address
    Ptr<NetDevice> forwardTx; //!< left router's bottleneck device (data direction, sends)
    Ptr<NetDevice> forwardRx; //!< right router's bottleneck device (data direction, receives)
    Ptr<QueueDisc> queueDisc; //!< the bottleneck's queue disc (data direction), null if none
};

/**
 * Build the dumbbell of \p params (the drawing at QuicCcDumbbellParams) for \p accessDelays.size()
 * flows, flow i's access links with one-way delay accessDelays[i]: nodes in the order routers,
 * senders, receivers; the bottleneck link first, then each sender's and each receiver's access
 * link (drop-tail, QuicCcInstallDropTailLink; the access queues hold 100 packets); Internet
 * stacks; addresses 10.3.0.0/24 on the bottleneck, 10.1.i.0/24 and 10.2.i.0/24 on the access
 * links (QuicCcAssignWithoutQueueDisc) and global routes. The bottleneck buffer is the device
 * queue of params.queueSize, or params.queueDisc (its TypeId's defaults, then
 * params.queueDiscAttributes) in front of a 1-packet device queue.
 */
QuicCcDumbbellTopology QuicCcBuildDumbbell(const QuicCcDumbbellParams& params,
                                           const std::vector<Time>& accessDelays);

} // namespace ns3

#endif // QUIC_CC_DUMBBELL_TOPOLOGY_H
