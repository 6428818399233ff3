/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-socket.h"

#include "quic-cc-compat.h"
#include "quic-cc-qlog.h"
#include "quic-cubic.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcSocket");
NS_OBJECT_ENSURE_REGISTERED(QuicCcSocket);

namespace
{
/// RFC 9000 Section 14.1: a client's INITIAL datagram is padded to at least 1200 bytes.
constexpr uint64_t kMinInitialSize = 1200;
/// Smallest and largest max_udp_payload_size (RFC 9000 Sections 14 and 18.2).
constexpr uint64_t kMinDatagramSize = 1200;
constexpr uint64_t kMaxDatagramSize = 65527;
/// Largest encodable stream offset (RFC 9000 Section 19.8).
constexpr uint64_t kMaxStreamOffset = (uint64_t{1} << 62) - 1;
/// Error code of a normal close (RFC 9000 Section 20.1 NO_ERROR).
constexpr uint64_t kNoError = 0;
/// Largest jump above the largest received packet number that is accepted: the decoding window
/// of a 4-byte truncated packet number (RFC 9000 Section 17.1, Appendix A.3). quic-cc sends
/// full packet numbers, so anything further is forged or corrupt.
constexpr uint64_t kMaxPacketNumberJump = uint64_t{1} << 31;
/// Largest UDP payload over IPv4 (65535 - 20 - 8) and over IPv6 (65535 - 8).
constexpr uint64_t kMaxIpv4Payload = 65507;

/// A new object of \p original's type with the same attribute values.
template <typename T>
Ptr<T>
CloneObjectByAttributes(Ptr<T> original)
{
    ObjectFactory factory;
    const TypeId tid = original->GetInstanceTypeId();
    factory.SetTypeId(tid);
    for (TypeId t = tid; t != Object::GetTypeId(); t = t.GetParent())
    {
        for (uint32_t i = 0; i < t.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = t.GetAttribute(i);
            Ptr<AttributeValue> value = info.checker->Create();
            if ((info.flags & TypeId::ATTR_GET) && (info.flags & TypeId::ATTR_SET) &&
                info.accessor->Get(PeekPointer(original), *value))
            {
                factory.Set(info.name, *value);
            }
        }
    }
    return factory.Create<T>();
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
                          MakeUintegerAccessor(&QuicCcSocket::SetMaxDatagramSize,
                                               &QuicCcSocket::GetMaxDatagramSize),
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
            .AddAttribute("MaxAckDelay",
                          "max_ack_delay this endpoint promises (RFC 9000 Section 18.2, 25 ms): the "
                          "receiver's ACK timer under AckPolicy Rfc9000, and the peer's value in "
                          "the sender's PTO (both endpoints are assumed to use the same value). "
                          "Must be >= 0.",
                          TimeValue(MilliSeconds(25)),
                          MakeTimeAccessor(&QuicCcSocket::SetMaxAckDelay,
                                           &QuicCcSocket::GetMaxAckDelay),
                          MakeTimeChecker())
            .AddAttribute("AckElicitingThreshold",
                          "AckPolicy Rfc9000 only: acknowledge at once after this many "
                          "ack-eliciting packets (RFC 9000 Section 13.2.2 recommends 2). Must be "
                          ">= 1.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&QuicCcSocket::SetAckElicitingThreshold,
                                               &QuicCcSocket::GetAckElicitingThreshold),
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
            .AddAttribute("QlogDirectory",
                          "Write one qlog file (JSON-SEQ, .sqlog) per connection into this "
                          "directory (it must exist); empty = no qlog. QuicCcHelper::EnableQlog "
                          "sets it.",
                          StringValue(""),
                          MakeStringAccessor(&QuicCcSocket::m_qlogDirectory),
                          MakeStringChecker())
            .AddAttribute("CongestionControl",
                          "TypeId of the congestion controller (a QuicCongestionController), "
                          "used when no controller was set explicitly (QuicCcHelper sets one).",
                          TypeIdValue(QuicCubic::GetTypeId()),
                          MakeTypeIdAccessor(&QuicCcSocket::SetCongestionControlTypeId,
                                             &QuicCcSocket::GetCongestionControlTypeId),
                          MakeTypeIdChecker())
            .AddTraceSource("CongestionWindow",
                            "Congestion window, bytes (from the controller).",
                            MakeTraceSourceAccessor(&QuicCcSocket::m_cwndTrace),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("SlowStartThreshold",
                            "Slow-start threshold, bytes; UINT64_MAX = not set (from the controller).",
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
            .AddTraceSource("PacketReceived",
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
                            "ns3::QuicCcSocket::DroppedTracedCallback");
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
    m_children.clear();
    m_listener = nullptr;
    m_udp = nullptr;
    m_node = nullptr;
    m_cc = nullptr;
    m_ccPrototype = nullptr;
    m_lossDetection.reset();
    Socket::DoDispose();
}

// ---------------------------------------------------------------- attributes and set-up

void
QuicCcSocket::SetMaxDatagramSize(uint64_t bytes)
{
    NS_ABORT_MSG_UNLESS(bytes >= kMinDatagramSize && bytes <= kMaxDatagramSize,
                        "QuicCcSocket::MaxDatagramSize must be in 1200..65527 bytes, got " << bytes);
    m_mss = bytes;
}

void
QuicCcSocket::SetCongestionControlTypeId(TypeId tid)
{
    // Checked when set (Config::SetDefault applies it at construction), naming the value.
    NS_ABORT_MSG_UNLESS(tid.IsChildOf(QuicCongestionController::GetTypeId()),
                        "QuicCcSocket::CongestionControl '" << tid.GetName() << "' is not a QuicCongestionController");
    m_ccTypeId = tid;
}

TypeId
QuicCcSocket::GetCongestionControlTypeId() const
{
    return m_ccTypeId;
}

uint64_t
QuicCcSocket::GetMaxDatagramSize() const
{
    return m_mss;
}

void
QuicCcSocket::SetMaxAckDelay(Time d)
{
    NS_ABORT_MSG_IF(d.IsStrictlyNegative(), "QuicCcSocket::MaxAckDelay must be >= 0, got " << d);
    m_maxAckDelay = d;
}

Time
QuicCcSocket::GetMaxAckDelay() const
{
    return m_maxAckDelay;
}

void
QuicCcSocket::SetAckElicitingThreshold(uint32_t n)
{
    NS_ABORT_MSG_IF(n == 0, "QuicCcSocket::AckElicitingThreshold must be >= 1, got " << n);
    m_ackElicitingThreshold = n;
}

uint32_t
QuicCcSocket::GetAckElicitingThreshold() const
{
    return m_ackElicitingThreshold;
}

void
QuicCcSocket::Validate() const
{
    // Cross-attribute rules run once before the first send (setter order follows registration).
    NS_ABORT_MSG_IF(m_initialWindowPackets == 0,
                    "QuicCcSocket::InitialWindowPackets must be >= 1, got 0");
    NS_ABORT_MSG_IF(m_minimumWindowPackets == 0,
                    "QuicCcSocket::MinimumWindowPackets must be >= 1, got 0");
    NS_ABORT_MSG_IF(m_minimumWindowPackets > m_initialWindowPackets,
                    "QuicCcSocket::MinimumWindowPackets (" << m_minimumWindowPackets
                                                           << ") must not exceed InitialWindowPackets ("
                                                           << m_initialWindowPackets << ")");
    NS_ABORT_MSG_UNLESS(m_initialRtt.IsStrictlyPositive(),
                        "QuicCcSocket::InitialRtt must be positive, got " << m_initialRtt);
    NS_ABORT_MSG_UNLESS(m_idleTimeout.IsStrictlyPositive(),
                        "QuicCcSocket::IdleTimeout must be positive, got " << m_idleTimeout);
    NS_ABORT_MSG_IF(m_ackBatchWindow.IsStrictlyNegative(),
                    "QuicCcSocket::AckBatchWindow must be >= 0, got " << m_ackBatchWindow);
    NS_ABORT_MSG_IF(m_maxAckRanges == 0, "QuicCcSocket::MaxAckRanges must be >= 1, got 0");
    NS_ABORT_MSG_IF(m_rcvBufSize < m_mss,
                    "QuicCcSocket::RcvBufSize (" << m_rcvBufSize << ") must hold at least one datagram (MaxDatagramSize "
                                                 << m_mss << ")");
    // Windows are bytes in uint64_t: keep packets x MaxDatagramSize far from overflow (2^48 B).
    NS_ABORT_MSG_IF(m_initialWindowPackets > (uint64_t{1} << 48) / m_mss,
                    "QuicCcSocket::InitialWindowPackets too large: " << m_initialWindowPackets << " x "
                                                                     << m_mss << " bytes exceeds 2^48 bytes");
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
    Validate();
    m_role = role;
    if (!m_ccPrototype)
    {
        ObjectFactory factory;
        factory.SetTypeId(m_ccTypeId);
        m_ccPrototype = factory.Create<QuicCongestionController>();
    }
    m_cc = m_ccPrototype->Fork();
    m_cc->Configure(m_mss, m_initialWindowPackets, m_minimumWindowPackets);
    m_lossDetection = std::make_unique<QuicLossDetection>(m_cc, QuicRttStats(m_initialRtt, Time(0)));
    m_recvStream.SetWindow(m_rcvBufSize);
    WireTraces();
    if (role == ROLE_CLIENT)
    {
        m_connectionId = (uint64_t{m_cidRng->GetInteger(1, std::numeric_limits<uint32_t>::max())} << 32) |
                         m_cidRng->GetInteger(0, std::numeric_limits<uint32_t>::max());
    }
    StartQlog();
    // Report the starting window so that a trace sink (and the qlog) sees it.
    m_cwndTrace(0, m_cc->GetCongestionWindow());
    m_lastActivity = Simulator::Now();
    RestartIdleTimer();
}

void
QuicCcSocket::StartQlog()
{
    if (m_qlogDirectory.empty())
    {
        return;
    }
    std::ostringstream path;
    path << m_qlogDirectory << "/quic-cc-node" << (m_node ? m_node->GetId() : 0) << "-"
         << (m_role == ROLE_CLIENT ? "client" : "server") << "-" << std::hex << m_connectionId << ".sqlog";
    std::ostringstream title;
    title << "quic-cc " << m_cc->GetName() << " connection " << std::hex << m_connectionId;
    m_qlog = Create<QuicCcQlogWriter>(path.str(), m_role == ROLE_CLIENT ? "client" : "server", title.str());
    m_qlog->Attach(this);
}

void
QuicCcSocket::WireTraces()
{
    m_cc->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&QuicCcSocket::TraceCwnd, this));
    m_cc->TraceConnectWithoutContext("SlowStartThreshold",
                                     MakeCallback(&QuicCcSocket::TraceSsthresh, this));
    m_cc->TraceConnectWithoutContext("CongestionState", MakeCallback(&QuicCcSocket::TraceState, this));
    m_cc->TraceConnectWithoutContext("RecoveryStartTime",
                                     MakeCallback(&QuicCcSocket::TraceRecoveryStart, this));
    m_lossDetection->m_bytesInFlightTrace.ConnectWithoutContext(
        MakeCallback(&QuicCcSocket::TraceBytesInFlight, this));
    m_lossDetection->m_packetLostTrace.ConnectWithoutContext(
        MakeCallback(&QuicCcSocket::TracePacketLost, this));
    m_lossDetection->m_packetAckedTrace.ConnectWithoutContext(
        MakeCallback(&QuicCcSocket::TracePacketAcked, this));
}

void
QuicCcSocket::TraceCwnd(uint64_t oldValue, uint64_t newValue)
{
    m_cwndTrace(oldValue, newValue);
}

void
QuicCcSocket::TraceSsthresh(uint64_t oldValue, uint64_t newValue)
{
    m_ssthreshTrace(oldValue, newValue);
}

void
QuicCcSocket::TraceState(QuicCongestionState oldValue, QuicCongestionState newValue)
{
    m_stateTrace(oldValue, newValue);
}

void
QuicCcSocket::TraceRecoveryStart(Time r)
{
    m_recoveryStartTrace(r);
}

void
QuicCcSocket::TraceBytesInFlight(uint64_t oldValue, uint64_t newValue)
{
    m_bytesInFlightTrace(oldValue, newValue);
}

void
QuicCcSocket::TracePacketLost(uint64_t pn, uint64_t bytes, Time sent)
{
    m_packetLostTrace(pn, bytes, sent);
}

void
QuicCcSocket::TracePacketAcked(uint64_t pn, uint64_t bytes, Time sent)
{
    m_packetAckedTrace(pn, bytes, sent);
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
    NS_ABORT_MSG_IF(InetSocketAddress::IsMatchingType(address) && m_mss > kMaxIpv4Payload,
                    "QuicCcSocket::MaxDatagramSize " << m_mss << " exceeds the IPv4 UDP payload limit "
                                                     << kMaxIpv4Payload << " bytes");
    m_peer = address;
    StartConnection(ROLE_CLIENT);
    m_state = STATE_HANDSHAKE;
    m_pendingInitial = true;
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
    NS_ABORT_MSG_IF(InetSocketAddress::IsMatchingType(local) && m_mss > kMaxIpv4Payload,
                    "QuicCcSocket::MaxDatagramSize " << m_mss << " exceeds the IPv4 UDP payload limit "
                                                     << kMaxIpv4Payload << " bytes");
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
        m_state = STATE_CLOSED;
        return 0;
    case ROLE_LISTENER:
        // Stop accepting; connections already accepted keep using the UDP socket.
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
        m_finQueued = true;
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
        m_finQueued = true;
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
    const uint64_t buffered = m_sendEnd - m_sendBufBase;
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
    const uint32_t size = p->GetSize();
    if (size > GetTxAvailable())
    {
        m_errno = ERROR_MSGSIZE;
        return -1;
    }
    if (m_sendEnd + size > kMaxStreamOffset)
    {
        m_errno = ERROR_MSGSIZE;
        return -1;
    }
    // Uninitialised scratch (a std::vector would zero every byte before CopyData overwrites it).
    const std::unique_ptr<uint8_t[]> tmp(new uint8_t[size]);
    p->CopyData(tmp.get(), size);
    m_sendBuf.insert(m_sendBuf.end(), tmp.get(), tmp.get() + size);
    m_sendEnd += size;
    // Like TcpSocketBase: send after the application's current call returns, so that a burst of
    // small Send() calls fills full-size packets.
    ScheduleSendPending();
    return static_cast<int>(size);
}

int
QuicCcSocket::SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress)
{
    return Send(p, flags);
}

uint32_t
QuicCcSocket::GetRxAvailable() const
{
    return static_cast<uint32_t>(std::min<uint64_t>(m_recvStream.Available(), std::numeric_limits<uint32_t>::max()));
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
    const size_t n = out.size();
    return Create<Packet>(out.data(), static_cast<uint32_t>(n));
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
    return m_sendEnd;
}

uint64_t
QuicCcSocket::GetBytesAcked() const
{
    if (m_streamAcked.Empty() || m_streamAcked.Front().first != 0)
    {
        return 0;
    }
    return m_streamAcked.Front().second;
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

uint64_t
QuicCcSocket::GetSentPacketRecordPeak() const
{
    return m_sentRecordPeak;
}

bool
QuicCcSocket::IsEstablished() const
{
    return m_state == STATE_ESTABLISHED;
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
        auto it = m_children.find(from);
        if (it != m_children.end())
        {
            it->second->OnDatagram(std::move(bytes), from);
            continue;
        }
        // A new peer: only a well-formed INITIAL opens a connection.
        QuicCcParseResult parsed = QuicCcParse(bytes.data(), bytes.size());
        if (!parsed.packet)
        {
            Drop("listener: " + parsed.error);
            continue;
        }
        if (parsed.packet->type != QuicCcPacketType::INITIAL || m_state == STATE_CLOSED)
        {
            Drop("listener: no connection for a non-INITIAL packet from a new address");
            continue;
        }
        if (m_closedConnectionIds.count(parsed.packet->connectionId) > 0)
        {
            // A late or duplicated INITIAL of a connection that already ended (RFC 9000
            // Section 10.2: a closed connection's packets are not a new connection).
            Drop("listener: INITIAL of closed connection " + std::to_string(parsed.packet->connectionId));
            continue;
        }
        Ptr<QuicCcSocket> child = CreateServerChild(from, parsed.packet->connectionId);
        if (child)
        {
            child->OnDatagram(std::move(bytes), from);
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
    // Same configuration: copy every attribute of this listener; random variables are cloned so
    // that each connection draws from its own streams.
    const TypeId tid = GetInstanceTypeId();
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        const TypeId::AttributeInformation info = tid.GetAttribute(i);
        if (!(info.flags & TypeId::ATTR_GET) || !(info.flags & TypeId::ATTR_SET))
        {
            continue;
        }
        Ptr<AttributeValue> value = info.checker->Create();
        if (!info.accessor->Get(this, *value))
        {
            continue;
        }
        const auto* pointer = dynamic_cast<const PointerValue*>(PeekPointer(value));
        if (pointer && pointer->Get<RandomVariableStream>())
        {
            child->SetAttribute(info.name, PointerValue(CloneObjectByAttributes(pointer->Get<RandomVariableStream>())));
            continue;
        }
        child->SetAttribute(info.name, *value);
    }
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
    child->m_pendingHandshakeDone = true;
    child->m_lossDetection->SetHandshakeConfirmed(true);
    child->m_lossDetection->SetPeerMaxAckDelay(child->m_maxAckDelay);
    m_children[from] = child;
    NotifyNewConnectionCreated(child, from);
    return child;
}

void
QuicCcSocket::OnDatagram(std::vector<uint8_t> bytes, const Address& from)
{
    if (m_state == STATE_CLOSED || m_role == ROLE_NONE)
    {
        return;
    }
    ProcessDatagram(std::move(bytes), from);
}

void
QuicCcSocket::Drop(const std::string& reason)
{
    ++m_dropped;
    NS_LOG_WARN("dropped datagram #" << m_dropped << ": " << reason);
    m_droppedTrace(m_dropped, reason);
}

void
QuicCcSocket::ProcessDatagram(std::vector<uint8_t> bytes, const Address& from)
{
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
    const bool hasAck = std::any_of(parsed.packet->frames.begin(),
                                    parsed.packet->frames.end(),
                                    [](const QuicCcFrame& f) {
                                        return std::holds_alternative<QuicCcAckFrame>(f);
                                    });
    const Time delay = hasAck ? Seconds(m_ackProcessDelay->GetValue()) : Time(0);
    const Time now = Simulator::Now();
    if (delay.IsStrictlyPositive() || m_lastDatagramProcess > now)
    {
        // Host processing delay: keep FIFO order behind datagrams still waiting.
        const Time at = std::max(now + std::max(delay, Time(0)), m_lastDatagramProcess);
        m_lastDatagramProcess = at;
        const size_t size = bytes.size();
        Simulator::Schedule(at - now, [self = Ptr<QuicCcSocket>(this), pkt = std::move(*parsed.packet), size]() {
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
    const uint64_t expected = m_anyReceived ? m_largestReceived : 0;
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
                reason = "ACK of packet " + std::to_string(largest) + " that was never sent (next " +
                         std::to_string(m_nextPacketNumber) + ")";
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
    if (m_received.Contains(packet.packetNumber))
    {
        // A duplicate: its frames were processed already (RFC 9000 Section 12.3).
        return;
    }
    const Time now = Simulator::Now();
    const bool outOfOrder = m_anyReceived && packet.packetNumber != m_largestReceived + 1;
    m_received.Add(packet.packetNumber, packet.packetNumber + 1);
    if (!m_anyReceived || packet.packetNumber > m_largestReceived)
    {
        m_largestReceived = packet.packetNumber;
        m_largestReceivedTime = now;
    }
    m_anyReceived = true;
    // Bound the receive history: the highest MaxAckRanges ranges are all an ACK can report.
    while (m_received.RangeCount() > 4 * static_cast<size_t>(m_maxAckRanges))
    {
        const auto low = m_received.Front();
        m_received.Remove(low.first, low.second);
    }
    m_lastActivity = now;
    m_packetReceivedTrace(packet.packetNumber, size);

    if (m_state == STATE_HANDSHAKE)
    {
        // Any authentic packet of the server completes the client's handshake.
        m_state = STATE_ESTABLISHED;
        m_pendingInitial = false;
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
            NS_LOG_INFO("peer closed: code " << close->errorCode << " " << close->reason);
            Ptr<QuicCcSocket> self(this);
            EnterClosed();
            if (close->errorCode == kNoError)
            {
                NotifyNormalClose();
            }
            else
            {
                m_errno = ERROR_SHUTDOWN;
                NotifyErrorClose();
            }
            return;
        }
        if (m_state == STATE_CLOSED)
        {
            return;
        }
    }
    if (packet.IsAckEliciting())
    {
        OnAckElicitingReceived(outOfOrder);
    }
    MaybeFinishClose();
    if (m_state != STATE_CLOSED)
    {
        SendPending();
    }
}

void
QuicCcSocket::OnAckElicitingReceived(bool outOfOrder)
{
    m_ackPending = true;
    ++m_ackElicitingSinceAck;
    if (m_ackPolicy == ACK_RFC9000)
    {
        // RFC 9000 Section 13.2.1/13.2.2: every 2nd ack-eliciting packet, or a gap, at once;
        // otherwise within max_ack_delay.
        if (outOfOrder || m_ackElicitingSinceAck >= m_ackElicitingThreshold)
        {
            SendAckNow();
        }
        else if (!m_ackTimer.IsRunning())
        {
            m_ackTimer = Simulator::Schedule(m_maxAckDelay, &QuicCcSocket::OnAckTimer, this);
        }
        return;
    }
    // Receive batch: one ACK for everything that arrives within the batch window.
    if (!m_ackTimer.IsRunning())
    {
        m_ackTimer = Simulator::Schedule(m_ackBatchWindow, &QuicCcSocket::OnAckTimer, this);
    }
}

void
QuicCcSocket::OnAckTimer()
{
    SendAckNow();
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

// ---------------------------------------------------------------- ACKs and losses

void
QuicCcSocket::OnAckFrame(const QuicCcAckFrame& ack)
{
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    ranges.reserve(ack.ranges.size());
    for (const auto& r : ack.ranges)
    {
        ranges.emplace_back(r.smallest, r.largest);
    }
    const Time now = Simulator::Now();
    QuicLossDetection::AckResult result = m_lossDetection->OnAckReceived(now, ranges, ack.ackDelay);
    OnPacketsLost(result.lost);
    OnPacketsAcked(result.newlyAcked);
    const QuicRttStats& rtt = m_lossDetection->GetRttStats();
    if (result.rttSampled)
    {
        m_rttTrace(rtt.GetLatestRtt(), rtt.GetSmoothedRtt(), rtt.GetMinRtt());
    }
    RearmLossTimer();
}

void
QuicCcSocket::OnPacketsAcked(const std::vector<uint64_t>& acked)
{
    const uint64_t txBefore = GetTxAvailable();
    for (uint64_t pn : acked)
    {
        auto it = m_sentContent.find(pn);
        if (it == m_sentContent.end())
        {
            continue;
        }
        for (const StreamChunk& c : it->second.chunks)
        {
            m_streamAcked.Add(c.offset, c.offset + c.length);
            m_retransmit.Remove(c.offset, c.offset + c.length);
            if (c.fin)
            {
                m_finAcked = true;
                m_finRetransmit = false;
            }
        }
        if (it->second.handshakeDone)
        {
            m_pendingHandshakeDone = false;
        }
        m_sentContent.erase(it);
    }
    // Free the acknowledged prefix of the send buffer.
    if (!m_streamAcked.Empty() && m_streamAcked.Front().first == 0)
    {
        const uint64_t ackedEnd = m_streamAcked.Front().second;
        if (ackedEnd > m_sendBufBase)
        {
            const uint64_t n = std::min<uint64_t>(ackedEnd - m_sendBufBase, m_sendBuf.size());
            m_sendBuf.erase(m_sendBuf.begin(), m_sendBuf.begin() + n);
            m_sendBufBase += n;
        }
    }
    if (GetTxAvailable() > txBefore)
    {
        UpdateTxSpace();
    }
}

void
QuicCcSocket::OnPacketsLost(const std::vector<uint64_t>& lost)
{
    for (uint64_t pn : lost)
    {
        auto it = m_sentContent.find(pn);
        if (it == m_sentContent.end())
        {
            continue;
        }
        // Lost STREAM data goes out again in new packets (RFC 9000 Section 13.3).
        for (const StreamChunk& c : it->second.chunks)
        {
            for (const auto& [s, e] : m_streamAcked.Missing(c.offset, c.offset + c.length))
            {
                m_retransmit.Add(s, e);
            }
            if (c.fin && !m_finAcked)
            {
                m_finRetransmit = true;
            }
        }
        if (it->second.initial && m_state == STATE_HANDSHAKE)
        {
            m_pendingInitial = true;
        }
        if (it->second.handshakeDone)
        {
            m_pendingHandshakeDone = true;
        }
        m_sentContent.erase(it);
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
    OnPacketsLost(result.lost);
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
    if (m_pendingInitial || m_pendingHandshakeDone)
    {
        return true;
    }
    if (m_state != STATE_ESTABLISHED)
    {
        return false;
    }
    return !m_retransmit.Empty() || m_finRetransmit || m_sendNext < m_sendEnd ||
           (m_finQueued && !m_finSent);
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
        if (!SendOnePacket(probe))
        {
            break;
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
    QuicCcPacket packet;
    packet.connectionId = m_connectionId;
    packet.packetNumber = m_nextPacketNumber;
    packet.type = QuicCcPacketType::ONE_RTT;
    if (m_pendingInitial)
    {
        packet.type = QuicCcPacketType::INITIAL;
    }
    else if (m_pendingHandshakeDone && m_role == ROLE_SERVER)
    {
        packet.type = QuicCcPacketType::HANDSHAKE;
    }
    uint64_t limit = m_mss;
    if (!probe)
    {
        // quiche fills at most what the congestion window (plus PRR) allows.
        limit = std::min<uint64_t>(m_mss, m_cc->GetBytesAvailable(m_lossDetection->GetBytesInFlight()));
        const uint64_t smallest = QuicCcHeaderSize(packet) + QuicCcStreamFrameOverhead(m_sendNext, 1) + 1;
        if (limit < smallest)
        {
            // Data waits for the window: the sender is not application-limited (quiche).
            m_cc->SetAppLimited(false);
            return false;
        }
    }
    SentContent content;
    AppendAck(packet, limit);
    if (m_pendingInitial)
    {
        packet.frames.emplace_back(QuicCcPingFrame{});
        content.initial = true;
        m_pendingInitial = false;
    }
    if (m_pendingHandshakeDone && m_role == ROLE_SERVER)
    {
        packet.frames.emplace_back(QuicCcHandshakeDoneFrame{});
        content.handshakeDone = true;
        m_pendingHandshakeDone = false;
    }
    if (m_state == STATE_ESTABLISHED)
    {
        BuildStreamFrames(packet, content, limit);
    }
    if (probe && !packet.IsAckEliciting())
    {
        // A probe re-carries the oldest unacknowledged data, or is a PING (RFC 9002 Section 6.2.4).
        if (!m_sentContent.empty())
        {
            const SentContent& oldest = m_sentContent.begin()->second;
            for (const StreamChunk& c : oldest.chunks)
            {
                for (const auto& [s, e] : m_streamAcked.Missing(c.offset, c.offset + c.length))
                {
                    m_retransmit.Add(s, e);
                }
                m_finRetransmit = m_finRetransmit || (c.fin && !m_finAcked);
            }
            m_pendingInitial = oldest.initial && m_state == STATE_HANDSHAKE;
            m_pendingHandshakeDone = oldest.handshakeDone && m_role == ROLE_SERVER;
            if (m_pendingInitial)
            {
                packet.type = QuicCcPacketType::INITIAL;
                packet.frames.emplace_back(QuicCcPingFrame{});
                content.initial = true;
                m_pendingInitial = false;
            }
            if (m_pendingHandshakeDone)
            {
                packet.frames.emplace_back(QuicCcHandshakeDoneFrame{});
                content.handshakeDone = true;
                m_pendingHandshakeDone = false;
            }
            if (m_state == STATE_ESTABLISHED)
            {
                BuildStreamFrames(packet, content, limit);
            }
        }
        if (!packet.IsAckEliciting())
        {
            packet.frames.emplace_back(QuicCcPingFrame{});
        }
    }
    if (!packet.IsAckEliciting() && !probe)
    {
        return false; // nothing worth a packet
    }
    if (packet.type == QuicCcPacketType::INITIAL)
    {
        const size_t size = QuicCcSerializedSize(packet);
        if (size < kMinInitialSize)
        {
            packet.frames.emplace_back(QuicCcPaddingFrame{kMinInitialSize - size});
        }
    }
    Transmit(packet, content, probe);
    return true;
}

bool
QuicCcSocket::AppendAck(QuicCcPacket& packet, uint64_t sizeLimit)
{
    if (!m_ackPending || !m_anyReceived)
    {
        return false;
    }
    QuicCcAckFrame ack;
    const auto highest = m_received.HighestInclusive(m_maxAckRanges);
    ack.ranges.reserve(highest.size());
    for (const auto& [lo, hi] : highest)
    {
        ack.ranges.push_back({lo, hi});
    }
    ack.ackDelay = Simulator::Now() - m_largestReceivedTime;
    while (ack.ranges.size() > 1 &&
           QuicCcSerializedSize(packet) + QuicCcAckFrameSize(ack) > std::max<uint64_t>(sizeLimit, 200))
    {
        ack.ranges.pop_back();
    }
    packet.frames.emplace_back(std::move(ack));
    return true;
}

void
QuicCcSocket::BuildStreamFrames(QuicCcPacket& packet, SentContent& content, uint64_t sizeLimit)
{
    // Retransmissions first (oldest offset first), then new data, then a bare FIN.
    auto room = [&](uint64_t offset) -> uint64_t {
        const uint64_t used = QuicCcSerializedSize(packet);
        const uint64_t overhead = QuicCcStreamFrameOverhead(offset, sizeLimit);
        return used + overhead < sizeLimit ? sizeLimit - used - overhead : 0;
    };
    auto addFrame = [&](uint64_t offset, uint64_t length, bool fin) {
        QuicCcStreamFrame frame;
        frame.offset = offset;
        frame.fin = fin;
        const auto first = m_sendBuf.begin() + static_cast<std::ptrdiff_t>(offset - m_sendBufBase);
        frame.data.assign(first, first + static_cast<std::ptrdiff_t>(length));
        packet.frames.emplace_back(std::move(frame));
        content.chunks.push_back({offset, length, fin});
    };
    while (!m_retransmit.Empty())
    {
        auto [start, end] = m_retransmit.Front();
        const uint64_t space = room(start);
        if (space == 0)
        {
            return;
        }
        const uint64_t length = std::min(end - start, space);
        const bool fin = m_finRetransmit && start + length == m_sendEnd && m_finQueued;
        addFrame(start, length, fin);
        if (fin)
        {
            m_finRetransmit = false;
        }
        m_retransmit.Remove(start, start + length);
    }
    if (m_finRetransmit && m_sendNext == m_sendEnd)
    {
        // The lost FIN travelled alone or with data acknowledged since: re-send it bare.
        if (room(m_sendEnd) == 0 && QuicCcSerializedSize(packet) + QuicCcStreamFrameOverhead(m_sendEnd, 0) > sizeLimit)
        {
            return;
        }
        addFrame(m_sendEnd, 0, true);
        m_finRetransmit = false;
    }
    if (m_sendNext < m_sendEnd)
    {
        const uint64_t space = room(m_sendNext);
        if (space == 0)
        {
            return;
        }
        const uint64_t length = std::min(m_sendEnd - m_sendNext, space);
        const bool fin = m_finQueued && m_sendNext + length == m_sendEnd;
        addFrame(m_sendNext, length, fin);
        m_sendNext += length;
        m_finSent = m_finSent || fin;
        NotifyDataSent(static_cast<uint32_t>(length));
    }
    else if (m_finQueued && !m_finSent &&
             QuicCcSerializedSize(packet) + QuicCcStreamFrameOverhead(m_sendEnd, 0) <= sizeLimit)
    {
        addFrame(m_sendEnd, 0, true);
        m_finSent = true;
    }
}

void
QuicCcSocket::Transmit(QuicCcPacket& packet, const SentContent& content, bool probe)
{
    const Time now = Simulator::Now();
    const std::vector<uint8_t> bytes = QuicCcSerialize(packet);
    const bool ackEliciting = packet.IsAckEliciting();
    ++m_nextPacketNumber;
    m_lossDetection->OnPacketSent(now, packet.packetNumber, bytes.size(), ackEliciting);
    m_sentRecordPeak = std::max<uint64_t>(m_sentRecordPeak, m_lossDetection->GetRecordSize());
    if (ackEliciting)
    {
        m_sentContent.emplace(packet.packetNumber, content);
    }
    const bool carriesAck = std::any_of(packet.frames.begin(), packet.frames.end(), [](const QuicCcFrame& f) {
        return std::holds_alternative<QuicCcAckFrame>(f);
    });
    if (carriesAck)
    {
        m_ackPending = false;
        m_ackElicitingSinceAck = 0;
        m_ackTimer.Cancel();
    }
    m_packetSentTrace(packet.packetNumber, bytes.size());
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
    if (!m_ackPending || m_state == STATE_CLOSED)
    {
        return;
    }
    QuicCcPacket packet;
    packet.connectionId = m_connectionId;
    packet.packetNumber = m_nextPacketNumber;
    AppendAck(packet, m_mss);
    Transmit(packet, SentContent{}, false);
}

void
QuicCcSocket::SendConnectionClose(uint64_t errorCode, const std::string& reason)
{
    QuicCcPacket packet;
    packet.connectionId = m_connectionId;
    packet.packetNumber = m_nextPacketNumber;
    packet.frames.emplace_back(QuicCcConnectionCloseFrame{errorCode, reason});
    Transmit(packet, SentContent{}, false);
}

// ---------------------------------------------------------------- closing

void
QuicCcSocket::UpdateTxSpace()
{
    if (!m_closeRequested && !m_shutdownSend && m_state == STATE_ESTABLISHED)
    {
        NotifySend(GetTxAvailable());
    }
}

void
QuicCcSocket::MaybeFinishClose()
{
    if (!m_closeRequested || m_state != STATE_ESTABLISHED || !m_finAcked)
    {
        return;
    }
    if (!m_streamAcked.ContainsAll(0, m_sendEnd))
    {
        return;
    }
    // Wait for the peer's stream too, unless it never sent anything.
    const bool peerDone = m_recvStream.NothingReceived() || m_recvStream.Complete();
    if (!peerDone)
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
    if (m_qlog)
    {
        m_qlog->Close();
    }
    if (m_role == ROLE_CLIENT && m_udp)
    {
        m_udp->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_udp->Close();
    }
    if (m_role == ROLE_SERVER && m_listener)
    {
        m_listener->m_closedConnectionIds.insert(m_connectionId);
        m_listener->m_children.erase(m_peer);
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
    const bool ourStreamDone = m_sendEnd == 0 || (m_finAcked && m_streamAcked.ContainsAll(0, m_sendEnd));
    // Only a FIN proves the peer's stream is complete; silence is not completion.
    const bool peerStreamDone = m_recvStream.Complete();
    if (ourStreamDone && peerStreamDone && !m_closeNotified)
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
