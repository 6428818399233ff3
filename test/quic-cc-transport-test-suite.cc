/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Socket-level tests of the quic-cc transport: exact byte streams under loss, reordering and
 * duplication, both directions, stock ns-3 applications, idle timeout, hostile datagrams.
 */
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"
#include "quic-cc-test-topology.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/quic-cc-socket.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::quiccc::test;

namespace
{

constexpr uint16_t kPort = 4433;
constexpr uint64_t kTenMb = 10'000'000;

/// Client connects and writes the pattern; the server accepts and checks it.
struct ClientToServer
{
    PatternReader reader;
    std::unique_ptr<PatternWriter> writer;
    Ptr<Socket> listener;
    Ptr<Socket> client;
    bool accepted{false};
    uint32_t normalCloses{0};
    uint32_t errorCloses{0};

    ClientToServer(const TwoNodes& net, uint64_t bytes, uint32_t senderNode = 0)
    {
        const uint32_t receiverNode = 1 - senderNode;
        listener = net.CreateSocket(receiverNode);
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&ClientToServer::OnAccept, this));
        client = net.CreateSocket(senderNode);
        writer = std::make_unique<PatternWriter>(client, bytes);
        client->SetConnectCallback(MakeCallback(&ClientToServer::OnConnected, this),
                                   MakeNullCallback<void, Ptr<Socket>>());
        client->SetCloseCallbacks(MakeCallback(&ClientToServer::OnNormalClose, this),
                                  MakeCallback(&ClientToServer::OnErrorClose, this));
        // Nodes initialise at t = 0; connect after that.
        Simulator::ScheduleNow(
            [this, addr = InetSocketAddress(net.interfaces.GetAddress(receiverNode), kPort)]() {
                client->Connect(addr);
            });
    }

    void OnAccept(Ptr<Socket> s, const Address&)
    {
        accepted = true;
        reader.Attach(s);
    }

    void OnConnected(Ptr<Socket>)
    {
        writer->Start();
    }

    void OnNormalClose(Ptr<Socket>)
    {
        ++normalCloses;
    }

    void OnErrorClose(Ptr<Socket>)
    {
        ++errorCloses;
    }
};

} // namespace

/// Test: a 10 MB stream arrives byte for byte at a given random loss rate (whole transfer).
class QuicCcStreamIntegrityTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcStreamIntegrityTestCase(double loss, const std::string& cc)
        : quiccc::test::SimulationTestCase("10 MB stream intact with " + cc + " at " +
                                           std::to_string(static_cast<int>(loss * 100)) +
                                           " % loss"),
          m_loss(loss),
          m_cc(cc)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(3);
        QuicCcHelper quic;
        quic.SetCongestionControl(m_cc);
        TwoNodes net(quic);
        if (m_loss > 0)
        {
            net.AddLoss(m_loss);
        }
        ClientToServer flow(net, kTenMb);
        Simulator::Stop(Seconds(600));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(flow.accepted, true, "server never accepted");
        NS_TEST_ASSERT_MSG_EQ(flow.reader.Received(), kTenMb, "stream length");
        NS_TEST_ASSERT_MSG_EQ(flow.reader.Mismatches(), 0, "stream content");
        NS_TEST_ASSERT_MSG_EQ(flow.normalCloses,
                              1,
                              "sender's Close() completes once all data is acked");
        NS_TEST_ASSERT_MSG_EQ(flow.errorCloses, 0, "no error close");
        if (m_loss > 0)
        {
            Ptr<QuicCcSocket> sender = DynamicCast<QuicCcSocket>(flow.client);
            NS_TEST_ASSERT_MSG_GT(sender->GetLossDetection()->GetLostPacketCount(),
                                  1000,
                                  "30 % loss must make the sender declare many packets lost");
        }
        Simulator::Destroy();
    }

    double m_loss;
    std::string m_cc;
};

/// Test: the accepting side sends (a download); the connecting side receives it intact.
class QuicCcServerSendsTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcServerSendsTestCase()
        : quiccc::test::SimulationTestCase(
              "server (accepting side) sends 2 MB to the client at 5 % loss")
    {
    }

  private:
    void OnAccept(Ptr<Socket> s, const Address&)
    {
        m_writer = std::make_unique<PatternWriter>(s, m_bytes);
        m_writer->Start();
    }

    void DoRun() override
    {
        RngSeedManager::SetRun(5);
        QuicCcHelper quic;
        quic.SetCongestionControl("ns3::QuicReno");
        TwoNodes net(quic);
        net.AddLoss(0.05);
        Ptr<Socket> listener = net.CreateSocket(0);
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&QuicCcServerSendsTestCase::OnAccept, this));
        Ptr<Socket> client = net.CreateSocket(1);
        PatternReader reader;
        reader.Attach(client);
        Simulator::ScheduleNow(
            [&]() { client->Connect(InetSocketAddress(net.interfaces.GetAddress(0), kPort)); });
        Simulator::Stop(Seconds(120));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(reader.Received(), m_bytes, "download length");
        NS_TEST_ASSERT_MSG_EQ(reader.Mismatches(), 0, "download content");
        Simulator::Destroy();
    }

    const uint64_t m_bytes{2'000'000};
    std::unique_ptr<PatternWriter> m_writer;
};

/// Test: reordered and duplicated packets still give the exact byte stream.
class QuicCcReorderDuplicateTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcReorderDuplicateTestCase(const std::string& ackPolicy)
        : quiccc::test::SimulationTestCase(
              "reordering (10 %) and duplication (10 %) keep the stream exact, AckPolicy " +
              ackPolicy),
          m_ackPolicy(ackPolicy)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetRun(7);
        QuicCcHelper quic;
        quic.SetCongestionControl("ns3::QuicCubic");
        quic.SetSocketAttribute("AckPolicy", StringValue(m_ackPolicy));
        TwoNodes net(quic, "50Mbps");
        std::vector<Ptr<ReorderDuplicateModel>> models;
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<ReorderDuplicateModel> m = CreateObject<ReorderDuplicateModel>();
            m->Configure(DynamicCast<PointToPointNetDevice>(net.devices.Get(i)),
                         0.1,
                         0.1,
                         MilliSeconds(8));
            net.devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(m));
            models.push_back(m);
        }
        const uint64_t bytes = 3'000'000;
        ClientToServer flow(net, bytes);
        Simulator::Stop(Seconds(120));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(models[1]->Reordered(), 100, "the model must actually reorder");
        NS_TEST_ASSERT_MSG_GT(models[1]->Duplicated(), 100, "the model must actually duplicate");
        NS_TEST_ASSERT_MSG_EQ(flow.reader.Received(), bytes, "stream length");
        NS_TEST_ASSERT_MSG_EQ(flow.reader.Mismatches(), 0, "stream content");
        Ptr<QuicCcSocket> sender = DynamicCast<QuicCcSocket>(flow.client);
        NS_TEST_ASSERT_MSG_GT(sender->GetLossDetection()->GetSpuriousLossCount(),
                              0,
                              "reordering beyond the thresholds shows up as spurious losses");
        Simulator::Destroy();
    }

    std::string m_ackPolicy;
};

/// Test: 100 % loss ends in the application's error callback; the simulation ends by itself.
class QuicCcIdleTimeoutTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcIdleTimeoutTestCase(bool afterHandshake)
        : quiccc::test::SimulationTestCase(
              afterHandshake ? "100 % loss after the handshake -> idle timeout -> error close"
                             : "100 % loss from the start -> handshake fails at the idle timeout"),
          m_afterHandshake(afterHandshake)
    {
    }

  private:
    void OnConnected(Ptr<Socket>)
    {
        ++m_connected;
    }

    void OnFailed(Ptr<Socket>)
    {
        ++m_failed;
        m_endedAt = Simulator::Now();
    }

    void OnError(Ptr<Socket>)
    {
        ++m_errors;
        m_endedAt = Simulator::Now();
    }

    void DoRun() override
    {
        QuicCcHelper quic;
        quic.SetCongestionControl("ns3::QuicReno");
        quic.SetSocketAttribute("IdleTimeout", TimeValue(Seconds(5)));
        TwoNodes net(quic);
        std::vector<Ptr<RateErrorModel>> loss = net.AddLoss(1.0);
        if (m_afterHandshake)
        {
            for (auto& em : loss)
            {
                em->Disable();
                Simulator::Schedule(MilliSeconds(500), &RateErrorModel::Enable, em);
            }
        }
        Ptr<Socket> listener = net.CreateSocket(1);
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
        listener->Listen();
        Ptr<Socket> client = net.CreateSocket(0);
        PatternWriter writer(client, kTenMb);
        client->SetConnectCallback(MakeCallback(&QuicCcIdleTimeoutTestCase::OnConnected, this),
                                   MakeCallback(&QuicCcIdleTimeoutTestCase::OnFailed, this));
        client->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                  MakeCallback(&QuicCcIdleTimeoutTestCase::OnError, this));
        Simulator::ScheduleNow(
            [&]() { client->Connect(InetSocketAddress(net.interfaces.GetAddress(1), kPort)); });
        Simulator::Schedule(MilliSeconds(100), &PatternWriter::Start, &writer);
        // No Stop(): the run must end on its own once every timer is cancelled.
        Simulator::Run();
        if (m_afterHandshake)
        {
            NS_TEST_ASSERT_MSG_EQ(m_connected, 1, "handshake completes before the loss starts");
            NS_TEST_ASSERT_MSG_EQ(m_errors, 1, "error callback once");
            NS_TEST_ASSERT_MSG_EQ(m_failed, 0, "no connection failure");
            // Last packet from the peer before 0.5 s; the idle timeout is 5 s.
            NS_TEST_ASSERT_MSG_GT_OR_EQ(m_endedAt, Seconds(5), "not before the idle timeout");
            NS_TEST_ASSERT_MSG_LT(m_endedAt, Seconds(5.5), "at the idle timeout");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(m_connected, 0, "no handshake through 100 % loss");
            NS_TEST_ASSERT_MSG_EQ(m_failed, 1, "connection-failed callback once");
            NS_TEST_ASSERT_MSG_EQ(m_endedAt, Seconds(5), "exactly at the idle timeout");
        }
        NS_TEST_ASSERT_MSG_LT(Simulator::Now(), Seconds(60), "the simulation ended by itself");
        Simulator::Destroy();
    }

    bool m_afterHandshake;
    uint32_t m_connected{0};
    uint32_t m_failed{0};
    uint32_t m_errors{0};
    Time m_endedAt;
};

/// Test: stock BulkSendHelper and PacketSinkHelper over "ns3::QuicCcSocketFactory", both ways.
class QuicCcStockApplicationsTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcStockApplicationsTestCase()
        : quiccc::test::SimulationTestCase(
              "BulkSendHelper -> PacketSinkHelper over QuicCcSocketFactory, both directions")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcHelper quic;
        TwoNodes net(quic);
        net.AddLoss(0.02);
        const uint64_t bytes = 1'000'000;
        std::vector<Ptr<PacketSink>> sinks;
        for (uint32_t sender = 0; sender < 2; ++sender)
        {
            const uint32_t receiver = 1 - sender;
            const uint16_t port = kPort + sender;
            PacketSinkHelper sink("ns3::QuicCcSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), port));
            ApplicationContainer s = sink.Install(net.nodes.Get(receiver));
            sinks.push_back(DynamicCast<PacketSink>(s.Get(0)));
            BulkSendHelper bulk("ns3::QuicCcSocketFactory",
                                InetSocketAddress(net.interfaces.GetAddress(receiver), port));
            bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
            bulk.Install(net.nodes.Get(sender));
        }
        Simulator::Stop(Seconds(60));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sinks[0]->GetTotalRx(), bytes, "node 0 -> node 1");
        NS_TEST_ASSERT_MSG_EQ(sinks[1]->GetTotalRx(), bytes, "node 1 -> node 0");
        Ptr<QuicCcSocketFactory> f0 = net.nodes.Get(0)->GetObject<QuicCcSocketFactory>();
        // Node 0: its BulkSend socket, its PacketSink listener and the accepted connection.
        NS_TEST_ASSERT_MSG_EQ(f0->GetSockets().size(), 3, "SocketList of node 0");
        Simulator::Destroy();
    }
};

/// Test: garbage, truncated and forged datagrams are dropped and counted; the transfer goes on.
class QuicCcHostileDatagramTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcHostileDatagramTestCase()
        : quiccc::test::SimulationTestCase(
              "malformed, truncated and forged datagrams are dropped and counted, never trusted")
    {
    }

  private:
    void OnDropped(uint64_t total, const std::string& reason)
    {
        m_dropped = total;
        m_reasons.push_back(reason);
    }

    void SendRaw(Ptr<Socket> udp, std::vector<uint8_t> bytes)
    {
        udp->Send(Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size())));
    }

    void DoRun() override
    {
        QuicCcHelper quic;
        TwoNodes net(quic);
        const uint64_t bytes = 2'000'000;
        Ptr<Socket> listener = net.CreateSocket(1);
        listener->TraceConnectWithoutContext(
            "DroppedDatagram",
            MakeCallback(&QuicCcHostileDatagramTestCase::OnDropped, this));
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
        listener->Listen();
        PatternReader reader;
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    Callback<void, Ptr<Socket>, const Address&>(
                                        [&](Ptr<Socket> s, const Address&) { reader.Attach(s); }));
        Ptr<Socket> client = net.CreateSocket(0);
        PatternWriter writer(client, bytes);
        client->SetConnectCallback(MakeCallback(&QuicCcHostileDatagramTestCase::Started, this),
                                   MakeNullCallback<void, Ptr<Socket>>());
        m_writer = &writer;
        Simulator::ScheduleNow(
            [&]() { client->Connect(InetSocketAddress(net.interfaces.GetAddress(1), kPort)); });

        // A raw UDP socket on node 0 that talks to the listener's port.
        Ptr<Socket> udp = Socket::CreateSocket(net.nodes.Get(0), UdpSocketFactory::GetTypeId());
        udp->Bind();
        udp->Connect(InetSocketAddress(net.interfaces.GetAddress(1), kPort));
        Simulator::Schedule(MilliSeconds(1),
                            &QuicCcHostileDatagramTestCase::SendRaw,
                            this,
                            udp,
                            std::vector<uint8_t>{});
        Simulator::Schedule(MilliSeconds(2),
                            &QuicCcHostileDatagramTestCase::SendRaw,
                            this,
                            udp,
                            std::vector<uint8_t>{0xff, 0x01, 0x02});
        // INITIAL type byte with a truncated connection id.
        Simulator::Schedule(MilliSeconds(3),
                            &QuicCcHostileDatagramTestCase::SendRaw,
                            this,
                            udp,
                            std::vector<uint8_t>{0x01, 0x00, 0x00});
        // A well-formed ONE_RTT packet from an unknown address: no connection.
        QuicCcPacket ping;
        ping.type = QuicCcPacketType::ONE_RTT;
        ping.connectionId = 42;
        ping.packetNumber = 0;
        ping.frames.emplace_back(QuicCcPingFrame{});
        Simulator::Schedule(MilliSeconds(4),
                            &QuicCcHostileDatagramTestCase::SendRaw,
                            this,
                            udp,
                            QuicCcSerialize(ping));
        Simulator::Stop(Seconds(60));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_dropped, 4, "every hostile datagram counted once");
        NS_TEST_ASSERT_MSG_EQ(reader.Received(), bytes, "the real transfer is unaffected");
        NS_TEST_ASSERT_MSG_EQ(reader.Mismatches(), 0, "content");
        Simulator::Destroy();
    }

    void Started(Ptr<Socket>)
    {
        m_writer->Start();
    }

    PatternWriter* m_writer{nullptr};
    uint64_t m_dropped{0};
    std::vector<std::string> m_reasons;
};

/// Test: a raw UDP "client" opens a connection with a valid INITIAL, then forges packets on it:
/// an ACK of a packet never sent, STREAM data past the receive window, a FIN that changes the
/// final size, a packet number beyond the decoding window; then it closes and replays its
/// INITIAL. Each is dropped and counted; the data accepted before stays exact.
class QuicCcForgedPacketTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcForgedPacketTestCase()
        : quiccc::test::SimulationTestCase(
              "forged ACK and STREAM frames on a live connection are dropped and counted")
    {
    }

  private:
    void DoRun() override;
};

void
QuicCcForgedPacketTestCase::DoRun()
{
    QuicCcHelper quic;
    TwoNodes net(quic);
    Ptr<Socket> listener = net.CreateSocket(1);
    listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
    listener->Listen();
    PatternReader reader;
    uint64_t dropped = 0;
    uint32_t accepted = 0;
    std::vector<std::string> reasons;
    listener->SetAcceptCallback(
        MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
        Callback<void, Ptr<Socket>, const Address&>([&](Ptr<Socket> s, const Address&) {
            ++accepted;
            reader.Attach(s);
            s->TraceConnectWithoutContext("DroppedDatagram",
                                          Callback<void, uint64_t, const std::string&>(
                                              [&](uint64_t total, const std::string& why) {
                                                  dropped = total;
                                                  reasons.push_back(why);
                                              }));
        }));
    Ptr<Socket> udp = Socket::CreateSocket(net.nodes.Get(0), UdpSocketFactory::GetTypeId());
    udp->Bind();
    udp->Connect(InetSocketAddress(net.interfaces.GetAddress(1), kPort));
    const uint64_t cid = 0x1234;
    uint64_t pn = 0;
    auto send = [&](QuicCcPacketType type, QuicCcFrame frame) {
        QuicCcPacket p;
        p.type = type;
        p.connectionId = cid;
        p.packetNumber = pn++;
        p.frames.push_back(std::move(frame));
        const std::vector<uint8_t> bytes = QuicCcSerialize(p);
        udp->Send(Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size())));
    };
    auto stream = [](uint64_t offset, uint64_t length, bool fin) {
        std::vector<uint8_t> data;
        for (uint64_t i = 0; i < length; ++i)
        {
            data.push_back(PatternByte(offset + i));
        }
        return QuicCcStreamFrame{offset,
                                 fin,
                                 Create<Packet>(data.data(), static_cast<uint32_t>(data.size()))};
    };
    auto ackOf = [](uint64_t largest) {
        QuicCcAckFrame a;
        a.ranges.push_back({0, largest});
        a.ackDelay = Time(0);
        return a;
    };
    Simulator::Schedule(MilliSeconds(1),
                        [&]() { send(QuicCcPacketType::INITIAL, QuicCcPingFrame{}); });
    Simulator::Schedule(MilliSeconds(20),
                        [&]() { send(QuicCcPacketType::ONE_RTT, stream(0, 100, true)); });
    // The server has sent one HANDSHAKE packet and pure ACKs: packet 1000 was never sent.
    Simulator::Schedule(MilliSeconds(30), [&]() { send(QuicCcPacketType::ONE_RTT, ackOf(1000)); });
    Simulator::Schedule(MilliSeconds(31), [&]() {
        send(QuicCcPacketType::ONE_RTT, stream(uint64_t{1} << 40, 10, false));
    });
    Simulator::Schedule(MilliSeconds(32),
                        [&]() { send(QuicCcPacketType::ONE_RTT, stream(100, 100, true)); });
    Simulator::Schedule(MilliSeconds(33),
                        [&]() { send(QuicCcPacketType::HANDSHAKE, QuicCcPingFrame{}); });
    // A packet number far beyond the decoding window would poison every later ACK.
    Simulator::Schedule(MilliSeconds(34), [&]() {
        pn = uint64_t{1} << 40;
        send(QuicCcPacketType::ONE_RTT, QuicCcPingFrame{});
        pn = 7;
    });
    // The client closes; a late duplicate of its INITIAL must not open a second connection.
    Simulator::Schedule(MilliSeconds(40), [&]() {
        send(QuicCcPacketType::ONE_RTT, QuicCcConnectionCloseFrame{0, "bye"});
    });
    uint64_t listenerDropped = 0;
    std::string listenerReason;
    listener->TraceConnectWithoutContext(
        "DroppedDatagram",
        Callback<void, uint64_t, const std::string&>([&](uint64_t total, const std::string& why) {
            listenerDropped = total;
            listenerReason = why;
        }));
    Simulator::Schedule(MilliSeconds(60), [&]() {
        pn = 0;
        send(QuicCcPacketType::INITIAL, QuicCcPingFrame{});
    });
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    NS_TEST_ASSERT_MSG_EQ(reader.Received(), 100, "the honest part of the stream");
    NS_TEST_ASSERT_MSG_EQ(reader.Mismatches(), 0, "content");
    NS_TEST_ASSERT_MSG_EQ(dropped, 5, "five forged packets dropped");
    NS_TEST_ASSERT_MSG_EQ(reasons.size(), 5, "one reason each");
    NS_TEST_ASSERT_MSG_NE(reasons[0].find("never sent"), std::string::npos, reasons[0]);
    NS_TEST_ASSERT_MSG_NE(reasons[1].find("receive window"), std::string::npos, reasons[1]);
    NS_TEST_ASSERT_MSG_NE(reasons[2].find("final size"), std::string::npos, reasons[2]);
    NS_TEST_ASSERT_MSG_NE(reasons[3].find("HANDSHAKE"), std::string::npos, reasons[3]);
    NS_TEST_ASSERT_MSG_NE(reasons[4].find("decoding window"), std::string::npos, reasons[4]);
    NS_TEST_ASSERT_MSG_EQ(accepted, 1, "the late INITIAL opened no second connection");
    NS_TEST_ASSERT_MSG_EQ(listenerDropped, 1, "the listener dropped the late INITIAL");
    NS_TEST_ASSERT_MSG_NE(listenerReason.find("closed connection"),
                          std::string::npos,
                          listenerReason);
    Simulator::Destroy();
}

/// The transport TestSuite.
class QuicCcTransportTestSuite : public TestSuite
{
  public:
    QuicCcTransportTestSuite()
        : TestSuite("quic-cc-transport", QUICCC_SUITE_SYSTEM)
    {
        AddTestCase(new QuicCcStreamIntegrityTestCase(0.0, "ns3::QuicReno"), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcStreamIntegrityTestCase(0.3, "ns3::QuicReno"), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcStreamIntegrityTestCase(0.0, "ns3::QuicCubic"), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcStreamIntegrityTestCase(0.3, "ns3::QuicCubic"), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcServerSendsTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcReorderDuplicateTestCase("ReceiveBatch"), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcReorderDuplicateTestCase("Rfc9000"), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcIdleTimeoutTestCase(false), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcIdleTimeoutTestCase(true), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcStockApplicationsTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcHostileDatagramTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcForgedPacketTestCase, QUICCC_TEST_QUICK);
    }
};

static QuicCcTransportTestSuite g_quicCcTransportTestSuite; //!< registers the suite
