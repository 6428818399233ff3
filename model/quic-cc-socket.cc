/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-socket.h"

#include "quic-cc-compat.h"

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
    if (m_connection)
    {
        m_connection->Dispose(); // stops its timers and forgets this owner
        m_connection = nullptr;
    }
    m_dispatcher.Clear();
    m_listener = nullptr;
    m_udp = nullptr;
    m_node = nullptr;
    m_ccPrototype = nullptr;
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

QuicCcConnection::Config
QuicCcSocket::GetConnectionConfig() const
{
    QuicCcConnection::Config c;
    c.mss = m_mss;
    c.initialWindowPackets = m_initialWindowPackets;
    c.minimumWindowPackets = m_minimumWindowPackets;
    c.initialRtt = m_initialRtt;
    c.idleTimeout = m_idleTimeout;
    c.acks = {static_cast<QuicCcReceivedPacketManager::Policy>(m_ackPolicy),
              m_ackElicitingThreshold,
              m_maxAckDelay,
              m_ackBatchWindow,
              m_maxAckRanges};
    c.sndBufSize = m_sndBufSize;
    c.rcvBufSize = m_rcvBufSize;
    c.persistentCongestion = m_persistentCongestion;
    c.pacing = m_pacing == PACING_RFC9002;
    c.pacingGain = m_pacingGain;
    c.pacingBurstPackets = m_pacingBurstPackets;
    c.fullOnlySizing = m_packetSizing == SIZING_FULL_ONLY;
    c.sendDelay = m_sendDelay;
    c.ackProcessingDelay = m_ackProcessDelay;
    return c;
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
    return m_connection ? m_connection->GetCongestionController() : nullptr;
}

const QuicLossDetection*
QuicCcSocket::GetLossDetection() const
{
    return m_connection ? &m_connection->GetLossDetection() : nullptr;
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
    if (role == ROLE_CLIENT)
    {
        m_connectionId =
            (uint64_t{m_cidRng->GetInteger(1, std::numeric_limits<uint32_t>::max())} << 32) |
            m_cidRng->GetInteger(0, std::numeric_limits<uint32_t>::max());
    }
    QuicCcConnection::Owner& owner = *this;
    m_connection = Create<QuicCcConnection>(owner,
                                            GetConnectionConfig(),
                                            m_ccPrototype->Fork(),
                                            role == ROLE_SERVER,
                                            m_connectionId);
    WireTraces();
    m_startedTrace(this);
    // Report the starting window so that a trace sink (and the qlog) sees it.
    TraceCwnd(0, m_connection->GetCongestionController()->GetCongestionWindow());
    m_connection->Start();
}

void
QuicCcSocket::WireTraces()
{
    // The controller's and loss detection's values reach the socket's trace sources unchanged.
    Ptr<QuicCongestionController> cc = m_connection->GetCongestionController();
    cc->TraceConnectWithoutContext("CongestionWindow",
                                   MakeCallback(&QuicCcSocket::TraceCwnd, this));
    cc->TraceConnectWithoutContext("SlowStartThreshold",
                                   MakeCallback(&QuicCcSocket::TraceSsthresh, this));
    cc->TraceConnectWithoutContext(
        "CongestionState",
        MakeCallback(&decltype(m_stateTrace)::operator(), &m_stateTrace));
    cc->TraceConnectWithoutContext(
        "RecoveryStartTime",
        MakeCallback(&decltype(m_recoveryStartTrace)::operator(), &m_recoveryStartTrace));
    QuicLossDetection& lossDetection = m_connection->GetLossDetection();
    lossDetection.TraceConnectBytesInFlight(
        MakeCallback(&decltype(m_bytesInFlightTrace)::operator(), &m_bytesInFlightTrace));
    lossDetection.TraceConnectPacketLost(
        MakeCallback(&decltype(m_packetLostTrace)::operator(), &m_packetLostTrace));
    lossDetection.TraceConnectPacketAcked(
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
    const QuicCcConnection::Config config = GetConnectionConfig();
    config.Validate();
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
    config.CheckIpv4Size(InetSocketAddress::IsMatchingType(address));
    m_peer = address;
    StartConnection(ROLE_CLIENT);
    m_connection->StartClientHandshake();
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
    const QuicCcConnection::Config config = GetConnectionConfig();
    config.Validate();
    Address local;
    m_udp->GetSockName(local);
    config.CheckIpv4Size(InetSocketAddress::IsMatchingType(local));
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
        m_listenerClosed = true;
        return 0;
    case ROLE_CLIENT:
    case ROLE_SERVER:
        if (!IsOpen())
        {
            m_errno = ERROR_BADF;
            return -1;
        }
        // Graceful in every state: buffered data (even written during the handshake) and the FIN
        // are delivered before CONNECTION_CLOSE.
        m_closeRequested = true;
        m_connection->FinishStream();
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
    if (m_connection)
    {
        m_connection->FinishStream();
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
    return m_connection ? m_connection->GetTxAvailable() : m_sndBufSize;
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
    if (m_shutdownSend || m_closeRequested || !IsOpen())
    {
        m_errno = ERROR_SHUTDOWN;
        return -1;
    }
    if (!m_connection->GetSendStream().CanAppend(p->GetSize()))
    {
        m_errno = ERROR_MSGSIZE;
        return -1;
    }
    // Kept as the application's packet: virtual (zero-filled) packets cost no memory.
    m_connection->Send(p);
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
    const uint64_t available = m_connection ? m_connection->GetRecvStream().Available() : 0;
    return static_cast<uint32_t>(
        std::min<uint64_t>(available, std::numeric_limits<uint32_t>::max()));
}

Ptr<Packet>
QuicCcSocket::Recv(uint32_t maxSize, uint32_t flags)
{
    if (GetRxAvailable() == 0 || maxSize == 0)
    {
        m_errno = maxSize == 0 ? ERROR_INVAL : ERROR_AGAIN;
        return nullptr;
    }
    const std::vector<uint8_t> out = m_connection->GetRecvStream().Read(maxSize);
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
    return m_connection ? m_connection->GetSendStream().GetEndOffset() : 0;
}

uint64_t
QuicCcSocket::GetBytesAcked() const
{
    return m_connection ? m_connection->GetSendStream().GetBytesAcked() : 0;
}

uint64_t
QuicCcSocket::GetBytesReceived() const
{
    return m_connection ? m_connection->GetBytesReceived() : 0;
}

uint64_t
QuicCcSocket::GetDroppedDatagrams() const
{
    return m_dropped;
}

bool
QuicCcSocket::IsEstablished() const
{
    return m_connection && m_connection->GetState() == QuicCcConnection::STATE_ESTABLISHED;
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
    return m_connection ? m_connection->GetLossDetection().GetRecordPeak() : 0;
}

uint64_t
QuicCcSocket::GetSentPacketRecordSize() const
{
    return m_connection ? m_connection->GetLossDetection().GetRecordSize() : 0;
}

// ---------------------------------------------------------------- the state machine

bool
QuicCcSocket::IsOpen() const
{
    return m_connection && m_connection->GetState() != QuicCcConnection::STATE_CLOSED;
}

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
            if (m_connection)
            {
                m_connection->OnDatagram(bytes);
            }
            continue;
        }
        const QuicCcDispatcher::Route route =
            m_dispatcher.Dispatch(bytes.data(), bytes.size(), from, !m_listenerClosed);
        Ptr<QuicCcSocket> connection = route.connection;
        if (route.open)
        {
            connection = CreateServerChild(from, route.connectionId);
        }
        else if (!connection)
        {
            OnDatagramDropped(route.dropReason);
        }
        if (connection)
        {
            connection->m_connection->OnDatagram(bytes);
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
    child->m_connection->AcceptClient();
    m_dispatcher.Add(from, child);
    NotifyNewConnectionCreated(child, from);
    return child;
}

void
QuicCcSocket::MaybeFinishClose()
{
    if (!m_closeRequested || !IsEstablished() || !m_connection->GetSendStream().AllAcked())
    {
        return;
    }
    // Wait for the peer's stream too, unless it never sent anything.
    const QuicCcRecvStream& recv = m_connection->GetRecvStream();
    if (!recv.NothingReceived() && !recv.Complete())
    {
        return;
    }
    Ptr<QuicCcSocket> self(this);
    m_connection->SendConnectionClose(kNoError, "done");
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
    m_connection->Close();
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

// ---------------------------------------------------------------- QuicCcConnection::Owner

void
QuicCcSocket::SendDatagram(Ptr<Packet> datagram)
{
    if (m_role == ROLE_SERVER)
    {
        m_listener->m_udp->SendTo(datagram, 0, m_peer);
    }
    else
    {
        m_udp->Send(datagram);
    }
}

void
QuicCcSocket::OnDatagramDropped(const std::string& reason)
{
    ++m_dropped;
    NS_LOG_WARN("dropped datagram #" << m_dropped << ": " << reason);
    m_droppedTrace(m_dropped, reason);
}

void
QuicCcSocket::OnPacketSent(uint64_t packetNumber, uint64_t bytes)
{
    m_packetSentTrace(packetNumber, bytes);
}

void
QuicCcSocket::OnPacketReceived(uint64_t packetNumber, uint64_t bytes)
{
    m_packetReceivedTrace(packetNumber, bytes);
}

void
QuicCcSocket::OnRttSample(const QuicRttStats& rtt)
{
    m_rttTrace(rtt.GetLatestRtt(), rtt.GetSmoothedRtt(), rtt.GetMinRtt());
}

void
QuicCcSocket::OnHandshakeComplete()
{
    NotifyConnectionSucceeded();
}

bool
QuicCcSocket::IsReceiving() const
{
    return !m_shutdownRecv;
}

void
QuicCcSocket::OnDataReceived()
{
    NotifyDataRecv();
}

void
QuicCcSocket::OnDataSent(uint64_t bytes)
{
    NotifyDataSent(static_cast<uint32_t>(bytes));
}

void
QuicCcSocket::OnSendBufferFreed(uint32_t available)
{
    if (!m_closeRequested && !m_shutdownSend && IsEstablished())
    {
        NotifySend(available);
    }
}

void
QuicCcSocket::OnPeerClose(uint64_t errorCode, const std::string& reason)
{
    Ptr<QuicCcSocket> self(this);
    EnterClosed();
    if (errorCode == kNoError)
    {
        NotifyNormalClose();
        return;
    }
    m_errno = ERROR_SHUTDOWN;
    NotifyErrorClose();
}

void
QuicCcSocket::OnPacketProcessed()
{
    MaybeFinishClose();
}

void
QuicCcSocket::OnIdleTimeout(Time idle)
{
    Ptr<QuicCcSocket> self(this);
    const QuicCcConnection::State before = m_connection->GetState();
    EnterClosed();
    if (before == QuicCcConnection::STATE_HANDSHAKE)
    {
        m_errno = ERROR_NOTCONN;
        NotifyConnectionFailed();
        return;
    }
    const QuicCcSendStream& send = m_connection->GetSendStream();
    const bool ourStreamDone = send.GetEndOffset() == 0 || send.AllAcked();
    // Only a FIN proves the peer's stream is complete; silence is not completion.
    if (ourStreamDone && m_connection->GetRecvStream().Complete() && !m_closeNotified)
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
