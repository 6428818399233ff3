/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcSocket's configuration and observation surface: its TypeId (every attribute and trace
 * source, with unit, source and range; each attribute is stored in one field of the socket's
 * QuicCcConnection::Config, the settings a connection runs with), and how the trace sources are
 * fed from the controller and loss detection. The facade and the state machine are in
 * quic-cc-socket.cc.
 */
#include "quic-cc-compat.h"
#include "quic-cc-config-accessor.h"
#include "quic-cc-socket.h"

#include "ns3/abort.h"
#include "ns3/attribute-accessor-helper.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <type_traits>

namespace ns3
{

template <typename V, typename... Path>
Ptr<const AttributeAccessor>
QuicCcSocket::MakeConfigAccessor(Path... path)
{
    return QuicCcMakeFieldAccessor<V, QuicCcSocket>(&QuicCcSocket::m_config, path...);
}

TypeId
QuicCcSocket::GetTypeId()
{
    using Config = QuicCcConnection::Config;
    using AckConfig = QuicCcReceivedPacketManager::Config;
    using AckPolicy = QuicCcReceivedPacketManager::Policy;
    const Config defaults; // each attribute's default is its field's
    static TypeId tid =
        TypeId("ns3::QuicCcSocket")
            .SetParent<QuicCcSocketBase>()
            .SetGroupName("QuicCc")
            .AddConstructor<QuicCcSocket>()
            .AddAttribute(
                "MaxDatagramSize",
                "Largest UDP payload the connection sends, bytes (quiche "
                "max_send_udp_payload_size; mss of the controllers). 1200..65527 "
                "(RFC 9000 Section 14; 65527 over IPv6), at most 65507 over IPv4 "
                "(checked at Connect/Listen); other values are a fatal error.",
                UintegerValue(defaults.mss),
                MakeConfigAccessor<UintegerValue>(&Config::mss),
                MakeUintegerChecker<uint64_t>(QuicCongestionController::kMinMaxDatagramSize,
                                              QuicCongestionController::kMaxMaxDatagramSize))
            .AddAttribute("InitialWindowPackets",
                          "Initial congestion window, packets of MaxDatagramSize (RFC 9002 "
                          "Section 7.2; quiche 10). Zero is a fatal error.",
                          UintegerValue(defaults.initialWindowPackets),
                          MakeConfigAccessor<UintegerValue>(&Config::initialWindowPackets),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("MinimumWindowPackets",
                          "Minimum congestion window, packets (RFC 9002 kMinimumWindow; quiche 2). "
                          "Must be >= 1 and <= InitialWindowPackets (fatal error otherwise).",
                          UintegerValue(defaults.minimumWindowPackets),
                          MakeConfigAccessor<UintegerValue>(&Config::minimumWindowPackets),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("InitialRtt",
                          "RTT assumed before the first sample (RFC 9002 kInitialRtt, 333 ms). "
                          "Must be positive.",
                          TimeValue(defaults.initialRtt),
                          MakeConfigAccessor<TimeValue>(&Config::initialRtt),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute(
                "MaxAckDelay",
                "max_ack_delay this endpoint promises (RFC 9000 Section 18.2, 25 ms): the "
                "receiver's ACK timer under AckPolicy Rfc9000, and the peer's value in "
                "the sender's PTO (both endpoints are assumed to use the same value). "
                "Must be >= 0.",
                TimeValue(defaults.acks.maxAckDelay),
                MakeConfigAccessor<TimeValue>(&Config::acks, &AckConfig::maxAckDelay),
                MakeTimeChecker(Time(0)))
            .AddAttribute(
                "AckElicitingThreshold",
                "AckPolicy Rfc9000 only: acknowledge at once after this many "
                "ack-eliciting packets (RFC 9000 Section 13.2.2 recommends 2). Must be "
                ">= 1.",
                UintegerValue(defaults.acks.ackElicitingThreshold),
                MakeConfigAccessor<UintegerValue>(&Config::acks, &AckConfig::ackElicitingThreshold),
                MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("IdleTimeout",
                          "Close the connection after this long without a valid packet from the "
                          "peer (RFC 9000 Section 10.1). Must be positive.",
                          TimeValue(defaults.idleTimeout),
                          MakeConfigAccessor<TimeValue>(&Config::idleTimeout),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute(
                "AckPolicy",
                "Receiver ACK policy: Rfc9000 (every AckElicitingThreshold-th "
                "ack-eliciting packet, MaxAckDelay timer, immediate ACK on a gap) or "
                "ReceiveBatch (one ACK for all packets arriving within AckBatchWindow "
                "of the batch's first packet, as a quiche receiver's event loop).",
                EnumValue(defaults.acks.policy),
                MakeConfigAccessor<QUICCC_ENUM_VALUE(AckPolicy)>(&Config::acks, &AckConfig::policy),
                MakeEnumChecker(QuicCcReceivedPacketManager::RFC9000,
                                "Rfc9000",
                                QuicCcReceivedPacketManager::RECEIVE_BATCH,
                                "ReceiveBatch"))
            .AddAttribute("AckBatchWindow",
                          "ReceiveBatch policy: time from the first packet of a batch to its ACK. "
                          "Must be >= 0.",
                          TimeValue(defaults.acks.batchWindow),
                          MakeConfigAccessor<TimeValue>(&Config::acks, &AckConfig::batchWindow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "MaxAckRanges",
                "Most ACK ranges one ACK frame reports (the highest ones). Must be >= 1.",
                UintegerValue(defaults.acks.maxAckRanges),
                MakeConfigAccessor<UintegerValue>(&Config::acks, &AckConfig::maxAckRanges),
                MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SndBufSize",
                          "Send buffer, bytes: stream data the application may hand over that is "
                          "not yet acknowledged.",
                          UintegerValue(defaults.sndBufSize),
                          MakeConfigAccessor<UintegerValue>(&Config::sndBufSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "RcvBufSize",
                "Largest stream offset accepted beyond the next in-order offset, bytes "
                "(not advertised; FlowControl advertises InitialMaxData); a datagram with STREAM "
                "data past it is dropped whole as a protocol violation. Must be at least "
                "MaxDatagramSize.",
                UintegerValue(defaults.rcvBufSize),
                MakeConfigAccessor<UintegerValue>(&Config::rcvBufSize),
                MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FlowControl",
                          "RFC 9000 Section 4 flow control: the receiver announces its limits in "
                          "MAX_DATA / MAX_STREAM_DATA as the application reads (quiche's rule: "
                          "when less than half the window is open), the sender keeps new data "
                          "within the peer's limits and sends DATA_BLOCKED / STREAM_DATA_BLOCKED "
                          "when held back, received data beyond the limit closes the connection "
                          "with FLOW_CONTROL_ERROR. Both ends must agree (no transport parameters: "
                          "each end takes the peer's initial limits to be its own). false "
                          "reproduces the model without flow control.",
                          BooleanValue(defaults.flowControl),
                          MakeConfigAccessor<BooleanValue>(&Config::flowControl),
                          MakeBooleanChecker())
            .AddAttribute("InitialMaxData",
                          "initial_max_data (RFC 9000 Section 18.2), bytes: the connection's "
                          "flow-control limit and receive window with FlowControl. quiche's "
                          "apps default (--max-data): 10000000.",
                          UintegerValue(defaults.initialMaxData),
                          MakeConfigAccessor<UintegerValue>(&Config::initialMaxData),
                          MakeUintegerChecker<uint64_t>(1, kQuicCcVarIntMax))
            .AddAttribute("InitialMaxStreamData",
                          "initial_max_stream_data_bidi_local/remote (RFC 9000 Section 18.2), "
                          "bytes: the stream's flow-control limit and receive window with "
                          "FlowControl. quiche's apps default (--max-stream-data): 1000000.",
                          UintegerValue(defaults.initialMaxStreamData),
                          MakeConfigAccessor<UintegerValue>(&Config::initialMaxStreamData),
                          MakeUintegerChecker<uint64_t>(1, kQuicCcVarIntMax))
            .AddAttribute("SendDelay",
                          "Host processing-delay model, seconds: drawn before each packet this "
                          "host sends after the first of a burst, so packets of one burst leave at "
                          "distinct times (0 = a burst leaves at one instant).",
                          StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                          MakeConfigAccessor<PointerValue>(&Config::sendDelay),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("AckProcessingDelay",
                          "Host processing-delay model, seconds: drawn for each received datagram "
                          "that carries an ACK frame, delaying its processing (FIFO order kept).",
                          StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                          MakeConfigAccessor<PointerValue>(&Config::ackProcessingDelay),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("PersistentCongestion",
                          "Establish persistent congestion (RFC 9002 Section 7.6): lost "
                          "ack-eliciting packets spanning more than (smoothed_rtt + max(4 rttvar, "
                          "1 ms) + max_ack_delay) x 3, sent after the first RTT sample, set cwnd "
                          "to the minimum window and clear R. quiche: false.",
                          BooleanValue(defaults.persistentCongestion),
                          MakeConfigAccessor<BooleanValue>(&Config::persistentCongestion),
                          MakeBooleanChecker())
            .AddAttribute(
                "Pacing",
                "Off (quiche's Reno/CUBIC path: bursts as the window allows) or "
                "Rfc9002 (RFC 9002 Section 7.7: packets carrying more than ACKs leave "
                "at PacingGain x cwnd / smoothed_rtt after a burst allowance of "
                "PacingBurstPackets; ACK-only packets are not paced).",
                EnumValue(defaults.pacing),
                MakeConfigAccessor<QUICCC_ENUM_VALUE(QuicCcConnection::Pacing)>(&Config::pacing),
                MakeEnumChecker(QuicCcConnection::PACING_OFF,
                                "Off",
                                QuicCcConnection::PACING_RFC9002,
                                "Rfc9002"))
            .AddAttribute("PacingGain",
                          "Pacing=Rfc9002: N of rate = N x cwnd / smoothed_rtt, unitless, > 0 "
                          "(RFC 9002 Section 7.7: 1.25).",
                          DoubleValue(defaults.pacingGain),
                          MakeConfigAccessor<DoubleValue>(&Config::pacingGain),
                          MakeDoubleChecker<double>(std::numeric_limits<double>::denorm_min()))
            .AddAttribute("PacingBurstPackets",
                          "Pacing=Rfc9002: packets that may leave back to back before pacing "
                          "applies (the bucket size), >= 1 (RFC 9002 Section 7.7: the initial "
                          "window, 10).",
                          UintegerValue(defaults.pacingBurstPackets),
                          MakeConfigAccessor<UintegerValue>(&Config::pacingBurstPackets),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AppLimitedWhilePaced",
                          "Pacing=Rfc9002: true (default) leaves the application-limited flag as "
                          "the last send set it while the pacer holds data back; false clears it "
                          "then, as the sender has data and only the pacer waits (ngtcp2 "
                          "lib/ngtcp2_conn.c, conn_write_vmsg_wrapper: app-limited only when the "
                          "pacer allows a send and no data is written).",
                          BooleanValue(defaults.appLimitedWhilePaced),
                          MakeConfigAccessor<BooleanValue>(&Config::appLimitedWhilePaced),
                          MakeBooleanChecker())
            .AddAttribute("PacketSizing",
                          "FreeWindow (quiche: each data packet is sized to the free window, "
                          "sub-mss packets included) or FullOnly (a data packet leaves only when "
                          "a full datagram fits the window or the stream's remaining bytes are "
                          "shorter).",
                          EnumValue(defaults.packetSizing),
                          MakeConfigAccessor<QUICCC_ENUM_VALUE(QuicCcConnection::PacketSizing)>(
                              &Config::packetSizing),
                          MakeEnumChecker(QuicCcConnection::SIZING_FREE_WINDOW,
                                          "FreeWindow",
                                          QuicCcConnection::SIZING_FULL_ONLY,
                                          "FullOnly"))
            .AddAttribute("DontFragment",
                          "Never let IP fragment a datagram (RFC 9000 Section 14: QUIC datagrams "
                          "MUST NOT be fragmented). true: a datagram whose IP size (UDP payload + "
                          "8 + 20 (IPv4) or 40 (IPv6) bytes) exceeds the MTU of the outgoing "
                          "device is dropped at the sender with a warning (log component "
                          "QuicCcPathMtu) and counts as sent, so loss detection declares it "
                          "lost, as on a host that sets DF. false: ns-3's Ipv4L3Protocol "
                          "fragments it (ns-3.37 ignores the DF flag when sending).",
                          BooleanValue(defaults.dontFragment),
                          MakeConfigAccessor<BooleanValue>(&Config::dontFragment),
                          MakeBooleanChecker())
            .AddAttribute("ProbeContent",
                          "What a PTO probe carries once the connection is established (RFC 9002 "
                          "Section 6.2.4: new data when possible, else a retransmission or a "
                          "PING): Data (quiche: lost or new STREAM data, else the oldest "
                          "outstanding packet's data again) or Ping (a PING and an owed ACK "
                          "only). Handshake probes repeat the handshake either way.",
                          EnumValue(defaults.probeContent),
                          MakeConfigAccessor<QUICCC_ENUM_VALUE(QuicCcConnection::ProbeContent)>(
                              &Config::probeContent),
                          MakeEnumChecker(QuicCcConnection::PROBE_DATA,
                                          "Data",
                                          QuicCcConnection::PROBE_PING,
                                          "Ping"))
            .AddAttribute("CongestionControl",
                          "TypeId of the congestion controller (a QuicCongestionController), "
                          "used when no controller was set explicitly (QuicCcHelper sets one).",
                          StringValue("ns3::QuicCubic"),
                          MakeTypeIdAccessor(&QuicCcSocket::SetCongestionControlTypeId,
                                             &QuicCcSocket::GetCongestionControlTypeId),
                          MakeTypeIdChecker())
            .AddTraceSource("PacketAcked",
                            "Every ack-eliciting packet newly acknowledged: packet number, bytes, "
                            "time sent.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_packetAckedTrace),
                            "ns3::QuicCcSocketBase::PacketTimeTracedCallback")
            .AddTraceSource("PacketLostTrigger",
                            "Every packet declared lost, just before its PacketLost: packet "
                            "number and the RFC 9002 Section 6.1 threshold that declared it "
                            "(QuicLossTrigger; the qlog packet_lost trigger).",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_packetLostTriggerTrace),
                            "ns3::QuicCcSocket::LossTriggerTracedCallback")
            .AddTraceSource("DroppedDatagram",
                            "A received datagram was dropped as malformed or inconsistent: total "
                            "dropped so far, reason.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_droppedTrace),
                            "ns3::QuicCcSocket::DroppedTracedCallback")
            .AddTraceSource("ConnectionStarted",
                            "The connection starts (client: Connect; server: first INITIAL), its "
                            "controller and connection ID set; observers such as the qlog writer "
                            "attach here.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_startedTrace),
                            "ns3::QuicCcSocket::ConnectionTracedCallback")
            .AddTraceSource(
                "ConnectionClosed",
                "The connection is over (every timer stopped); nothing is traced after.",
                MakeTraceSourceAccessor(&QuicCcSocket::m_closedTrace),
                "ns3::QuicCcSocket::ConnectionTracedCallback");
    return tid;
}

// ---------------------------------------------------------------- configuration

void
QuicCcSocket::SetCongestionControlTypeId(TypeId tid)
{
    // Checked when set (Config::SetDefault applies it at construction), naming the value.
    NS_ABORT_MSG_UNLESS(tid.IsChildOf(QuicCongestionController::GetTypeId()),
                        "QuicCcSocket::CongestionControl '"
                            << tid.GetName() << "' is not a QuicCongestionController");
    m_config.congestionControl = tid;
}

TypeId
QuicCcSocket::GetCongestionControlTypeId() const
{
    return m_config.congestionControl;
}

// ---------------------------------------------------------------- trace sources

void
QuicCcSocket::WireTraces()
{
    // The controller's and loss detection's values reach the socket's trace sources unchanged.
    Ptr<QuicCongestionController> cc = m_connection->GetCongestionController();
    cc->TraceConnectWithoutContext("CongestionWindow",
                                   MakeCallback(&QuicCcSocket::OnCongestionWindow, this));
    cc->TraceConnectWithoutContext("SlowStartThreshold",
                                   MakeCallback(&QuicCcSocket::TraceSlowStartThreshold, this));
    cc->TraceConnectWithoutContext(
        "CongestionState",
        MakeCallback(&decltype(m_stateTrace)::operator(), &m_stateTrace));
    cc->TraceConnectWithoutContext(
        "RecoveryStartTime",
        MakeCallback(&decltype(m_recoveryStartTrace)::operator(), &m_recoveryStartTrace));
    // Bytes in flight, acked and lost packets change on every packet: loss detection reports
    // them, and the ECN validation's state and counts, through its Listener (a virtual call),
    // not an ns-3 callback chain (whose state would cost every connection memory).
    m_connection->GetLossDetection().SetListener(this);
}

void
QuicCcSocket::OnPacketLostTriggerTrace(uint64_t packetNumber, QuicLossTrigger trigger)
{
    m_packetLostTriggerTrace(packetNumber, trigger);
}

void
QuicCcSocket::OnEcnStateTrace(QuicCcEcnState, QuicCcEcnState state)
{
    TraceEcnState(state);
}

void
QuicCcSocket::OnEcnCountsTrace(uint64_t ect0, uint64_t ect1, uint64_t ce)
{
    m_ecnCountsTrace(ect0, ect1, ce);
}

void
QuicCcSocket::OnBytesInFlightTrace(uint64_t oldValue, uint64_t newValue)
{
    TraceBytesInFlight(oldValue, newValue);
}

void
QuicCcSocket::OnPacketAckedTrace(uint64_t packetNumber, uint64_t bytes, Time sent)
{
    m_packetAckedTrace(packetNumber, bytes, sent);
}

void
QuicCcSocket::OnPacketLostTrace(uint64_t packetNumber, uint64_t bytes, Time sent)
{
    m_packetLostTrace(packetNumber, bytes, sent);
}

} // namespace ns3
