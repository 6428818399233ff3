/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-bulk-transfer.h"

#include "quic-cc-send-buffer.h"

#include "ns3/applications-module.h"
#include "ns3/inet-socket-address.h"
#include "ns3/uinteger.h"

namespace ns3
{

QuicCcBulkTransfer
QuicCcInstallBulkTransfer(const std::string& socketFactory,
                          Ptr<Node> sender,
                          Ptr<Node> receiver,
                          Ipv4Address receiverAddress,
                          uint64_t bytes)
{
    const uint16_t port = 4433;
    PacketSinkHelper sink(socketFactory, InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sink.Install(receiver);
    sinkApp.Start(Seconds(0));

    BulkSendHelper bulk(socketFactory, InetSocketAddress(receiverAddress, port));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    bulk.SetAttribute("SendSize", UintegerValue(kQuicCcBulkWriteBytes));
    ApplicationContainer bulkApp = bulk.Install(sender);
    bulkApp.Start(Seconds(0));
    return {sinkApp.Get(0), DynamicCast<BulkSendApplication>(bulkApp.Get(0))};
}

} // namespace ns3
