/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ngtcp2 transport: the real ngtcp2 library inside ns-3 (handshake, byte-exact transfers
 * under loss with each of its controllers, several connections per listener, stock
 * applications, determinism of traces and of ngtcp2's own qlog), and its pure parts (the
 * modelled handshake messages, the congestion-event inference).
 */
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"
#include "quic-cc-test-topology.h"

#include "ns3/applications-module.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/quic-cc-ngtcp2-handshake.h"
#include "ns3/quic-cc-ngtcp2-qlog-map.h"
#include "ns3/quic-cc-ngtcp2-qlog-packets.h"
#include "ns3/quic-cc-ngtcp2-socket-factory.h"
#include "ns3/quic-cc-ngtcp2-socket.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;
using namespace ns3::quiccc::test;

namespace
{

/// Two nodes with the ngtcp2 factory on both.
struct Ngtcp2Pair
{
    QuicCcHelper quic;
    TwoNodes net;
    std::vector<Ptr<QuicCcNgtcp2SocketFactory>> factories;

    explicit Ngtcp2Pair(const std::string& controller,
                        const std::string& rate = "100Mbps",
                        Time delay = MilliSeconds(5))
        : net(quic, rate, delay)
    {
        InternetStackHelper().AssignStreams(net.nodes, 10); // ARP jitter
        for (uint32_t i = 0; i < 2; ++i)
        {
            factories.push_back(QuicCcNgtcp2SocketFactory::Install(net.nodes.Get(i)));
            factories.back()->SetSocketAttribute("CongestionControl", StringValue(controller));
            factories.back()->SetSocketAttribute("MaxDatagramSize", UintegerValue(1350));
            factories.back()->AssignStreams(100 + 1000 * i);
        }
    }

    Ptr<QuicCcNgtcp2Socket> Socket(uint32_t node) const
    {
        return DynamicCast<QuicCcNgtcp2Socket>(factories[node]->CreateSocket());
    }

    Address ServerAddress(uint16_t port) const
    {
        return InetSocketAddress(net.interfaces.GetAddress(1), port);
    }
};

/// One client -> server transfer of pattern bytes, checked byte by byte.
struct Transfer
{
    Ptr<QuicCcNgtcp2Socket> client;
    std::unique_ptr<PatternWriter> writer;
    PatternReader reader;
    std::vector<Ptr<Socket>> accepted;
    bool connected{false};
    bool normalClose{false};
    std::vector<uint64_t> cwnd; //!< the client's CongestionWindow64 trace
    uint32_t writeBytes{8192};  //!< the writer's size of one Send

    void Start(const Ngtcp2Pair& pair,
               Ptr<QuicCcNgtcp2Socket> listener,
               uint16_t port,
               uint64_t bytes)
    {
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<ns3::Socket>, const Address&>(),
                                    MakeCallback(&Transfer::OnAccept, this));
        client = pair.Socket(0);
        client->TraceConnectWithoutContext("CongestionWindow64",
                                           MakeCallback(&Transfer::OnCwnd, this));
        writer = std::make_unique<PatternWriter>(client, bytes, PatternWriter::CLOSE, writeBytes);
        client->SetConnectCallback(MakeCallback(&Transfer::OnConnected, this),
                                   MakeNullCallback<void, Ptr<ns3::Socket>>());
        client->Bind();
        client->Connect(pair.ServerAddress(port));
    }

    void OnConnected(Ptr<ns3::Socket>)
    {
        connected = true;
        writer->Start();
    }

    void OnAccept(Ptr<ns3::Socket> s, const Address&)
    {
        accepted.push_back(s);
        reader.Attach(s);
        s->SetCloseCallbacks(MakeCallback(&Transfer::OnNormalClose, this),
                             MakeNullCallback<void, Ptr<ns3::Socket>>());
    }

    void OnNormalClose(Ptr<ns3::Socket>)
    {
        normalClose = true;
    }

    void OnCwnd(uint64_t, uint64_t value)
    {
        cwnd.push_back(value);
    }
};

Ptr<QuicCcNgtcp2Socket>
Listen(const Ngtcp2Pair& pair, uint16_t port)
{
    Ptr<QuicCcNgtcp2Socket> listener = pair.Socket(1);
    listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
    listener->Listen();
    return listener;
}

} // namespace

/// Test: the modelled handshake messages. Scenario: encode, split at every byte, reassemble;
/// malformed input (a gap, an unknown type, a length past the limit) is refused.
class QuicCcNgtcp2HandshakeMessageTestCase : public TestCase
{
  public:
    QuicCcNgtcp2HandshakeMessageTestCase()
        : TestCase("ngtcp2 handshake messages: sizes, reassembly, malformed input refused")
    {
    }

  private:
    void DoRun() override
    {
        const uint8_t params[] = {1, 2, 3, 4, 5};
        auto hello = QuicCcNgtcp2Handshake::Encode(QuicCcNgtcp2Handshake::CLIENT_HELLO,
                                                   params,
                                                   sizeof(params),
                                                   300);
        NS_TEST_ASSERT_MSG_EQ(hello.size(), 300u, "padded to the modelled size");
        auto fin = QuicCcNgtcp2Handshake::Encode(QuicCcNgtcp2Handshake::FINISHED, params, 0, 2);
        NS_TEST_ASSERT_MSG_EQ(fin.size(), 6u, "grows to header + parameter length (4 + 2)");

        QuicCcNgtcp2Handshake h;
        std::vector<QuicCcNgtcp2Handshake::Message> out;
        std::vector<uint8_t> both = hello;
        both.insert(both.end(), fin.begin(), fin.end());
        for (size_t i = 0; i < both.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(h.Receive(1, i, &both[i], 1, out), true, "byte " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(out.size(), 2u, "two messages");
        NS_TEST_ASSERT_MSG_EQ(out[0].type, QuicCcNgtcp2Handshake::CLIENT_HELLO, "first type");
        NS_TEST_ASSERT_MSG_EQ(out[0].transportParams.size(), 5u, "parameters");
        NS_TEST_ASSERT_MSG_EQ(int(out[0].transportParams[4]), 5, "parameter bytes");
        NS_TEST_ASSERT_MSG_EQ(out[1].type, QuicCcNgtcp2Handshake::FINISHED, "second type");

        QuicCcNgtcp2Handshake gap;
        NS_TEST_ASSERT_MSG_EQ(gap.Receive(0, 1, hello.data(), 10, out), false, "gap refused");
        QuicCcNgtcp2Handshake level;
        NS_TEST_ASSERT_MSG_EQ(level.Receive(2, 0, hello.data(), 10, out), false, "level 2");
        std::vector<uint8_t> bad = hello;
        bad[0] = 99;
        QuicCcNgtcp2Handshake type;
        NS_TEST_ASSERT_MSG_EQ(type.Receive(0, 0, bad.data(), bad.size(), out), false, "type 99");
        bad = hello;
        bad[1] = 0xff; // body 0xff0000+ bytes
        QuicCcNgtcp2Handshake length;
        NS_TEST_ASSERT_MSG_EQ(length.Receive(0, 0, bad.data(), 4, out), false, "too long");
        bad = hello;
        bad[4] = 0xff; // parameters longer than the body
        QuicCcNgtcp2Handshake params2;
        NS_TEST_ASSERT_MSG_EQ(params2.Receive(0, 0, bad.data(), bad.size(), out),
                              false,
                              "parameter length past the body");
    }
};

/// Test: congestion events inferred from ngtcp2_conn_info. Scenario: slow start; HyStart++
/// sets ssthresh without loss (no event); a loss with a cut (event, Recovery); no growth
/// (still Recovery); growth (CongestionAvoidance); a loss without a cut is no event.
class QuicCcNgtcp2CongestionEventsTestCase : public TestCase
{
  public:
    QuicCcNgtcp2CongestionEventsTestCase()
        : TestCase("ngtcp2 congestion events inferred from cwnd, ssthresh and losses")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcNgtcp2CongestionEvents e;
        NS_TEST_ASSERT_MSG_EQ(e.Update({13500, UINT64_MAX, 0}), false, "first sample");
        NS_TEST_ASSERT_MSG_EQ(e.GetState(), QUIC_CC_SLOW_START, "slow start");
        NS_TEST_ASSERT_MSG_EQ(e.Update({40000, 40000, 0}), false, "HyStart++ exit: no event");
        NS_TEST_ASSERT_MSG_EQ(e.GetState(), QUIC_CC_CONGESTION_AVOIDANCE, "cwnd == ssthresh");
        NS_TEST_ASSERT_MSG_EQ(e.Update({28000, 28000, 3}), true, "loss + cut (0.7 x 40000)");
        NS_TEST_ASSERT_MSG_EQ(e.GetState(), QUIC_CC_RECOVERY, "recovery");
        NS_TEST_ASSERT_MSG_EQ(e.Update({28000, 28000, 3}), false, "no change");
        NS_TEST_ASSERT_MSG_EQ(e.GetState(), QUIC_CC_RECOVERY, "still recovery");
        NS_TEST_ASSERT_MSG_EQ(e.Update({28100, 28000, 4}), false, "loss without a cut");
        NS_TEST_ASSERT_MSG_EQ(e.GetState(), QUIC_CC_CONGESTION_AVOIDANCE, "growth ends recovery");
        NS_TEST_ASSERT_MSG_EQ(e.GetEvents(), 1u, "one event");
        NS_TEST_ASSERT_MSG_EQ(e.Update({19000, 19000, 4}), false, "ECN off: a cut without loss");

        // ECN on: a cut of cwnd and ssthresh without a loss is the library's answer to CE
        // (conn_verify_ecn -> congestion_event); HyStart++'s exit still is none.
        QuicCcNgtcp2CongestionEvents ecn;
        ecn.SetEcn(true);
        ecn.Update({13500, UINT64_MAX, 0});
        NS_TEST_ASSERT_MSG_EQ(ecn.Update({40000, 40000, 0}), false, "HyStart++ exit: no event");
        NS_TEST_ASSERT_MSG_EQ(ecn.Update({28000, 28000, 0}), true, "CE: cut, no loss");
        NS_TEST_ASSERT_MSG_EQ(ecn.GetState(), QUIC_CC_RECOVERY, "recovery");
        NS_TEST_ASSERT_MSG_EQ(ecn.Update({28100, 28000, 0}), false, "growth");
        NS_TEST_ASSERT_MSG_EQ(ecn.Update({19670, 19670, 2}), true, "loss + cut");
        NS_TEST_ASSERT_MSG_EQ(ecn.GetEvents(), 2u, "two events");
        NS_TEST_ASSERT_MSG_EQ(ecn.GetEcnEvents(), 1u, "one of them without a loss");
    }
};

/// Test: the 1-RTT packets of ngtcp2's qlog records (lib/ngtcp2_qlog.c's formats), others ignored.
class QuicCcNgtcp2QlogPacketTestCase : public TestCase
{
  public:
    QuicCcNgtcp2QlogPacketTestCase()
        : TestCase("ngtcp2 qlog records: 1-RTT packets sent and lost")
    {
    }

  private:
    static QuicCcNgtcp2QlogPacket Parse(const std::string& record)
    {
        return QuicCcNgtcp2QlogPacket::Parse(reinterpret_cast<const uint8_t*>(record.data()),
                                             record.size());
    }

    void DoRun() override
    {
        const QuicCcNgtcp2QlogPacket sent =
            Parse("\x1e{\"time\":12.5,\"name\":\"transport:packet_sent\",\"data\":{\"frames\":"
                  "[{\"frame_type\":\"ack\",\"acked_ranges\":[[3,7]]},{\"frame_type\":\"stream\","
                  "\"stream_id\":0,\"offset\":0,\"length\":1300}],\"header\":{\"packet_type\":"
                  "\"1RTT\",\"packet_number\":4711},\"raw\":{\"length\":1350}}}\n");
        NS_TEST_ASSERT_MSG_EQ(sent.kind, QuicCcNgtcp2QlogPacket::SENT, "packet_sent");
        NS_TEST_ASSERT_MSG_EQ(sent.packetNumber, 4711u, "its header's number, not a frame's");
        NS_TEST_ASSERT_MSG_EQ(sent.bytes, 1350u, "raw.length");
        const QuicCcNgtcp2QlogPacket lost =
            Parse("\x1e{\"time\":40,\"name\":\"recovery:packet_lost\",\"data\":{\"header\":"
                  "{\"packet_type\":\"1RTT\",\"packet_number\":4711}}}\n");
        NS_TEST_ASSERT_MSG_EQ(lost.kind, QuicCcNgtcp2QlogPacket::LOST, "packet_lost");
        NS_TEST_ASSERT_MSG_EQ(lost.packetNumber, 4711u, "number");
        const QuicCcNgtcp2QlogPacket initial =
            Parse("\x1e{\"time\":0,\"name\":\"transport:packet_sent\",\"data\":{\"frames\":[],"
                  "\"header\":{\"packet_type\":\"initial\",\"packet_number\":0},\"raw\":{"
                  "\"length\":1200}}}\n");
        NS_TEST_ASSERT_MSG_EQ(initial.kind, QuicCcNgtcp2QlogPacket::OTHER, "Initial: other space");
        const QuicCcNgtcp2QlogPacket metrics =
            Parse("\x1e{\"time\":1,\"name\":\"recovery:metrics_updated\",\"data\":{"
                  "\"cwnd\":13500}}\n");
        NS_TEST_ASSERT_MSG_EQ(metrics.kind, QuicCcNgtcp2QlogPacket::OTHER, "no pto_count");
        const QuicCcNgtcp2QlogPacket pto =
            Parse("\x1e{\"time\":2,\"name\":\"recovery:metrics_updated\",\"data\":{"
                  "\"min_rtt\":10,\"smoothed_rtt\":12,\"latest_rtt\":11,\"rtt_variance\":3,"
                  "\"pto_count\":3,\"congestion_window\":13500,\"bytes_in_flight\":2700}}\n");
        NS_TEST_ASSERT_MSG_EQ(pto.kind, QuicCcNgtcp2QlogPacket::METRICS, "metrics with pto_count");
        NS_TEST_ASSERT_MSG_EQ(pto.ptoCount, 3u, "pto_count");
        const QuicCcNgtcp2QlogPacket cut =
            Parse("\x1e{\"time\":1,\"name\":\"transport:packet_sent\",\"data\":{\"header\":{"
                  "\"packet_type\":\"1RTT\",\"packet_number\":");
        NS_TEST_ASSERT_MSG_EQ(cut.kind, QuicCcNgtcp2QlogPacket::OTHER, "a cut record");
        // write_ack_frame: an ACK_ECN frame's counts follow its ranges (ect1, ect0, ce).
        const QuicCcNgtcp2QlogPacket ackEcn =
            Parse("\x1e{\"time\":5,\"name\":\"transport:packet_received\",\"data\":{\"frames\":"
                  "[{\"frame_type\":\"ack\",\"ack_delay\":0.5,\"acked_ranges\":[[0,9]],"
                  "\"ect1\":0,\"ect0\":8,\"ce\":2}],\"header\":{\"packet_type\":\"1RTT\","
                  "\"packet_number\":12},\"raw\":{\"length\":40}}}\n");
        NS_TEST_ASSERT_MSG_EQ(ackEcn.kind, QuicCcNgtcp2QlogPacket::ACK_ECN, "ACK_ECN received");
        NS_TEST_ASSERT_MSG_EQ(ackEcn.ect0, 8u, "ECT(0)");
        NS_TEST_ASSERT_MSG_EQ(ackEcn.ect1, 0u, "ECT(1)");
        NS_TEST_ASSERT_MSG_EQ(ackEcn.ce, 2u, "CE");
        const QuicCcNgtcp2QlogPacket plainAck =
            Parse("\x1e{\"time\":5,\"name\":\"transport:packet_received\",\"data\":{\"frames\":"
                  "[{\"frame_type\":\"ack\",\"ack_delay\":0.5,\"acked_ranges\":[[0,9]]}],"
                  "\"header\":{\"packet_type\":\"1RTT\",\"packet_number\":12},\"raw\":{"
                  "\"length\":40}}}\n");
        NS_TEST_ASSERT_MSG_EQ(plainAck.kind, QuicCcNgtcp2QlogPacket::OTHER, "ACK without counts");
    }
};

/// Test: ngtcp2's qlog 0.3 records mapped to draft-ietf-quic-qlog-quic-events-12 events.
class QuicCcNgtcp2QlogMapTestCase : public TestCase
{
  public:
    QuicCcNgtcp2QlogMapTestCase()
        : TestCase("ngtcp2 qlog records mapped to the qlog main schema's quic events")
    {
    }

  private:
    std::vector<nlohmann::json> Map(QuicCcNgtcp2QlogMap& map, const std::string& record)
    {
        std::vector<nlohmann::json> out;
        for (const std::string& e :
             map.Map(reinterpret_cast<const uint8_t*>(record.data()), record.size(), 7.5))
        {
            out.push_back(nlohmann::json::parse(e));
        }
        return out;
    }

    void DoRun() override
    {
        QuicCcNgtcp2QlogMap map;
        NS_TEST_ASSERT_MSG_EQ(Map(map,
                                  "\x1e{\"qlog_format\":\"JSON-SEQ\",\"qlog_version\":\"0.3\","
                                  "\"trace\":{}}\n")
                                  .size(),
                              0u,
                              "ngtcp2's header: the writer has its own");
        NS_TEST_ASSERT_MSG_EQ(Map(map, "").size(), 0u, "the last, empty write");
        const auto sent =
            Map(map,
                "\x1e{\"time\":12,\"name\":\"transport:packet_sent\",\"data\":{\"frames\":"
                "[{\"frame_type\":\"stream\",\"stream_id\":0,\"offset\":0,\"length\":1300}],"
                "\"header\":{\"packet_type\":\"1RTT\",\"packet_number\":4},\"raw\":{"
                "\"length\":1350}}}\n");
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 1u, "one event");
        NS_TEST_ASSERT_MSG_EQ(sent[0]["name"], "quic:packet_sent", "quic namespace");
        NS_TEST_ASSERT_MSG_EQ(sent[0]["time"], 7.5, "the simulation time of the call");
        NS_TEST_ASSERT_MSG_EQ(sent[0]["data"]["frames"][0].contains("length"),
                              false,
                              "the stream frame's length moved");
        NS_TEST_ASSERT_MSG_EQ(sent[0]["data"]["frames"][0]["raw"]["length"], 1300, "to raw.length");
        NS_TEST_ASSERT_MSG_EQ(sent[0]["data"]["raw"]["length"], 1350, "the packet's raw kept");
        const auto params = Map(map,
                                "\x1e{\"time\":0,\"name\":\"transport:parameters_set\",\"data\":{"
                                "\"owner\":\"local\",\"stateless_reset_token\":{\"data\":"
                                "\"00112233445566778899aabbccddeeff\"},\"max_ack_delay\":25}}\n");
        NS_TEST_ASSERT_MSG_EQ(params[0]["name"], "quic:parameters_set", "name");
        NS_TEST_ASSERT_MSG_EQ(params[0]["data"]["initiator"], "local", "owner -> initiator");
        NS_TEST_ASSERT_MSG_EQ(params[0]["data"].contains("owner"), false, "owner gone");
        NS_TEST_ASSERT_MSG_EQ(params[0]["data"]["stateless_reset_token"],
                              "00112233445566778899aabbccddeeff",
                              "a hex string");
        const auto lost = Map(map,
                              "\x1e{\"time\":40,\"name\":\"recovery:packet_lost\",\"data\":{"
                              "\"header\":{\"packet_type\":\"1RTT\",\"packet_number\":4}}}\n");
        NS_TEST_ASSERT_MSG_EQ(lost[0]["name"], "quic:packet_lost", "packet_lost");
        NS_TEST_ASSERT_MSG_EQ(lost[0]["data"].contains("trigger"), false, "ngtcp2 logs none");
        // pto_count rising is a PTO expiry, logged before the metrics; equal or reset is not.
        const std::vector<std::pair<int, size_t>> ptos{{0, 1},
                                                       {1, 2},
                                                       {1, 1},
                                                       {2, 2},
                                                       {0, 1},
                                                       {1, 2}};
        for (const auto& [count, events] : ptos)
        {
            const auto m = Map(map,
                               "\x1e{\"time\":50,\"name\":\"recovery:metrics_updated\",\"data\":"
                               "{\"pto_count\":" +
                                   std::to_string(count) + ",\"congestion_window\":13500}}\n");
            NS_TEST_ASSERT_MSG_EQ(m.size(),
                                  events,
                                  "events for pto_count " + std::to_string(count));
            NS_TEST_ASSERT_MSG_EQ(m.back()["name"], "quic:recovery_metrics_updated", "metrics");
            NS_TEST_ASSERT_MSG_EQ(m.back()["data"]["congestion_window"], 13500, "fields kept");
            if (events == 2)
            {
                NS_TEST_ASSERT_MSG_EQ(m[0]["name"], "quic:timer_updated", "the PTO first");
                NS_TEST_ASSERT_MSG_EQ(m[0]["data"]["timer_type"], "pto", "timer_type");
                NS_TEST_ASSERT_MSG_EQ(m[0]["data"]["event_type"], "expired", "event_type");
            }
        }
        // ngtcp2's pacing rate (lib/ngtcp2_cc.c set_pacing_rate) from public values.
        NS_TEST_ASSERT_MSG_EQ(QuicCcNgtcp2PacingRate(125'000, 10'000'000, true),
                              125'000'000u,
                              "1.25 x 125000 B / 10 ms = 125 Mbit/s");
        NS_TEST_ASSERT_MSG_EQ(
            QuicCcNgtcp2PacingRate(13'500, 333'000'000, false),
            135'001'071u,
            "before an RTT sample 1 ms stands for smoothed_rtt (integer ns/1024)");
    }
};

/// Test: handshake and a byte-exact transfer over ngtcp2 with random loss on both links.
/// Scenario: 100 Mbit/s, 10 ms RTT, loss in both directions; the server gets exactly the
/// pattern bytes, the client saw losses and congestion events, and both ends close normally.
class QuicCcNgtcp2TransferTestCase : public SimulationTestCase
{
  public:
    QuicCcNgtcp2TransferTestCase(std::string controller, double loss, uint64_t bytes)
        : SimulationTestCase("ngtcp2 " + controller + ": " + std::to_string(bytes) +
                             " bytes, loss " + std::to_string(loss)),
          m_controller(std::move(controller)),
          m_loss(loss),
          m_bytes(bytes)
    {
    }

  private:
    void DoRun() override
    {
        Ngtcp2Pair pair(m_controller);
        std::vector<Ptr<RateErrorModel>> loss;
        if (m_loss > 0)
        {
            loss = pair.net.AddLoss(m_loss);
            int64_t stream = 5000;
            for (auto& em : loss)
            {
                stream += em->AssignStreams(stream);
            }
        }
        Ptr<QuicCcNgtcp2Socket> listener = Listen(pair, 4433);
        Transfer t;
        t.Start(pair, listener, 4433, m_bytes);
        Simulator::Stop(Seconds(60));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(QuicCcNgtcp2Socket::GetLibraryVersion().empty(), false, "version");
        NS_TEST_ASSERT_MSG_EQ(t.connected, true, "client handshake completed");
        NS_TEST_ASSERT_MSG_EQ(t.accepted.size(), 1u, "one accepted connection");
        NS_TEST_ASSERT_MSG_EQ(t.reader.Received(), m_bytes, "every byte arrived");
        NS_TEST_ASSERT_MSG_EQ(t.reader.Mismatches(), 0u, "in order, unaltered");
        NS_TEST_ASSERT_MSG_EQ(t.normalClose, true, "server saw a normal close");
        std::string name = m_controller;
        name[0] = static_cast<char>(std::tolower(name[0]));
        NS_TEST_ASSERT_MSG_EQ(t.client->GetControllerName(), name, "controller");
        NS_TEST_ASSERT_MSG_GT(t.cwnd.size(), 10u, "cwnd traced");
        if (m_loss > 0)
        {
            NS_TEST_ASSERT_MSG_GT(t.client->GetPacketsLost(), 0u, "losses seen");
            if (m_controller != "Bbr")
            {
                NS_TEST_ASSERT_MSG_GT(t.client->GetCongestionEvents(), 0u, "congestion events");
            }
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(t.client->GetPacketsLost(), 0u, "no loss, none declared");
        }
        // Sixty seconds is far beyond the transfer: the closing periods are over.
        NS_TEST_ASSERT_MSG_LT(t.reader.LastByteTime(), Seconds(30), "finished in time");
    }

    std::string m_controller;
    double m_loss;
    uint64_t m_bytes;
};

/// Test: ngtcp2 holds the bytes in flight, not the send buffer. Scenario: 3 MB given in
/// 1000-byte writes (they straddle the connection's 4 KiB chunks) into the default 16 MiB send
/// buffer, with and without loss; every millisecond the client's held stream bytes are compared
/// with its bytes in flight. Expected: every byte arrives unaltered, and without loss the bytes
/// held never exceed the bytes in flight plus three chunks (a chunk being freed, one being
/// filled, one datagram ahead); with loss (acknowledged ranges past a hole stay held) never a
/// tenth of the transfer. Holding the whole send buffer (2.9 MB at the start) fails both.
class QuicCcNgtcp2SendBufferTestCase : public SimulationTestCase
{
  public:
    explicit QuicCcNgtcp2SendBufferTestCase(double loss)
        : SimulationTestCase("ngtcp2 send buffer: bytes held follow bytes in flight, loss " +
                             std::to_string(loss)),
          m_loss(loss)
    {
    }

  private:
    void DoRun() override
    {
        Ngtcp2Pair pair("Cubic");
        if (m_loss > 0)
        {
            int64_t stream = 7000;
            for (auto& em : pair.net.AddLoss(m_loss))
            {
                stream += em->AssignStreams(stream);
            }
        }
        Ptr<QuicCcNgtcp2Socket> listener = Listen(pair, 4433);
        Transfer t;
        t.writeBytes = 1000;
        t.Start(pair, listener, 4433, kBytes);
        t.client->TraceConnectWithoutContext(
            "BytesInFlight64",
            MakeCallback(&QuicCcNgtcp2SendBufferTestCase::OnBytesInFlight, this));
        m_client = t.client;
        Simulator::Schedule(MilliSeconds(1), &QuicCcNgtcp2SendBufferTestCase::Sample, this);
        Simulator::Stop(Seconds(60));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(t.reader.Received(), kBytes, "every byte arrived");
        NS_TEST_ASSERT_MSG_EQ(t.reader.Mismatches(), 0u, "in order, unaltered");
        NS_TEST_ASSERT_MSG_GT(m_samples, 100u, "sampled during the transfer");
        NS_TEST_ASSERT_MSG_GT(m_maxHeld, 0u, "bytes were held");
        if (m_loss > 0)
        {
            NS_TEST_ASSERT_MSG_GT(t.client->GetPacketsLost(), 0u, "losses seen");
            NS_TEST_ASSERT_MSG_LT(m_maxHeld, kBytes / 10, "held bytes, at most");
        }
        else
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(m_maxExcess, 3 * kChunk, "held beyond bytes in flight");
        }
    }

    void OnBytesInFlight(uint64_t, uint64_t value)
    {
        m_bytesInFlight = value;
    }

    void Sample()
    {
        const uint64_t held = m_client->GetStreamBytesHeld();
        m_maxHeld = std::max(m_maxHeld, held);
        m_maxExcess = std::max(m_maxExcess, held > m_bytesInFlight ? held - m_bytesInFlight : 0);
        ++m_samples;
        if (Simulator::Now() < Seconds(20))
        {
            Simulator::Schedule(MilliSeconds(1), &QuicCcNgtcp2SendBufferTestCase::Sample, this);
        }
    }

    static constexpr uint64_t kBytes = 3'000'000;
    static constexpr uint64_t kChunk = 4096; //!< QuicCcNgtcp2Connection's chunk
    double m_loss;
    Ptr<QuicCcNgtcp2Socket> m_client;
    uint64_t m_bytesInFlight{0};
    uint64_t m_maxHeld{0};
    uint64_t m_maxExcess{0};
    uint32_t m_samples{0};
};

/// Test: the LibraryLog trace. Scenario: 1 MB with CUBIC over 3 % loss, twice: without a sink,
/// then with one connected when the client's socket is created (SocketCreated); the second gets
/// ngtcp2's own lines (its congestion controller's "cca" lines among them, the congestion-
/// avoidance ones with cwnd, target and w_est), and the two transfers end at the same time.
class QuicCcNgtcp2LibraryLogTestCase : public SimulationTestCase
{
  public:
    QuicCcNgtcp2LibraryLogTestCase()
        : SimulationTestCase("ngtcp2: LibraryLog passes the library's own log")
    {
    }

  private:
    static void OnLine(std::vector<std::string>* lines, const std::string& line)
    {
        lines->push_back(line);
    }

    /// SocketCreated: the client's socket, before its connection starts.
    static void OnCreated(std::vector<std::string>* lines, Ptr<QuicCcSocketBase> socket)
    {
        socket->TraceConnectWithoutContext("LibraryLog", MakeBoundCallback(&OnLine, lines));
    }

    void DoRun() override
    {
        std::vector<std::string> lines; // of the logged run
        Time last[2];
        for (int logged = 0; logged < 2; ++logged)
        {
            Ngtcp2Pair pair("Cubic");
            int64_t stream = 5000;
            for (auto& em : pair.net.AddLoss(0.03))
            {
                stream += em->AssignStreams(stream);
            }
            Ptr<QuicCcNgtcp2Socket> listener = Listen(pair, 4433);
            if (logged)
            {
                // Before the client's connection starts: its lines arrive.
                pair.factories[0]->TraceConnectWithoutContext(
                    "SocketCreated",
                    MakeBoundCallback(&OnCreated, &lines));
            }
            Transfer t;
            t.Start(pair, listener, 4433, 1'000'000);
            Simulator::Stop(Seconds(30));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(t.reader.Received(), 1'000'000u, "every byte arrived");
            last[logged] = t.reader.LastByteTime();
            Simulator::Destroy();
            Ipv4AddressGenerator::Reset(); // the second pair takes the same addresses
        }
        NS_TEST_ASSERT_MSG_GT(lines.size(), 100u, "the library's lines");
        uint32_t cca = 0;
        uint32_t cubicCa = 0;
        for (const std::string& line : lines)
        {
            NS_TEST_ASSERT_MSG_EQ(line.find('\n'), std::string::npos, "one line per call");
            cca += line.find(" cca ") != std::string::npos ? 1 : 0;
            cubicCa += line.find("cubic-ca cwnd=") != std::string::npos &&
                               line.find(" w_est=") != std::string::npos
                           ? 1
                           : 0;
        }
        NS_TEST_ASSERT_MSG_GT(cca, 10u, "congestion-controller lines");
        NS_TEST_ASSERT_MSG_GT(cubicCa, 0u, "CUBIC congestion-avoidance lines with w_est");
        NS_TEST_ASSERT_MSG_EQ(last[1], last[0], "logging does not change the run");
    }
};

/// Test: several connections to one listener, at once. Scenario: three clients on node 0
/// each send a different amount to the same server port; each accepted connection gets
/// exactly its bytes.
class QuicCcNgtcp2ManyConnectionsTestCase : public SimulationTestCase
{
  public:
    QuicCcNgtcp2ManyConnectionsTestCase()
        : SimulationTestCase("ngtcp2: three connections to one listener")
    {
    }

  private:
    void DoRun() override
    {
        Ngtcp2Pair pair("Cubic");
        Ptr<QuicCcNgtcp2Socket> listener = Listen(pair, 4433);
        const uint64_t sizes[3] = {300'000, 500'000, 700'000};
        std::vector<std::unique_ptr<Transfer>> transfers;
        PatternReader readers[3];
        std::vector<Ptr<ns3::Socket>> accepted;
        listener->SetAcceptCallback(
            MakeNullCallback<bool, Ptr<ns3::Socket>, const Address&>(),
            MakeCallback(&QuicCcNgtcp2ManyConnectionsTestCase::Accept, this));
        m_readers = readers;
        for (int i = 0; i < 3; ++i)
        {
            auto t = std::make_unique<Transfer>();
            t->client = pair.Socket(0);
            t->writer = std::make_unique<PatternWriter>(t->client, sizes[i]);
            t->client->SetConnectCallback(MakeCallback(&Transfer::OnConnected, t.get()),
                                          MakeNullCallback<void, Ptr<ns3::Socket>>());
            t->client->Bind();
            Simulator::Schedule(MilliSeconds(1 + i),
                                [c = t->client, a = pair.ServerAddress(4433)]() { c->Connect(a); });
            transfers.push_back(std::move(t));
        }
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_accepted, 3u, "three accepted");
        for (int i = 0; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(readers[i].Received(), sizes[i], "connection " << i);
            NS_TEST_ASSERT_MSG_EQ(readers[i].Mismatches(), 0u, "connection " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(pair.factories[1]->GetSockets().size(),
                              4u,
                              "listener + three accepted in the server's SocketList");
    }

    void Accept(Ptr<ns3::Socket> s, const Address&)
    {
        // Connections complete in the order they started (1, 2, 3 ms apart).
        m_readers[m_accepted++].Attach(s);
    }

    PatternReader* m_readers{nullptr};
    uint32_t m_accepted{0};
};

/// Test: stock BulkSend / PacketSink over ngtcp2 by the factory's name, with ngtcp2's qlog.
/// Scenario: 1 MB with BBR; the sink gets 1 MB; two runs give byte-identical qlog files and
/// the same cwnd trace (determinism).
class QuicCcNgtcp2StockApplicationsTestCase : public SimulationTestCase
{
  public:
    QuicCcNgtcp2StockApplicationsTestCase()
        : SimulationTestCase("ngtcp2: BulkSend and PacketSink, qlog, two runs identical")
    {
    }

  private:
    struct Run
    {
        uint64_t received{0};
        std::vector<uint64_t> cwnd;
        std::map<std::string, std::string> qlogs; //!< file name -> content
    };

    static void OnCwnd(std::vector<uint64_t>* out, Ptr<QuicCcSocketBase> s)
    {
        s->TraceConnectWithoutContext(
            "CongestionWindow64",
            MakeBoundCallback(
                +[](std::vector<uint64_t>* o, uint64_t, uint64_t v) { o->push_back(v); },
                out));
    }

    Run Once(const std::string& dir)
    {
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
        Run run;
        {
            Ngtcp2Pair pair("Bbr");
            auto loss = pair.net.AddLoss(0.01);
            int64_t stream = 7000;
            for (auto& em : loss)
            {
                stream += em->AssignStreams(stream);
            }
            for (auto& f : pair.factories)
            {
                f->SetSocketAttribute("QlogDirectory", StringValue(dir));
            }
            pair.factories[0]->TraceConnectWithoutContext("SocketCreated",
                                                          MakeBoundCallback(&OnCwnd, &run.cwnd));
            BulkSendHelper bulk("ns3::QuicCcNgtcp2SocketFactory", pair.ServerAddress(9));
            bulk.SetAttribute("MaxBytes", UintegerValue(1'000'000));
            ApplicationContainer sender = bulk.Install(pair.net.nodes.Get(0));
            PacketSinkHelper sinkHelper("ns3::QuicCcNgtcp2SocketFactory",
                                        InetSocketAddress(Ipv4Address::GetAny(), 9));
            ApplicationContainer sink = sinkHelper.Install(pair.net.nodes.Get(1));
            sender.Start(Seconds(0.1));
            Simulator::Stop(Seconds(20));
            Simulator::Run();
            run.received = DynamicCast<PacketSink>(sink.Get(0))->GetTotalRx();
            Simulator::Destroy(); // sockets disposed: every qlog complete and renamed
        }
        for (const auto& entry : std::filesystem::directory_iterator(dir))
        {
            std::ifstream in(entry.path(), std::ios::binary);
            std::stringstream ss;
            ss << in.rdbuf();
            run.qlogs[entry.path().filename().string()] = ss.str();
        }
        return run;
    }

    void DoRun() override
    {
        const std::string dir = CreateTempDirFilename("ngtcp2-qlog");
        Run a = Once(dir + "-a");
        Run b = Once(dir + "-b");
        NS_TEST_ASSERT_MSG_EQ(a.received, 1'000'000u, "the sink got every byte");
        NS_TEST_ASSERT_MSG_EQ(a.qlogs.size(), 2u, "one qlog per endpoint, no .part left");
        for (const auto& [name, text] : a.qlogs)
        {
            NS_TEST_ASSERT_MSG_EQ(name.find(".part"), std::string::npos, name);
            NS_TEST_ASSERT_MSG_NE(text.find("metrics_updated"),
                                  std::string::npos,
                                  name << ": ngtcp2's recovery:metrics_updated events");
        }
        const bool sameQlog = a.qlogs == b.qlogs;
        const bool sameCwnd = a.cwnd == b.cwnd;
        NS_TEST_ASSERT_MSG_EQ(sameQlog, true, "qlog bytes identical across runs");
        NS_TEST_ASSERT_MSG_EQ(sameCwnd, true, "cwnd traces identical across runs");
        NS_TEST_ASSERT_MSG_GT(a.cwnd.size(), 10u, "cwnd traced");
        std::filesystem::remove_all(dir + "-a");
        std::filesystem::remove_all(dir + "-b");
    }
};

/// Test: the transport over IPv6. Scenario: two nodes with IPv6 only, 500 kB client -> server
/// through the listener (Inet6SocketAddress); every byte arrives in order.
class QuicCcNgtcp2Ipv6TestCase : public SimulationTestCase
{
  public:
    QuicCcNgtcp2Ipv6TestCase()
        : SimulationTestCase("ngtcp2 over IPv6: 500 kB byte-exact")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("5ms"));
        NetDeviceContainer devices = p2p.Install(nodes);
        InternetStackHelper internet;
        internet.SetIpv4StackInstall(false);
        internet.Install(nodes);
        internet.AssignStreams(nodes, 10);
        Ipv6AddressHelper ipv6;
        ipv6.SetBase(Ipv6Address("2001:db8::"), Ipv6Prefix(64));
        Ipv6InterfaceContainer ifaces = ipv6.Assign(devices);
        std::vector<Ptr<QuicCcNgtcp2SocketFactory>> factories;
        for (uint32_t i = 0; i < 2; ++i)
        {
            factories.push_back(QuicCcNgtcp2SocketFactory::Install(nodes.Get(i)));
            factories.back()->AssignStreams(100 + 1000 * i);
        }
        Ptr<Socket> listener = factories[1]->CreateSocket();
        NS_TEST_ASSERT_MSG_EQ(listener->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), 4433)),
                              0,
                              "bind");
        listener->Listen();
        PatternReader reader;
        listener->SetAcceptCallback(
            MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
            MakeBoundCallback(
                +[](PatternReader* r, Ptr<Socket> s, const Address&) { r->Attach(s); },
                &reader));
        Ptr<Socket> client = factories[0]->CreateSocket();
        PatternWriter writer(client, 500'000);
        client->SetConnectCallback(MakeBoundCallback(
                                       +[](PatternWriter* w, Ptr<Socket>) { w->Start(); },
                                       &writer),
                                   MakeNullCallback<void, Ptr<Socket>>());
        // After duplicate address detection (RFC 4862) has finished on both interfaces.
        Simulator::Schedule(Seconds(2), [client, a = ifaces.GetAddress(1, 1)]() {
            client->Bind6();
            client->Connect(Inet6SocketAddress(a, 4433));
        });
        Simulator::Stop(Seconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(reader.Received(), 500'000u, "every byte over IPv6");
        NS_TEST_ASSERT_MSG_EQ(reader.Mismatches(), 0u, "in order, unaltered");
    }
};

/// The ngtcp2 transport's suite (built when the library is; cmake/quic-cc-ngtcp2.cmake).
class QuicCcNgtcp2TestSuite : public TestSuite
{
  public:
    QuicCcNgtcp2TestSuite()
        : TestSuite("quic-cc-ngtcp2", QUICCC_SUITE_SYSTEM)
    {
        AddTestCase(new QuicCcNgtcp2HandshakeMessageTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2CongestionEventsTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2QlogPacketTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2QlogMapTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2TransferTestCase("Cubic", 0.0, 2'000'000), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2TransferTestCase("Cubic", 0.03, 2'000'000), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2TransferTestCase("Reno", 0.03, 2'000'000), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2TransferTestCase("Bbr", 0.03, 2'000'000), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2SendBufferTestCase(0.0), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2SendBufferTestCase(0.03), QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2ManyConnectionsTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2Ipv6TestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2StockApplicationsTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcNgtcp2LibraryLogTestCase, QUICCC_TEST_QUICK);
    }
};

static QuicCcNgtcp2TestSuite g_quicCcNgtcp2TestSuite;
