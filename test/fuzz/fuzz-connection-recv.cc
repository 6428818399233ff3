/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: the receive path of a connected server connection (QuicCcConnection, what a
 * QuicCcSocket hands every datagram of its peer to) fed arbitrary datagrams, without nodes,
 * devices or the Internet stack, so that one execution costs about a hundredth of
 * fuzz-socket-recv's (which also covers the listener's demultiplexing in front of it).
 *
 * Per input, a fresh simulation with one server connection and a fake owner standing in for the
 * socket (it ends the connection on the peer's CONNECTION_CLOSE and on the idle timeout, as
 * QuicCcSocket does). At 1 ms the client's INITIAL (PING + PADDING to 1200 bytes, built with
 * QuicCcSerialize) arrives, the connection accepts and the owner writes kServerBytes, so the
 * sent-packet record is live when ACK frames arrive. From 10 ms, every datagram of the input
 * arrives, 1 ms apart; the simulation runs until 200 ms after the last one (ACK, loss, PTO and
 * idle timers included) and is destroyed.
 *
 * Input: the same datagram sequence as fuzz-socket-recv (each a 2-byte big-endian length and that
 * many bytes; a short last one takes what is left), so its corpus seeds this target; the input's
 * last byte, if any, picks the configuration: controller (Reno or CUBIC; CUBIC runs with ECN on,
 * its datagrams arriving Not-ECT, ECT(1), ECT(0), CE in turn, so that hostile ACK_ECN counts
 * meet the sender's validation), ACK policy, pacing, ACK processing delay, persistent
 * congestion, PING probes, full-only packet sizing.
 *
 * Checked beyond ASan/UBSan/LSan: the connection never delivers more stream bytes than the
 * datagrams carried, every datagram that arrives while the connection is open and does not parse
 * is reported dropped, and the owner is never called after the connection closed.
 */
#include "fuzz-datagrams.h"

#include "ns3/double.h"
#include "ns3/packet.h"
#include "ns3/quic-cc-connection.h"
#include "ns3/quic-cc-frames.h"
#include "ns3/quic-cubic.h"
#include "ns3/quic-reno.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fuzzer/FuzzedDataProvider.h>
#include <vector>

using namespace ns3;

namespace
{

void
Fail(const char* what)
{
    std::fprintf(stderr, "fuzz-connection-recv: %s\n", what);
    std::abort();
}

/// Stands in for the QuicCcSocket that owns the connection.
class Owner : public QuicCcConnection::Owner
{
  public:
    Ptr<QuicCcConnection> connection;
    uint64_t dropped{0};  //!< datagrams reported dropped
    uint64_t received{0}; //!< stream bytes read from the receive stream
    bool closed{false};   //!< the owner ended the connection

    void SendDatagram(Ptr<Packet>, QuicCcEcnCodepoint) override
    {
        CheckOpen();
    }

    void OnDatagramDropped(const std::string&) override
    {
        CheckOpen();
        ++dropped;
    }

    void OnPacketSent(uint64_t, uint64_t) override
    {
        CheckOpen();
    }

    void OnPacketReceived(uint64_t, uint64_t) override
    {
        CheckOpen();
    }

    void OnRttSample(const QuicRttStats&) override
    {
        CheckOpen();
    }

    void OnPtoExpired(uint32_t) override
    {
        CheckOpen();
    }

    void OnHandshakeComplete() override
    {
        CheckOpen();
    }

    bool IsReceiving() const override
    {
        return true;
    }

    void OnDataReceived() override
    {
        CheckOpen();
        received += connection->GetRecvStream().Read(1 << 20)->GetSize();
    }

    void OnDataSent(uint64_t) override
    {
        CheckOpen();
    }

    void OnSendBufferFreed(uint32_t) override
    {
        CheckOpen();
    }

    void OnPeerClose(uint64_t, const std::string&) override
    {
        CheckOpen();
        End();
    }

    void OnPacketProcessed() override
    {
        CheckOpen();
    }

    void OnIdleTimeout(Time) override
    {
        CheckOpen();
        End();
    }

    void OnTransportError(uint64_t, const std::string&) override
    {
        End(); // the connection closed itself
    }

  private:
    void CheckOpen() const
    {
        if (closed || connection->GetState() == QuicCcConnection::STATE_CLOSED)
        {
            Fail("the connection called its owner after it was closed");
        }
    }

    void End()
    {
        connection->Close();
        closed = true;
    }
};

/// The configuration picked by the input's last byte.
QuicCcConnection::Config
PickConfig(uint8_t bits)
{
    QuicCcConnection::Config config;
    config.idleTimeout = Seconds(1);
    config.acks.policy = (bits & 0x02) ? QuicCcReceivedPacketManager::RFC9000
                                       : QuicCcReceivedPacketManager::RECEIVE_BATCH;
    config.pacing = (bits & 0x04) ? QuicCcConnection::PACING_RFC9002 : QuicCcConnection::PACING_OFF;
    config.persistentCongestion = (bits & 0x10) != 0;
    config.probeContent =
        (bits & 0x20) ? QuicCcConnection::PROBE_PING : QuicCcConnection::PROBE_DATA;
    config.packetSizing =
        (bits & 0x40) ? QuicCcConnection::SIZING_FULL_ONLY : QuicCcConnection::SIZING_FREE_WINDOW;
    config.flowControl = (bits & 0x80) != 0; // small limits: the FLOW_CONTROL_ERROR path
    config.ecn = (bits & 0x01) != 0;         // with CUBIC
    if (config.flowControl)
    {
        config.initialMaxData = 3000; // without flow control a limit is refused (Validate)
        config.initialMaxStreamData = 2000;
    }
    config.sendDelay = CreateObject<ConstantRandomVariable>();
    Ptr<ConstantRandomVariable> ackDelay = CreateObject<ConstantRandomVariable>();
    ackDelay->SetAttribute("Constant", DoubleValue((bits & 0x08) ? 1e-3 : 0.0));
    config.ackProcessingDelay = ackDelay;
    return config;
}

/// The owner feeds one datagram to the connection and counts what it owes a drop report for.
void
Deliver(Owner* owner, std::vector<uint8_t> bytes, QuicCcEcnCodepoint ecn, uint64_t* owedDrops)
{
    if (owner->connection->GetState() == QuicCcConnection::STATE_CLOSED)
    {
        return; // the socket would no longer route it here
    }
    *owedDrops += QuicCcParse(bytes.data(), bytes.size()).packet ? 0 : 1;
    owner->connection->OnDatagram(bytes, nullptr, ecn);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzedDataProvider in(data, size);
    const uint8_t bits = in.ConsumeIntegral<uint8_t>(); // the last byte
    const std::vector<uint8_t> rest = in.ConsumeRemainingBytes<uint8_t>();
    const std::vector<std::vector<uint8_t>> datagrams =
        quiccc_fuzz::Datagrams(rest.data(), rest.size());
    uint64_t streamBytesBound = 0;
    for (const auto& d : datagrams)
    {
        streamBytesBound += d.size();
    }

    Owner owner;
    uint64_t owedDrops = 0;
    Ptr<QuicCongestionController> cc;
    if (bits & 0x01)
    {
        cc = CreateObject<QuicCubic>();
    }
    else
    {
        cc = CreateObject<QuicReno>();
    }
    owner.connection =
        Create<QuicCcConnection>(owner, PickConfig(bits), cc, true, quiccc_fuzz::kConnectionId);
    Simulator::Schedule(MilliSeconds(1), [&owner, &owedDrops]() {
        owner.connection->Start();
        owner.connection->AcceptClient();
        std::vector<uint8_t> payload(quiccc_fuzz::kServerBytes, 0x5a);
        owner.connection->Send(Create<Packet>(payload.data(), quiccc_fuzz::kServerBytes));
        Deliver(&owner, quiccc_fuzz::Initial(), QuicCcEcnCodepoint::NOT_ECT, &owedDrops);
    });
    Time at = MilliSeconds(10);
    uint8_t codepoint = 0;
    for (const auto& d : datagrams)
    {
        Simulator::Schedule(at,
                            &Deliver,
                            &owner,
                            d,
                            static_cast<QuicCcEcnCodepoint>(codepoint++ & 0x3),
                            &owedDrops);
        at += MilliSeconds(1);
    }
    Simulator::Stop(at + MilliSeconds(200));
    Simulator::Run();

    if (owner.received > streamBytesBound ||
        owner.connection->GetBytesReceived() > streamBytesBound)
    {
        Fail("more stream bytes delivered than the datagrams carried");
    }
    if (owner.dropped < owedDrops)
    {
        Fail("an unparsable datagram was not reported dropped");
    }
    owner.connection->Dispose();
    owner.connection = nullptr;
    Simulator::Destroy();
    return 0;
}
