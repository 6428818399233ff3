/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A user's own ns-3 script on an installed quic-cc (README.md, "Using it in your own ns-3
 * script"): only ns-3's modules and "ns3/quic-cc-module.h". One QUIC CUBIC bulk transfer over a
 * 10 Mbps, 5 ms link, its congestion window traced with an ns-3 TCP cwnd tracer.
 *
 *   my-simulation [--maxBytes=2000000] [--cwndFile=my-simulation.cwnd]
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/quic-cc-module.h"

#include <fstream>
#include <iostream>

using namespace ns3;

// An ns-3 TCP cwnd tracer (as in the tutorial's sixth.cc), used unchanged for QUIC.
static void
CwndChange(std::ofstream* out, uint32_t oldCwnd, uint32_t newCwnd)
{
    *out << Simulator::Now().GetSeconds() << "\t" << oldCwnd << "\t" << newCwnd << "\n";
}

int
main(int argc, char* argv[])
{
    uint64_t maxBytes = 2000000;
    std::string cwndFile = "my-simulation.cwnd";
    CommandLine cmd(__FILE__);
    cmd.AddValue("maxBytes", "Bytes the sender sends", maxBytes);
    cmd.AddValue("cwndFile", "Output file of the cwnd trace (time s, old, new bytes)", cwndFile);
    cmd.Parse(argc, argv);
    std::ofstream cwnd(cwndFile);

    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper pointToPoint;
    pointToPoint.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    pointToPoint.SetChannelAttribute("Delay", StringValue("5ms"));
    NetDeviceContainer devices = pointToPoint.Install(nodes);
    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper ipv4("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = ipv4.Assign(devices);

    QuicCcHelper quic; // QUIC with CUBIC on both nodes, after the Internet stack
    quic.SetCongestionControl("ns3::QuicCubic");
    quic.Install(nodes);
    quic.AssignStreams(nodes, 0);
    quic.ConnectSocketTraceWithoutContext(nodes.Get(0),
                                          "CongestionWindow",
                                          MakeBoundCallback(&CwndChange, &cwnd));

    BulkSendHelper source(quic.GetSocketFactoryName(),
                          InetSocketAddress(interfaces.GetAddress(1), 4433));
    source.SetAttribute("MaxBytes", UintegerValue(maxBytes));
    source.Install(nodes.Get(0));
    PacketSinkHelper sink(quic.GetSocketFactoryName(),
                          InetSocketAddress(Ipv4Address::GetAny(), 4433));
    ApplicationContainer sinkApps = sink.Install(nodes.Get(1));

    Simulator::Stop(Seconds(60));
    Simulator::Run();
    std::cout << "Total Bytes Received: " << DynamicCast<PacketSink>(sinkApps.Get(0))->GetTotalRx()
              << std::endl;
    Simulator::Destroy();
    return 0;
}
