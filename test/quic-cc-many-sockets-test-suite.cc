/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * More than 1,000 quic-cc sockets on one node with fixed random streams: every connection
 * completes, every socket draws from its own streams (no two share a connection id), and the
 * same seed and run reproduce the run exactly while another run number changes it.
 */
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"
#include "quic-cc-test-topology.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/quic-cc-compat.h"
#include "ns3/quic-cc-frames.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"

#include <set>
#include <tuple>

using namespace ns3;
using namespace ns3::quiccc::test;

namespace
{

/// What one run observed.
struct ManySocketsRun
{
    /// Every datagram a sink's listener received, in order: (time ns, node, size).
    std::vector<std::tuple<int64_t, uint32_t, uint32_t>> rx;
    /// Connection id of every INITIAL seen by either node (one per client connection, plus
    /// retransmitted INITIALs).
    std::set<uint64_t> clientConnectionIds;
    uint64_t initials{0};               //!< INITIAL packets seen
    uint64_t bytesAtSinks{0};           //!< application bytes delivered
    std::vector<size_t> socketsPerNode; //!< SocketList sizes at the end
};

/// Ipv4L3Protocol Rx: the packet still carries its IPv4 header.
void
OnIpRx(ManySocketsRun* run, Ptr<const Packet> packet, Ptr<Ipv4>, uint32_t)
{
    Ptr<Packet> p = packet->Copy();
    Ipv4Header ip;
    p->RemoveHeader(ip);
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
    {
        return;
    }
    UdpHeader udp;
    p->RemoveHeader(udp);
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    const QuicCcParseResult parsed = QuicCcParse(bytes.data(), bytes.size());
    if (parsed.packet && parsed.packet->type == QuicCcPacketType::INITIAL &&
        parsed.packet->packetNumber == 0)
    {
        ++run->initials;
        run->clientConnectionIds.insert(parsed.packet->connectionId);
    }
}

void
OnSinkRx(ManySocketsRun* run, uint32_t node, Ptr<const Packet> packet, const Address&)
{
    run->rx.emplace_back(Simulator::Now().GetNanoSeconds(), node, packet->GetSize());
    run->bytesAtSinks += packet->GetSize();
}

/**
 * Two nodes; each runs a PacketSink and \p clientsPerNode BulkSend connections of \p bytes to
 * the other node's sink, so each node holds 1 + 2 x clientsPerNode sockets. Random host delays
 * (SendDelay, AckProcessingDelay) make the run depend on every socket's streams.
 */
ManySocketsRun
RunManySockets(uint32_t clientsPerNode, uint64_t bytes, uint32_t rngRun)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(rngRun);
    QuicCcHelper quic;
    quic.SetSocketAttribute("SendDelay",
                            StringValue("ns3::UniformRandomVariable[Min=0.0|Max=0.00002]"));
    quic.SetSocketAttribute("AckProcessingDelay",
                            StringValue("ns3::UniformRandomVariable[Min=0.0|Max=0.00002]"));
    TwoNodes net(quic, "1Gbps", MilliSeconds(1), 100000);
    int64_t stream = 1;
    InternetStackHelper internet;
    stream += internet.AssignStreams(net.nodes, stream);
    stream += quic.AssignStreams(net.nodes, stream);

    ManySocketsRun run;
    const uint16_t port = 4433;
    for (uint32_t node = 0; node < 2; ++node)
    {
        net.nodes.Get(node)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&OnIpRx, &run));
        PacketSinkHelper sink("ns3::QuicCcSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer s = sink.Install(net.nodes.Get(node));
        s.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnSinkRx, &run, node));
        for (uint32_t c = 0; c < clientsPerNode; ++c)
        {
            BulkSendHelper bulk("ns3::QuicCcSocketFactory",
                                InetSocketAddress(net.interfaces.GetAddress(1 - node), port));
            bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
            ApplicationContainer app = bulk.Install(net.nodes.Get(node));
            app.Start(MicroSeconds(20 * c));
        }
    }
    Simulator::Stop(Seconds(30));
    Simulator::Run();
    for (uint32_t node = 0; node < 2; ++node)
    {
        run.socketsPerNode.push_back(
            net.nodes.Get(node)->GetObject<QuicCcSocketFactory>()->GetSockets().size());
    }
    Simulator::Destroy();
    return run;
}

/// Test: 1,201 sockets per node (600 clients, a listener, 600 accepted connections).
class QuicCcManySocketsTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcManySocketsTestCase()
        : quiccc::test::SimulationTestCase(
              "more than 1,000 sockets per node: distinct streams, complete, deterministic")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t clients = 600;
        const uint64_t bytes = 2000;
        const ManySocketsRun a = RunManySockets(clients, bytes, 1);
        NS_TEST_ASSERT_MSG_EQ(a.socketsPerNode.size(), 2, "two nodes");
        NS_TEST_ASSERT_MSG_EQ(a.socketsPerNode[0], 1 + 2 * clients, "sockets on node 0");
        NS_TEST_ASSERT_MSG_EQ(a.socketsPerNode[1], 1 + 2 * clients, "sockets on node 1");
        NS_TEST_ASSERT_MSG_EQ(a.bytesAtSinks,
                              2 * clients * bytes,
                              "every connection delivered every byte");
        // A connection id is drawn from the client socket's own stream: two sockets sharing a
        // stream (within a node, or the same index on both nodes) would draw the same id.
        NS_TEST_ASSERT_MSG_EQ(a.initials, 2 * clients, "one first INITIAL per client connection");
        NS_TEST_ASSERT_MSG_EQ(a.clientConnectionIds.size(), 2 * clients, "distinct connection ids");

        const ManySocketsRun b = RunManySockets(clients, bytes, 1);
        const bool sameIds = b.clientConnectionIds == a.clientConnectionIds;
        NS_TEST_ASSERT_MSG_EQ(sameIds, true, "same run: same connection ids");
        NS_TEST_ASSERT_MSG_EQ(b.rx.size(), a.rx.size(), "same run: same number of deliveries");
        const bool sameRx = b.rx == a.rx;
        NS_TEST_ASSERT_MSG_EQ(sameRx, true, "same run: every delivery at the same time and size");

        // The host delays and connection ids really come from the streams of the run.
        const ManySocketsRun c = RunManySockets(clients, bytes, 2);
        NS_TEST_ASSERT_MSG_EQ(c.bytesAtSinks, a.bytesAtSinks, "run 2 completes too");
        const bool otherRx = c.rx == a.rx;
        NS_TEST_ASSERT_MSG_EQ(otherRx, false, "another run number changes the delivery times");
        const bool otherIds = c.clientConnectionIds == a.clientConnectionIds;
        NS_TEST_ASSERT_MSG_EQ(otherIds, false, "and the connection ids");
        RngSeedManager::SetRun(1);
    }
};

/// The many-sockets TestSuite.
class QuicCcManySocketsTestSuite : public TestSuite
{
  public:
    QuicCcManySocketsTestSuite()
        : TestSuite("quic-cc-many-sockets", QUICCC_SUITE_SYSTEM)
    {
        AddTestCase(new QuicCcManySocketsTestCase, QUICCC_TEST_QUICK);
    }
};

} // namespace

static QuicCcManySocketsTestSuite g_quicCcManySocketsTestSuite; //!< registers the suite
