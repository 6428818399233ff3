/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The listener's connection table (QuicCcDispatcher: routing by peer address, the memory of
 * closed connection IDs, RFC 9000 Section 10.2) and quic-cc's verdict on who may open a
 * connection (QuicCcSocket::AdmitInitial).
 */
#include "ns3/inet-socket-address.h"
#include "ns3/quic-cc-dispatcher.h"
#include "ns3/quic-cc-frames.h"
#include "ns3/quic-cc-socket.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

std::vector<uint8_t>
Datagram(QuicCcPacketType type, uint64_t connectionId)
{
    QuicCcPacket p;
    p.type = type;
    p.connectionId = connectionId;
    p.frames.emplace_back(QuicCcPingFrame{});
    return QuicCcSerialize(p);
}

/// Where a datagram goes: the connection of a known sender, else the table's verdict.
struct TestRoute : QuicCcDispatcher::Route
{
    Ptr<QuicCcSocketBase> connection;
};

TestRoute
Route(const QuicCcDispatcher& d,
      const std::vector<uint8_t>& bytes,
      const Address& from,
      bool accepting = true)
{
    TestRoute route;
    route.connection = d.Find(from);
    if (!route.connection)
    {
        static_cast<QuicCcDispatcher::Route&>(route) =
            d.Admit(accepting, QuicCcSocket::AdmitInitial(bytes));
    }
    return route;
}

const Address kPeerA = InetSocketAddress(Ipv4Address("10.0.0.1"), 1000);
const Address kPeerB = InetSocketAddress(Ipv4Address("10.0.0.2"), 1000);

} // namespace

TEST(QuicCcDispatcherTest, OnlyAWellFormedInitialOpens)
{
    QuicCcDispatcher d;
    const std::vector<uint8_t> garbage{0xff, 0x01};
    auto r = Route(d, garbage, kPeerA);
    EXPECT_FALSE(r.open);
    EXPECT_FALSE(r.connection);
    EXPECT_EQ(r.dropReason.rfind("listener: ", 0), 0u) << r.dropReason;

    r = Route(d, Datagram(QuicCcPacketType::ONE_RTT, 5), kPeerA);
    EXPECT_FALSE(r.open);
    EXPECT_EQ(r.dropReason, "listener: no connection for a non-INITIAL packet from a new address");

    r = Route(d, Datagram(QuicCcPacketType::INITIAL, 5), kPeerA, false);
    EXPECT_FALSE(r.open) << "a closed listener accepts nothing";
    EXPECT_EQ(r.dropReason, "listener: closed, no new connection");

    r = Route(d, Datagram(QuicCcPacketType::INITIAL, 5), kPeerA);
    EXPECT_TRUE(r.open);
    ASSERT_TRUE(r.connectionId.has_value());
    EXPECT_EQ(*r.connectionId, 5u);
    EXPECT_TRUE(r.dropReason.empty());
}

TEST(QuicCcDispatcherTest, RoutesByPeerAndRemembersClosedIds)
{
    QuicCcDispatcher d;
    Ptr<QuicCcSocket> a = CreateObject<QuicCcSocket>();
    d.Add(kPeerA, a);
    EXPECT_EQ(d.GetConnectionCount(), 1u);
    // Anything from a known peer goes to its connection, even bytes that do not parse.
    EXPECT_EQ(Route(d, {0xff}, kPeerA).connection, a);
    EXPECT_FALSE(Route(d, Datagram(QuicCcPacketType::ONE_RTT, 9), kPeerB).connection);

    d.OnClosed(kPeerA, uint64_t{5});
    EXPECT_EQ(d.GetConnectionCount(), 0u);
    auto r = Route(d, Datagram(QuicCcPacketType::INITIAL, 5), kPeerA);
    EXPECT_FALSE(r.open);
    EXPECT_EQ(r.dropReason, "listener: INITIAL of closed connection 5");
    EXPECT_TRUE(Route(d, Datagram(QuicCcPacketType::INITIAL, 6), kPeerA).open);
    // A connection without an ID (the ngtcp2 engine's) leaves nothing to remember.
    d.Add(kPeerB, a);
    d.OnClosed(kPeerB, std::nullopt);
    EXPECT_EQ(d.GetConnectionCount(), 0u);
    EXPECT_TRUE(Route(d, Datagram(QuicCcPacketType::INITIAL, 7), kPeerB).open);
    d.Clear();
    a->Dispose();
    Simulator::Destroy();
}

// Find remembers the last peer it found: alternating peers, a replaced connection, a closed one
// and Clear() each give the table's answer, never a remembered one.
TEST(QuicCcDispatcherTest, FindAnswersFromTheTableWhateverItRemembers)
{
    QuicCcDispatcher d;
    Ptr<QuicCcSocket> a = CreateObject<QuicCcSocket>();
    Ptr<QuicCcSocket> b = CreateObject<QuicCcSocket>();
    Ptr<QuicCcSocket> c = CreateObject<QuicCcSocket>();
    d.Add(kPeerA, a);
    d.Add(kPeerB, b);
    EXPECT_EQ(d.Find(kPeerA), a);
    EXPECT_EQ(d.Find(kPeerB), b);
    EXPECT_EQ(d.Find(kPeerA), a);
    d.Add(kPeerA, c); // the same peer, a new connection
    EXPECT_EQ(d.Find(kPeerA), c);
    d.OnClosed(kPeerA, std::nullopt);
    EXPECT_FALSE(d.Find(kPeerA));
    EXPECT_EQ(d.Find(kPeerB), b);
    d.Clear();
    EXPECT_FALSE(d.Find(kPeerB));
    for (Ptr<QuicCcSocket> s : {a, b, c})
    {
        s->Dispose();
    }
    Simulator::Destroy();
}
