/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-drop-tail-link.h"

#include "ns3/point-to-point-helper.h"
#include "ns3/traffic-control-helper.h"

namespace ns3
{

NetDeviceContainer
QuicCcInstallDropTailLink(Ptr<Node> a,
                          Ptr<Node> b,
                          DataRate rate,
                          Time delay,
                          uint32_t queuePackets)
{
    return QuicCcInstallDropTailLink(a,
                                     b,
                                     rate,
                                     delay,
                                     QueueSize(QueueSizeUnit::PACKETS, queuePackets));
}

NetDeviceContainer
QuicCcInstallDropTailLink(Ptr<Node> a, Ptr<Node> b, DataRate rate, Time delay, QueueSize queue)
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(rate));
    p2p.SetChannelAttribute("Delay", TimeValue(delay));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(queue));
    return p2p.Install(a, b);
}

Ipv4InterfaceContainer
QuicCcAssignWithoutQueueDisc(Ipv4AddressHelper& ipv4, const NetDeviceContainer& devices)
{
    Ipv4InterfaceContainer interfaces = ipv4.Assign(devices);
    TrafficControlHelper().Uninstall(devices);
    return interfaces;
}

} // namespace ns3
