/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-socket.h"

#include "quic-cc-frames.h"
#include "quic-cc-path-mtu.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcSocket");
NS_OBJECT_ENSURE_REGISTERED(QuicCcSocket);

namespace
{
/// Error code of a normal close (RFC 9000 Section 20.1 NO_ERROR).
constexpr uint64_t kNoError = 0;
} // namespace

QuicCcSocket::QuicCcSocket()
    : m_cidRng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

QuicCcSocket::~QuicCcSocket()
{
    NS_LOG_FUNCTION(this);
}

std::string
QuicCcSocket::GetConfigError() const
{
    return m_config.GetError();
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
    m_ccPrototype = nullptr;
    QuicCcSocketBase::DoDispose();
}

// ---------------------------------------------------------------- set-up

int64_t
QuicCcSocket::AssignStreams(int64_t stream)
{
    m_cidRng->SetStream(stream);
    m_config.sendDelay->SetStream(stream + 1);
    m_config.ackProcessingDelay->SetStream(stream + 2);
    return 3;
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
QuicCcSocket::StartConnection()
{
    const Role role = GetRole();
    NS_LOG_FUNCTION(this << role);
    if (!m_ccPrototype)
    {
        ObjectFactory factory;
        factory.SetTypeId(m_config.congestionControl);
        m_ccPrototype = factory.Create<QuicCongestionController>();
    }
    if (role == Role::CLIENT)
    {
        m_connectionId =
            (uint64_t{m_cidRng->GetInteger(1, std::numeric_limits<uint32_t>::max())} << 32) |
            m_cidRng->GetInteger(0, std::numeric_limits<uint32_t>::max());
    }
    m_config.ecn = IsEcnEnabled();
    QuicCcConnection::Owner& owner = *this;
    m_connection = Create<QuicCcConnection>(owner,
                                            m_config,
                                            m_ccPrototype->Fork(),
                                            role == Role::ACCEPTED,
                                            m_connectionId);
    WireTraces();
    m_startedTrace(this);
    // Report the starting window (and pacing rate) so that a trace sink (and the qlog) sees it.
    OnCongestionWindow(0, m_connection->GetCongestionController()->GetCongestionWindow());
    m_connection->Start();
}

// ---------------------------------------------------------------- QuicCcSocketBase: the engine

void
QuicCcSocket::CheckConfig(bool ipv4) const
{
    m_config.Validate();
    m_config.CheckIpv4Size(ipv4);
}

void
QuicCcSocket::StartClient()
{
    StartConnection();
    m_connection->StartClientHandshake();
}

QuicCcAdmission
QuicCcSocket::AdmitInitial(const std::vector<uint8_t>& datagram, Ptr<const Packet> packet)
{
    QuicCcAdmission admission;
    QuicCcParseResult parsed = QuicCcParse(datagram.data(), datagram.size(), std::move(packet));
    if (!parsed.packet)
    {
        admission.dropReason = "listener: " + parsed.error;
    }
    else if (parsed.packet->type != QuicCcPacketType::INITIAL)
    {
        admission.dropReason =
            "listener: no connection for a non-INITIAL packet from a new address";
    }
    else
    {
        admission.admit = true;
        admission.connectionId = parsed.packet->connectionId;
    }
    return admission;
}

QuicCcAdmission
QuicCcSocket::Admit(const std::vector<uint8_t>& datagram, Ptr<Packet> packet) const
{
    return AdmitInitial(datagram, packet);
}

Ptr<QuicCcSocketBase>
QuicCcSocket::CreateAccepted(const QuicCcAdmission& admission)
{
    NS_LOG_FUNCTION(this << *admission.connectionId);
    Ptr<QuicCcSocket> child = CreateObject<QuicCcSocket>();
    child->m_config = m_config.CloneForConnection();
    child->m_connectionId = *admission.connectionId;
    child->m_ccPrototype = m_ccPrototype;
    return child;
}

void
QuicCcSocket::StartAccepted(const QuicCcAdmission& admission, const std::vector<uint8_t>& datagram)
{
    StartConnection();
    m_connection->AcceptClient(); // established at the client's INITIAL
    NotifyEstablished();
}

void
QuicCcSocket::Receive(const std::vector<uint8_t>& datagram,
                      Ptr<Packet> packet,
                      QuicCcEcnCodepoint ecn)
{
    if (m_connection)
    {
        m_connection->OnDatagram(datagram, packet, ecn);
    }
}

void
QuicCcSocket::OnDropped(const std::string& reason)
{
    OnDatagramDropped(reason);
}

bool
QuicCcSocket::IsOpen() const
{
    return m_connection && m_connection->GetState() != QuicCcConnection::STATE_CLOSED;
}

uint32_t
QuicCcSocket::EngineTxAvailable() const
{
    return m_connection ? m_connection->GetTxAvailable() : m_config.sndBufSize;
}

bool
QuicCcSocket::EngineCanSend(uint32_t bytes) const
{
    return m_connection->GetSendStream().CanAppend(bytes);
}

void
QuicCcSocket::EngineSend(Ptr<Packet> p)
{
    // Kept as the application's packet: virtual (zero-filled) packets cost no memory.
    m_connection->Send(p);
}

uint64_t
QuicCcSocket::EngineRxAvailable() const
{
    return m_connection ? m_connection->GetRecvStream().Available() : 0;
}

Ptr<Packet>
QuicCcSocket::EngineRecv(uint32_t maxSize)
{
    return m_connection->Read(maxSize);
}

void
QuicCcSocket::EngineClose()
{
    // Graceful in every state: buffered data (even written during the handshake) and the FIN
    // are delivered before CONNECTION_CLOSE.
    m_connection->FinishStream();
    MaybeFinishClose();
}

void
QuicCcSocket::EngineShutdownSend()
{
    if (m_connection)
    {
        m_connection->FinishStream();
    }
}

// ---------------------------------------------------------------- queries

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

uint64_t
QuicCcSocket::GetPacketsLost() const
{
    const QuicLossDetection* loss = GetLossDetection();
    return loss ? loss->GetLostPacketCount() : 0;
}

uint64_t
QuicCcSocket::GetEcnCongestionEvents() const
{
    const QuicLossDetection* loss = GetLossDetection();
    return loss ? loss->GetEcnCongestionEventCount() : 0;
}

bool
QuicCcSocket::IsClient() const
{
    return GetRole() == Role::CLIENT;
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

// ---------------------------------------------------------------- the state machine

void
QuicCcSocket::MaybeFinishClose()
{
    if (!IsCloseRequested() || !IsEstablished() || !m_connection->GetSendStream().AllAcked())
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
    CloseUdp();
    LeaveListener(m_connectionId);
}

// ---------------------------------------------------------------- QuicCcConnection::Owner

void
QuicCcSocket::SendDatagram(Ptr<Packet> datagram, QuicCcEcnCodepoint ecn)
{
    if (m_config.dontFragment && QuicCcExceedsPathMtu(GetNode(), GetPeer(), datagram->GetSize()))
    {
        return; // not fragmented (RFC 9000 Section 14): never arrives, declared lost later
    }
    SendToPeer(datagram, ecn);
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
    TraceRttSample(rtt.GetLatestRtt(), rtt.GetSmoothedRtt(), rtt.GetMinRtt());
    TracePto(m_connection->GetLossDetection().GetPtoDuration());
    UpdatePacingRate();
}

void
QuicCcSocket::OnCongestionWindow(uint64_t oldValue, uint64_t newValue)
{
    TraceCongestionWindow(oldValue, newValue);
    UpdatePacingRate();
}

void
QuicCcSocket::UpdatePacingRate()
{
    if (const std::optional<double> rate = m_connection->GetPacingRate())
    {
        TracePacingRate(DataRate(static_cast<uint64_t>(std::llround(*rate * 8))));
    }
}

void
QuicCcSocket::OnPtoExpired(uint32_t ptoCount)
{
    m_ptoExpiredTrace(ptoCount);
}

void
QuicCcSocket::OnHandshakeComplete()
{
    NotifyEstablished();
}

bool
QuicCcSocket::IsReceiving() const
{
    return !IsRecvShutdown();
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
    if (!IsCloseRequested() && !IsSendShutdown() && IsEstablished())
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
    SetErrno(ERROR_SHUTDOWN);
    NotifyErrorClose();
}

void
QuicCcSocket::OnTransportError(uint64_t errorCode, const std::string& reason)
{
    // The connection closed itself; the application learns it as an error close.
    OnPeerClose(errorCode, reason);
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
        SetErrno(ERROR_NOTCONN);
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
    SetErrno(ERROR_SHUTDOWN);
    NotifyErrorClose();
}

} // namespace ns3
