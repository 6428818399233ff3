/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-socket-base.h"

#include "quic-cc-compat.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/udp-socket-factory.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcSocketBase");
NS_OBJECT_ENSURE_REGISTERED(QuicCcSocketBase);

std::ostream&
operator<<(std::ostream& os, QuicCcSocketRole role)
{
    static const char* const kNames[] = {"NONE", "CLIENT", "LISTENER", "ACCEPTED"};
    return os << kNames[static_cast<int>(role)];
}

namespace
{
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

/// Like a TracedValue: store \p value in \p last and fire (old, new) when it differs.
template <typename T>
void
FireIfChanged(const TracedCallback<T, T>& trace, T& last, T value)
{
    if (value != last)
    {
        const T old = last;
        last = value;
        trace(old, value);
    }
}
} // namespace

TypeId
QuicCcSocketBase::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QuicCcSocketBase")
            .SetParent<Socket>()
            .SetGroupName("QuicCc")
            .AddAttribute(
                "Ecn",
                "Explicit Congestion Notification, both ends of the connection (RFC 9000 Section "
                "13.4, RFC 9002 Section 7.1). true: the sender marks ECT(0) and validates the "
                "path and the peer's counts (EcnState: Testing, then Capable, or Failed and no "
                "more marks), the receiver reads each datagram's ECN field and reports its "
                "counts in ACK frames of type 0x03 (CE-marked packets acknowledged at once), and "
                "a rise of the peer's ECN-CE count is a congestion event for the controller, as "
                "a loss is. false (the default, quiche's behaviour: its ACK frames carry no "
                "counts): every datagram is sent Not-ECT and no ECN field is read. ngtcp2: the "
                "codepoints pass between ns-3 and the library both ways (ngtcp2_pkt_info.ecn), "
                "which validates and reacts on its own.",
                BooleanValue(false),
                MakeBooleanAccessor(&QuicCcSocketBase::m_ecn),
                MakeBooleanChecker())
            .AddAttribute(
                "QlogSchema",
                "The schema of this socket's qlog file, when one is written (QuicCcHelper::"
                "EnableQlog; QuicCcNgtcp2Socket::QlogDirectory): MainSchema13, the qlog main "
                "schema draft-ietf-quic-qlog-main-schema-13 with the QUIC events of "
                "draft-ietf-quic-qlog-quic-events-12 (file_schema "
                "urn:ietf:params:qlog:file:sequential, event schema "
                "urn:ietf:params:qlog:events:quic-12, as quiche writes it); or V0_3, "
                "qlog_version 0.3 (draft-02 era event names such as transport:packet_sent), the "
                "only layout qvis reads: quic-cc's file as before, ngtcp2's own qlog unchanged.",
                EnumValue(QLOG_MAIN_SCHEMA_13),
                QUICCC_ENUM_ACCESSOR(QuicCcQlogSchema, &QuicCcSocketBase::m_qlogSchema),
                MakeEnumChecker(QLOG_MAIN_SCHEMA_13, "MainSchema13", QLOG_0_3, "V0_3"))
            .AddTraceSource("CongestionWindow",
                            "Congestion window, bytes, with ns-3 TCP's signature (uint32_t, as "
                            "TcpSocketBase's CongestionWindow); above 2^32-1 reads as UINT32_MAX.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_cwnd32Trace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("SlowStartThreshold",
                            "Slow-start threshold, bytes, with ns-3 TCP's signature (uint32_t); "
                            "not set or above 2^32-1 reads as UINT32_MAX, as TCP's initial value.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_ssthresh32Trace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("CongestionWindow64",
                            "Congestion window, bytes, full width.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_cwndTrace),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("SlowStartThreshold64",
                            "Slow-start threshold, bytes, full width; UINT64_MAX = not set.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_ssthreshTrace),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("BytesInFlight",
                            "Bytes of ack-eliciting packets neither acknowledged nor lost, with "
                            "ns-3 TCP's signature (uint32_t, as TcpSocketBase's BytesInFlight); "
                            "above 2^32-1 reads as UINT32_MAX.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_bytesInFlight32Trace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("BytesInFlight64",
                            "Bytes in flight, full width.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_bytesInFlightTrace),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("RTT",
                            "The latest RTT sample (latest_rtt, RFC 9002 Section 5.1) when it "
                            "changes, with the signature of TcpSocketBase's RTT (old, new).",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_lastRttTrace),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("RTO",
                            "The PTO period (RFC 9002 Section 6.2.1: smoothed_rtt + max(4 "
                            "rttvar, kGranularity) + max_ack_delay, doubled per PTO without an "
                            "ACK) when it changes at an RTT sample, QUIC's counterpart of "
                            "TcpSocketBase's RTO (old, new).",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_ptoTrace),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("Rtt",
                            "After each RTT sample (RFC 9002 Section 5): latest_rtt, smoothed_rtt, "
                            "min_rtt.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_rttTrace),
                            "ns3::QuicCcSocketBase::RttTracedCallback")
            .AddTraceSource("CongestionState",
                            "qlog congestion state (SlowStart, ConservativeSlowStart, "
                            "CongestionAvoidance, Recovery) on every change.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_stateTrace),
                            "ns3::TracedValueCallback::QuicCongestionState")
            .AddTraceSource("RecoveryStartTime",
                            "The congestion recovery start time R on every congestion event.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_recoveryStartTrace),
                            "ns3::Time::TracedCallback")
            .AddTraceSource("HandshakeCompleted",
                            "The handshake completed (RFC 9001 Section 4.1.1): a client when it "
                            "may send 1-RTT data and Connect's success callback runs, an accepted "
                            "connection when the listener announces it; once per connection.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_handshakeCompletedTrace),
                            "ns3::QuicCcSocketBase::HandshakeTracedCallback")
            .AddTraceSource("PtoExpired",
                            "The probe timeout fired (RFC 9002 Section 6.2.4; TCP's RTO expiry): "
                            "the consecutive PTO count after it (pto_count, 1 for the first). "
                            "ngtcp2: read from the library's qlog, with its PacketTraces "
                            "attribute on.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_ptoExpiredTrace),
                            "ns3::QuicCcSocketBase::PtoExpiredTracedCallback")
            .AddTraceSource("EcnState",
                            "The sender's ECN validation state (RFC 9000 Appendix A.4: Testing, "
                            "Unknown, Failed, Capable; Disabled before) on every change, with "
                            "the old state. ngtcp2: Testing at the start, Unknown once the "
                            "library stopped marking after its ten test packets, Capable and "
                            "Failed when the library decides them (its log lines \"path is ECN "
                            "capable\" / \"path is not ECN capable\").",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_ecnStateTrace),
                            "ns3::TracedValueCallback::QuicCcEcnState")
            .AddTraceSource("EcnCounts",
                            "The peer's ECN counts (ECT(0), ECT(1), ECN-CE; RFC 9000 Section "
                            "19.3.2) whenever an ACK frame changed them: quic-cc after the "
                            "frame passed validation; ngtcp2 as its qlog shows the ACK frames "
                            "received, with its PacketTraces attribute on.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_ecnCountsTrace),
                            "ns3::QuicCcSocketBase::EcnCountsTracedCallback")
            .AddTraceSource("PacketSent",
                            "Every packet sent: packet number, UDP payload bytes (ngtcp2: 1-RTT "
                            "packets, with its PacketTraces attribute on).",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_packetSentTrace),
                            "ns3::QuicCcSocketBase::PacketTracedCallback")
            .AddTraceSource("PacketReceived",
                            "Every packet (quic-cc) or datagram (ngtcp2) received: its packet "
                            "number (datagram index), UDP payload bytes.",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_packetReceivedTrace),
                            "ns3::QuicCcSocketBase::PacketTracedCallback")
            .AddTraceSource("PacketLost",
                            "Every packet declared lost: packet number, bytes, time sent (ngtcp2: "
                            "1-RTT packets, with its PacketTraces attribute on).",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_packetLostTrace),
                            "ns3::QuicCcSocketBase::PacketTimeTracedCallback")
            .AddTraceSource("PacingRate",
                            "The sender's pacing rate when it changes, with the signature of "
                            "TcpSocketState's PacingRate (old, new). quic-cc with Pacing=Rfc9002: "
                            "its pacer's rate PacingGain x cwnd / smoothed_rtt (RFC 9002 Section "
                            "7.7) after each change of cwnd or smoothed_rtt; with Pacing=Off "
                            "nothing is paced and the trace never fires (as TCP with Pacing "
                            "false never updates its PacingRate). ngtcp2 with Reno or Cubic: the "
                            "rate ngtcp2's pacer uses (lib/ngtcp2_cc.c set_pacing_rate: 1.25 x "
                            "cwnd / smoothed_rtt, 1 ms standing in for smoothed_rtt before the "
                            "first RTT sample, in its integer arithmetic), computed from "
                            "ngtcp2_conn_info after each library call; with Bbr never (ngtcp2 "
                            "sets BBR's rate from its bandwidth model, which no public API "
                            "shows).",
                            MakeTraceSourceAccessor(&QuicCcSocketBase::m_pacingRateTrace),
                            "ns3::TracedValueCallback::DataRate");
    return tid;
}

QuicCcSocketBase::QuicCcSocketBase() = default;
QuicCcSocketBase::~QuicCcSocketBase() = default;

void
QuicCcSocketBase::DoDispose()
{
    m_dispatcher.Clear();
    m_listener = nullptr;
    m_udp = nullptr;
    m_node = nullptr;
    m_childCreated = MakeNullCallback<void, Ptr<QuicCcSocketBase>>();
    Socket::DoDispose();
}

void
QuicCcSocketBase::SetNode(Ptr<Node> node)
{
    m_node = node;
}

void
QuicCcSocketBase::SetChildCreatedCallback(Callback<void, Ptr<QuicCcSocketBase>> callback)
{
    m_childCreated = callback;
}

QuicCcSocketRole
QuicCcSocketBase::GetRole() const
{
    return m_role;
}

size_t
QuicCcSocketBase::GetConnectionCount() const
{
    return m_dispatcher.GetConnectionCount();
}

bool
QuicCcSocketBase::IsEcnEnabled() const
{
    return m_ecn;
}

QuicCcEcnState
QuicCcSocketBase::GetEcnState() const
{
    return m_ecnState;
}

// ---------------------------------------------------------------- ns3::Socket

Socket::SocketErrno
QuicCcSocketBase::GetErrno() const
{
    return m_errno;
}

Socket::SocketType
QuicCcSocketBase::GetSocketType() const
{
    return NS3_SOCK_STREAM;
}

Ptr<Node>
QuicCcSocketBase::GetNode() const
{
    return m_node;
}

int
QuicCcSocketBase::BindUdp(const Address& local)
{
    NS_ABORT_MSG_IF(!m_node,
                    GetInstanceTypeId().GetName()
                        << ": no node (create sockets through the transport's socket factory)");
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
    m_udp->SetRecvCallback(MakeCallback(&QuicCcSocketBase::HandleUdpRead, this));
    return 0;
}

void
QuicCcSocketBase::ReadEcnOnUdp()
{
    if (m_ecn)
    {
        m_udp->SetIpRecvTos(true);
        m_udp->SetIpv6RecvTclass(true);
    }
}

int
QuicCcSocketBase::Bind(const Address& address)
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
QuicCcSocketBase::Bind()
{
    return BindUdp(InetSocketAddress(Ipv4Address::GetAny(), 0));
}

int
QuicCcSocketBase::Bind6()
{
    return BindUdp(Inet6SocketAddress(Ipv6Address::GetAny(), 0));
}

int
QuicCcSocketBase::Connect(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    if (m_role != QuicCcSocketRole::NONE)
    {
        m_errno = ERROR_ISCONN;
        return -1;
    }
    const bool ipv4 = InetSocketAddress::IsMatchingType(address);
    if (!ipv4 && !Inet6SocketAddress::IsMatchingType(address))
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    if (!m_udp)
    {
        const int rc = ipv4 ? Bind() : Bind6();
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
    CheckConfig(ipv4);
    ReadEcnOnUdp();
    m_peer = address;
    m_role = QuicCcSocketRole::CLIENT;
    StartClient();
    return 0;
}

int
QuicCcSocketBase::Listen()
{
    NS_LOG_FUNCTION(this);
    if (!m_udp || m_role != QuicCcSocketRole::NONE)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    Address local;
    m_udp->GetSockName(local);
    CheckConfig(InetSocketAddress::IsMatchingType(local));
    ReadEcnOnUdp();
    m_role = QuicCcSocketRole::LISTENER;
    return 0;
}

int
QuicCcSocketBase::Close()
{
    NS_LOG_FUNCTION(this);
    switch (m_role)
    {
    case QuicCcSocketRole::NONE:
    case QuicCcSocketRole::LISTENER:
        // A listener stops accepting; connections already accepted go on.
        m_accepting = false;
        return 0;
    case QuicCcSocketRole::CLIENT:
    case QuicCcSocketRole::ACCEPTED:
        // As TcpSocketBase: graceful, and closing again (or a connection that is over) is 0.
        if (m_closeRequested || !IsOpen())
        {
            return 0;
        }
        m_closeRequested = true;
        EngineClose();
        return 0;
    }
    return 0;
}

int
QuicCcSocketBase::ShutdownSend()
{
    NS_LOG_FUNCTION(this);
    // No more application data: the FIN follows what is buffered; the connection stays open.
    m_shutdownSend = true;
    EngineShutdownSend();
    return 0;
}

int
QuicCcSocketBase::ShutdownRecv()
{
    NS_LOG_FUNCTION(this);
    m_shutdownRecv = true;
    return 0;
}

uint32_t
QuicCcSocketBase::GetTxAvailable() const
{
    return EngineTxAvailable();
}

int
QuicCcSocketBase::Send(Ptr<Packet> p, uint32_t flags)
{
    NS_LOG_FUNCTION(this << p << flags);
    if (m_role != QuicCcSocketRole::CLIENT && m_role != QuicCcSocketRole::ACCEPTED)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    if (m_shutdownSend || m_closeRequested || !IsOpen())
    {
        m_errno = ERROR_SHUTDOWN;
        return -1;
    }
    if (!EngineCanSend(p->GetSize()))
    {
        m_errno = ERROR_MSGSIZE;
        return -1;
    }
    EngineSend(p);
    return static_cast<int>(p->GetSize());
}

int
QuicCcSocketBase::SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress)
{
    return Send(p, flags);
}

uint32_t
QuicCcSocketBase::GetRxAvailable() const
{
    return static_cast<uint32_t>(
        std::min<uint64_t>(EngineRxAvailable(), std::numeric_limits<uint32_t>::max()));
}

Ptr<Packet>
QuicCcSocketBase::Recv(uint32_t maxSize, uint32_t flags)
{
    if (EngineRxAvailable() == 0)
    {
        m_errno = ERROR_AGAIN; // as UdpSocketImpl
        return nullptr;
    }
    if (maxSize == 0)
    {
        return nullptr; // as TcpSocketBase (TcpRxBuffer::Extract of 0 bytes)
    }
    return EngineRecv(maxSize);
}

Ptr<Packet>
QuicCcSocketBase::RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress)
{
    Ptr<Packet> p = Recv(maxSize, flags);
    if (p)
    {
        fromAddress = m_peer;
    }
    return p;
}

int
QuicCcSocketBase::GetSockName(Address& address) const
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
QuicCcSocketBase::GetPeerName(Address& address) const
{
    if (m_role != QuicCcSocketRole::CLIENT && m_role != QuicCcSocketRole::ACCEPTED)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    address = m_peer;
    return 0;
}

bool
QuicCcSocketBase::SetAllowBroadcast(bool allowBroadcast)
{
    // As TcpSocketBase: no broadcast; true only when it is not asked for.
    return !allowBroadcast;
}

bool
QuicCcSocketBase::GetAllowBroadcast() const
{
    return false;
}

// ---------------------------------------------------------------- the datagram path

namespace
{
/// The ECN field of a datagram the UDP socket received (its IpRecvTos / Ipv6RecvTclass tag,
/// removed so that the stream data taken from the packet does not carry it); Not-ECT if none.
QuicCcEcnCodepoint
TakeEcnTag(Packet& p)
{
    SocketIpTosTag tos;
    if (p.RemovePacketTag(tos))
    {
        return QuicCcEcnFromTos(tos.GetTos());
    }
    SocketIpv6TclassTag tclass;
    if (p.RemovePacketTag(tclass))
    {
        return QuicCcEcnFromTos(tclass.GetTclass());
    }
    return QuicCcEcnCodepoint::NOT_ECT;
}
} // namespace

void
QuicCcSocketBase::HandleUdpRead(Ptr<Socket> udp)
{
    Ptr<QuicCcSocketBase> self = this; // a callback below may close and release this socket
    Address from;
    Ptr<Packet> p;
    // One buffer for every datagram (a fresh vector per datagram was a malloc and free of
    // ~1.4 kB each); taken out while in use, so that a nested call gets a buffer of its own.
    std::vector<uint8_t> bytes = std::move(m_datagram);
    while ((p = udp->RecvFrom(from)))
    {
        const QuicCcEcnCodepoint ecn = m_ecn ? TakeEcnTag(*p) : QuicCcEcnCodepoint::NOT_ECT;
        bytes.resize(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        if (m_role == QuicCcSocketRole::LISTENER)
        {
            Dispatch(bytes, p, from, ecn);
        }
        else if (m_role == QuicCcSocketRole::CLIENT)
        {
            Receive(bytes, p, ecn);
        }
    }
    m_datagram = std::move(bytes);
}

void
QuicCcSocketBase::Dispatch(const std::vector<uint8_t>& datagram,
                           Ptr<Packet> packet,
                           const Address& from,
                           QuicCcEcnCodepoint ecn)
{
    Ptr<QuicCcSocketBase> connection = m_dispatcher.Find(from);
    if (connection)
    {
        connection->Receive(datagram, packet, ecn);
        return;
    }
    // A new sender: the engine says whether this datagram opens a connection.
    const QuicCcDispatcher::Route route = m_dispatcher.Admit(m_accepting, Admit(datagram, packet));
    if (route.open)
    {
        NS_LOG_LOGIC(this << " new connection from " << from);
        if (!NotifyConnectionRequest(from))
        {
            return;
        }
        QuicCcAdmission admission;
        admission.admit = true;
        admission.connectionId = route.connectionId;
        connection = CreateAccepted(admission);
        connection->m_node = m_node;
        connection->m_listener = this;
        connection->m_peer = from;
        connection->m_role = QuicCcSocketRole::ACCEPTED;
        connection->m_ecn = m_ecn;
        // Announced before it starts, so that trace sinks and stream assignment see it all.
        if (!m_childCreated.IsNull())
        {
            m_childCreated(connection);
        }
        m_dispatcher.Add(from, connection);
        connection->StartAccepted(admission, datagram);
    }
    else
    {
        OnDropped(route.dropReason);
        return;
    }
    connection->Receive(datagram, packet, ecn);
}

// ---------------------------------------------------------------- for the engine

void
QuicCcSocketBase::NotifyEstablished()
{
    if (m_establishedNotified)
    {
        return;
    }
    m_establishedNotified = true;
    m_handshakeCompletedTrace();
    if (m_role == QuicCcSocketRole::CLIENT)
    {
        NotifyConnectionSucceeded();
    }
    else if (m_role == QuicCcSocketRole::ACCEPTED && m_listener)
    {
        m_listener->NotifyNewConnectionCreated(this, m_peer);
    }
}

void
QuicCcSocketBase::LeaveListener(std::optional<uint64_t> connectionId)
{
    if (m_role == QuicCcSocketRole::ACCEPTED && m_listener)
    {
        m_listener->m_dispatcher.OnClosed(m_peer, connectionId);
    }
}

void
QuicCcSocketBase::SendToPeer(Ptr<Packet> datagram, QuicCcEcnCodepoint ecn)
{
    if (ecn != QuicCcEcnCodepoint::NOT_ECT)
    {
        // The UDP socket's own TOS stays 0, so UdpSocketImpl keeps this per-packet tag and the
        // IP layer writes it into the header (Ipv4L3Protocol::Send, Ipv6L3Protocol::Send).
        if (InetSocketAddress::IsMatchingType(m_peer))
        {
            SocketIpTosTag tos;
            tos.SetTos(static_cast<uint8_t>(ecn));
            datagram->ReplacePacketTag(tos);
        }
        else
        {
            SocketIpv6TclassTag tclass;
            tclass.SetTclass(static_cast<uint8_t>(ecn));
            datagram->ReplacePacketTag(tclass);
        }
    }
    if (m_role == QuicCcSocketRole::ACCEPTED)
    {
        m_listener->m_udp->SendTo(datagram, 0, m_peer);
    }
    else
    {
        m_udp->Send(datagram);
    }
}

void
QuicCcSocketBase::CloseUdp()
{
    if (m_role == QuicCcSocketRole::CLIENT && m_udp)
    {
        m_udp->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_udp->Close();
    }
}

const Address&
QuicCcSocketBase::GetPeer() const
{
    return m_peer;
}

bool
QuicCcSocketBase::IsCloseRequested() const
{
    return m_closeRequested;
}

bool
QuicCcSocketBase::IsSendShutdown() const
{
    return m_shutdownSend;
}

bool
QuicCcSocketBase::IsRecvShutdown() const
{
    return m_shutdownRecv;
}

void
QuicCcSocketBase::SetErrno(SocketErrno error) const
{
    m_errno = error;
}

void
QuicCcSocketBase::TraceCongestionWindow(uint64_t oldValue, uint64_t newValue)
{
    m_cwndTrace(oldValue, newValue);
    FireSaturated(m_cwnd32Trace, oldValue, newValue);
}

void
QuicCcSocketBase::TraceSlowStartThreshold(uint64_t oldValue, uint64_t newValue)
{
    m_ssthreshTrace(oldValue, newValue);
    FireSaturated(m_ssthresh32Trace, oldValue, newValue);
}

void
QuicCcSocketBase::TraceBytesInFlight(uint64_t oldValue, uint64_t newValue)
{
    m_bytesInFlightTrace(oldValue, newValue);
    FireSaturated(m_bytesInFlight32Trace, oldValue, newValue);
}

void
QuicCcSocketBase::TraceRttSample(Time latest, Time smoothed, Time min)
{
    m_rttTrace(latest, smoothed, min);
    FireIfChanged(m_lastRttTrace, m_lastRtt, latest);
}

void
QuicCcSocketBase::TraceEcnState(QuicCcEcnState state)
{
    FireIfChanged(m_ecnStateTrace, m_ecnState, state);
}

void
QuicCcSocketBase::TracePacingRate(DataRate rate)
{
    FireIfChanged(m_pacingRateTrace, m_pacingRate, rate);
}

QuicCcQlogSchema
QuicCcSocketBase::GetQlogSchema() const
{
    return m_qlogSchema;
}

void
QuicCcSocketBase::TracePto(Time pto)
{
    FireIfChanged(m_ptoTrace, m_pto, pto);
}

} // namespace ns3
