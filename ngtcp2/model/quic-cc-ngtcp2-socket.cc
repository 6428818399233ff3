/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ngtcp2-socket.h"

#include "quic-cc-ngtcp2-qlog-packets.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/quic-cc-attribute-copy.h"
#include "ns3/quic-cc-compat.h"
#include "ns3/quic-cc-config-accessor.h"
#include "ns3/quic-cc-frames.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cstdio>
#include <filesystem>
#include <netinet/in.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcNgtcp2Socket");
NS_OBJECT_ENSURE_REGISTERED(QuicCcNgtcp2Socket);

namespace
{

/// sockaddr bytes of an ns-3 socket address (what ngtcp2's ngtcp2_addr points to).
std::vector<uint8_t>
SockaddrBytes(const Address& address)
{
    if (InetSocketAddress::IsMatchingType(address))
    {
        const InetSocketAddress a = InetSocketAddress::ConvertFrom(address);
        sockaddr_in sa{};
        sa.sin_family = AF_INET;
        sa.sin_port = htons(a.GetPort());
        sa.sin_addr.s_addr = htonl(a.GetIpv4().Get());
        const auto* p = reinterpret_cast<const uint8_t*>(&sa);
        return std::vector<uint8_t>(p, p + sizeof(sa));
    }
    NS_ABORT_MSG_UNLESS(Inet6SocketAddress::IsMatchingType(address),
                        "QuicCcNgtcp2Socket: not an IPv4 or IPv6 socket address: " << address);
    const Inet6SocketAddress a = Inet6SocketAddress::ConvertFrom(address);
    sockaddr_in6 sa{};
    sa.sin6_family = AF_INET6;
    sa.sin6_port = htons(a.GetPort());
    a.GetIpv6().GetBytes(sa.sin6_addr.s6_addr);
    const auto* p = reinterpret_cast<const uint8_t*>(&sa);
    return std::vector<uint8_t>(p, p + sizeof(sa));
}

/// The accessor of the attribute stored at QuicCcNgtcp2Socket::m_config.*field.
template <typename V, typename F>
Ptr<const AttributeAccessor>
Field(F QuicCcNgtcp2Config::*field)
{
    return QuicCcMakeFieldAccessor<V, QuicCcNgtcp2Socket>(QuicCcNgtcp2Socket::ConfigMember(),
                                                          field);
}

uint64_t
NowNs()
{
    return static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
}

} // namespace

TypeId
QuicCcNgtcp2Socket::GetTypeId()
{
    // Each attribute that configures the connection is stored once, in m_config, and its
    // default is the config's.
    const QuicCcNgtcp2Config defaults;
    static TypeId tid =
        TypeId("ns3::QuicCcNgtcp2Socket")
            .SetParent<QuicCcSocketBase>()
            .SetGroupName("QuicCc")
            .AddConstructor<QuicCcNgtcp2Socket>()
            .AddAttribute("CongestionControl",
                          "ngtcp2's congestion controller (settings.cc_algo): Reno, Cubic "
                          "(RFC 9438 with HyStart++, RFC 9406) or Bbr (ngtcp2's BBRv2/v3).",
                          EnumValue(defaults.controller),
                          Field<QUICCC_ENUM_VALUE(QuicCcNgtcp2Config::Controller)>(
                              &QuicCcNgtcp2Config::controller),
                          MakeEnumChecker(QuicCcNgtcp2Config::RENO,
                                          "Reno",
                                          QuicCcNgtcp2Config::CUBIC,
                                          "Cubic",
                                          QuicCcNgtcp2Config::BBR,
                                          "Bbr"))
            .AddAttribute("InitialRtt",
                          "RTT before the first sample (settings.initial_rtt; RFC 9002 "
                          "Section 6.2.2: 333 ms, ngtcp2's default), > 0.",
                          TimeValue(defaults.initialRtt),
                          Field<TimeValue>(&QuicCcNgtcp2Config::initialRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxDatagramSize",
                          "Largest UDP payload sent, bytes (settings.max_tx_udp_payload_size; "
                          "ngtcp2's default 1452), 1200 .. 65527. With UdpPayloadShaping (the "
                          "default) ngtcp2 sends 1200 B until PMTUD finds more.",
                          UintegerValue(defaults.maxUdpPayloadBytes),
                          Field<UintegerValue>(&QuicCcNgtcp2Config::maxUdpPayloadBytes),
                          MakeUintegerChecker<uint32_t>(1200, 65527))
            .AddAttribute("Pmtud",
                          "Path MTU discovery probes (false: settings.no_pmtud, the default here).",
                          BooleanValue(defaults.pmtud),
                          Field<BooleanValue>(&QuicCcNgtcp2Config::pmtud),
                          MakeBooleanChecker())
            .AddAttribute("UdpPayloadShaping",
                          "ngtcp2's default: UDP payloads of 1200 B (NGTCP2_MAX_UDP_PAYLOAD_SIZE) "
                          "unless PMTUD finds more; false (settings.no_tx_udp_payload_size_"
                          "shaping): MaxDatagramSize from the first packet on.",
                          BooleanValue(defaults.payloadShaping),
                          Field<BooleanValue>(&QuicCcNgtcp2Config::payloadShaping),
                          MakeBooleanChecker())
            .AddAttribute("AckElicitingThreshold",
                          "Ack-eliciting packets received before an immediate ACK "
                          "(settings.ack_thresh; ngtcp2's default 2), >= 1.",
                          UintegerValue(defaults.ackThresholdPackets),
                          Field<UintegerValue>(&QuicCcNgtcp2Config::ackThresholdPackets),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxAckDelay",
                          "max_ack_delay transport parameter (RFC 9000 Section 18.2; 25 ms), "
                          "below 2^14 ms.",
                          TimeValue(defaults.maxAckDelay),
                          Field<TimeValue>(&QuicCcNgtcp2Config::maxAckDelay),
                          MakeTimeChecker(Time(0), MilliSeconds((1 << 14) - 1)))
            .AddAttribute("IdleTimeout",
                          "max_idle_timeout transport parameter (RFC 9000 Section 10.1), > 0.",
                          TimeValue(defaults.idleTimeout),
                          Field<TimeValue>(&QuicCcNgtcp2Config::idleTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("InitialMaxData",
                          "initial_max_data (RFC 9000 Section 18.2), bytes: the connection's "
                          "flow-control limit, reopened as the application reads; 1350 to "
                          "2^62-1 (the largest variable-length integer, RFC 9000 Section 16; "
                          "ngtcp2 asserts beyond).",
                          UintegerValue(defaults.initialMaxData),
                          Field<UintegerValue>(&QuicCcNgtcp2Config::initialMaxData),
                          MakeUintegerChecker<uint64_t>(1350, kQuicCcVarIntMax))
            .AddAttribute("InitialMaxStreamData",
                          "initial_max_stream_data_bidi_local/remote (RFC 9000 Section 18.2), "
                          "bytes: the stream's flow-control limit, reopened as the application "
                          "reads; 1350 to 2^62-1.",
                          UintegerValue(defaults.initialMaxStreamData),
                          Field<UintegerValue>(&QuicCcNgtcp2Config::initialMaxStreamData),
                          MakeUintegerChecker<uint64_t>(1350, kQuicCcVarIntMax))
            .AddAttribute("SndBufSize",
                          "Bytes the application may have given and not yet acknowledged, >= 1.",
                          UintegerValue(1 << 24),
                          MakeUintegerAccessor(&QuicCcNgtcp2Socket::m_sndBufSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ClientHelloSize",
                          "Modelled ClientHello, bytes of CRYPTO data (the Initial packet is "
                          "padded to 1200 bytes anyway), 6 .. 4096.",
                          UintegerValue(defaults.clientHelloBytes),
                          Field<UintegerValue>(&QuicCcNgtcp2Config::clientHelloBytes),
                          MakeUintegerChecker<uint32_t>(6, 4096))
            .AddAttribute("ServerHelloSize",
                          "Modelled ServerHello, bytes of Initial CRYPTO data, 6 .. 4096.",
                          UintegerValue(defaults.serverHelloBytes),
                          Field<UintegerValue>(&QuicCcNgtcp2Config::serverHelloBytes),
                          MakeUintegerChecker<uint32_t>(6, 4096))
            .AddAttribute("ServerFlightSize",
                          "Modelled server Handshake flight (EncryptedExtensions, Certificate, "
                          "CertificateVerify, Finished), bytes; above ~3.5 KB the 3x "
                          "anti-amplification limit (RFC 9000 Section 8.1) costs a round trip, "
                          "6 .. 65536.",
                          UintegerValue(defaults.serverFlightBytes),
                          Field<UintegerValue>(&QuicCcNgtcp2Config::serverFlightBytes),
                          MakeUintegerChecker<uint32_t>(6, 65536))
            .AddAttribute("ClientFinishedSize",
                          "Modelled client Finished, bytes of Handshake CRYPTO data, 6 .. 4096.",
                          UintegerValue(defaults.clientFinishedBytes),
                          Field<UintegerValue>(&QuicCcNgtcp2Config::clientFinishedBytes),
                          MakeUintegerChecker<uint32_t>(6, 4096))
            .AddAttribute("QlogDirectory",
                          "Write ngtcp2's own qlog (settings.qlog_write) of each connection to "
                          "<dir>/ngtcp2-node<N>-<client|server>-<local port>-<peer port>.sqlog "
                          "in the socket's QlogSchema: MainSchema13 maps the library's records "
                          "to the main schema (QuicCcNgtcp2QlogMap) and adds the "
                          "CongestionState and PacingRate traces as events (QuicCcQlogWriter); "
                          "V0_3 is ngtcp2's own output unchanged. Written through "
                          "QuicCcQlogFile: a temporary file renamed when complete; a failed "
                          "write ends the run with one line naming the file; the directory is "
                          "created if missing. Empty = off.",
                          StringValue(""),
                          MakeStringAccessor(&QuicCcNgtcp2Socket::m_qlogDirectory),
                          MakeStringChecker())
            .AddAttribute("PacketTraces",
                          "Fire PacketSent and PacketLost for 1-RTT packets, read from ngtcp2's "
                          "qlog records (ngtcp2 has no per-packet callback; on, ngtcp2 formats "
                          "its qlog for every packet, which costs CPU time).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&QuicCcNgtcp2Socket::m_packetTraces),
                          MakeBooleanChecker())
            .AddTraceSource("LibraryLog",
                            "ngtcp2's own debug log, one line per call (settings.log_write): "
                            "its congestion controller's decisions (\"cca\" lines: cwnd, "
                            "target, w_est), loss detection, frames. Set when a connection "
                            "starts, only if this trace has a sink then (connect it at "
                            "SocketCreated); ngtcp2 formats nothing otherwise.",
                            MakeTraceSourceAccessor(&QuicCcNgtcp2Socket::m_libraryLog),
                            "ns3::QuicCcNgtcp2Socket::LibraryLogCallback")
            .AddTraceSource("PacketsLost",
                            "Packets ngtcp2 declared lost so far (ngtcp2_conn_info.pkt_lost).",
                            MakeTraceSourceAccessor(&QuicCcNgtcp2Socket::m_packetsLostTrace),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

QuicCcNgtcp2Socket::QuicCcNgtcp2Socket()
    : m_rng(CreateObject<UniformRandomVariable>())
{
}

QuicCcNgtcp2Socket::~QuicCcNgtcp2Socket()
{
    m_conn.reset(); // ngtcp2_conn_del writes the qlog's end while the file is still open
}

void
QuicCcNgtcp2Socket::DoDispose()
{
    m_timer.Cancel();
    m_writeEvent.Cancel();
    m_finishEvent.Cancel();
    m_conn.reset(); // ngtcp2_conn_del: the qlog's end is written before the file closes
    m_qlog.reset(); // renamed over its path if ngtcp2 had not ended it
    if (m_qlogWriter)
    {
        m_qlogWriter->Close(); // likewise
    }
    QuicCcSocketBase::DoDispose();
}

int64_t
QuicCcNgtcp2Socket::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

std::string
QuicCcNgtcp2Socket::GetLibraryVersion()
{
    return QuicCcNgtcp2Connection::LibraryVersion();
}

std::string
QuicCcNgtcp2Socket::GetControllerName() const
{
    switch (m_config.controller)
    {
    case QuicCcNgtcp2Config::RENO:
        return "reno";
    case QuicCcNgtcp2Config::BBR:
        return "bbr";
    case QuicCcNgtcp2Config::CUBIC:
        break;
    }
    return "cubic";
}

uint64_t
QuicCcNgtcp2Socket::GetCongestionWindow() const
{
    return m_tracedCwnd;
}

uint64_t
QuicCcNgtcp2Socket::GetStreamBytesHeld() const
{
    return m_conn ? m_conn->GetStoredBytes() : 0;
}

uint64_t
QuicCcNgtcp2Socket::GetPacketsLost() const
{
    return m_packetsLostTrace.Get();
}

uint64_t
QuicCcNgtcp2Socket::GetCongestionEvents() const
{
    return m_events.GetEvents();
}

uint64_t
QuicCcNgtcp2Socket::GetEcnCongestionEvents() const
{
    return m_events.GetEcnEvents();
}

bool
QuicCcNgtcp2Socket::IsEstablished() const
{
    return m_connectedNotified;
}

QuicCcNgtcp2Config
QuicCcNgtcp2Socket::MakeConfig(bool server)
{
    QuicCcNgtcp2Config c = m_config;
    c.ecn = IsEcnEnabled();
    m_events.SetEcn(c.ecn);
    if (!m_qlogDirectory.empty())
    {
        OpenQlog(server ? "server" : "client");
    }
    if (!m_libraryLog.IsEmpty())
    {
        c.log = [this](const std::string& line) { m_libraryLog(line); };
    }
    if (!m_qlogDirectory.empty() || m_packetTraces)
    {
        c.qlog = [this](const uint8_t* data, size_t length, bool last) {
            if (m_packetTraces)
            {
                OnQlogRecord(data, length);
            }
            if (m_qlogWriter)
            {
                const double nowMs = Simulator::Now().GetNanoSeconds() / 1e6;
                for (const std::string& event : m_qlogMap.Map(data, length, nowMs))
                {
                    m_qlogWriter->Record(event);
                }
                if (last)
                {
                    m_qlogWriter->Close();
                }
            }
            if (!m_qlog)
            {
                return;
            }
            m_qlog->Append(reinterpret_cast<const char*>(data), length);
            if (last)
            {
                m_qlog->Close();
            }
        };
    }
    return c;
}

void
QuicCcNgtcp2Socket::OnQlogRecord(const uint8_t* data, size_t length)
{
    const QuicCcNgtcp2QlogPacket packet = QuicCcNgtcp2QlogPacket::Parse(data, length);
    if (packet.kind == QuicCcNgtcp2QlogPacket::SENT)
    {
        // ngtcp2 logs a packet when it writes it, within the call at the current time.
        m_sentPackets[packet.packetNumber] = SentPacket{packet.bytes, Simulator::Now()};
        m_sentPending.push_back(packet.packetNumber);
    }
    else if (packet.kind == QuicCcNgtcp2QlogPacket::LOST)
    {
        m_lostPending.push_back(packet.packetNumber);
    }
    else if (packet.kind == QuicCcNgtcp2QlogPacket::ACK_ECN)
    {
        const QuicCcEcnCounts counts{packet.ect0, packet.ect1, packet.ce};
        const QuicCcEcnCounts& last = m_ecnPending.empty() ? m_ecnCounts : m_ecnPending.back();
        if (counts != last)
        {
            m_ecnPending.push_back(counts); // reordered frames included, as ngtcp2 logs them
        }
    }
    else if (packet.kind == QuicCcNgtcp2QlogPacket::METRICS)
    {
        // ngtcp2 counts a PTO expiry in pto_count (ngtcp2_conn_on_loss_detection_timer) and
        // resets it on an ACK: a rise is an expiry.
        if (packet.ptoCount > m_ptoCount)
        {
            m_ptoPending.push_back(static_cast<uint32_t>(packet.ptoCount));
        }
        m_ptoCount = packet.ptoCount;
    }
}

void
QuicCcNgtcp2Socket::OpenQlog(const std::string& role)
{
    Address local;
    GetSockName(local);
    auto port = [](const Address& a) -> uint16_t {
        if (InetSocketAddress::IsMatchingType(a))
        {
            return InetSocketAddress::ConvertFrom(a).GetPort();
        }
        return Inet6SocketAddress::IsMatchingType(a) ? Inet6SocketAddress::ConvertFrom(a).GetPort()
                                                     : 0;
    };
    const std::string path = m_qlogDirectory + "/ngtcp2-node" + std::to_string(GetNode()->GetId()) +
                             "-" + role + "-" + std::to_string(port(local)) + "-" +
                             std::to_string(port(GetPeer())) + ".sqlog";
    QuicCcCreateQlogDirectory(m_qlogDirectory);
    if (GetQlogSchema() == QLOG_0_3)
    {
        m_qlog = std::make_unique<QuicCcQlogFile>(path);
        return;
    }
    const std::string title = "ngtcp2 " + QuicCcNgtcp2Connection::LibraryVersion() + " " +
                              GetControllerName() + " connection " + std::to_string(port(local)) +
                              "-" + std::to_string(port(GetPeer()));
    m_qlogWriter = Create<QuicCcQlogWriter>(path, role, title, QLOG_MAIN_SCHEMA_13, "ngtcp2");
    // What ngtcp2's qlog lacks, from this socket's traces.
    TraceConnectWithoutContext("CongestionState",
                               MakeCallback(&QuicCcQlogWriter::State, m_qlogWriter));
    TraceConnectWithoutContext("PacingRate",
                               MakeCallback(&QuicCcQlogWriter::PacingRate, m_qlogWriter));
    TraceConnectWithoutContext("EcnState", MakeCallback(&QuicCcQlogWriter::EcnState, m_qlogWriter));
}

QuicCcNgtcp2Connection::Path
QuicCcNgtcp2Socket::MakePath(const Address& peer) const
{
    Address local;
    GetSockName(local);
    return QuicCcNgtcp2Connection::Path{SockaddrBytes(local), SockaddrBytes(peer)};
}

// ---------------------------------------------------------------- QuicCcSocketBase: the engine

void
QuicCcNgtcp2Socket::CheckConfig(bool ipv4) const
{
}

void
QuicCcNgtcp2Socket::StartClient()
{
    m_conn = QuicCcNgtcp2Connection::CreateClient(
        MakeConfig(false),
        MakePath(GetPeer()),
        [this](const uint8_t* data, size_t length, QuicCcEcnCodepoint ecn) {
            SendDatagram(data, length, ecn);
        },
        [this](uint8_t* data, size_t length) { FillRandom(data, length); },
        NowNs());
    NS_ABORT_MSG_UNLESS(
        m_conn->GetError().empty(),
        "QuicCcNgtcp2Socket: ngtcp2_conn_client_new failed: " << m_conn->GetError());
    m_conn->SetStreamSource([this](uint8_t* data, size_t length) { TakeSendBytes(data, length); });
    TraceEcnState(m_conn->GetEcnState());
    ScheduleWrite();
}

QuicCcAdmission
QuicCcNgtcp2Socket::Admit(const std::vector<uint8_t>& datagram, Ptr<Packet> packet) const
{
    QuicCcAdmission admission;
    admission.admit = QuicCcNgtcp2Connection::IsAcceptableInitial(datagram.data(), datagram.size());
    if (!admission.admit)
    {
        admission.dropReason = "listener: not a first Initial (ngtcp2_accept) from a new address";
    }
    return admission;
}

Ptr<QuicCcSocketBase>
QuicCcNgtcp2Socket::CreateAccepted(const QuicCcAdmission& admission)
{
    // The accepted connection: this listener's attributes.
    Ptr<QuicCcNgtcp2Socket> child = CreateObject<QuicCcNgtcp2Socket>();
    QuicCcCopyAttributes(*this, *child);
    return child;
}

void
QuicCcNgtcp2Socket::StartAccepted(const QuicCcAdmission& admission,
                                  const std::vector<uint8_t>& datagram)
{
    m_conn = QuicCcNgtcp2Connection::CreateServer(
        MakeConfig(true),
        MakePath(GetPeer()),
        datagram.data(),
        datagram.size(),
        [this](const uint8_t* data, size_t length, QuicCcEcnCodepoint ecn) {
            SendDatagram(data, length, ecn);
        },
        [this](uint8_t* data, size_t length) { FillRandom(data, length); },
        NowNs());
    NS_ABORT_MSG_UNLESS(m_conn, "QuicCcNgtcp2Socket: ngtcp2_conn_server_new failed");
    m_conn->SetStreamSource([this](uint8_t* data, size_t length) { TakeSendBytes(data, length); });
    TraceEcnState(m_conn->GetEcnState());
}

void
QuicCcNgtcp2Socket::OnDropped(const std::string& reason)
{
    NS_LOG_LOGIC("datagram dropped: " << reason);
}

bool
QuicCcNgtcp2Socket::IsOpen() const
{
    return m_conn && !m_closing;
}

void
QuicCcNgtcp2Socket::FillRandom(uint8_t* data, size_t length)
{
    for (size_t i = 0; i < length; ++i)
    {
        data[i] = static_cast<uint8_t>(m_rng->GetInteger(0, 255));
    }
}

void
QuicCcNgtcp2Socket::SendDatagram(const uint8_t* data, size_t length, QuicCcEcnCodepoint ecn)
{
    SendToPeer(Create<Packet>(data, static_cast<uint32_t>(length)), ecn);
}

void
QuicCcNgtcp2Socket::Receive(const std::vector<uint8_t>& datagram,
                            Ptr<Packet> packet,
                            QuicCcEcnCodepoint ecn)
{
    if (!m_conn)
    {
        return;
    }
    if (m_closing)
    {
        m_conn->RepeatClose(); // RFC 9000 Section 10.2.1
        return;
    }
    m_packetReceivedTrace(m_datagramsReceived++, datagram.size());
    const uint64_t now = NowNs();
    QuicCcNgtcp2Connection::Status status =
        m_conn->Receive(datagram.data(), datagram.size(), ecn, now);
    if (status == QuicCcNgtcp2Connection::OPEN)
    {
        status = m_conn->Write(now);
    }
    AfterCall(status);
}

void
QuicCcNgtcp2Socket::OnTimer()
{
    m_timerFiredAt = Simulator::Now();
    AfterCall(m_conn->HandleExpiry(NowNs()));
}

void
QuicCcNgtcp2Socket::ScheduleWrite()
{
    if (!quiccc::compat::IsPending(m_writeEvent))
    {
        // After the application's burst of Send calls at this instant: full packets.
        m_writeEvent = Simulator::ScheduleNow(&QuicCcNgtcp2Socket::DoWrite, this);
    }
}

void
QuicCcNgtcp2Socket::DoWrite()
{
    if (m_conn && !m_closing)
    {
        AfterCall(m_conn->Write(NowNs()));
    }
}

void
QuicCcNgtcp2Socket::UpdateTraces()
{
    const QuicCcNgtcp2Connection::Info info = m_conn->GetInfo();
    const QuicCongestionState before = m_events.GetState();
    const bool event = m_events.Update({info.cwnd, info.ssthresh, info.packetsLost});
    // Each value is traced when it changes (as a TracedValue).
    if (info.cwnd != m_tracedCwnd)
    {
        const uint64_t old = m_tracedCwnd;
        m_tracedCwnd = info.cwnd;
        TraceCongestionWindow(old, info.cwnd);
    }
    if (info.ssthresh != m_tracedSsthresh)
    {
        const uint64_t old = m_tracedSsthresh;
        m_tracedSsthresh = info.ssthresh;
        TraceSlowStartThreshold(old, info.ssthresh);
    }
    if (info.bytesInFlight != m_tracedBytesInFlight)
    {
        const uint64_t old = m_tracedBytesInFlight;
        m_tracedBytesInFlight = info.bytesInFlight;
        TraceBytesInFlight(old, info.bytesInFlight);
    }
    m_packetsLostTrace = info.packetsLost;
    // PacketTraces: the call's packets after its bytes in flight, as QuicCcSocket orders them
    // (a packet into an empty pipe is seen in flight before its PacketSent).
    for (const uint64_t pn : m_sentPending)
    {
        m_packetSentTrace(pn, m_sentPackets.at(pn).bytes);
    }
    m_sentPending.clear();
    for (const uint64_t pn : m_lostPending)
    {
        const auto it = m_sentPackets.find(pn);
        NS_ABORT_MSG_IF(it == m_sentPackets.end(),
                        "QuicCcNgtcp2Socket: ngtcp2 declared packet "
                            << pn << " lost, never logged sent");
        m_packetLostTrace(pn, it->second.bytes, it->second.sent);
        m_sentPackets.erase(it);
    }
    m_lostPending.clear();
    for (const uint32_t count : m_ptoPending)
    {
        m_ptoExpiredTrace(count);
    }
    m_ptoPending.clear();
    for (const QuicCcEcnCounts& counts : m_ecnPending)
    {
        m_ecnCounts = counts;
        m_ecnCountsTrace(counts.ect0, counts.ect1, counts.ce);
    }
    m_ecnPending.clear();
    TraceEcnState(m_conn->GetEcnState());
    if (info.latestRttNs != m_lastInfo.latestRttNs ||
        info.smoothedRttNs != m_lastInfo.smoothedRttNs || info.minRttNs != m_lastInfo.minRttNs)
    {
        TraceRttSample(NanoSeconds(info.latestRttNs),
                       NanoSeconds(info.smoothedRttNs),
                       NanoSeconds(info.minRttNs));
        TracePto(NanoSeconds(m_conn->GetPtoNs()));
    }
    m_lastInfo = info;
    if (info.cwnd > 0 && m_config.controller != QuicCcNgtcp2Config::BBR)
    {
        TracePacingRate(
            DataRate(QuicCcNgtcp2PacingRate(info.cwnd, info.smoothedRttNs, info.latestRttNs != 0)));
    }
    if (event)
    {
        m_recoveryStartTrace(Simulator::Now());
    }
    if (m_events.GetState() != before)
    {
        m_stateTrace(before, m_events.GetState());
    }
}

void
QuicCcNgtcp2Socket::AfterCall(QuicCcNgtcp2Connection::Status status)
{
    Ptr<QuicCcNgtcp2Socket> self = this;
    UpdateTraces();
    if (status != QuicCcNgtcp2Connection::OPEN)
    {
        NS_LOG_LOGIC("connection over: "
                     << (status == QuicCcNgtcp2Connection::CLOSED ? "closed" : m_conn->GetError()));
        m_closing = true;
        m_timer.Cancel();
        m_finishEvent = Simulator::Schedule(NanoSeconds(m_conn->ClosingPeriodNs()),
                                            &QuicCcNgtcp2Socket::Finish,
                                            this);
        if (GetRole() == QuicCcSocketRole::CLIENT && !m_connectedNotified)
        {
            NotifyConnectionFailed();
            return;
        }
        DiscardReceived();
        if (GetRxAvailable() > 0)
        {
            NotifyDataRecv();
        }
        if (status == QuicCcNgtcp2Connection::CLOSED &&
            (IsCloseRequested() || m_conn->PeerFinished()))
        {
            NotifyNormalClose();
        }
        else
        {
            NotifyErrorClose();
        }
        return;
    }
    if (!m_connectedNotified && m_conn->HandshakeCompleted())
    {
        m_connectedNotified = true;
        NotifyEstablished();
    }
    DiscardReceived();
    if (m_connectedNotified && GetRxAvailable() > 0)
    {
        NotifyDataRecv();
    }
    const uint64_t unacked = m_conn->GetUnacknowledged();
    if (unacked < m_unackedSeen)
    {
        NotifyDataSent(static_cast<uint32_t>(m_unackedSeen - unacked));
        if (!IsCloseRequested() && !IsSendShutdown())
        {
            NotifySend(GetTxAvailable());
        }
    }
    m_unackedSeen = unacked;
    if (!m_conn || m_closing)
    {
        return; // the application closed it in a callback
    }
    if (IsCloseRequested() && m_conn->AllAcknowledged())
    {
        StartClosing();
        return;
    }
    // ngtcp2's next deadline (loss detection, PTO, ACK delay, pacing, idle).
    const uint64_t expiry = m_conn->GetExpiry();
    m_timer.Cancel();
    if (expiry != UINT64_MAX)
    {
        const uint64_t now = NowNs();
        // An expiry that is already due runs now; once handled at this instant, 1 ns later (no
        // event loop at a single time).
        uint64_t at = expiry > now ? expiry : now;
        if (at == now && m_timerFiredAt == Simulator::Now())
        {
            at = now + 1;
        }
        m_timer = Simulator::Schedule(NanoSeconds(at - now), &QuicCcNgtcp2Socket::OnTimer, this);
    }
}

void
QuicCcNgtcp2Socket::StartClosing()
{
    const uint64_t period = m_conn->ClosingPeriodNs();
    m_conn->Close(NowNs());
    m_closing = true;
    m_timer.Cancel();
    m_finishEvent = Simulator::Schedule(NanoSeconds(period), &QuicCcNgtcp2Socket::Finish, this);
    NotifyNormalClose();
}

void
QuicCcNgtcp2Socket::Finish()
{
    Ptr<QuicCcNgtcp2Socket> self = this;
    m_timer.Cancel();
    m_writeEvent.Cancel();
    if (m_conn && m_conn->GetRxAvailable() > 0)
    {
        m_conn->Read(m_unread, m_conn->GetRxAvailable()); // kept for the application
    }
    m_conn.reset();
    m_sendQueue.clear();
    LeaveListener(std::nullopt);
    CloseUdp();
}

void
QuicCcNgtcp2Socket::DiscardReceived()
{
    if (IsRecvShutdown() && m_conn && m_conn->GetRxAvailable() > 0)
    {
        std::vector<uint8_t> bytes;
        m_conn->Read(bytes, m_conn->GetRxAvailable());
    }
}

void
QuicCcNgtcp2Socket::EngineClose()
{
    m_conn->ShutdownWrite();
    ScheduleWrite();
}

void
QuicCcNgtcp2Socket::EngineShutdownSend()
{
    if (IsOpen())
    {
        m_conn->ShutdownWrite();
        ScheduleWrite();
    }
}

uint32_t
QuicCcNgtcp2Socket::EngineTxAvailable() const
{
    const uint64_t unacked = m_conn ? m_conn->GetUnacknowledged() : 0;
    return unacked >= m_sndBufSize ? 0 : static_cast<uint32_t>(m_sndBufSize - unacked);
}

bool
QuicCcNgtcp2Socket::EngineCanSend(uint32_t bytes) const
{
    return bytes <= EngineTxAvailable();
}

void
QuicCcNgtcp2Socket::EngineSend(Ptr<Packet> p)
{
    if (p->GetSize() > 0)
    {
        m_sendQueue.push_back(p);
        m_conn->Send(p->GetSize());
    }
    m_unackedSeen = m_conn->GetUnacknowledged();
    ScheduleWrite();
}

void
QuicCcNgtcp2Socket::TakeSendBytes(uint8_t* data, size_t length)
{
    while (length > 0)
    {
        NS_ASSERT_MSG(!m_sendQueue.empty(), "the connection read beyond the bytes given");
        const Ptr<Packet> front = m_sendQueue.front();
        const uint32_t left = front->GetSize() - m_sendQueueOffset;
        const uint32_t n = static_cast<uint32_t>(std::min<size_t>(length, left));
        if (m_sendQueueOffset == 0 && n == left)
        {
            front->CopyData(data, n);
        }
        else
        {
            front->CreateFragment(m_sendQueueOffset, n)->CopyData(data, n);
        }
        data += n;
        length -= n;
        m_sendQueueOffset += n;
        if (m_sendQueueOffset == front->GetSize())
        {
            m_sendQueue.pop_front();
            m_sendQueueOffset = 0;
        }
    }
}

uint64_t
QuicCcNgtcp2Socket::EngineRxAvailable() const
{
    return m_conn ? m_conn->GetRxAvailable() : m_unread.size() - m_unreadOffset;
}

Ptr<Packet>
QuicCcNgtcp2Socket::EngineRecv(uint32_t maxSize)
{
    if (!m_conn)
    {
        // The connection ended before the application read everything.
        const size_t n = std::min<size_t>(maxSize, m_unread.size() - m_unreadOffset);
        Ptr<Packet> p = Create<Packet>(m_unread.data() + m_unreadOffset, static_cast<uint32_t>(n));
        m_unreadOffset += n;
        return p;
    }
    std::vector<uint8_t> bytes;
    m_conn->Read(bytes, maxSize);
    if (!m_closing)
    {
        ScheduleWrite(); // MAX_DATA / MAX_STREAM_DATA
    }
    return Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

uint64_t
QuicCcNgtcp2PacingRate(uint64_t cwnd, uint64_t smoothedRttNs, bool rttSampled)
{
    const uint64_t rttNs = rttSampled ? smoothedRttNs : 1'000'000;
    const uint64_t intervalM = std::max<uint64_t>(((rttNs << 10) * 100 / 125) / cwnd, 1);
    return uint64_t{8} * 1024 * 1'000'000'000 / intervalM;
}

} // namespace ns3
