/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_BULK_TRANSFER_H
#define QUIC_CC_BULK_TRANSFER_H

#include "ns3/application.h"
#include "ns3/bulk-send-application.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>

namespace ns3
{

/// \ingroup quic-cc
/// The two applications of one bulk download.
struct QuicCcBulkTransfer
{
    Ptr<Application> sink;           //!< PacketSink on the receiver
    Ptr<BulkSendApplication> source; //!< BulkSend on the sender
};

/**
 * \ingroup quic-cc
 * A download of \p bytes from \p sender to \p receiver (reached at \p receiverAddress, port
 * 4433) over \p socketFactory ("ns3::QuicCcSocketFactory" or "ns3::TcpSocketFactory"): a
 * PacketSink on the receiver, installed first, and a BulkSend (writes of kQuicCcBulkWriteBytes,
 * quic-cc-send-buffer.h) on the sender, both started at t = 0.
 */
QuicCcBulkTransfer QuicCcInstallBulkTransfer(const std::string& socketFactory,
                                             Ptr<Node> sender,
                                             Ptr<Node> receiver,
                                             Ipv4Address receiverAddress,
                                             uint64_t bytes);

} // namespace ns3

#endif // QUIC_CC_BULK_TRANSFER_H
