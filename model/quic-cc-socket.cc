/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-socket.h"

#include "quic-cc-compat.h"
#include "quic-cc-path-mtu.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcSocket");
NS_OBJECT_ENSURE_REGISTERED(QuicCcSocket);

namespace
{
/// Error code of a normal close (RFC 9000 Section 20.1 NO_ERROR).
constexpr uint64_t kNoError = 0;
/// Largest jump above the largest received packet number that is accepted: the decoding window
/// of a 4-byte truncated packet number (RFC 9000 Section 17.1, Appendix A.3). quic-cc sends
/// full packet numbers, so anything further is forged or corrupt.
constexpr uint64_t kMaxPacketNumberJump = uint64_t{1} << 31;
/// Largest UDP payload over IPv4 (65535 - 20 - 8).
constexpr uint64_t kMaxIpv4Payload = 65507;

/// Fire a TCP-width (uint32_t) trace from 64-bit values, which saturate at UINT32_MAX; like a
/// TracedValue it stays silent when the saturated values are equal.
void
FireSaturated(const TracedCallback<uint32_t, uint32_t>& trace, uint64_t oldValue, uint64_t newValue)
{
    const auto saturate = [](uint64_t v) {
        return static_cast<uint32_t>(std::min<uint64_t>(v, std::numeric_limits<uint32_t>::max()));
    };
    if (saturate(oldValue) != saturate(newValue))
    {
        trace(saturate(oldValue), saturate(newValue));
    }
}

/// True if \p packet carries an ACK frame.
bool
CarriesAck(const QuicCcPacket& packet)
{
    return std::any_of(packet.frames.begin(), packet.frames.end(), [](const QuicCcFrame& f) {
        return std::holds_alternative<QuicCcAckFrame>(f);
    });
}
} // namespace

TypeId
QuicCcSocket::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QuicCcSocket")
            .SetParent<Socket>()
            .SetGroupName("QuicCc")
            .AddConstructor<QuicCcSocket>()
            .AddAttribute("MaxDatagramSize",
                          "Largest UDP payload the connection sends, bytes (quiche "
                          "max_send_udp_payload_size; mss of the controllers). 1200..65527 "
                          "(RFC 9000 Section 14; 65527 over IPv6), at most 65507 over IPv4 "
                          "(checked at Connect/Listen); other values are a fatal error.",
                          UintegerValue(1350),
                          MakeUintegerAccessor(&QuicCcSocket::m_mss),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("InitialWindowPackets",
                          "Initial congestion window, packets of MaxDatagramSize (RFC 9002 "
                          "Section 7.2; quiche 10). Zero is a fatal error.",
                          UintegerValue(10),
                          MakeUintegerAccessor(&QuicCcSocket::m_initialWindowPackets),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MinimumWindowPackets",
                          "Minimum congestion window, packets (RFC 9002 kMinimumWindow; quiche 2). "
                          "Must be >= 1 and <= InitialWindowPackets (fatal error otherwise).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&QuicCcSocket::m_minimumWindowPackets),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("InitialRtt",
                          "RTT assumed before the first sample (RFC 9002 kInitialRtt, 333 ms). "
                          "Must be positive.",
                          TimeValue(MilliSeconds(333)),
                          MakeTimeAccessor(&QuicCcSocket::m_initialRtt),
                          MakeTimeChecker())
            .AddAttribute(
                "MaxAckDelay",
                "max_ack_delay this endpoint promises (RFC 9000 Section 18.2, 25 ms): the "
                "receiver's ACK timer under AckPolicy Rfc9000, and the peer's value in "
                "the sender's PTO (both endpoints are assumed to use the same value). "
                "Must be >= 0.",
                TimeValue(MilliSeconds(25)),
                MakeTimeAccessor(&QuicCcSocket::m_maxAckDelay),
                MakeTimeChecker())
            .AddAttribute("AckElicitingThreshold",
                          "AckPolicy Rfc9000 only: acknowledge at once after this many "
                          "ack-eliciting packets (RFC 9000 Section 13.2.2 recommends 2). Must be "
                          ">= 1.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&QuicCcSocket::m_ackElicitingThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("IdleTimeout",
                          "Close the connection after this long without a valid packet from the "
                          "peer (RFC 9000 Section 10.1). Must be positive.",
                          TimeValue(Seconds(30)),
                          MakeTimeAccessor(&QuicCcSocket::m_idleTimeout),
                          MakeTimeChecker())
            .AddAttribute("AckPolicy",
                          "Receiver ACK policy: Rfc9000 (every AckElicitingThreshold-th "
                          "ack-eliciting packet, MaxAckDelay timer, immediate ACK on a gap) or "
                          "ReceiveBatch (one ACK for all packets arriving within AckBatchWindow "
                          "of the batch's first packet, as a quiche receiver's event loop).",
                          EnumValue(QuicCcSocket::ACK_RECEIVE_BATCH),
                          QUICCC_ENUM_ACCESSOR(QuicCcSocket::AckPolicy, &QuicCcSocket::m_ackPolicy),
                          MakeEnumChecker(QuicCcSocket::ACK_RFC9000,
                                          "Rfc9000",
                                          QuicCcSocket::ACK_RECEIVE_BATCH,
                                          "ReceiveBatch"))
            .AddAttribute("AckBatchWindow",
                          "ReceiveBatch policy: time from the first packet of a batch to its ACK. "
                          "Must be >= 0.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&QuicCcSocket::m_ackBatchWindow),
                          MakeTimeChecker())
            .AddAttribute("MaxAckRanges",
                          "Most ACK ranges one ACK frame reports (the highest ones). Must be >= 1.",
                          UintegerValue(32),
                          MakeUintegerAccessor(&QuicCcSocket::m_maxAckRanges),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SndBufSize",
                          "Send buffer, bytes: stream data the application may hand over that is "
                          "not yet acknowledged.",
                          UintegerValue(128u << 20),
                          MakeUintegerAccessor(&QuicCcSocket::m_sndBufSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RcvBufSize",
                          "Largest stream offset accepted beyond the next in-order offset, bytes "
                          "(not advertised: quic-cc has no flow control); a datagram with STREAM "
                          "data past it is dropped whole as a protocol violation. Must be at least "
                          "MaxDatagramSize.",
                          UintegerValue(128u << 20),
                          MakeUintegerAccessor(&QuicCcSocket::m_rcvBufSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SendDelay",
                          "Host processing-delay model, seconds: drawn before each packet this "
                          "host sends after the first of a burst, so packets of one burst leave at "
                          "distinct times (0 = a burst leaves at one instant).",
                          StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                          MakePointerAccessor(&QuicCcSocket::m_sendDelay),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("AckProcessingDelay",
                          "Host processing-delay model, seconds: drawn for each received datagram "
                          "that carries an ACK frame, delaying its processing (FIFO order kept).",
                          StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                          MakePointerAccessor(&QuicCcSocket::m_ackProcessDelay),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("PersistentCongestion",
                          "Establish persistent congestion (RFC 9002 Section 7.6): lost "
                          "ack-eliciting packets spanning more than (smoothed_rtt + max(4 rttvar, "
                          "1 ms) + max_ack_delay) x 3, sent after the first RTT sample, set cwnd "
                          "to the minimum window and clear R. quiche: false.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&QuicCcSocket::m_persistentCongestion),
                          MakeBooleanChecker())
            .AddAttribute("Pacing",
                          "Off (quiche's Reno/CUBIC path: bursts as the window allows) or "
                          "Rfc9002 (RFC 9002 Section 7.7: packets carrying more than ACKs leave "
                          "at PacingGain x cwnd / smoothed_rtt after a burst allowance of "
                          "PacingBurstPackets; ACK-only packets are not paced).",
                          EnumValue(QuicCcSocket::PACING_OFF),
                          QUICCC_ENUM_ACCESSOR(QuicCcSocket::Pacing, &QuicCcSocket::m_pacing),
                          MakeEnumChecker(QuicCcSocket::PACING_OFF,
                                          "Off",
                                          QuicCcSocket::PACING_RFC9002,
                                          "Rfc9002"))
            .AddAttribute("PacingGain",
                          "Pacing=Rfc9002: N of rate = N x cwnd / smoothed_rtt, unitless, > 0 "
                          "(RFC 9002 Section 7.7: 1.25).",
                          DoubleValue(1.25),
                          MakeDoubleAccessor(&QuicCcSocket::m_pacingGain),
                          MakeDoubleChecker<double>())
            .AddAttribute("PacingBurstPackets",
                          "Pacing=Rfc9002: packets that may leave back to back before pacing "
                          "applies (the bucket size), >= 1 (RFC 9002 Section 7.7: the initial "
                          "window, 10).",
                          UintegerValue(10),
                          MakeUintegerAccessor(&QuicCcSocket::m_pacingBurstPackets),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "PacketSizing",
                "FreeWindow (quiche: each data packet is sized to the free window, "
                "sub-mss packets included) or FullOnly (a data packet leaves only when "
                "a full datagram fits the window or the stream's remaining bytes are "
                "shorter).",
                EnumValue(QuicCcSocket::SIZING_FREE_WINDOW),
                QUICCC_ENUM_ACCESSOR(QuicCcSocket::PacketSizing, &QuicCcSocket::m_packetSizing),
                MakeEnumChecker(QuicCcSocket::SIZING_FREE_WINDOW,
                                "FreeWindow",
                                QuicCcSocket::SIZING_FULL_ONLY,
                                "FullOnly"))
            .AddAttribute("DontFragment",
                          "Never let IP fragment a datagram (RFC 9000 Section 14: QUIC datagrams "
                          "MUST NOT be fragmented). true: a datagram whose IP size (UDP payload + "
                          "8 + 20 (IPv4) or 40 (IPv6) bytes) exceeds the MTU of the outgoing "
                          "device is dropped at the sender with a warning (log component "
                          "QuicCcPathMtu) and counts as sent, so loss detection declares it "
                          "lost, as on a host that sets DF. false: ns-3's Ipv4L3Protocol "
                          "fragments it (ns-3.37 ignores the DF flag when sending).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&QuicCcSocket::m_dontFragment),
                          MakeBooleanChecker())
            .AddAttribute(
                "ProbeContent",
                "What a PTO probe carries once the connection is established (RFC 9002 "
                "Section 6.2.4: new data when possible, else a retransmission or a "
                "PING): Data (quiche: lost or new STREAM data, else the oldest "
                "outstanding packet's data again) or Ping (a PING and an owed ACK "
                "only). Handshake probes repeat the handshake either way.",
                EnumValue(QuicCcSocket::PROBE_DATA),
                QUICCC_ENUM_ACCESSOR(QuicCcSocket::ProbeContent, &QuicCcSocket::m_probeContent),
                MakeEnumChecker(QuicCcSocket::PROBE_DATA, "Data", QuicCcSocket::PROBE_PING, "Ping"))
            .AddAttribute("CongestionControl",
                          "TypeId of the congestion controller (a QuicCongestionController), "
                          "used when no controller was set explicitly (QuicCcHelper sets one).",
                          StringValue("ns3::QuicCubic"),
                          MakeTypeIdAccessor(&QuicCcSocket::SetCongestionControlTypeId,
                                             &QuicCcSocket::GetCongestionControlTypeId),
                          MakeTypeIdChecker())
            .AddTraceSource("CongestionWindow",
                            "Congestion window, bytes, with ns-3 TCP's signature (uint32_t, as "
                            "TcpSocketBase's CongestionWindow); above 2^32-1 reads as UINT32_MAX.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_cwnd32Trace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("SlowStartThreshold",
                            "Slow-start threshold, bytes, with ns-3 TCP's signature (uint32_t); "
                            "not set or above 2^32-1 reads as UINT32_MAX, as TCP's initial value.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_ssthresh32Trace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("CongestionWindow64",
                            "Congestion window, bytes, full width (from the controller).",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_cwndTrace),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("SlowStartThreshold64",
                            "Slow-start threshold, bytes, full width; UINT64_MAX = not set (from "
                            "the controller).",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_ssthreshTrace),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("CongestionState",
                            "qlog congestion state (SlowStart, ConservativeSlowStart, "
                            "CongestionAvoidance, Recovery) on every change.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_stateTrace),
                            "ns3::TracedValueCallback::QuicCongestionState")
            .AddTraceSource("RecoveryStartTime",
                            "The congestion recovery start time R (also CUBIC's epoch) on every "
                            "change.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_recoveryStartTrace),
                            "ns3::Time::TracedCallback")
            .AddTraceSource("BytesInFlight",
                            "Bytes of ack-eliciting packets neither acknowledged nor lost.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_bytesInFlightTrace),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("Rtt",
                            "After each RTT sample (RFC 9002 Section 5): latest_rtt, smoothed_rtt, "
                            "min_rtt.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_rttTrace),
                            "ns3::QuicCcSocket::RttTracedCallback")
            .AddTraceSource("PacketSent",
                            "Every packet sent: packet number, UDP payload bytes.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_packetSentTrace),
                            "ns3::QuicCcSocket::PacketTracedCallback")
            .AddTraceSource(
                "PacketReceived",
                "Every valid, non-duplicate packet received: packet number, UDP payload "
                "bytes.",
                MakeTraceSourceAccessor(&QuicCcSocket::m_packetReceivedTrace),
                "ns3::QuicCcSocket::PacketTracedCallback")
            .AddTraceSource("PacketAcked",
                            "Every ack-eliciting packet newly acknowledged: packet number, bytes, "
                            "time sent.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_packetAckedTrace),
                            "ns3::QuicCcSocket::PacketTimeTracedCallback")
            .AddTraceSource("PacketLost",
                            "Every packet declared lost: packet number, bytes, time sent.",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_packetLostTrace),
                            "ns3::QuicCcSocket::PacketTimeTracedCallback")
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

QuicCcSocket::QuicCcSocket()
    : m_initialRtt(MilliSeconds(333)),
      m_maxAckDelay(MilliSeconds(25)),
      m_idleTimeout(Seconds(30)),
      m_ackBatchWindow(MicroSeconds(50)),
      m_cidRng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

QuicCcSocket::~QuicCcSocket()
{
    NS_LOG_FUNCTION(this);
}

void
QuicCcSocket::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_lossTimer.Cancel();
    m_idleTimer.Cancel();
    m_ackTimer.Cancel();
    m_sendEvent.Cancel();
    m_dispatcher.Clear();
    m_listener = nullptr;
    m_udp = nullptr;
    m_node = nullptr;
    m_cc = nullptr;
    m_ccPrototype = nullptr;
    m_lossDetection.reset();
    Socket::DoDispose();
}

// ---------------------------------------------------------------- set-up

void
QuicCcSocket::SetCongestionControlTypeId(TypeId tid)
{
    // Checked when set (Config::SetDefault applies it at construction), naming the value.
    NS_ABORT_MSG_UNLESS(tid.IsChildOf(QuicCongestionController::GetTypeId()),
                        "QuicCcSocket::CongestionControl '"
                            << tid.GetName() << "' is not a QuicCongestionController");
    m_ccTypeId = tid;
}

TypeId
QuicCcSocket::GetCongestionControlTypeId() const
{
    return m_ccTypeId;
}

void
QuicCcSocket::Validate() const
{
    QuicCongestionController::CheckWindowConfig("QuicCcSocket::",
                                                m_mss,
                                                m_initialWindowPackets,
                                                m_minimumWindowPackets);
    NS_ABORT_MSG_UNLESS(m_initialRtt.IsStrictlyPositive(),
                        "QuicCcSocket::InitialRtt must be positive, got " << m_initialRtt);
    NS_ABORT_MSG_UNLESS(m_idleTimeout.IsStrictlyPositive(),
                        "QuicCcSocket::IdleTimeout must be positive, got " << m_idleTimeout);
    QuicCcReceivedPacketManager().Configure(
        {static_cast<QuicCcReceivedPacketManager::Policy>(m_ackPolicy),
         m_ackElicitingThreshold,
         m_maxAckDelay,
         m_ackBatchWindow,
         m_maxAckRanges});
    NS_ABORT_MSG_IF(m_rcvBufSize < m_mss,
                    "QuicCcSocket::RcvBufSize ("
                        << m_rcvBufSize << ") must hold at least one datagram (MaxDatagramSize "
                        << m_mss << ")");
}

void
QuicCcSocket::CheckIpv4Size(const Address& address) const
{
    NS_ABORT_MSG_IF(InetSocketAddress::IsMatchingType(address) && m_mss > kMaxIpv4Payload,
                    "QuicCcSocket::MaxDatagramSize "
                        << m_mss << " exceeds the IPv4 UDP payload limit " << kMaxIpv4Payload
                        << " bytes");
}

int64_t
QuicCcSocket::AssignStreams(int64_t stream)
{
    m_cidRng->SetStream(stream);
    m_sendDelay->SetStream(stream + 1);
    m_ackProcessDelay->SetStream(stream + 2);
    return 3;
}

void
QuicCcSocket::SetNode(Ptr<Node> node)
{
    m_node = node;
}

void
QuicCcSocket::SetCongestionController(Ptr<QuicCongestionController> cc)
{
    NS_ABORT_MSG_IF(!cc, "QuicCcSocket::SetCongestionController: null controller");
    m_ccPrototype = cc;
}

Ptr<QuicCongestionController>
QuicCcSocket::GetCongestionController() const
{
    return m_cc;
}

const QuicLossDetection*
QuicCcSocket::GetLossDetection() const
{
    return m_lossDetection.get();
}

void
QuicCcSocket::SetChildCreatedCallback(Callback<void, Ptr<QuicCcSocket>> cb)
{
    m_childCreated = cb;
}

void
QuicCcSocket::StartConnection(Role role)
{
    NS_LOG_FUNCTION(this << role);
    m_role = role;
    if (!m_ccPrototype)
    {
        ObjectFactory factory;
        factory.SetTypeId(m_ccTypeId);
        m_ccPrototype = factory.Create<QuicCongestionController>();
    }
    m_cc = m_ccPrototype->Fork();
    m_cc->Configure(m_mss, m_initialWindowPackets, m_minimumWindowPackets);
    m_lossDetection =
        std::make_unique<QuicLossDetection>(m_cc, QuicRttStats(m_initialRtt, Time(0)));
    m_lossDetection->SetPersistentCongestion(m_persistentCongestion); // RFC 9002 Section 7.6
    m_pacer.Configure(m_pacingGain, m_pacingBurstPackets, m_mss);
    m_recvStream.SetWindow(m_rcvBufSize);
    m_sendStream.SetBufferSize(m_sndBufSize);
    m_acks.Configure({static_cast<QuicCcReceivedPacketManager::Policy>(m_ackPolicy),
                      m_ackElicitingThreshold,
                      m_maxAckDelay,
                      m_ackBatchWindow,
                      m_maxAckRanges});
    WireTraces();
    if (role == ROLE_CLIENT)
    {
        m_connectionId =
            (uint64_t{m_cidRng->GetInteger(1, std::numeric_limits<uint32_t>::max())} << 32) |
            m_cidRng->GetInteger(0, std::numeric_limits<uint32_t>::max());
    }
    m_startedTrace(this);
    // Report the starting window so that a trace sink (and the qlog) sees it.
    TraceCwnd(0, m_cc->GetCongestionWindow());
    m_lastActivity = Simulator::Now();
    RestartIdleTimer();
}

void
QuicCcSocket::WireTraces()
{
    // The controller's and loss detection's values reach the socket's trace sources unchanged.
    m_cc->TraceConnectWithoutContext("CongestionWindow",
                                     MakeCallback(&QuicCcSocket::TraceCwnd, this));
    m_cc->TraceConnectWithoutContext("SlowStartThreshold",
                                     MakeCallback(&QuicCcSocket::TraceSsthresh, this));
    m_cc->TraceConnectWithoutContext(
        "CongestionState",
        MakeCallback(&decltype(m_stateTrace)::operator(), &m_stateTrace));
    m_cc->TraceConnectWithoutContext(
        "RecoveryStartTime",
        MakeCallback(&decltype(m_recoveryStartTrace)::operator(), &m_recoveryStartTrace));
    m_lossDetection->TraceConnectBytesInFlight(
        MakeCallback(&decltype(m_bytesInFlightTrace)::operator(), &m_bytesInFlightTrace));
    m_lossDetection->TraceConnectPacketLost(
        MakeCallback(&decltype(m_packetLostTrace)::operator(), &m_packetLostTrace));
    m_lossDetection->TraceConnectPacketAcked(
        MakeCallback(&decltype(m_packetAckedTrace)::operator(), &m_packetAckedTrace));
}

void
QuicCcSocket::TraceCwnd(uint64_t oldValue, uint64_t newValue)
{
    m_cwndTrace(oldValue, newValue);
    FireSaturated(m_cwnd32Trace, oldValue, newValue);
}

void
QuicCcSocket::TraceSsthresh(uint64_t oldValue, uint64_t newValue)
{
    m_ssthreshTrace(oldValue, newValue);
    FireSaturated(m_ssthresh32Trace, oldValue, newValue);
}

// ---------------------------------------------------------------- ns3::Socket

Socket::SocketErrno
QuicCcSocket::GetErrno() const
{
    return m_errno;
}

Socket::SocketType
QuicCcSocket::GetSocketType() const
{
    return NS3_SOCK_STREAM;
}

Ptr<Node>
QuicCcSocket::GetNode() const
{
    return m_node;
}

int
QuicCcSocket::BindUdp(const Address& local)
{
    NS_ABORT_MSG_IF(!m_node, "QuicCcSocket: no node (create sockets through QuicCcSocketFactory)");
    if (m_udp)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    m_udp = Socket::CreateSocket(m_node, UdpSocketFactory::GetTypeId());
    if (m_udp->Bind(local) != 0)
    {
        m_errno = m_udp->GetErrno();
        m_udp = nullptr;
        return -1;
    }
    m_udp->SetRecvCallback(MakeCallback(&QuicCcSocket::HandleUdpRead, this));
    return 0;
}

int
QuicCcSocket::Bind(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    if (!InetSocketAddress::IsMatchingType(address) && !Inet6SocketAddress::IsMatchingType(address))
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    return BindUdp(address);
}

int
QuicCcSocket::Bind()
{
    return BindUdp(InetSocketAddress(Ipv4Address::GetAny(), 0));
}

int
QuicCcSocket::Bind6()
{
    return BindUdp(Inet6SocketAddress(Ipv6Address::GetAny(), 0));
}

int
QuicCcSocket::Connect(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    if (m_role != ROLE_NONE)
    {
        m_errno = ERROR_ISCONN;
        return -1;
    }
    Validate();
    if (!m_udp)
    {
        const int rc = InetSocketAddress::IsMatchingType(address) ? Bind() : Bind6();
        if (rc != 0)
        {
            return rc;
        }
    }
    if (m_udp->Connect(address) != 0)
    {
        m_errno = m_udp->GetErrno();
        return -1;
    }
    CheckIpv4Size(address);
    m_peer = address;
    StartConnection(ROLE_CLIENT);
    m_state = STATE_HANDSHAKE;
    m_owed.initial = true;
    SendPending();
    return 0;
}

int
QuicCcSocket::Listen()
{
    NS_LOG_FUNCTION(this);
    if (!m_udp || m_role != ROLE_NONE)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    Validate();
    Address local;
    m_udp->GetSockName(local);
    CheckIpv4Size(local);
    m_role = ROLE_LISTENER;
    return 0;
}

int
QuicCcSocket::Close()
{
    NS_LOG_FUNCTION(this);
    switch (m_role)
    {
    case ROLE_NONE:
    case ROLE_LISTENER:
        // A listener stops accepting; connections already accepted keep using the UDP socket.
        m_state = STATE_CLOSED;
        return 0;
    case ROLE_CLIENT:
    case ROLE_SERVER:
        if (m_state == STATE_CLOSED)
        {
            m_errno = ERROR_BADF;
            return -1;
        }
        // Graceful in every state: buffered data (even written during the handshake) and the FIN
        // are delivered before CONNECTION_CLOSE.
        m_closeRequested = true;
        m_sendStream.Finish();
        ScheduleSendPending();
        MaybeFinishClose();
        return 0;
    }
    return 0;
}

int
QuicCcSocket::ShutdownSend()
{
    // No more application data: the FIN follows what is buffered (the connection stays open).
    m_shutdownSend = true;
    if (m_role == ROLE_CLIENT || m_role == ROLE_SERVER)
    {
        m_sendStream.Finish();
        ScheduleSendPending();
    }
    return 0;
}

int
QuicCcSocket::ShutdownRecv()
{
    m_shutdownRecv = true;
    return 0;
}

uint32_t
QuicCcSocket::GetTxAvailable() const
{
    const uint64_t buffered = m_sendStream.GetBufferedBytes();
    return buffered >= m_sndBufSize ? 0 : static_cast<uint32_t>(m_sndBufSize - buffered);
}

int
QuicCcSocket::Send(Ptr<Packet> p, uint32_t flags)
{
    NS_LOG_FUNCTION(this << p << flags);
    if (m_role != ROLE_CLIENT && m_role != ROLE_SERVER)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    if (m_shutdownSend || m_closeRequested || m_state == STATE_CLOSED)
    {
        m_errno = ERROR_SHUTDOWN;
        return -1;
    }
    if (!m_sendStream.CanAppend(p->GetSize()))
    {
        m_errno = ERROR_MSGSIZE;
        return -1;
    }
    // Kept as the application's packet: virtual (zero-filled) packets cost no memory.
    m_sendStream.Append(p);
    // Like TcpSocketBase: send after the application's current call returns, so that a burst of
    // small Send() calls fills full-size packets.
    ScheduleSendPending();
    return static_cast<int>(p->GetSize());
}

int
QuicCcSocket::SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress)
{
    return Send(p, flags);
}

uint32_t
QuicCcSocket::GetRxAvailable() const
{
    return static_cast<uint32_t>(
        std::min<uint64_t>(m_recvStream.Available(), std::numeric_limits<uint32_t>::max()));
}

Ptr<Packet>
QuicCcSocket::Recv(uint32_t maxSize, uint32_t flags)
{
    if (m_recvStream.Available() == 0 || maxSize == 0)
    {
        m_errno = maxSize == 0 ? ERROR_INVAL : ERROR_AGAIN;
        return nullptr;
    }
    const std::vector<uint8_t> out = m_recvStream.Read(maxSize);
    return Create<Packet>(out.data(), static_cast<uint32_t>(out.size()));
}

Ptr<Packet>
QuicCcSocket::RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress)
{
    Ptr<Packet> p = Recv(maxSize, flags);
    if (p)
    {
        fromAddress = m_peer;
    }
    return p;
}

int
QuicCcSocket::GetSockName(Address& address) const
{
    Ptr<Socket> udp = m_udp ? m_udp : (m_listener ? m_listener->m_udp : nullptr);
    if (!udp)
    {
        address = InetSocketAddress(Ipv4Address::GetZero(), 0);
        return 0;
    }
    return udp->GetSockName(address);
}

int
QuicCcSocket::GetPeerName(Address& address) const
{
    if (m_role != ROLE_CLIENT && m_role != ROLE_SERVER)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    address = m_peer;
    return 0;
}

bool
QuicCcSocket::SetAllowBroadcast(bool allowBroadcast)
{
    return !allowBroadcast;
}

bool
QuicCcSocket::GetAllowBroadcast() const
{
    return false;
}

uint64_t
QuicCcSocket::GetBytesSent() const
{
    return m_sendStream.GetEndOffset();
}

uint64_t
QuicCcSocket::GetBytesAcked() const
{
    return m_sendStream.GetBytesAcked();
}

uint64_t
QuicCcSocket::GetBytesReceived() const
{
    return m_bytesReceived;
}

uint64_t
QuicCcSocket::GetDroppedDatagrams() const
{
    return m_dropped;
}

bool
QuicCcSocket::IsEstablished() const
{
    return m_state == STATE_ESTABLISHED;
}

bool
QuicCcSocket::IsClient() const
{
    return m_role == ROLE_CLIENT;
}

uint64_t
QuicCcSocket::GetConnectionId() const
{
    return m_connectionId;
}

uint64_t
QuicCcSocket::GetSentPacketRecordPeak() const
{
    return m_lossDetection ? m_lossDetection->GetRecordPeak() : 0;
}

uint64_t
QuicCcSocket::GetSentPacketRecordSize() const
{
    return m_lossDetection ? m_lossDetection->GetRecordSize() : 0;
}

// ---------------------------------------------------------------- receive path

void
QuicCcSocket::HandleUdpRead(Ptr<Socket> udp)
{
    Address from;
    Ptr<Packet> p;
    while ((p = udp->RecvFrom(from)))
    {
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        if (m_role != ROLE_LISTENER)
        {
            OnDatagram(std::move(bytes), from);
            continue;
        }
        const QuicCcDispatcher::Route route =
            m_dispatcher.Dispatch(bytes.data(), bytes.size(), from, m_state != STATE_CLOSED);
        Ptr<QuicCcSocket> connection = route.connection;
        if (route.open)
        {
            connection = CreateServerChild(from, route.connectionId);
        }
        else if (!connection)
        {
            Drop(route.dropReason);
        }
        if (connection)
        {
            connection->OnDatagram(std::move(bytes), from);
        }
    }
}

Ptr<QuicCcSocket>
QuicCcSocket::CreateServerChild(const Address& from, uint64_t connectionId)
{
    NS_LOG_FUNCTION(this << from << connectionId);
    if (!NotifyConnectionRequest(from))
    {
        return nullptr;
    }
    Ptr<QuicCcSocket> child = CreateObject<QuicCcSocket>();
    QuicCcDispatcher::CopyConfiguration(*this, *child);
    child->m_node = m_node;
    child->m_listener = this;
    child->m_peer = from;
    child->m_connectionId = connectionId;
    child->m_ccPrototype = m_ccPrototype;
    // Announce the socket before it starts, so that trace sinks and stream assignment see it all.
    if (!m_childCreated.IsNull())
    {
        m_childCreated(child);
    }
    child->StartConnection(ROLE_SERVER);
    child->m_state = STATE_ESTABLISHED;
    child->m_owed.handshakeDone = true;
    child->m_lossDetection->SetHandshakeConfirmed(true);
    child->m_lossDetection->SetPeerMaxAckDelay(child->m_maxAckDelay);
    m_dispatcher.Add(from, child);
    NotifyNewConnectionCreated(child, from);
    return child;
}

void
QuicCcSocket::Drop(const std::string& reason)
{
    ++m_dropped;
    NS_LOG_WARN("dropped datagram #" << m_dropped << ": " << reason);
    m_droppedTrace(m_dropped, reason);
}

void
QuicCcSocket::OnDatagram(std::vector<uint8_t> bytes, const Address& from)
{
    if (m_state == STATE_CLOSED || m_role == ROLE_NONE)
    {
        return;
    }
    QuicCcParseResult parsed = QuicCcParse(bytes.data(), bytes.size());
    if (!parsed.packet)
    {
        Drop(parsed.error);
        return;
    }
    std::string reason;
    if (!CheckPacket(*parsed.packet, reason))
    {
        Drop(reason);
        return;
    }
    const Time delay =
        CarriesAck(*parsed.packet) ? Seconds(m_ackProcessDelay->GetValue()) : Time(0);
    const Time now = Simulator::Now();
    if (delay.IsStrictlyPositive() || m_lastDatagramProcess > now)
    {
        // Host processing delay: keep FIFO order behind datagrams still waiting.
        const Time at = std::max(now + std::max(delay, Time(0)), m_lastDatagramProcess);
        m_lastDatagramProcess = at;
        const size_t size = bytes.size();
        Simulator::Schedule(
            at - now,
            [self = Ptr<QuicCcSocket>(this), pkt = std::move(*parsed.packet), size]() {
                if (self->m_state != STATE_CLOSED)
                {
                    std::string why;
                    if (self->CheckPacket(pkt, why))
                    {
                        self->ProcessPacket(pkt, size);
                    }
                    else
                    {
                        self->Drop(why);
                    }
                }
            });
        return;
    }
    ProcessPacket(*parsed.packet, bytes.size());
}

bool
QuicCcSocket::CheckPacket(const QuicCcPacket& packet, std::string& reason) const
{
    if (packet.connectionId != m_connectionId)
    {
        reason = "unknown connection id " + std::to_string(packet.connectionId);
        return false;
    }
    const uint64_t expected = m_acks.GetLargestReceived();
    if (packet.packetNumber > expected + kMaxPacketNumberJump)
    {
        reason = "packet number " + std::to_string(packet.packetNumber) +
                 " beyond the decoding window above " + std::to_string(expected);
        return false;
    }
    if (m_role == ROLE_CLIENT && packet.type == QuicCcPacketType::INITIAL)
    {
        reason = "client received an INITIAL packet";
        return false;
    }
    if (m_role == ROLE_SERVER && packet.type == QuicCcPacketType::HANDSHAKE)
    {
        reason = "server received a HANDSHAKE packet";
        return false;
    }
    for (const auto& frame : packet.frames)
    {
        if (const auto* ack = std::get_if<QuicCcAckFrame>(&frame))
        {
            const uint64_t largest = ack->ranges.front().largest;
            if (largest >= m_nextPacketNumber)
            {
                reason = "ACK of packet " + std::to_string(largest) +
                         " that was never sent (next " + std::to_string(m_nextPacketNumber) + ")";
                return false;
            }
        }
        else if (const auto* stream = std::get_if<QuicCcStreamFrame>(&frame))
        {
            reason = m_recvStream.Check(*stream);
            if (!reason.empty())
            {
                return false;
            }
        }
    }
    return true;
}

void
QuicCcSocket::ProcessPacket(const QuicCcPacket& packet, size_t size)
{
    NS_LOG_FUNCTION(this << packet.packetNumber << size);
    if (m_acks.IsDuplicate(packet.packetNumber))
    {
        // A duplicate: its frames were processed already (RFC 9000 Section 12.3).
        return;
    }
    const Time now = Simulator::Now();
    const bool outOfOrder = m_acks.OnPacketReceived(packet.packetNumber, now);
    m_lastActivity = now;
    m_packetReceivedTrace(packet.packetNumber, size);

    if (m_state == STATE_HANDSHAKE)
    {
        // Any authentic packet of the server completes the client's handshake.
        m_state = STATE_ESTABLISHED;
        m_owed.initial = false;
        m_lossDetection->SetHandshakeConfirmed(true);
        m_lossDetection->SetPeerMaxAckDelay(m_maxAckDelay);
        NotifyConnectionSucceeded();
        if (m_state == STATE_CLOSED)
        {
            return;
        }
    }
    for (const auto& frame : packet.frames)
    {
        if (const auto* ack = std::get_if<QuicCcAckFrame>(&frame))
        {
            OnAckFrame(*ack);
        }
        else if (const auto* stream = std::get_if<QuicCcStreamFrame>(&frame))
        {
            OnStreamFrame(*stream);
        }
        else if (const auto* close = std::get_if<QuicCcConnectionCloseFrame>(&frame))
        {
            OnConnectionClose(*close);
        }
        if (m_state == STATE_CLOSED)
        {
            return;
        }
    }
    if (packet.IsAckEliciting())
    {
        if (m_acks.OnAckElicitingReceived(outOfOrder, now))
        {
            SendAckNow();
        }
        else if (!m_ackTimer.IsRunning())
        {
            m_ackTimer = Simulator::Schedule(*m_acks.GetAckDeadline() - now,
                                             &QuicCcSocket::SendAckNow,
                                             this);
        }
    }
    MaybeFinishClose();
    if (m_state != STATE_CLOSED)
    {
        SendPending();
    }
}

void
QuicCcSocket::OnConnectionClose(const QuicCcConnectionCloseFrame& close)
{
    NS_LOG_INFO("peer closed: code " << close.errorCode << " " << close.reason);
    Ptr<QuicCcSocket> self(this);
    EnterClosed();
    if (close.errorCode == kNoError)
    {
        NotifyNormalClose();
        return;
    }
    m_errno = ERROR_SHUTDOWN;
    NotifyErrorClose();
}

void
QuicCcSocket::OnStreamFrame(const QuicCcStreamFrame& frame)
{
    const uint64_t delivered = m_recvStream.OnFrame(frame, !m_shutdownRecv);
    if (delivered > 0)
    {
        m_bytesReceived += delivered;
        if (!m_shutdownRecv)
        {
            NotifyDataRecv();
        }
    }
}

// ---------------------------------------------------------------- ACKs, losses, loss timer

void
QuicCcSocket::OnAckFrame(const QuicCcAckFrame& ack)
{
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    ranges.reserve(ack.ranges.size());
    for (const auto& r : ack.ranges)
    {
        ranges.emplace_back(r.smallest, r.largest);
    }
    QuicLossDetection::AckResult result =
        m_lossDetection->OnAckReceived(Simulator::Now(), ranges, ack.ackDelay);
    OnPacketsLost(result.lostFrames);
    OnPacketsAcked(result.ackedFrames);
    if (result.rttSampled)
    {
        const QuicRttStats& rtt = m_lossDetection->GetRttStats();
        m_rttTrace(rtt.GetLatestRtt(), rtt.GetSmoothedRtt(), rtt.GetMinRtt());
    }
    RearmLossTimer();
}

void
QuicCcSocket::OnPacketsAcked(const std::vector<QuicSentFrames>& acked)
{
    const uint64_t txBefore = GetTxAvailable();
    for (const QuicSentFrames& frames : acked)
    {
        for (const QuicCcStreamChunk& c : frames.chunks)
        {
            m_sendStream.OnAcked(c);
        }
        m_owed.handshakeDone = m_owed.handshakeDone && !frames.handshakeDone;
    }
    m_sendStream.ReleaseAcked();
    if (GetTxAvailable() > txBefore && !m_closeRequested && !m_shutdownSend &&
        m_state == STATE_ESTABLISHED)
    {
        NotifySend(GetTxAvailable());
    }
}

void
QuicCcSocket::OnPacketsLost(std::vector<QuicSentFrames>& lost)
{
    for (const QuicSentFrames& frames : lost)
    {
        // Lost STREAM data goes out again in new packets (RFC 9000 Section 13.3).
        for (const QuicCcStreamChunk& c : frames.chunks)
        {
            m_sendStream.OnLost(c);
        }
        m_owed.initial = m_owed.initial || (frames.initial && m_state == STATE_HANDSHAKE);
        m_owed.handshakeDone = m_owed.handshakeDone || frames.handshakeDone;
    }
}

void
QuicCcSocket::RearmLossTimer()
{
    if (m_state == STATE_CLOSED || !m_lossDetection)
    {
        return;
    }
    const std::optional<Time> deadline = m_lossDetection->GetTimerDeadline();
    if (!deadline)
    {
        m_lossTimer.Cancel();
        return;
    }
    // Lazy re-arming: an earlier pending expiry re-checks the deadline when it fires.
    if (m_lossTimer.IsRunning() && m_lossTimerAt <= *deadline)
    {
        return;
    }
    m_lossTimer.Cancel();
    const Time now = Simulator::Now();
    m_lossTimerAt = std::max(*deadline, now);
    m_lossTimer = Simulator::Schedule(m_lossTimerAt - now, &QuicCcSocket::OnLossTimer, this);
}

void
QuicCcSocket::OnLossTimer()
{
    const Time now = Simulator::Now();
    const std::optional<Time> deadline = m_lossDetection->GetTimerDeadline();
    if (!deadline)
    {
        return;
    }
    if (*deadline > now)
    {
        m_lossTimerAt = *deadline;
        m_lossTimer = Simulator::Schedule(*deadline - now, &QuicCcSocket::OnLossTimer, this);
        return;
    }
    QuicLossDetection::TimerResult result = m_lossDetection->OnTimerExpired(now);
    OnPacketsLost(result.lostFrames);
    SendPending();
    RearmLossTimer();
}

// ---------------------------------------------------------------- send path

void
QuicCcSocket::ScheduleSendPending()
{
    if (!m_sendEvent.IsRunning())
    {
        m_sendEvent = Simulator::ScheduleNow(&QuicCcSocket::SendPending, this);
    }
}

bool
QuicCcSocket::HasDataToSend() const
{
    if (m_owed.initial || m_owed.handshakeDone)
    {
        return true;
    }
    return m_state == STATE_ESTABLISHED && m_sendStream.HasDataToSend();
}

void
QuicCcSocket::SendPending()
{
    if (m_state == STATE_CLOSED || m_role == ROLE_NONE || m_role == ROLE_LISTENER)
    {
        return;
    }
    if (m_sendEvent.IsRunning() && Simulator::GetDelayLeft(m_sendEvent).IsStrictlyPositive())
    {
        return; // the host delay model paces this burst; the scheduled call continues it
    }
    while (m_state != STATE_CLOSED)
    {
        const bool probe = m_lossDetection->GetPendingProbes() > 0;
        if (!probe && !HasDataToSend())
        {
            break;
        }
        // Pacing=Rfc9002: wait for the pacer (RFC 9002 Section 7.7).
        const Time now = Simulator::Now();
        const Time srtt = m_lossDetection->GetRttStats().GetSmoothedRtt();
        if (m_pacing == PACING_RFC9002)
        {
            const Time at = m_pacer.NextSendTime(now, m_mss, m_cc->GetCongestionWindow(), srtt);
            if (at > now)
            {
                m_sendEvent.Cancel();
                m_sendEvent = Simulator::Schedule(at - now, &QuicCcSocket::SendPending, this);
                break;
            }
        }
        const uint64_t inFlightBefore = m_lossDetection->GetBytesInFlight();
        if (!SendOnePacket(probe))
        {
            break;
        }
        if (m_pacing == PACING_RFC9002) // charge the pacer with the packet's bytes
        {
            const uint64_t inFlightAfter = m_lossDetection->GetBytesInFlight();
            m_pacer.OnPacketSent(now,
                                 inFlightAfter > inFlightBefore ? inFlightAfter - inFlightBefore
                                                                : 0,
                                 m_cc->GetCongestionWindow(),
                                 srtt);
        }
        if (probe)
        {
            m_lossDetection->OnProbeSent();
        }
        // Host processing-delay model: the next packet of the burst leaves a little later.
        const Time gap = Seconds(m_sendDelay->GetValue());
        if (gap.IsStrictlyPositive())
        {
            m_sendEvent.Cancel();
            m_sendEvent = Simulator::Schedule(gap, &QuicCcSocket::SendPending, this);
            break;
        }
    }
    RearmLossTimer();
}

bool
QuicCcSocket::SendOnePacket(bool probe)
{
    QuicCcPacket packet = QuicCcPacketBuilder::StartPacket(m_connectionId,
                                                           m_nextPacketNumber,
                                                           m_owed,
                                                           m_role == ROLE_SERVER);
    uint64_t budget = QuicCcPacketBuilder::ProbeBudget(m_mss);
    if (!probe)
    {
        budget = QuicCcPacketBuilder::WindowBudget(
            m_mss,
            m_cc->GetBytesAvailable(m_lossDetection->GetBytesInFlight()));
        if (!QuicCcPacketBuilder::FitsStreamData(packet, m_sendStream.GetNextOffset(), budget) ||
            (m_packetSizing == SIZING_FULL_ONLY &&
             !QuicCcPacketBuilder::FitsFullOnly(packet, m_sendStream, m_mss, budget)))
        {
            // Data waits for the window: the sender is not application-limited (quiche).
            m_cc->SetAppLimited(false);
            return false;
        }
    }
    QuicCcPacketBuilder::Context context;
    context.server = m_role == ROLE_SERVER;
    context.clientHandshake = m_state == STATE_HANDSHAKE;
    context.established = m_state == STATE_ESTABLISHED;
    context.now = Simulator::Now();
    context.pingProbe = m_probeContent == PROBE_PING;
    const QuicSentFrames* oldest = probe ? m_lossDetection->GetOldestOutstandingFrames() : nullptr;
    QuicCcPacketBuilder::Filled filled =
        m_builder.Fill(packet, budget, probe, oldest, m_owed, context);
    if (filled.newBytes > 0)
    {
        NotifyDataSent(static_cast<uint32_t>(filled.newBytes));
    }
    if (!QuicCcPacketBuilder::IsWorthSending(packet, probe))
    {
        return false; // nothing worth a packet
    }
    Transmit(packet, std::move(filled.frames));
    return true;
}

void
QuicCcSocket::Transmit(const QuicCcPacket& packet, QuicSentFrames frames)
{
    const std::vector<uint8_t> bytes = QuicCcSerialize(packet);
    ++m_nextPacketNumber;
    m_lossDetection->OnPacketSent(Simulator::Now(),
                                  packet.packetNumber,
                                  bytes.size(),
                                  packet.IsAckEliciting(),
                                  std::move(frames));
    if (CarriesAck(packet))
    {
        m_acks.OnAckSent();
        m_ackTimer.Cancel();
    }
    m_packetSentTrace(packet.packetNumber, bytes.size());
    if (m_dontFragment && QuicCcExceedsPathMtu(m_node, m_peer, bytes.size()))
    {
        return; // not fragmented (RFC 9000 Section 14): never arrives, declared lost later
    }
    Ptr<Packet> p = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    if (m_role == ROLE_SERVER)
    {
        m_listener->m_udp->SendTo(p, 0, m_peer);
    }
    else
    {
        m_udp->Send(p);
    }
}

void
QuicCcSocket::SendAckNow()
{
    if (!m_acks.IsAckPending() || m_state == STATE_CLOSED)
    {
        return;
    }
    QuicCcPacket packet;
    packet.connectionId = m_connectionId;
    packet.packetNumber = m_nextPacketNumber;
    m_builder.AppendAck(packet, m_mss, Simulator::Now());
    Transmit(packet, QuicSentFrames{});
}

void
QuicCcSocket::SendConnectionClose(uint64_t errorCode, const std::string& reason)
{
    QuicCcPacket packet;
    packet.connectionId = m_connectionId;
    packet.packetNumber = m_nextPacketNumber;
    packet.frames.emplace_back(QuicCcConnectionCloseFrame{errorCode, reason});
    Transmit(packet, QuicSentFrames{});
}

// ---------------------------------------------------------------- closing

void
QuicCcSocket::MaybeFinishClose()
{
    if (!m_closeRequested || m_state != STATE_ESTABLISHED || !m_sendStream.AllAcked())
    {
        return;
    }
    // Wait for the peer's stream too, unless it never sent anything.
    if (!m_recvStream.NothingReceived() && !m_recvStream.Complete())
    {
        return;
    }
    Ptr<QuicCcSocket> self(this);
    SendConnectionClose(kNoError, "done");
    EnterClosed();
    if (!m_closeNotified)
    {
        m_closeNotified = true;
        NotifyNormalClose();
    }
}

void
QuicCcSocket::EnterClosed()
{
    NS_LOG_FUNCTION(this);
    m_state = STATE_CLOSED;
    // Remove (not Cancel): a cancelled event still keeps the simulator running until its time.
    for (EventId* e : {&m_lossTimer, &m_idleTimer, &m_ackTimer, &m_sendEvent})
    {
        Simulator::Remove(*e);
    }
    m_closedTrace(this);
    if (m_role == ROLE_CLIENT && m_udp)
    {
        m_udp->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_udp->Close();
    }
    if (m_role == ROLE_SERVER && m_listener)
    {
        m_listener->m_dispatcher.OnClosed(m_peer, m_connectionId);
    }
}

void
QuicCcSocket::RestartIdleTimer()
{
    // Lazy: the timer re-checks m_lastActivity when it fires instead of being moved per packet.
    if (!m_idleTimer.IsRunning())
    {
        m_idleTimer = Simulator::Schedule(m_idleTimeout, &QuicCcSocket::OnIdleTimeout, this);
    }
}

void
QuicCcSocket::OnIdleTimeout()
{
    const Time now = Simulator::Now();
    const Time idle = now - m_lastActivity;
    if (idle < m_idleTimeout)
    {
        m_idleTimer = Simulator::Schedule(m_idleTimeout - idle, &QuicCcSocket::OnIdleTimeout, this);
        return;
    }
    NS_LOG_INFO("idle timeout after " << idle.As(Time::S));
    Ptr<QuicCcSocket> self(this);
    const State before = m_state;
    EnterClosed();
    if (before == STATE_HANDSHAKE)
    {
        m_errno = ERROR_NOTCONN;
        NotifyConnectionFailed();
        return;
    }
    const bool ourStreamDone = m_sendStream.GetEndOffset() == 0 || m_sendStream.AllAcked();
    // Only a FIN proves the peer's stream is complete; silence is not completion.
    if (ourStreamDone && m_recvStream.Complete() && !m_closeNotified)
    {
        // Everything was delivered both ways; the peer's CONNECTION_CLOSE was lost: a silent close.
        m_closeNotified = true;
        NotifyNormalClose();
        return;
    }
    m_errno = ERROR_SHUTDOWN;
    NotifyErrorClose();
}

} // namespace ns3
