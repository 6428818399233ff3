/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-dumbbell-topology.h"

#include "quic-cc-drop-tail-link.h"

#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"

namespace ns3
{

namespace
{

/// Each access link's device queue, packets (PointToPointHelper's default DropTailQueue size).
constexpr uint32_t kAccessQueuePackets = 100;

} // namespace

QuicCcDumbbellTopology
QuicCcBuildDumbbell(const QuicCcDumbbellParams& params, const std::vector<Time>& accessDelays)
{
    const uint32_t n = accessDelays.size();
    QuicCcDumbbellTopology t;
    NodeContainer routers;
    routers.Create(2);
    t.senders.Create(n);
    t.receivers.Create(n);

    const QueueSize queue(params.queueDisc.empty() ? params.queueSize : "1p");
    const NetDeviceContainer bottleneck = QuicCcInstallDropTailLink(routers.Get(0),
                                                                    routers.Get(1),
                                                                    params.bottleneckRate,
                                                                    params.bottleneckDelay,
                                                                    queue);
    const auto accessLinks = [&](Ptr<Node> router, const NodeContainer& leaves) {
        std::vector<NetDeviceContainer> links; // each (leaf, router), the address order
        for (uint32_t i = 0; i < n; ++i)
        {
            const NetDeviceContainer d = QuicCcInstallDropTailLink(router,
                                                                   leaves.Get(i),
                                                                   params.accessRate,
                                                                   accessDelays[i],
                                                                   kAccessQueuePackets);
            links.emplace_back(d.Get(1), d.Get(0));
        }
        return links;
    };
    const std::vector<NetDeviceContainer> senderLinks = accessLinks(routers.Get(0), t.senders);
    const std::vector<NetDeviceContainer> receiverLinks = accessLinks(routers.Get(1), t.receivers);

    InternetStackHelper internet;
    internet.Install(routers);
    internet.Install(t.senders);
    internet.Install(t.receivers);
    Ipv4AddressHelper routerIp("10.3.0.0", "255.255.255.0");
    QuicCcAssignWithoutQueueDisc(routerIp, bottleneck);
    const auto assign = [](const char* network,
                           const std::vector<NetDeviceContainer>& links,
                           std::vector<Ipv4Address>* leafAddress) {
        Ipv4AddressHelper ip(network, "255.255.255.0");
        for (const NetDeviceContainer& link : links)
        {
            leafAddress->push_back(QuicCcAssignWithoutQueueDisc(ip, link).GetAddress(0));
            ip.NewNetwork();
        }
    };
    assign("10.1.0.0", senderLinks, &t.senderAddress);
    assign("10.2.0.0", receiverLinks, &t.receiverAddress);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    t.forwardTx = bottleneck.Get(0);
    t.forwardRx = bottleneck.Get(1);
    if (!params.queueDisc.empty())
    {
        TypeId tid;
        QuicCcLookupTypeId(params.queueDisc, &tid);
        TrafficControlHelper tch;
        tch.SetRootQueueDisc(tid.GetName());
        NetDeviceContainer devices(t.forwardTx);
        if (params.queueDiscBothWays)
        {
            devices.Add(t.forwardRx);
        }
        // Attributes set before the simulation starts, when the queue disc configures itself.
        const QueueDiscContainer discs = tch.Install(devices);
        t.queueDisc = discs.Get(0); // the data direction's, whose statistics the runs report
        for (uint32_t i = 0; i < discs.GetN(); ++i)
        {
            for (const auto& [name, value] : params.queueDiscAttributes)
            {
                discs.Get(i)->SetAttribute(name, StringValue(value));
            }
        }
    }

    t.all.Add(routers);
    for (uint32_t i = 0; i < n; ++i)
    {
        t.all.Add(t.senders.Get(i));
        t.all.Add(t.receivers.Get(i));
    }
    return t;
}

} // namespace ns3
