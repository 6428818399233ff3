/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: the receive path of a connected QuicCcSocket fed arbitrary datagrams,
 * through the public API only. Per input, a fresh simulation: one node with the Internet stack
 * and quic-cc; a QuicCcSocket listens on 127.0.0.1:4433; the harness plays the client with a
 * plain UDP socket: it sends a well-formed INITIAL (connection id kConnectionId, built with
 * QuicCcSerialize), the listener accepts, and the accepted server socket starts sending
 * kServerBytes (so its sent-packet record is live when ACK frames arrive). Then every datagram
 * of the input goes to the server from the same address, 1 ms apart; the simulation runs until
 * 200 ms after the last one (RTOs, PTOs, idle timers included) and is destroyed.
 *
 * Input: a sequence of datagrams, each a 2-byte big-endian length followed by that many bytes
 * (a short last one takes what is left). The seed corpus (test/fuzz/corpus/socket-recv/) holds
 * datagrams of the right connection id, so mutations reach the connection, not only the
 * "unknown connection" drop.
 *
 * Checked beyond ASan/UBSan/LSan: the server never delivers more stream bytes than the input's
 * datagrams could carry, and every datagram that does not parse is dropped (by a connection, or
 * by the listener once the connection has ended). A datagram may open further connections (an
 * INITIAL with another connection id, e.g. after the first one closed): the checks sum over
 * every connection the listener accepted.
 */
#include "fuzz-datagrams.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/quic-cc-frames.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/quic-cc-socket-factory.h"
#include "ns3/quic-cc-socket.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint16_t kPort = 4433;

void
Fail(const char* what)
{
    std::fprintf(stderr, "fuzz-socket-recv: %s\n", what);
    std::abort();
}

/// The server side: accepts connections, writes kServerBytes on each, reads
/// everything.
struct Server
{
    std::vector<Ptr<QuicCcSocket>> connections;
    uint64_t received{0};

    bool OnRequest(Ptr<Socket>, const Address&)
    {
        return true;
    }

    void OnAccept(Ptr<Socket> s, const Address&)
    {
        connections.push_back(DynamicCast<QuicCcSocket>(s));
        s->SetRecvCallback(MakeCallback(&Server::OnRead, this));
        std::vector<uint8_t> bytes(quiccc_fuzz::kServerBytes, 0x5a);
        s->Send(Create<Packet>(bytes.data(), quiccc_fuzz::kServerBytes));
    }

    void OnRead(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            if (p->GetSize() == 0)
            {
                break;
            }
            received += p->GetSize();
        }
    }
};

void
SendDatagram(Ptr<Socket> udp, std::vector<uint8_t> bytes)
{
    udp->Send(Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size())));
}

} // namespace

extern "C" int
LLVMFuzzerInitialize(int*, char***)
{
    // Quiet and deterministic: no logging, fixed run.
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::vector<std::vector<uint8_t>> datagrams = quiccc_fuzz::Datagrams(data, size);
    uint64_t streamBytesBound = 0;
    uint64_t unparsable = 0;
    for (const auto& d : datagrams)
    {
        streamBytesBound += d.size();
        unparsable += QuicCcParse(d.data(), d.size()).packet ? 0 : 1;
    }

    Server server;
    {
        NodeContainer nodes;
        nodes.Create(1);
        // IPv4 only: the harness talks over 127.0.0.1, and the IPv6 stack (ICMPv6, NDP, DAD
        // timers) would only add per-input setup cost.
        InternetStackHelper internet;
        internet.SetIpv6StackInstall(false);
        internet.Install(nodes);
        QuicCcHelper quic;
        quic.SetSocketAttribute("IdleTimeout", TimeValue(Seconds(1)));
        quic.Install(nodes);
        quic.AssignStreams(nodes, 1);
        const InetSocketAddress serverAddress(Ipv4Address::GetLoopback(), kPort);

        Ptr<Socket> listener = Socket::CreateSocket(nodes.Get(0), QuicCcSocketFactory::GetTypeId());
        listener->Bind(serverAddress);
        listener->SetAcceptCallback(MakeCallback(&Server::OnRequest, &server),
                                    MakeCallback(&Server::OnAccept, &server));
        listener->Listen();

        Ptr<Socket> client = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        client->Bind();
        client->Connect(serverAddress);
        Simulator::Schedule(MilliSeconds(1), &SendDatagram, client, quiccc_fuzz::Initial());
        Time at = MilliSeconds(10);
        for (const auto& d : datagrams)
        {
            Simulator::Schedule(at, &SendDatagram, client, d);
            at += MilliSeconds(1);
        }
        Simulator::Stop(at + MilliSeconds(200));
        Simulator::Run();

        if (server.connections.empty())
        {
            Fail("the listener did not accept the harness's INITIAL");
        }
        uint64_t bytesReceived = 0;
        uint64_t dropped = DynamicCast<QuicCcSocket>(listener)->GetDroppedDatagrams();
        for (const Ptr<QuicCcSocket>& connection : server.connections)
        {
            bytesReceived += connection->GetBytesReceived();
            dropped += connection->GetDroppedDatagrams();
        }
        if (server.received > streamBytesBound || bytesReceived > streamBytesBound)
        {
            Fail("more stream bytes delivered than the datagrams carried");
        }
        // Dropped by a connection, or by the listener once the connection has ended.
        if (dropped < unparsable)
        {
            Fail("an unparsable datagram was not dropped");
        }
        server.connections.clear();
    }
    Simulator::Destroy();
    return 0;
}
