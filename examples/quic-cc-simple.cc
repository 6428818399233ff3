/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The smallest complete quic-cc program, in the shape of ns-3's examples/tcp/tcp-bulk-send.cc:
 * one QUIC CUBIC bulk transfer between two nodes, its congestion window traced to a file with
 * an ns-3 TCP cwnd tracer, and a FlowMonitor summary.
 *
 *       n0 ----------------- n1
 *            10 Mbps, 5 ms
 *   BulkSend: data sender          PacketSink: data receiver
 *   (QUIC client, calls Connect)   (QUIC server, accepts the connection)
 *
 *   quic-cc-simple [--maxBytes=2000000] [--cwndFile=quic-cc-simple.cwnd] [--dryRun=true]
 *                  [--ns3::QuicCubic::Beta=0.7 ...]   # any attribute default, checked first
 *
 * The cwnd file has one line per change: time (s), old cwnd, new cwnd (bytes); the first line
 * is the initial window (0 -> 13500 with the default 10 packets of 1350 B). The command line is
 * the examples' (study/quic-cc-options.h); the simulation uses only the installed module, as a
 * script of your own does (test/consumer/quic-cc-consumer.cc builds one against an installed
 * quic-cc).
 */
#include "quic-cc-options.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/quic-cc-module.h"

#include <cstdint>
#include <cstring>
#include <iostream>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("QuicCcSimple");

// An ns-3 TCP cwnd tracer (as in the tutorial's sixth.cc), used unchanged for QUIC.
static void
CwndChange(Ptr<OutputStreamWrapper> stream, uint32_t oldCwnd, uint32_t newCwnd)
{
    *stream->GetStream() << Simulator::Now().GetSeconds() << "\t" << oldCwnd << "\t" << newCwnd
                         << std::endl;
}

int
main(int argc, char* argv[])
{
    uint64_t maxBytes = 2000000;
    std::string cwndFile = "quic-cc-simple.cwnd";
    bool dryRun = false;
    // The examples' option table (study/quic-cc-options.h): each option checked before the
    // simulation, one line and exit status 2 for a bad one (ns-3 would print its whole help for
    // an unknown option or an empty value, abort on an attribute default it cannot read,
    // --ns3::QuicCubic::Beta=abc, and ignore an out-of-range value given in the environment).
    QuicCcOptions options(__FILE__);
    options.Count("maxBytes", "Bytes the sender sends (> 0)", maxBytes, 1, UINT64_MAX);
    options.Output("cwndFile", "Output file of the cwnd trace (time s, old, new bytes)", cwndFile);
    options.Flag("dryRun", "Check the arguments and the output path, then exit", dryRun);
    options.Parse(argc, argv);
    // Written atomically (QuicCcAtomicFile): to a temporary file beside it, removed if the
    // program is interrupted (Ctrl-C, kill) or a write fails, renamed into place at the end.
    QuicCcAtomicFile cwndOut;
    if (const int err = cwndOut.Open(cwndFile); err != 0)
    {
        std::cerr << "quic-cc-simple: --cwndFile=" << cwndFile
                  << ": cannot write: " << std::strerror(err) << std::endl;
        return 2;
    }
    if (dryRun)
    {
        return 0; // the temporary file is removed with cwndOut
    }
    std::ostringstream trace; // the cwnd trace, written to cwndOut when the simulation is over

    NodeContainer nodes;
    nodes.Create(2);

    PointToPointHelper pointToPoint;
    pointToPoint.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    pointToPoint.SetChannelAttribute("Delay", StringValue("5ms"));
    NetDeviceContainer devices = pointToPoint.Install(nodes);

    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper ipv4;
    ipv4.SetBase("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer i = ipv4.Assign(devices);

    // QUIC with CUBIC on both nodes (after the Internet stack).
    QuicCcHelper quic;
    quic.SetCongestionControl("ns3::QuicCubic");
    quic.Install(nodes);
    quic.AssignStreams(nodes, 0); // fixed random streams: same seed and run, same output

    // The sender's cwnd: connected to each QUIC socket of node 0 as it is created, so this
    // works before Simulator::Run and sees the initial window.
    Ptr<OutputStreamWrapper> stream = Create<OutputStreamWrapper>(&trace);
    quic.ConnectSocketTraceWithoutContext(nodes.Get(0),
                                          "CongestionWindow",
                                          MakeBoundCallback(&CwndChange, stream));

    uint16_t port = 4433;
    BulkSendHelper source("ns3::QuicCcSocketFactory", InetSocketAddress(i.GetAddress(1), port));
    source.SetAttribute("MaxBytes", UintegerValue(maxBytes));
    ApplicationContainer sourceApps = source.Install(nodes.Get(0));
    sourceApps.Start(Seconds(0.0));

    PacketSinkHelper sink("ns3::QuicCcSocketFactory",
                          InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApps = sink.Install(nodes.Get(1));
    sinkApps.Start(Seconds(0.0));

    FlowMonitorHelper flowHelper;
    Ptr<FlowMonitor> monitor = flowHelper.InstallAll();

    Simulator::Stop(Seconds(60.0));
    Simulator::Run();

    // One flow per direction: the data (n0 -> n1) and the ACKs (n1 -> n0), both UDP. Lost
    // Packets are the drop-tail queue's drops (slow start overflows it); QUIC retransmits them.
    monitor->CheckForLostPackets();
    Ptr<Ipv4FlowClassifier> classifier =
        DynamicCast<Ipv4FlowClassifier>(flowHelper.GetClassifier());
    for (const auto& [id, flow] : monitor->GetFlowStats())
    {
        Ipv4FlowClassifier::FiveTuple t = classifier->FindFlow(id);
        const double seconds = (flow.timeLastRxPacket - flow.timeFirstTxPacket).GetSeconds();
        std::cout << "Flow " << id << " (" << t.sourceAddress << ":" << t.sourcePort << " -> "
                  << t.destinationAddress << ":" << t.destinationPort << ")\n"
                  << "  Tx Packets:   " << flow.txPackets << "\n"
                  << "  Tx Bytes:     " << flow.txBytes << "\n"
                  << "  Rx Packets:   " << flow.rxPackets << "\n"
                  << "  Rx Bytes:     " << flow.rxBytes << "\n"
                  << "  Lost Packets: " << flow.lostPackets << "\n"
                  << "  Throughput:   " << (seconds > 0 ? flow.rxBytes * 8.0 / seconds / 1e6 : 0.0)
                  << " Mbps\n";
    }
    Ptr<PacketSink> sink1 = DynamicCast<PacketSink>(sinkApps.Get(0));
    const uint64_t received = sink1->GetTotalRx();
    std::cout << "Total Bytes Received: " << received << std::endl;
    Simulator::Destroy();

    if (cwndOut.Write(trace.str()) != 0 || cwndOut.Commit() != 0)
    {
        // An incomplete trace is not kept (cwndOut removes the temporary file).
        std::cerr << "quic-cc-simple: --cwndFile=" << cwndFile << ": write failed" << std::endl;
        return 1;
    }
    if (received < maxBytes) // the trace is kept: it shows how far the transfer got
    {
        std::cerr << "quic-cc-simple: --maxBytes=" << maxBytes << ": only " << received
                  << " bytes arrived within the 60 s simulated" << std::endl;
        return 1;
    }
    return 0;
}
