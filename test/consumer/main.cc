/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Consumer of an installed quic-cc: a 2-node QUIC transfer through QuicCcHelper.
 *
 *   sender ---- 10 Mbps, 5 ms ---- receiver
 *   BulkSend (1 MB over ns3::QuicCcSocketFactory)      PacketSink
 *
 * Exit status 0 when every byte arrived, 1 otherwise.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/quic-cc-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char** argv)
{
    uint64_t bytes = 1000000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "Bytes to transfer", bytes);
    cmd.Parse(argc, argv);

    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    link.SetChannelAttribute("Delay", StringValue("5ms"));
    NetDeviceContainer devices = link.Install(nodes);

    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

    QuicCcHelper quic;
    quic.SetCongestionControl("ns3::QuicCubic");
    quic.Install(nodes);

    const uint16_t port = 4433;
    PacketSinkHelper sinkHelper("ns3::QuicCcSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sinkHelper.Install(nodes.Get(1));
    BulkSendHelper bulk("ns3::QuicCcSocketFactory",
                        InetSocketAddress(interfaces.GetAddress(1), port));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    ApplicationContainer bulkApp = bulk.Install(nodes.Get(0));
    sinkApp.Start(Seconds(0));
    bulkApp.Start(Seconds(0.1));

    Simulator::Stop(Seconds(30));
    Simulator::Run();
    const uint64_t received = DynamicCast<PacketSink>(sinkApp.Get(0))->GetTotalRx();
    Simulator::Destroy();

    std::cout << "quic-cc consumer: " << received << " of " << bytes << " bytes arrived"
              << std::endl;
    return received == bytes ? 0 : 1;
}
