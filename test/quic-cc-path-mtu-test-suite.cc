/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcSocket::DontFragment (RFC 9000 Section 14: QUIC datagrams are never fragmented at the
 * IP layer) and the outgoing-MTU lookup behind it.
 */
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"
#include "quic-cc-test-topology.h"

#include "ns3/core-module.h"
#include "ns3/quic-cc-path-mtu.h"
#include "ns3/quic-cc-socket.h"
#include "ns3/test.h"

#include <algorithm>
#include <vector>

using namespace ns3;
using namespace ns3::quiccc::test;

namespace
{

constexpr uint16_t kPort = 4433;
constexpr uint32_t kSmallMtu = 1000;      //!< bytes, the link's MTU in these tests
constexpr uint64_t kDatagram = 1350;      //!< MaxDatagramSize, bytes (the default)
constexpr uint64_t kTransfer = 1'000'000; //!< bytes

/// Two nodes whose link has a 1000-byte MTU, a client on node 0 writing kTransfer pattern bytes
/// to a server on node 1.
struct SmallMtuTransfer
{
    explicit SmallMtuTransfer(bool dontFragment)
    {
        QuicCcHelper quic;
        quic.SetCongestionControl("ns3::QuicCubic");
        quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(kDatagram));
        quic.SetSocketAttribute("DontFragment", BooleanValue(dontFragment));
        quic.SetSocketAttribute("IdleTimeout", TimeValue(Seconds(5)));
        net = std::make_unique<TwoNodes>(quic);
        for (uint32_t i = 0; i < net->devices.GetN(); ++i)
        {
            net->devices.Get(i)->SetMtu(kSmallMtu);
        }
        net->devices.Get(0)->TraceConnectWithoutContext(
            "MacTx",
            MakeCallback(&SmallMtuTransfer::OnMacTx, this));
        listener = net->CreateSocket(1);
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&SmallMtuTransfer::OnAccept, this));
        client = net->CreateSocket(0);
        client->TraceConnectWithoutContext("PacketSent",
                                           MakeCallback(&SmallMtuTransfer::OnSent, this));
        writer = std::make_unique<PatternWriter>(client, kTransfer);
        client->SetConnectCallback(MakeCallback(&SmallMtuTransfer::OnConnected, this),
                                   MakeCallback(&SmallMtuTransfer::OnConnectFailed, this));
        Simulator::ScheduleNow(
            [this, addr = InetSocketAddress(net->interfaces.GetAddress(1), kPort)]() {
                client->Connect(addr);
            });
    }

    void OnAccept(Ptr<Socket> s, const Address&)
    {
        ++accepted;
        reader.Attach(s);
    }

    void OnConnected(Ptr<Socket>)
    {
        writer->Start();
    }

    void OnConnectFailed(Ptr<Socket>)
    {
        failedAt = Simulator::Now();
    }

    void OnSent(uint64_t, uint64_t bytes)
    {
        ++sentPackets;
        sendTimes.push_back(Simulator::Now());
        largestSent = std::max(largestSent, bytes);
    }

    void OnMacTx(Ptr<const Packet> p)
    {
        ++framesOnLink;
        largestFrame = std::max<uint64_t>(largestFrame, p->GetSize());
    }

    std::unique_ptr<TwoNodes> net;
    Ptr<Socket> listener;
    Ptr<Socket> client;
    std::unique_ptr<PatternWriter> writer;
    PatternReader reader;
    uint32_t accepted{0};
    Time failedAt{Seconds(-1)};
    uint64_t sentPackets{0};     //!< QUIC packets the client built (PacketSent trace)
    std::vector<Time> sendTimes; //!< when they were built
    uint64_t largestSent{0};     //!< bytes, UDP payload
    uint64_t framesOnLink{0};    //!< IP datagrams (fragments included) node 0's device sent
    uint64_t largestFrame{0};    //!< bytes, IP datagram
};

} // namespace

/// Test: IP datagram sizes and the outgoing MTU as the route lookup finds them.
class QuicCcPathMtuLookupTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcPathMtuLookupTestCase()
        : quiccc::test::SimulationTestCase("IP datagram size and outgoing MTU")
    {
    }

  private:
    void DoRun() override
    {
        // RFC 768: 8-byte UDP header; RFC 791: 20-byte IPv4 header; RFC 8200: 40-byte IPv6.
        const Address v4 = InetSocketAddress(Ipv4Address("10.9.0.2"), kPort);
        const Address v6 = Inet6SocketAddress(Ipv6Address("2001:db8::2"), kPort);
        NS_TEST_ASSERT_MSG_EQ(QuicCcIpDatagramSize(1350, v4), 1378, "1350 + 8 + 20");
        NS_TEST_ASSERT_MSG_EQ(QuicCcIpDatagramSize(1350, v6), 1398, "1350 + 8 + 40");
        NS_TEST_ASSERT_MSG_EQ(QuicCcIpDatagramSize(1472, v4), 1500, "fills a 1500-byte MTU");

        QuicCcHelper quic;
        TwoNodes net(quic);
        net.devices.Get(0)->SetMtu(kSmallMtu);
        const Address peer = InetSocketAddress(net.interfaces.GetAddress(1), kPort);
        NS_TEST_ASSERT_MSG_EQ(QuicCcOutgoingMtu(net.nodes.Get(0), peer),
                              kSmallMtu,
                              "node 0 reaches node 1 through its 1000-byte device");
        NS_TEST_ASSERT_MSG_EQ(
            QuicCcOutgoingMtu(net.nodes.Get(1), InetSocketAddress(net.interfaces.GetAddress(0))),
            1500,
            "node 1's device keeps point-to-point's default MTU");
        NS_TEST_ASSERT_MSG_EQ(
            QuicCcOutgoingMtu(net.nodes.Get(0), InetSocketAddress(Ipv4Address("192.0.2.1"))),
            0,
            "no route: MTU unknown");
        NS_TEST_ASSERT_MSG_EQ(QuicCcOutgoingMtu(net.nodes.Get(0), v6), 0, "no IPv6 stack");
        // 972 + 28 = 1000 fits exactly; one byte more does not.
        NS_TEST_ASSERT_MSG_EQ(QuicCcExceedsPathMtu(net.nodes.Get(0), peer, 972), false, "fits");
        NS_TEST_ASSERT_MSG_EQ(QuicCcExceedsPathMtu(net.nodes.Get(0), peer, 973), true, "exceeds");
    }
};

/// Test: 1350-byte datagrams over a 1000-byte MTU link. DontFragment=true: every long-header
/// packet (the client's Initial, padded to 1200 bytes) is dropped at the sender, so the
/// handshake never completes and the connection fails at the idle timeout with nothing on the
/// link. DontFragment=false: IP fragments every datagram and the transfer arrives intact.
class QuicCcDontFragmentTestCase : public quiccc::test::SimulationTestCase
{
  public:
    explicit QuicCcDontFragmentTestCase(bool dontFragment)
        : quiccc::test::SimulationTestCase(
              std::string("1350-byte datagrams over a 1000-byte MTU, DontFragment=") +
              (dontFragment ? "true: dropped at the sender" : "false: fragmented, delivered")),
          m_dontFragment(dontFragment)
    {
    }

  private:
    void DoRun() override
    {
        SmallMtuTransfer t(m_dontFragment);
        Simulator::Stop(Seconds(60));
        Simulator::Run();
        if (m_dontFragment)
        {
            NS_TEST_ASSERT_MSG_EQ(t.framesOnLink, 0, "nothing leaves node 0");
            NS_TEST_ASSERT_MSG_EQ(t.accepted, 0, "the server never sees the Initial");
            NS_TEST_ASSERT_MSG_EQ(t.reader.Received(), 0, "no byte delivered");
            NS_TEST_ASSERT_MSG_EQ(t.largestSent, 1200, "RFC 9000 Section 14.1: padded Initial");
            // RFC 9002 Section 6.2: the Initial at 0; one probe at the first PTO, two at the
            // second, the PTO doubling; the third would come after the 5 s idle timeout.
            NS_TEST_ASSERT_MSG_EQ(t.sentPackets, 4, "the Initial and three probes, all dropped");
            // No RTT sample: PTO = 3 x kInitialRtt (333 ms) = 999 ms, then 1998 ms.
            const std::vector<Time> expected{Seconds(0),
                                             MilliSeconds(999),
                                             MilliSeconds(2997),
                                             MilliSeconds(2997)};
            for (size_t i = 0; i < std::min(expected.size(), t.sendTimes.size()); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(t.sendTimes[i], expected[i], "send time " << i);
            }
            NS_TEST_ASSERT_MSG_EQ(t.failedAt, Seconds(5), "connection fails at the idle timeout");
            Ptr<QuicCcSocket> sender = DynamicCast<QuicCcSocket>(t.client);
            NS_TEST_ASSERT_MSG_EQ(sender->GetLossDetection()->GetLostPacketCount(),
                                  0,
                                  "never an ACK, so only PTOs, no packet-threshold loss");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(t.accepted, 1, "handshake through fragments");
            NS_TEST_ASSERT_MSG_EQ(t.reader.Received(), kTransfer, "whole transfer delivered");
            NS_TEST_ASSERT_MSG_EQ(t.reader.Mismatches(), 0, "stream content");
            NS_TEST_ASSERT_MSG_EQ(t.largestSent, kDatagram, "full-size datagrams");
            // Ipv4L3Protocol::DoFragmentation: (1000 - 20) rounded down to a multiple of 8 = 976 B
            // of payload per fragment, + 20 B IPv4 header + 2 B PPP header.
            NS_TEST_ASSERT_MSG_EQ(t.largestFrame, 998, "a full fragment on the wire");
            NS_TEST_ASSERT_MSG_GT(t.framesOnLink,
                                  t.sentPackets,
                                  "a 1378-byte IP datagram leaves as two fragments");
        }
    }

    bool m_dontFragment;
};

/// The path-MTU TestSuite.
class QuicCcPathMtuTestSuite : public TestSuite
{
  public:
    QuicCcPathMtuTestSuite()
        : TestSuite("quic-cc-path-mtu", QUICCC_SUITE_UNIT)
    {
        AddTestCase(new QuicCcPathMtuLookupTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcDontFragmentTestCase(true), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcDontFragmentTestCase(false), QUICCC_TEST_QUICK);
    }
};

static QuicCcPathMtuTestSuite g_quicCcPathMtuTestSuite; //!< registers the suite
