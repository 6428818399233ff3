/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcConnection without sockets: two connections wired back to back through fake owners that
 * carry each datagram to the peer after a fixed one-way delay (optionally dropping some). The
 * handshake, the byte stream under loss, what is dropped as untrustworthy, the idle timeout and
 * Dispose() are checked on the connection's own interface.
 */
#include "ns3/double.h"
#include "ns3/packet.h"
#include "ns3/quic-cc-connection.h"
#include "ns3/quic-cc-flow-control.h"
#include "ns3/quic-cc-frames.h"
#include "ns3/quic-reno.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"

#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace ns3;

namespace
{

constexpr uint64_t kConnectionId = 0x1234;

/// A fake QuicCcSocket: records every report and carries datagrams to its peer.
class Endpoint : public QuicCcConnection::Owner
{
  public:
    Endpoint(bool server, const QuicCcConnection::Config& config)
    {
        connection = Create<QuicCcConnection>(*this,
                                              config,
                                              CreateObject<QuicReno>(),
                                              server,
                                              kConnectionId);
    }

    void SendDatagram(Ptr<Packet> datagram, QuicCcEcnCodepoint ecn) override
    {
        sizes.push_back(datagram->GetSize());
        codepointsSent.push_back(ecn);
        const size_t index = sizes.size() - 1;
        std::vector<uint8_t> bytes(datagram->GetSize());
        datagram->CopyData(bytes.data(), bytes.size());
        const bool dropFlowFrame = CountFlowControlFrames(bytes);
        // The sender never has stream data beyond the peer's announced limit.
        if (peer &&
            connection->GetSendStream().GetNextOffset() >
                std::min(peer->connection->GetFlowLimits().maxData,
                         peer->connection->GetFlowLimits().maxStreamData) &&
            connection->GetFlowLimits().peerMaxData != kQuicCcVarIntMax)
        {
            ++beyondPeerLimit;
        }
        if (!peer || dropFlowFrame || (drop && drop(index)))
        {
            return;
        }
        Endpoint* to = peer;
        const QuicCcEcnCodepoint arriving = path ? path(index, ecn) : ecn;
        Simulator::Schedule(MilliSeconds(10),
                            [to, bytes, arriving]() { to->Receive(bytes, arriving); });
    }

    /// A datagram from the peer: its flow-control frames are recorded, then it is processed.
    void Receive(const std::vector<uint8_t>& bytes,
                 QuicCcEcnCodepoint ecn = QuicCcEcnCodepoint::NOT_ECT)
    {
        for (const QuicCcFlowControlFrame& flow : FlowControlFrames(bytes))
        {
            flowFramesReceived[flow.type].push_back(flow.limit);
        }
        connection->OnDatagram(bytes, nullptr, ecn);
    }

    void OnDatagramDropped(const std::string& reason) override
    {
        drops.push_back(reason);
    }

    void OnPacketSent(uint64_t packetNumber, uint64_t bytes) override
    {
        packetNumbersSent.push_back(packetNumber);
    }

    void OnPacketReceived(uint64_t packetNumber, uint64_t bytes) override
    {
        ++packetsReceived;
    }

    void OnRttSample(const QuicRttStats& rtt) override
    {
        lastRtt = rtt.GetLatestRtt();
    }

    void OnPtoExpired(uint32_t ptoCount) override
    {
        ptoCounts.push_back(ptoCount);
    }

    void OnHandshakeComplete() override
    {
        handshakeAt.push_back(Simulator::Now());
    }

    bool IsReceiving() const override
    {
        return true;
    }

    void OnDataReceived() override
    {
        if (readOnArrival)
        {
            Read(1 << 20);
        }
    }

    /// The application reads up to \p maxSize bytes.
    void Read(uint32_t maxSize)
    {
        Ptr<Packet> chunk = connection->Read(maxSize);
        if (!chunk)
        {
            return;
        }
        const size_t before = received.size();
        received.resize(before + chunk->GetSize());
        chunk->CopyData(received.data() + before, chunk->GetSize());
    }

    void OnDataSent(uint64_t bytes) override
    {
        newBytesSent += bytes;
    }

    void OnSendBufferFreed(uint32_t available) override
    {
        ++sendBufferFreed;
    }

    void OnPeerClose(uint64_t errorCode, const std::string& reason) override
    {
        peerClose.push_back(errorCode);
        connection->Close();
    }

    void OnPacketProcessed() override
    {
    }

    void OnIdleTimeout(Time idle) override
    {
        idleAt.push_back(Simulator::Now());
        stateAtIdle = connection->GetState();
        connection->Close();
    }

    void OnTransportError(uint64_t errorCode, const std::string& reason) override
    {
        transportErrors.push_back(errorCode);
        stateAtError = connection->GetState();
    }

    /// The flow-control frames of a datagram.
    static std::vector<QuicCcFlowControlFrame> FlowControlFrames(const std::vector<uint8_t>& bytes)
    {
        std::vector<QuicCcFlowControlFrame> found;
        const QuicCcParseResult parsed = QuicCcParse(bytes.data(), bytes.size());
        EXPECT_TRUE(parsed.packet) << parsed.error;
        if (!parsed.packet)
        {
            return found;
        }
        for (const QuicCcFrame& frame : parsed.packet->frames)
        {
            if (const auto* flow = std::get_if<QuicCcFlowControlFrame>(&frame))
            {
                found.push_back(*flow);
            }
        }
        return found;
    }

    /// Count the flow-control frames of a datagram this endpoint sends; true if it carries the
    /// first frame of a type in dropFirst (the datagram is then lost).
    bool CountFlowControlFrames(const std::vector<uint8_t>& bytes)
    {
        bool lost = false;
        for (const QuicCcFlowControlFrame& flow : FlowControlFrames(bytes))
        {
            ++flowFramesSent[flow.type];
            if (dropFirst.erase(flow.type) > 0)
            {
                lost = true;
                droppedFlowFrames.push_back(flow);
                if (onFlowFrameDropped)
                {
                    onFlowFrameDropped(flow);
                }
            }
        }
        return lost;
    }

    Ptr<QuicCcConnection> connection;
    Endpoint* peer{nullptr};
    bool readOnArrival{true};
    std::map<QuicCcFrameType, uint64_t> flowFramesSent;
    std::map<QuicCcFrameType, std::vector<uint64_t>> flowFramesReceived; //!< limits, in order
    std::set<QuicCcFrameType> dropFirst; //!< lose the first datagram carrying each of these
    std::vector<QuicCcFlowControlFrame> droppedFlowFrames;
    std::function<void(const QuicCcFlowControlFrame&)> onFlowFrameDropped;
    uint64_t beyondPeerLimit{0};
    std::function<bool(size_t)> drop; //!< drop the n-th datagram sent (0-based)
    /// the path's ECN field: what the n-th datagram sent with a codepoint arrives with
    std::function<QuicCcEcnCodepoint(size_t, QuicCcEcnCodepoint)> path;
    std::vector<uint32_t> sizes;                    //!< every datagram handed over
    std::vector<QuicCcEcnCodepoint> codepointsSent; //!< the codepoint of each datagram
    std::vector<uint64_t> packetNumbersSent;
    std::vector<std::string> drops;
    std::vector<Time> handshakeAt;
    std::vector<uint64_t> transportErrors;
    QuicCcConnection::State stateAtError{QuicCcConnection::STATE_IDLE};
    std::vector<Time> idleAt;
    std::vector<uint64_t> peerClose;
    std::vector<uint8_t> received;
    QuicCcConnection::State stateAtIdle{QuicCcConnection::STATE_IDLE};
    uint64_t packetsReceived{0};
    uint64_t newBytesSent{0};
    uint64_t sendBufferFreed{0};
    Time lastRtt;
    std::vector<uint32_t> ptoCounts; //!< OnPtoExpired, in order
};

QuicCcConnection::Config
TestConfig()
{
    QuicCcConnection::Config config;
    config.sendDelay = CreateObject<ConstantRandomVariable>();
    config.ackProcessingDelay = CreateObject<ConstantRandomVariable>();
    config.idleTimeout = Seconds(5);
    return config;
}

/// A client and a server connection, 10 ms apart, each started (idle timers armed).
class QuicCcConnectionTest : public ::testing::Test
{
  protected:
    explicit QuicCcConnectionTest(const QuicCcConnection::Config& config = TestConfig())
        : client(false, config),
          server(true, config)
    {
        client.peer = &server;
        server.peer = &client;
        client.connection->Start();
        server.connection->Start();
        server.connection->AcceptClient();
    }

    ~QuicCcConnectionTest() override
    {
        client.connection->Dispose();
        server.connection->Dispose();
        Simulator::Destroy();
    }

    Endpoint client;
    Endpoint server;
};

std::vector<uint8_t>
Pattern(size_t size)
{
    std::vector<uint8_t> data(size);
    for (size_t i = 0; i < size; ++i)
    {
        data[i] = static_cast<uint8_t>((i * 131 + 7) % 251);
    }
    return data;
}

} // namespace

TEST_F(QuicCcConnectionTest, HandshakeTakesOneRoundTrip)
{
    client.connection->StartClientHandshake();
    EXPECT_EQ(client.connection->GetState(), QuicCcConnection::STATE_HANDSHAKE);
    ASSERT_EQ(client.sizes.size(), 1u);
    EXPECT_GE(client.sizes[0], 1200u); // RFC 9000 Section 14.1: INITIAL padded
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    ASSERT_EQ(client.handshakeAt.size(), 1u);
    EXPECT_EQ(client.handshakeAt[0], MilliSeconds(20));
    EXPECT_EQ(client.connection->GetState(), QuicCcConnection::STATE_ESTABLISHED);
    EXPECT_EQ(client.lastRtt, MilliSeconds(20));
    EXPECT_TRUE(client.drops.empty());
    EXPECT_TRUE(server.drops.empty());
    // Packet numbers are consecutive from 0.
    for (size_t i = 0; i < client.packetNumbersSent.size(); ++i)
    {
        EXPECT_EQ(client.packetNumbersSent[i], i);
    }
}

TEST_F(QuicCcConnectionTest, StreamArrivesWholeUnderLoss)
{
    const std::vector<uint8_t> data = Pattern(300000);
    client.drop = [](size_t n) { return n % 7 == 3; }; // the INITIAL gets through
    server.drop = [](size_t n) { return n % 11 == 5; };
    client.connection->StartClientHandshake();
    client.connection->Send(Create<Packet>(data.data(), static_cast<uint32_t>(data.size())));
    client.connection->FinishStream();
    Simulator::Stop(Seconds(4));
    Simulator::Run();
    EXPECT_TRUE(server.connection->GetRecvStream().Complete());
    EXPECT_EQ(server.connection->GetBytesReceived(), data.size());
    EXPECT_EQ(server.received, data);
    EXPECT_TRUE(client.connection->GetSendStream().AllAcked());
    EXPECT_EQ(client.newBytesSent, data.size()); // retransmissions are not new bytes
    EXPECT_GT(client.connection->GetLossDetection().GetLostPacketCount(), 0u);
    EXPECT_GT(client.sendBufferFreed, 0u);
    EXPECT_EQ(client.connection->GetTxAvailable(), TestConfig().sndBufSize);
    EXPECT_TRUE(client.drops.empty());
    EXPECT_TRUE(server.drops.empty());
}

TEST_F(QuicCcConnectionTest, PeerCloseEndsTheConnection)
{
    client.connection->StartClientHandshake();
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    server.connection->SendConnectionClose(7, "test");
    server.connection->Close();
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    ASSERT_EQ(client.peerClose.size(), 1u);
    EXPECT_EQ(client.peerClose[0], 7u);
    EXPECT_EQ(client.connection->GetState(), QuicCcConnection::STATE_CLOSED);
}

TEST_F(QuicCcConnectionTest, DropsWhatItCannotTrust)
{
    const std::vector<uint8_t> garbage{0xff, 0x00, 0x01};
    server.connection->OnDatagram(garbage);
    ASSERT_EQ(server.drops.size(), 1u);

    QuicCcPacket other;
    other.connectionId = kConnectionId + 1;
    other.frames.emplace_back(QuicCcPingFrame{});
    server.connection->OnDatagram(QuicCcSerialize(other));
    ASSERT_EQ(server.drops.size(), 2u);
    EXPECT_EQ(server.drops[1], "unknown connection id " + std::to_string(kConnectionId + 1));

    QuicCcPacket ack;
    ack.connectionId = kConnectionId;
    ack.frames.emplace_back(QuicCcAckFrame{{{0, 5}}, Time(0)});
    server.connection->OnDatagram(QuicCcSerialize(ack));
    ASSERT_EQ(server.drops.size(), 3u);
    EXPECT_EQ(server.drops[2], "ACK of packet 5 that was never sent (next 0)");

    QuicCcPacket initial;
    initial.type = QuicCcPacketType::INITIAL;
    initial.connectionId = kConnectionId;
    initial.frames.emplace_back(QuicCcPingFrame{});
    client.connection->OnDatagram(QuicCcSerialize(initial));
    ASSERT_EQ(client.drops.size(), 1u);
    EXPECT_EQ(client.drops[0], "client received an INITIAL packet");
    EXPECT_EQ(server.packetsReceived + client.packetsReceived, 0u);
}

TEST_F(QuicCcConnectionTest, IdleTimeoutWhenThePeerIsSilent)
{
    client.peer = nullptr; // nothing reaches the server
    client.connection->StartClientHandshake();
    Simulator::Run(); // ends: the owner closes the connection, which removes every timer
    ASSERT_EQ(client.idleAt.size(), 1u);
    EXPECT_EQ(client.idleAt[0], Seconds(5));
    EXPECT_EQ(client.stateAtIdle, QuicCcConnection::STATE_HANDSHAKE);
    EXPECT_EQ(Simulator::Now(), Seconds(5));
    EXPECT_GT(client.sizes.size(), 1u); // the INITIAL was repeated on PTO
    EXPECT_TRUE(client.handshakeAt.empty());
    // Every expiry reported with its consecutive count (no ACK resets it): 1, 2, 3, ...; one
    // INITIAL repeated per expiry at least.
    ASSERT_FALSE(client.ptoCounts.empty());
    for (size_t i = 0; i < client.ptoCounts.size(); ++i)
    {
        EXPECT_EQ(client.ptoCounts[i], i + 1);
    }
    EXPECT_GE(client.sizes.size(), client.ptoCounts.size() + 1);
}

TEST_F(QuicCcConnectionTest, DisposeStopsEveryTimer)
{
    client.peer = nullptr;
    client.connection->StartClientHandshake();
    client.connection->Dispose(); // the owner may go away now: nothing reports to it any more
    Simulator::Run();
    EXPECT_EQ(client.sizes.size(), 1u);
    EXPECT_TRUE(client.idleAt.empty());
    EXPECT_EQ(client.connection->GetState(), QuicCcConnection::STATE_CLOSED);
}

TEST(QuicCcConnectionConfigTest, InvalidValuesAbortNamingTheAttribute)
{
    QuicCcConnection::Config config = TestConfig();
    config.rcvBufSize = 1000;
    EXPECT_DEATH(config.Validate(), "QuicCcSocket::RcvBufSize \\(1000\\) must hold");
    // A flow-control window below one datagram would never reopen (half of it rounds to 0).
    config = TestConfig();
    config.flowControl = true;
    config.initialMaxStreamData = 1;
    EXPECT_DEATH(config.Validate(),
                 "QuicCcSocket::InitialMaxStreamData \\(1\\) must hold at least one datagram");
    config.initialMaxStreamData = config.mss;
    config.initialMaxData = config.mss - 1;
    EXPECT_DEATH(config.Validate(), "QuicCcSocket::InitialMaxData \\([0-9]+\\) must hold");
    config.initialMaxData = config.mss;
    config.Validate(); // one datagram each is enough
    // Without FlowControl a limit would be ignored: refused unless it is the default.
    config.flowControl = false;
    EXPECT_DEATH(config.Validate(),
                 "QuicCcSocket::InitialMaxData \\([0-9]+\\) has no effect with FlowControl=false");
    config.initialMaxData = QuicCcConnection::Config{}.initialMaxData;
    EXPECT_DEATH(
        config.Validate(),
        "QuicCcSocket::InitialMaxStreamData \\([0-9]+\\) has no effect with FlowControl=false");
    config.initialMaxStreamData = QuicCcConnection::Config{}.initialMaxStreamData;
    config.Validate();
    config = TestConfig();
    config.idleTimeout = Time(0);
    EXPECT_DEATH(config.Validate(), "QuicCcSocket::IdleTimeout must be positive");
    config = TestConfig();
    EXPECT_DEATH(
        {
            config.mss = 65508;
            config.CheckIpv4Size(true);
        },
        "exceeds the IPv4 UDP payload limit 65507");
    config.mss = 65508;
    config.CheckIpv4Size(false); // IPv6 carries it
}

// A listener's connection gets its configuration; random variables are clones, not shared, so
// each connection draws from its own streams.
TEST(QuicCcConnectionConfigTest, CloneForConnectionClonesRandomVariables)
{
    QuicCcConnection::Config config = TestConfig();
    config.mss = 1400;
    config.acks.maxAckDelay = MilliSeconds(7);
    config.pacing = QuicCcConnection::PACING_RFC9002;
    Ptr<UniformRandomVariable> delay = CreateObject<UniformRandomVariable>();
    delay->SetAttribute("Max", DoubleValue(0.001));
    config.sendDelay = delay;
    const QuicCcConnection::Config copy = config.CloneForConnection();
    EXPECT_EQ(copy.mss, 1400u);
    EXPECT_EQ(copy.acks.maxAckDelay, MilliSeconds(7));
    EXPECT_EQ(copy.pacing, QuicCcConnection::PACING_RFC9002);
    ASSERT_TRUE(copy.sendDelay);
    ASSERT_TRUE(copy.ackProcessingDelay);
    EXPECT_NE(copy.sendDelay, config.sendDelay);
    EXPECT_NE(copy.ackProcessingDelay, config.ackProcessingDelay);
    EXPECT_EQ(copy.sendDelay->GetInstanceTypeId(), UniformRandomVariable::GetTypeId());
    DoubleValue max;
    copy.sendDelay->GetAttribute("Max", max);
    EXPECT_DOUBLE_EQ(max.Get(), 0.001);
    Simulator::Destroy();
}

namespace
{

constexpr uint64_t kMaxData = 30000;
constexpr uint64_t kMaxStreamData = 20000;

QuicCcConnection::Config
FlowControlConfig()
{
    QuicCcConnection::Config config = TestConfig();
    config.flowControl = true;
    config.initialMaxData = kMaxData;
    config.initialMaxStreamData = kMaxStreamData;
    return config;
}

/// Both ends with FlowControl and small limits; the server's application reads only when told.
class QuicCcFlowControlTest : public QuicCcConnectionTest
{
  protected:
    QuicCcFlowControlTest()
        : QuicCcConnectionTest(FlowControlConfig())
    {
        server.readOnArrival = false;
    }

    /// A STREAM datagram from the client ending at stream offset \p end.
    std::vector<uint8_t> StreamDatagram(uint64_t end, uint64_t packetNumber) const
    {
        const std::vector<uint8_t> data = Pattern(100);
        QuicCcPacket packet;
        packet.connectionId = kConnectionId;
        packet.packetNumber = packetNumber;
        packet.frames.emplace_back(
            QuicCcStreamFrame{end - data.size(),
                              false,
                              Create<Packet>(data.data(), static_cast<uint32_t>(data.size()))});
        return QuicCcSerialize(packet);
    }

    /// The client starts the handshake and sends \p data on its stream, then 1 s runs.
    void SendForOneSecond(const std::vector<uint8_t>& data)
    {
        client.connection->StartClientHandshake();
        client.connection->Send(Create<Packet>(data.data(), static_cast<uint32_t>(data.size())));
        client.connection->FinishStream();
        Simulator::Stop(Seconds(1));
        Simulator::Run();
    }

    /// A slow reader, 5000 bytes every 10 ms for 2 s: the stream completes with \p data, every
    /// byte acknowledged, the sender never past the peer's limit.
    void ReadSlowlyToTheEnd(const std::vector<uint8_t>& data)
    {
        for (int i = 1; i <= 60; ++i)
        {
            Simulator::Schedule(MilliSeconds(10 * i), [this]() { server.Read(5000); });
        }
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        EXPECT_TRUE(server.connection->GetRecvStream().Complete());
        EXPECT_EQ(server.received, data);
        EXPECT_TRUE(client.connection->GetSendStream().AllAcked());
        EXPECT_EQ(client.beyondPeerLimit, 0u);
    }
};

} // namespace

TEST_F(QuicCcFlowControlTest, SenderStaysWithinThePeersLimitAndMaxDataFollowsReads)
{
    const std::vector<uint8_t> data = Pattern(200000);
    SendForOneSecond(data);
    // Nothing read: the client stops exactly at the stream limit and says it is blocked.
    EXPECT_EQ(client.connection->GetSendStream().GetNextOffset(), kMaxStreamData);
    EXPECT_EQ(server.connection->GetRecvStream().Available(), kMaxStreamData);
    EXPECT_EQ(client.flowFramesSent[QuicCcFrameType::STREAM_DATA_BLOCKED], 1u);
    EXPECT_EQ(server.flowFramesSent[QuicCcFrameType::MAX_STREAM_DATA], 0u);
    // A stalled sender is flow-control limited, not window limited: no loss, nothing re-sent.
    EXPECT_EQ(client.connection->GetLossDetection().GetLostPacketCount(), 0u);

    // Reading 10000 bytes leaves 10000 open, half the window and not less: no update yet.
    server.Read(10000);
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    EXPECT_EQ(server.flowFramesSent[QuicCcFrameType::MAX_STREAM_DATA], 0u);
    EXPECT_EQ(client.connection->GetSendStream().GetNextOffset(), kMaxStreamData);
    // One byte more: quiche's rule fires, the new limit is consumed + window.
    server.Read(1);
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    EXPECT_EQ(server.flowFramesSent[QuicCcFrameType::MAX_STREAM_DATA], 1u);
    EXPECT_EQ(server.connection->GetFlowLimits().maxStreamData, 10001 + kMaxStreamData);
    EXPECT_EQ(client.connection->GetFlowLimits().peerMaxStreamData, 10001 + kMaxStreamData);
    // Now the connection limit (30000, no update yet: 19999 of 30000 open) is the tighter one.
    EXPECT_EQ(client.connection->GetSendStream().GetNextOffset(), kMaxData);
    EXPECT_EQ(client.flowFramesSent[QuicCcFrameType::DATA_BLOCKED], 1u);

    // A slow reader, 5000 bytes every 10 ms: the transfer completes, byte-exact.
    ReadSlowlyToTheEnd(data);
    EXPECT_GT(server.flowFramesSent[QuicCcFrameType::MAX_DATA], 1u);
    EXPECT_GT(server.flowFramesSent[QuicCcFrameType::MAX_STREAM_DATA], 5u);
    EXPECT_GT(client.flowFramesSent[QuicCcFrameType::STREAM_DATA_BLOCKED], 1u);
    EXPECT_TRUE(client.transportErrors.empty());
    EXPECT_TRUE(server.transportErrors.empty());
}

TEST_F(QuicCcFlowControlTest, DataUpToTheLimitIsAccepted)
{
    client.connection->StartClientHandshake();
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    server.connection->OnDatagram(StreamDatagram(kMaxStreamData, 1000));
    EXPECT_TRUE(server.transportErrors.empty());
    EXPECT_EQ(server.connection->GetState(), QuicCcConnection::STATE_ESTABLISHED);
}

TEST_F(QuicCcFlowControlTest, DataBeyondTheLimitClosesWithFlowControlError)
{
    client.connection->StartClientHandshake();
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    server.connection->OnDatagram(StreamDatagram(kMaxStreamData + 1, 1000));
    ASSERT_EQ(server.transportErrors.size(), 1u);
    EXPECT_EQ(server.transportErrors[0], QuicCcConnection::kFlowControlError);
    EXPECT_EQ(server.stateAtError, QuicCcConnection::STATE_CLOSED);
    EXPECT_EQ(server.connection->GetBytesReceived(), 0u); // nothing of it delivered
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    ASSERT_EQ(client.peerClose.size(), 1u); // the peer learns why
    EXPECT_EQ(client.peerClose[0], QuicCcConnection::kFlowControlError);
}

// RFC 9000 Section 13.3: the datagram carrying the first STREAM_DATA_BLOCKED (at the stream
// limit) and the one carrying the first DATA_BLOCKED (at the connection limit) are lost; the
// sender, still blocked at that limit, sends each again, and the peer receives it.
TEST_F(QuicCcFlowControlTest, LostBlockedIsSentAgainWhileStillBlocked)
{
    client.dropFirst = {QuicCcFrameType::STREAM_DATA_BLOCKED, QuicCcFrameType::DATA_BLOCKED};
    const std::vector<uint8_t> data = Pattern(200000);
    SendForOneSecond(data);
    EXPECT_EQ(client.connection->GetSendStream().GetNextOffset(), kMaxStreamData);
    ASSERT_EQ(client.droppedFlowFrames.size(), 1u);
    EXPECT_EQ(client.droppedFlowFrames[0].limit, kMaxStreamData);
    EXPECT_GE(client.connection->GetLossDetection().GetLostPacketCount(), 1u);
    EXPECT_GE(client.flowFramesSent[QuicCcFrameType::STREAM_DATA_BLOCKED], 2u);
    const std::vector<uint64_t>& streamBlocked =
        server.flowFramesReceived[QuicCcFrameType::STREAM_DATA_BLOCKED];
    ASSERT_FALSE(streamBlocked.empty());
    EXPECT_EQ(streamBlocked.front(), kMaxStreamData);

    // The stream limit moves to 30001: now the connection's 30000 binds.
    server.Read(10001);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    EXPECT_EQ(client.connection->GetSendStream().GetNextOffset(), kMaxData);
    ASSERT_EQ(client.droppedFlowFrames.size(), 2u);
    EXPECT_EQ(client.droppedFlowFrames[1].type, QuicCcFrameType::DATA_BLOCKED);
    EXPECT_EQ(client.droppedFlowFrames[1].limit, kMaxData);
    EXPECT_GE(client.flowFramesSent[QuicCcFrameType::DATA_BLOCKED], 2u);
    const std::vector<uint64_t>& dataBlocked =
        server.flowFramesReceived[QuicCcFrameType::DATA_BLOCKED];
    ASSERT_FALSE(dataBlocked.empty());
    EXPECT_EQ(dataBlocked.front(), kMaxData);

    ReadSlowlyToTheEnd(data);
    EXPECT_TRUE(client.transportErrors.empty());
    EXPECT_TRUE(server.transportErrors.empty());
}

// The lost STREAM_DATA_BLOCKED reported 20000; the peer raised the limit before the loss was
// detected: the sender is no longer blocked at 20000 and does not send it again (RFC 9000
// Section 13.3), it reports the connection limit it is blocked at now.
TEST_F(QuicCcFlowControlTest, LostBlockedIsNotSentAgainOnceTheLimitMoved)
{
    client.dropFirst = {QuicCcFrameType::STREAM_DATA_BLOCKED};
    // The peer reads when the lost frame would have arrived (all data before it has).
    client.onFlowFrameDropped = [this](const QuicCcFlowControlFrame&) {
        Simulator::Schedule(MilliSeconds(10), [this]() { server.Read(10001); });
    };
    const std::vector<uint8_t> data = Pattern(200000);
    SendForOneSecond(data);
    ASSERT_EQ(client.droppedFlowFrames.size(), 1u);
    EXPECT_EQ(client.droppedFlowFrames[0].limit, kMaxStreamData);
    EXPECT_GE(client.connection->GetLossDetection().GetLostPacketCount(), 1u);
    EXPECT_EQ(client.connection->GetSendStream().GetNextOffset(), kMaxData);
    EXPECT_EQ(client.flowFramesSent[QuicCcFrameType::STREAM_DATA_BLOCKED], 1u);
    EXPECT_TRUE(server.flowFramesReceived[QuicCcFrameType::STREAM_DATA_BLOCKED].empty());
    EXPECT_EQ(client.flowFramesSent[QuicCcFrameType::DATA_BLOCKED], 1u);
    EXPECT_EQ(server.flowFramesReceived[QuicCcFrameType::DATA_BLOCKED],
              std::vector<uint64_t>{kMaxData});
}

// RFC 9000 Section 13.3: the datagram carrying the first MAX_DATA / MAX_STREAM_DATA (after the
// read that moves the stream limit to 30001) is lost; the limits go out again and the blocked
// sender continues; the transfer completes byte-exact.
TEST_F(QuicCcFlowControlTest, LostMaxStreamDataIsSentAgainWithTheCurrentLimit)
{
    server.dropFirst = {QuicCcFrameType::MAX_STREAM_DATA};
    const std::vector<uint8_t> data = Pattern(200000);
    SendForOneSecond(data);
    EXPECT_EQ(client.connection->GetSendStream().GetNextOffset(), kMaxStreamData);
    // Flow-control limited with cwnd open: application-limited for the controller (RFC 9002
    // Section 7.8, as quiche).
    EXPECT_TRUE(client.connection->GetCongestionController()->IsAppLimited());
    server.Read(10001);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    ASSERT_EQ(server.droppedFlowFrames.size(), 1u);
    EXPECT_EQ(server.droppedFlowFrames[0].limit, 10001 + kMaxStreamData);
    EXPECT_GE(server.connection->GetLossDetection().GetLostPacketCount(), 1u);
    EXPECT_GE(server.flowFramesSent[QuicCcFrameType::MAX_STREAM_DATA], 2u);
    const std::vector<uint64_t>& received =
        client.flowFramesReceived[QuicCcFrameType::MAX_STREAM_DATA];
    ASSERT_FALSE(received.empty());
    EXPECT_EQ(received.front(), 10001 + kMaxStreamData);
    EXPECT_EQ(client.connection->GetFlowLimits().peerMaxStreamData, 10001 + kMaxStreamData);
    EXPECT_EQ(client.connection->GetSendStream().GetNextOffset(), kMaxData);

    ReadSlowlyToTheEnd(data);
}

TEST(QuicCcFlowControlRuleTest, UpdatesWhenLessThanHalfTheWindowIsOpen)
{
    QuicCcFlowControl flow(1000);
    EXPECT_EQ(flow.GetLimit(), 1000u);
    EXPECT_FALSE(flow.Exceeds(1000));
    EXPECT_TRUE(flow.Exceeds(1001));
    flow.AddConsumed(500); // 500 open = half: no update (quiche: available < window / 2)
    EXPECT_FALSE(flow.ShouldUpdate());
    flow.AddConsumed(1);
    EXPECT_TRUE(flow.ShouldUpdate());
    EXPECT_EQ(flow.Update(), 1501u); // consumed + window
    EXPECT_FALSE(flow.ShouldUpdate());
    EXPECT_TRUE(flow.Exceeds(1502));
}

namespace
{

QuicCcConnection::Config
EcnConfig()
{
    QuicCcConnection::Config config = TestConfig();
    config.ecn = true;
    return config;
}

/// Both ends with ECN (RFC 9000 Section 13.4): the client sends 300 KB to the server.
class QuicCcEcnConnectionTest : public QuicCcConnectionTest
{
  protected:
    QuicCcEcnConnectionTest()
        : QuicCcConnectionTest(EcnConfig())
    {
    }

    /// Start the handshake, hand over the data with its FIN, run 4 s.
    void Transfer()
    {
        m_data = Pattern(300000);
        client.connection->StartClientHandshake();
        client.connection->Send(
            Create<Packet>(m_data.data(), static_cast<uint32_t>(m_data.size())));
        client.connection->FinishStream();
        Simulator::Stop(Seconds(4));
        Simulator::Run();
        EXPECT_EQ(server.received, m_data);
    }

    const QuicCcEcnValidation& ClientEcn() const
    {
        return client.connection->GetLossDetection().GetEcnValidation();
    }

    /// Codepoints of the client's datagrams from the \p first on.
    std::set<QuicCcEcnCodepoint> ClientCodepointsFrom(size_t first) const
    {
        return {client.codepointsSent.begin() + first, client.codepointsSent.end()};
    }

    std::vector<uint8_t> m_data;
};

} // namespace

// A clean ECN path: the client tests with ECT(0), the server counts and reports ECT(0) in
// ACK_ECN frames (its first, acknowledging the INITIAL, makes the path Capable), and every
// datagram is marked; no congestion event.
TEST_F(QuicCcEcnConnectionTest, CleanPathIsCapable)
{
    Transfer();
    EXPECT_EQ(ClientEcn().GetState(), QUIC_CC_ECN_CAPABLE);
    EXPECT_EQ(ClientCodepointsFrom(0), std::set<QuicCcEcnCodepoint>{QuicCcEcnCodepoint::ECT0});
    const QuicCcEcnCounts& counted = server.connection->GetAcks().GetEcnCounts();
    EXPECT_EQ(counted.ce, 0u);
    EXPECT_GT(counted.ect0, 200u); // 300000 / 1350 packets at least
    EXPECT_EQ(ClientEcn().GetPeerCounts().ect1, 0u);
    EXPECT_EQ(client.connection->GetLossDetection().GetEcnCongestionEventCount(), 0u);
}

// The path marks every 50th datagram CE: the client's window is cut without a loss.
TEST_F(QuicCcEcnConnectionTest, CeMarksAreCongestionEventsWithoutLoss)
{
    client.path = [](size_t n, QuicCcEcnCodepoint ecn) {
        return n % 50 == 49 && ecn != QuicCcEcnCodepoint::NOT_ECT ? QuicCcEcnCodepoint::CE : ecn;
    };
    Transfer();
    const QuicLossDetection& ld = client.connection->GetLossDetection();
    EXPECT_EQ(ClientEcn().GetState(), QUIC_CC_ECN_CAPABLE);
    EXPECT_GT(ClientEcn().GetPeerCounts().ce, 0u);
    EXPECT_GT(ld.GetEcnCongestionEventCount(), 0u);
    EXPECT_EQ(ld.GetLostPacketCount(), 0u);
    EXPECT_EQ(server.connection->GetAcks().GetEcnCounts().ce, ClientEcn().GetPeerCounts().ce);
    EXPECT_LT(client.connection->GetCongestionController()->GetSlowStartThreshold(), UINT64_MAX);
}

// A path that clears the ECN field: the server counts nothing and sends ACK frames without
// counts; the first of them that acknowledges an ECT(0) packet fails validation; the client
// marks nothing after that.
TEST_F(QuicCcEcnConnectionTest, PathClearingTheBitsFailsValidation)
{
    client.path = [](size_t, QuicCcEcnCodepoint) { return QuicCcEcnCodepoint::NOT_ECT; };
    Transfer();
    EXPECT_EQ(ClientEcn().GetState(), QUIC_CC_ECN_FAILED);
    EXPECT_EQ(ClientEcn().GetFailureReason().rfind("an ACK frame without ECN counts", 0), 0u)
        << ClientEcn().GetFailureReason();
    EXPECT_EQ(ClientEcn().GetEctSent(), 1u); // the INITIAL: the server's reply acknowledges it
    EXPECT_EQ(ClientCodepointsFrom(1), std::set<QuicCcEcnCodepoint>{QuicCcEcnCodepoint::NOT_ECT});
}

// A peer that does not do ECN: it reads no codepoint and reports none.
TEST_F(QuicCcEcnConnectionTest, PeerWithoutEcnFailsValidation)
{
    Endpoint plainServer(true, TestConfig());
    client.peer = &plainServer;
    plainServer.peer = &client;
    plainServer.connection->Start();
    plainServer.connection->AcceptClient();
    client.connection->StartClientHandshake();
    const std::vector<uint8_t> data = Pattern(50000);
    client.connection->Send(Create<Packet>(data.data(), static_cast<uint32_t>(data.size())));
    Simulator::Stop(Seconds(2));
    Simulator::Run();
    EXPECT_EQ(plainServer.received, data);
    EXPECT_EQ(plainServer.connection->GetAcks().GetEcnCounts(), QuicCcEcnCounts{});
    EXPECT_EQ(ClientEcn().GetState(), QUIC_CC_ECN_FAILED);
    plainServer.connection->Dispose();
}

// A path that remarks ECT(0) to ECT(1): the ECT(1) count fails validation.
TEST_F(QuicCcEcnConnectionTest, RemarkingToEct1FailsValidation)
{
    client.path = [](size_t, QuicCcEcnCodepoint ecn) {
        return ecn == QuicCcEcnCodepoint::ECT0 ? QuicCcEcnCodepoint::ECT1 : ecn;
    };
    Transfer();
    EXPECT_EQ(ClientEcn().GetState(), QUIC_CC_ECN_FAILED);
    EXPECT_EQ(ClientEcn().GetFailureReason().find("ECT(1) count"), 0u)
        << ClientEcn().GetFailureReason();
}
