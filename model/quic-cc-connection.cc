/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-connection.h"

#include "quic-cc-attribute-copy.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcConnection");

namespace
{
/// Largest jump above the largest received packet number that is accepted: the decoding window
/// of a 4-byte truncated packet number (RFC 9000 Section 17.1, Appendix A.3). quic-cc sends
/// full packet numbers, so anything further is forged or corrupt.
constexpr uint64_t kMaxPacketNumberJump = uint64_t{1} << 31;
/// Largest UDP payload over IPv4 (65535 - 20 - 8).
constexpr uint64_t kMaxIpv4Payload = 65507;

/// True if \p packet carries an ACK frame.
bool
CarriesAck(const QuicCcPacket& packet)
{
    return std::any_of(packet.frames.begin(), packet.frames.end(), [](const QuicCcFrame& f) {
        return std::holds_alternative<QuicCcAckFrame>(f);
    });
}
} // namespace

// ---------------------------------------------------------------- configuration

std::string
QuicCcConnection::Config::GetError() const
{
    // The window settings are the controller's, the ACK settings the received-packet manager's:
    // each owner checks its own. A single setting's range is also its attribute's checker.
    if (std::string error = QuicCongestionController::GetWindowConfigError("QuicCcSocket::",
                                                                           mss,
                                                                           initialWindowPackets,
                                                                           minimumWindowPackets);
        !error.empty())
    {
        return error;
    }
    if (std::string error = acks.GetError(); !error.empty())
    {
        return error;
    }
    std::ostringstream os;
    if (!initialRtt.IsStrictlyPositive())
    {
        os << "QuicCcSocket::InitialRtt must be positive, got " << initialRtt;
    }
    else if (!idleTimeout.IsStrictlyPositive())
    {
        os << "QuicCcSocket::IdleTimeout must be positive, got " << idleTimeout;
    }
    else if (rcvBufSize < mss)
    {
        os << "QuicCcSocket::RcvBufSize (" << rcvBufSize
           << ") must hold at least one datagram (MaxDatagramSize " << mss << ")";
    }
    else if (flowControl && std::min(initialMaxData, initialMaxStreamData) < mss)
    {
        // Below one datagram, half the window (quiche's reopening rule) can round to nothing
        // read, and the window never reopens: a stall that is a setting's mistake.
        const bool data = initialMaxData < mss;
        os << "QuicCcSocket::" << (data ? "InitialMaxData" : "InitialMaxStreamData") << " ("
           << (data ? initialMaxData : initialMaxStreamData)
           << ") must hold at least one datagram (MaxDatagramSize " << mss << ") with FlowControl";
    }
    else if (const Config defaults;
             !flowControl && (initialMaxData != defaults.initialMaxData ||
                              initialMaxStreamData != defaults.initialMaxStreamData))
    {
        // A limit without flow control would be silently ignored.
        const bool data = initialMaxData != defaults.initialMaxData;
        os << "QuicCcSocket::" << (data ? "InitialMaxData" : "InitialMaxStreamData") << " ("
           << (data ? initialMaxData : initialMaxStreamData)
           << ") has no effect with FlowControl=false (no flow control: no limit is announced)";
    }
    return os.str();
}

void
QuicCcConnection::Config::Validate() const
{
    if (const std::string error = GetError(); !error.empty())
    {
        NS_FATAL_ERROR(error);
    }
}

void
QuicCcConnection::Config::CheckIpv4Size(bool ipv4) const
{
    NS_ABORT_MSG_IF(ipv4 && mss > kMaxIpv4Payload,
                    "QuicCcSocket::MaxDatagramSize "
                        << mss << " exceeds the IPv4 UDP payload limit " << kMaxIpv4Payload
                        << " bytes");
}

QuicCcConnection::Config
QuicCcConnection::Config::CloneForConnection() const
{
    Config copy = *this;
    copy.sendDelay = QuicCcCloneObject<RandomVariableStream>(sendDelay);
    copy.ackProcessingDelay = QuicCcCloneObject<RandomVariableStream>(ackProcessingDelay);
    return copy;
}

QuicCcConnection::QuicCcConnection(Owner& owner,
                                   const Config& config,
                                   Ptr<QuicCongestionController> cc,
                                   bool server,
                                   uint64_t connectionId)
    : m_owner(&owner),
      m_config(config),
      m_server(server),
      m_connectionId(connectionId),
      m_cc(cc)
{
    NS_LOG_FUNCTION(this << server << connectionId);
    m_cc->Configure(m_config.mss, m_config.initialWindowPackets, m_config.minimumWindowPackets);
    m_lossDetection =
        std::make_unique<QuicLossDetection>(m_cc, QuicRttStats(m_config.initialRtt, Time(0)));
    m_lossDetection->SetPersistentCongestion(m_config.persistentCongestion); // RFC 9002 7.6
    m_pacer.Configure(m_config.pacingGain, m_config.pacingBurstPackets, m_config.mss);
    m_recvStream.SetWindow(m_config.rcvBufSize);
    m_sendStream.SetBufferSize(m_config.sndBufSize);
    m_acks.Configure(m_config.acks);
    if (m_config.flowControl)
    {
        // quic-cc has no transport parameters: each end takes the peer's initial limits to be
        // its own (both ends configured alike, as Config::SetDefault does).
        m_connectionFlow = QuicCcFlowControl(m_config.initialMaxData);
        m_streamFlow = QuicCcFlowControl(m_config.initialMaxStreamData);
        m_flow.maxData = m_config.initialMaxData;
        m_flow.maxStreamData = m_config.initialMaxStreamData;
        m_flow.peerMaxData = m_config.initialMaxData;
        m_flow.peerMaxStreamData = m_config.initialMaxStreamData;
    }
}

QuicCcConnection::~QuicCcConnection()
{
    NS_LOG_FUNCTION(this);
}

void
QuicCcConnection::Start()
{
    if (m_config.ecn)
    {
        m_lossDetection->EnableEcn(); // after the owner connected the traces: Testing is seen
    }
    m_lastActivity = Simulator::Now();
    RestartIdleTimer();
}

void
QuicCcConnection::StartClientHandshake()
{
    m_state = STATE_HANDSHAKE;
    m_owed.initial = true;
    SendPending();
}

void
QuicCcConnection::AcceptClient()
{
    m_state = STATE_ESTABLISHED;
    m_owed.handshakeDone = true;
    m_lossDetection->SetHandshakeConfirmed(true);
    m_lossDetection->SetPeerMaxAckDelay(m_config.acks.maxAckDelay);
}

void
QuicCcConnection::Close()
{
    NS_LOG_FUNCTION(this);
    m_state = STATE_CLOSED;
    // Remove (not Cancel): a cancelled event still keeps the simulator running until its time.
    for (Timer* timer : {&m_lossTimer, &m_idleTimer, &m_ackTimer, &m_sendEvent})
    {
        timer->Remove();
    }
}

void
QuicCcConnection::Dispose()
{
    m_lossTimer.Cancel();
    m_idleTimer.Cancel();
    m_ackTimer.Cancel();
    m_sendEvent.Cancel();
    m_state = STATE_CLOSED;
    m_owner = nullptr;
}

// ---------------------------------------------------------------- accessors

QuicCcConnection::State
QuicCcConnection::GetState() const
{
    return m_state;
}

uint64_t
QuicCcConnection::GetConnectionId() const
{
    return m_connectionId;
}

uint32_t
QuicCcConnection::GetTxAvailable() const
{
    const uint64_t buffered = m_sendStream.GetBufferedBytes();
    return buffered >= m_config.sndBufSize ? 0
                                           : static_cast<uint32_t>(m_config.sndBufSize - buffered);
}

uint64_t
QuicCcConnection::GetBytesReceived() const
{
    return m_bytesReceived;
}

const QuicCcPacketBuilder::FlowLimits&
QuicCcConnection::GetFlowLimits() const
{
    return m_flow;
}

Ptr<QuicCongestionController>
QuicCcConnection::GetCongestionController() const
{
    return m_cc;
}

QuicLossDetection&
QuicCcConnection::GetLossDetection()
{
    return *m_lossDetection;
}

const QuicLossDetection&
QuicCcConnection::GetLossDetection() const
{
    return *m_lossDetection;
}

std::optional<double>
QuicCcConnection::GetPacingRate() const
{
    if (m_config.pacing != PACING_RFC9002)
    {
        return std::nullopt;
    }
    return m_pacer.Rate(m_cc->GetCongestionWindow(),
                        m_lossDetection->GetRttStats().GetSmoothedRtt());
}

QuicCcSendStream&
QuicCcConnection::GetSendStream()
{
    return m_sendStream;
}

const QuicCcSendStream&
QuicCcConnection::GetSendStream() const
{
    return m_sendStream;
}

QuicCcRecvStream&
QuicCcConnection::GetRecvStream()
{
    return m_recvStream;
}

const QuicCcRecvStream&
QuicCcConnection::GetRecvStream() const
{
    return m_recvStream;
}

const QuicCcReceivedPacketManager&
QuicCcConnection::GetAcks() const
{
    return m_acks;
}

// ---------------------------------------------------------------- receive path

void
QuicCcConnection::OnDatagram(const std::vector<uint8_t>& bytes,
                             Ptr<const Packet> source,
                             QuicCcEcnCodepoint ecn)
{
    if (m_state == STATE_CLOSED)
    {
        return;
    }
    Ptr<QuicCcConnection> self(this); // the owner may let go of us while we run
    // One frame list for every datagram (it and an ACK frame's ranges keep their memory from
    // packet to packet: QuicCcParseInto reuses them); taken out while in use and handed back,
    // without the received data, before the owner hears of a drop.
    QuicCcPacket packet;
    packet.frames.swap(m_rxFrames);
    const auto recycle = [this, &packet]() {
        for (QuicCcFrame& frame : packet.frames)
        {
            if (auto* stream = std::get_if<QuicCcStreamFrame>(&frame))
            {
                stream->payload = nullptr;
            }
        }
        packet.frames.swap(m_rxFrames);
    };
    std::string error;
    if (!QuicCcParseInto(bytes.data(), bytes.size(), source, packet, error) ||
        !CheckPacket(packet, error))
    {
        recycle();
        m_owner->OnDatagramDropped(error);
        return;
    }
    Time delay;
    if (CarriesAck(packet))
    {
        // Drawn for every datagram carrying an ACK; converted only when positive (a delay at or
        // below zero is no delay, and Seconds() of a double is not free).
        const double seconds = m_config.ackProcessingDelay->GetValue();
        delay = seconds > 0 ? Seconds(seconds) : Time(0);
    }
    const Time now = Simulator::Now();
    if (delay.IsStrictlyPositive() || m_lastDatagramProcess > now)
    {
        // Host processing delay: keep FIFO order behind datagrams still waiting.
        const Time at = std::max(now + delay, m_lastDatagramProcess);
        m_lastDatagramProcess = at;
        const size_t size = bytes.size();
        Simulator::Schedule(at - now, [self, pkt = std::move(packet), size, ecn]() {
            if (self->m_state != STATE_CLOSED)
            {
                std::string why;
                if (self->CheckPacket(pkt, why))
                {
                    self->ProcessPacket(pkt, size, ecn);
                }
                else
                {
                    self->m_owner->OnDatagramDropped(why);
                }
            }
        });
        return;
    }
    ProcessPacket(packet, bytes.size(), ecn);
    recycle();
}

bool
QuicCcConnection::CheckPacket(const QuicCcPacket& packet, std::string& reason) const
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
    if (!m_server && packet.type == QuicCcPacketType::INITIAL)
    {
        reason = "client received an INITIAL packet";
        return false;
    }
    if (m_server && packet.type == QuicCcPacketType::HANDSHAKE)
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
QuicCcConnection::ProcessPacket(const QuicCcPacket& packet, size_t size, QuicCcEcnCodepoint ecn)
{
    NS_LOG_FUNCTION(this << packet.packetNumber << size << ecn);
    if (m_acks.IsDuplicate(packet.packetNumber))
    {
        // A duplicate: its frames were processed already (RFC 9000 Section 12.3).
        return;
    }
    Ptr<QuicCcConnection> self(this); // the owner may let go of us while we run
    const Time now = Simulator::Now();
    if (!m_config.ecn)
    {
        ecn = QuicCcEcnCodepoint::NOT_ECT; // a receiver without ECN does not read the field
    }
    const bool outOfOrder = m_acks.OnPacketReceived(packet.packetNumber, now, ecn);
    m_lastActivity = now;
    m_owner->OnPacketReceived(packet.packetNumber, size);

    if (m_state == STATE_HANDSHAKE)
    {
        // Any authentic packet of the server completes the client's handshake.
        m_state = STATE_ESTABLISHED;
        m_owed.initial = false;
        m_lossDetection->SetHandshakeConfirmed(true);
        m_lossDetection->SetPeerMaxAckDelay(m_config.acks.maxAckDelay);
        m_owner->OnHandshakeComplete();
        if (m_state == STATE_CLOSED)
        {
            return;
        }
    }
    for (const auto& frame : packet.frames)
    {
        if (const auto* ack = std::get_if<QuicCcAckFrame>(&frame))
        {
            OnAckFrame(*ack, now);
        }
        else if (const auto* stream = std::get_if<QuicCcStreamFrame>(&frame))
        {
            OnStreamFrame(*stream);
        }
        else if (const auto* flow = std::get_if<QuicCcFlowControlFrame>(&frame))
        {
            OnFlowControlFrame(*flow);
        }
        else if (const auto* close = std::get_if<QuicCcConnectionCloseFrame>(&frame))
        {
            NS_LOG_INFO("peer closed: code " << close->errorCode << " " << close->reason);
            m_owner->OnPeerClose(close->errorCode, close->reason);
        }
        if (m_state == STATE_CLOSED)
        {
            return;
        }
    }
    if (packet.IsAckEliciting())
    {
        if (m_acks.OnAckElicitingReceived(outOfOrder, now, ecn == QuicCcEcnCodepoint::CE))
        {
            SendAckNow();
        }
        else if (!m_ackTimer.IsPending())
        {
            m_ackTimer.Arm(now,
                           *m_acks.GetAckDeadline() - now,
                           &QuicCcConnection::OnAckTimer,
                           this);
        }
    }
    m_owner->OnPacketProcessed();
    if (m_state != STATE_CLOSED)
    {
        SendPending();
    }
}

void
QuicCcConnection::OnStreamFrame(const QuicCcStreamFrame& frame)
{
    if (m_config.flowControl)
    {
        // RFC 9000 Section 4.1: data beyond the announced limit is a FLOW_CONTROL_ERROR.
        const uint64_t end = frame.offset + frame.Length();
        if (m_connectionFlow.Exceeds(end) || m_streamFlow.Exceeds(end))
        {
            std::ostringstream reason;
            reason << "STREAM data up to offset " << end << " exceeds the flow-control limit "
                   << std::min(m_connectionFlow.GetLimit(), m_streamFlow.GetLimit());
            CloseWithError(kFlowControlError, reason.str());
            return;
        }
    }
    const bool receiving = m_owner->IsReceiving();
    const uint64_t delivered = m_recvStream.OnFrame(frame, receiving);
    if (delivered > 0)
    {
        m_bytesReceived += delivered;
        if (receiving)
        {
            m_owner->OnDataReceived();
        }
        else
        {
            ConsumeReceived(delivered); // discarded bytes are consumed at once
        }
    }
}

void
QuicCcConnection::OnFlowControlFrame(const QuicCcFlowControlFrame& frame)
{
    // RFC 9000 Sections 19.9 / 19.10: a limit never decreases; an older, smaller one is ignored.
    if (frame.type == QuicCcFrameType::MAX_DATA)
    {
        m_flow.peerMaxData = std::max(m_flow.peerMaxData, frame.limit);
    }
    else if (frame.type == QuicCcFrameType::MAX_STREAM_DATA)
    {
        m_flow.peerMaxStreamData = std::max(m_flow.peerMaxStreamData, frame.limit);
    }
    else
    {
        NS_LOG_INFO("peer blocked at " << frame.limit); // advisory (RFC 9000 Section 4.1)
    }
}

Ptr<Packet>
QuicCcConnection::Read(uint32_t maxSize)
{
    Ptr<Packet> data = m_recvStream.Read(maxSize);
    if (data)
    {
        ConsumeReceived(data->GetSize());
    }
    return data;
}

void
QuicCcConnection::ConsumeReceived(uint64_t bytes)
{
    if (!m_config.flowControl || m_state == STATE_CLOSED)
    {
        return;
    }
    m_connectionFlow.AddConsumed(bytes);
    m_streamFlow.AddConsumed(bytes);
    bool update = false;
    for (QuicCcFlowControl* limit : {&m_connectionFlow, &m_streamFlow})
    {
        if (limit->ShouldUpdate())
        {
            limit->Update();
            update = true;
        }
    }
    if (update)
    {
        m_flow.maxData = m_connectionFlow.GetLimit();
        m_flow.maxStreamData = m_streamFlow.GetLimit();
        m_owed.flowUpdate = true;
        ScheduleSendPending();
    }
}

void
QuicCcConnection::CloseWithError(uint64_t errorCode, const std::string& reason)
{
    NS_LOG_INFO("closing with error " << errorCode << ": " << reason);
    SendConnectionClose(errorCode, reason);
    Close();
    m_owner->OnTransportError(errorCode, reason);
}

void
QuicCcConnection::OnAckFrame(const QuicCcAckFrame& ack, Time now)
{
    const QuicLossDetection::AckResult& result =
        m_lossDetection->OnAckReceived(now, ack.ranges, ack.ackDelay, ack.ecn);
    OnPacketsLost(result.lostFrames);
    OnPacketsAcked(result.ackedFrames);
    if (result.rttSampled)
    {
        m_owner->OnRttSample(m_lossDetection->GetRttStats());
    }
    RearmLossTimer(now);
}

void
QuicCcConnection::OnPacketsAcked(const std::vector<QuicCcSentFrames>& acked)
{
    const uint32_t txBefore = GetTxAvailable();
    for (const QuicCcSentFrames& frames : acked)
    {
        for (const QuicCcStreamChunk& c : frames.chunks)
        {
            m_sendStream.OnAcked(c);
        }
        m_owed.handshakeDone = m_owed.handshakeDone && !frames.handshakeDone;
    }
    m_sendStream.ReleaseAcked();
    if (GetTxAvailable() > txBefore)
    {
        m_owner->OnSendBufferFreed(GetTxAvailable());
    }
}

void
QuicCcConnection::OnPacketsLost(const std::vector<QuicCcSentFrames>& lost)
{
    for (const QuicCcSentFrames& frames : lost)
    {
        // Lost STREAM data goes out again in new packets (RFC 9000 Section 13.3).
        for (const QuicCcStreamChunk& c : frames.chunks)
        {
            m_sendStream.OnLost(c);
        }
        m_owed.initial = m_owed.initial || (frames.initial && m_state == STATE_HANDSHAKE);
        m_owed.handshakeDone = m_owed.handshakeDone || frames.handshakeDone;
        // RFC 9000 Section 13.3: a lost limit goes out again with the current values (as quiche,
        // whichever MAX_DATA / MAX_STREAM_DATA was lost); a lost *_BLOCKED only while still
        // blocked at the limit it reported.
        m_owed.flowUpdate = m_owed.flowUpdate || frames.flowUpdate;
        m_owed.blocked =
            m_owed.blocked || QuicCcPacketBuilder::RepeatsBlocked(frames, m_flow, IsFlowBlocked());
    }
}

// ---------------------------------------------------------------- send loop

void
QuicCcConnection::Send(Ptr<Packet> data)
{
    m_sendStream.Append(data);
    // Like TcpSocketBase: send after the application's current call returns, so that a burst of
    // small Send() calls fills full-size packets.
    ScheduleSendPending();
}

void
QuicCcConnection::FinishStream()
{
    m_sendStream.Finish();
    ScheduleSendPending();
}

void
QuicCcConnection::ScheduleSendPending()
{
    if (!m_sendEvent.IsPending())
    {
        m_sendEvent.ArmNow(Simulator::Now(), &QuicCcConnection::OnSendEvent, this);
    }
}

void
QuicCcConnection::OnSendEvent()
{
    m_sendEvent.Expired();
    SendPending();
}

bool
QuicCcConnection::HasDataToSend() const
{
    if (m_owed.initial || m_owed.handshakeDone)
    {
        return true;
    }
    if (m_state != STATE_ESTABLISHED)
    {
        return false;
    }
    if (m_owed.flowUpdate || m_owed.blocked)
    {
        return true;
    }
    // Only new data held back by the peer's limit: nothing to send (the sender is
    // flow-control limited, which the controller sees as application-limited, as in quiche).
    const bool onlyBlockedData = IsFlowBlocked() && !m_sendStream.HasRetransmission() &&
                                 !m_sendStream.HasBareFinRetransmission();
    return m_sendStream.HasDataToSend() && !onlyBlockedData;
}

bool
QuicCcConnection::IsFlowBlocked() const
{
    return m_sendStream.HasNewData() && m_sendStream.GetNextOffset() >= m_flow.SendLimit();
}

void
QuicCcConnection::NoteFlowBlocked()
{
    // RFC 9000 Section 4.1: a sender blocked by flow control sends DATA_BLOCKED or
    // STREAM_DATA_BLOCKED, once per limit (quiche: Connection::blocked_limit).
    if (m_state == STATE_ESTABLISHED && IsFlowBlocked() && m_blockedAt != m_flow.SendLimit())
    {
        m_blockedAt = m_flow.SendLimit();
        m_owed.blocked = true;
    }
}

void
QuicCcConnection::SendPending()
{
    if (m_state == STATE_CLOSED)
    {
        return;
    }
    const Time now = Simulator::Now();
    if (m_sendEvent.IsPending() && m_sendEvent.GetExpiry() > now)
    {
        return; // the host delay model paces this burst; the scheduled call continues it
    }
    while (m_state != STATE_CLOSED)
    {
        const bool probe = m_lossDetection->GetPendingProbes() > 0;
        NoteFlowBlocked();
        if (!probe && !HasDataToSend())
        {
            break;
        }
        // Pacing=Rfc9002: wait for the pacer (RFC 9002 Section 7.7).
        const Time srtt = m_lossDetection->GetRttStats().GetSmoothedRtt();
        if (m_config.pacing == PACING_RFC9002)
        {
            const Time at =
                m_pacer.NextSendTime(now, m_config.mss, m_cc->GetCongestionWindow(), srtt);
            if (at > now)
            {
                if (!m_config.appLimitedWhilePaced)
                {
                    // Data waits for the pacer only: not application-limited (ngtcp2).
                    m_cc->SetAppLimited(false);
                }
                m_sendEvent.Cancel();
                m_sendEvent.Arm(now, at - now, &QuicCcConnection::OnSendEvent, this);
                break;
            }
        }
        const uint64_t inFlightBefore = m_lossDetection->GetBytesInFlight();
        if (!SendOnePacket(probe, now))
        {
            break;
        }
        if (m_config.pacing == PACING_RFC9002) // charge the pacer with the packet's bytes
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
        // Host processing-delay model: the next packet of the burst leaves a little later
        // (drawn for every packet; converted only when positive, as Seconds() is not free).
        const double gapSeconds = m_config.sendDelay->GetValue();
        const Time gap = gapSeconds > 0 ? Seconds(gapSeconds) : Time(0);
        if (gap.IsStrictlyPositive())
        {
            m_sendEvent.Cancel();
            m_sendEvent.Arm(now, gap, &QuicCcConnection::OnSendEvent, this);
            break;
        }
    }
    RearmLossTimer(now);
}

bool
QuicCcConnection::SendOnePacket(bool probe, Time now)
{
    // One frame list for every packet built (it keeps its memory from packet to packet); taken
    // out while in use.
    QuicCcPacket packet =
        QuicCcPacketBuilder::StartPacket(m_connectionId, m_nextPacketNumber, m_owed, m_server);
    packet.frames.swap(m_txFrames);
    const bool sent = FillAndTransmit(packet, probe, now);
    packet.frames.clear();
    packet.frames.swap(m_txFrames);
    return sent;
}

bool
QuicCcConnection::FillAndTransmit(QuicCcPacket& packet, bool probe, Time now)
{
    uint64_t budget = QuicCcPacketBuilder::ProbeBudget(m_config.mss);
    if (!probe)
    {
        budget = QuicCcPacketBuilder::WindowBudget(
            m_config.mss,
            m_cc->GetBytesAvailable(m_lossDetection->GetBytesInFlight()));
        if (!QuicCcPacketBuilder::FitsStreamData(packet, m_sendStream.GetNextOffset(), budget) ||
            (m_config.packetSizing == SIZING_FULL_ONLY &&
             !QuicCcPacketBuilder::FitsFullOnly(packet, m_sendStream, m_config.mss, budget)))
        {
            // Data waits for the window: the sender is not application-limited (quiche).
            m_cc->SetAppLimited(false);
            return false;
        }
    }
    QuicCcPacketBuilder::Context context;
    context.server = m_server;
    context.clientHandshake = m_state == STATE_HANDSHAKE;
    context.established = m_state == STATE_ESTABLISHED;
    context.now = now;
    context.pingProbe = m_config.probeContent == PROBE_PING;
    context.flow = m_flow;
    context.flowBlocked = IsFlowBlocked();
    const QuicCcSentFrames* oldest =
        probe ? m_lossDetection->GetOldestOutstandingFrames() : nullptr;
    QuicCcPacketBuilder::Filled filled =
        m_builder.Fill(packet, budget, probe, oldest, m_owed, context);
    if (filled.newBytes > 0)
    {
        m_owner->OnDataSent(filled.newBytes);
    }
    if (!QuicCcPacketBuilder::IsWorthSending(packet, probe))
    {
        return false; // nothing worth a packet
    }
    Transmit(packet, std::move(filled.frames), now);
    return true;
}

void
QuicCcConnection::Transmit(const QuicCcPacket& packet, QuicCcSentFrames frames, Time now)
{
    // STREAM data travels as the send stream's packet fragments (virtual data stays virtual).
    Ptr<Packet> datagram = QuicCcSerializeToPacket(packet);
    const uint32_t size = datagram->GetSize();
    ++m_nextPacketNumber;
    const QuicCcEcnCodepoint ecn = m_lossDetection->OnPacketSent(now,
                                                                 packet.packetNumber,
                                                                 size,
                                                                 packet.IsAckEliciting(),
                                                                 std::move(frames));
    if (CarriesAck(packet))
    {
        m_acks.OnAckSent();
        m_ackTimer.Cancel();
    }
    m_owner->OnPacketSent(packet.packetNumber, size);
    m_owner->SendDatagram(datagram, ecn);
}

void
QuicCcConnection::OnAckTimer()
{
    m_ackTimer.Expired();
    SendAckNow();
}

void
QuicCcConnection::SendAckNow()
{
    if (!m_acks.IsAckPending() || m_state == STATE_CLOSED)
    {
        return;
    }
    const Time now = Simulator::Now();
    QuicCcPacket packet;
    packet.connectionId = m_connectionId;
    packet.packetNumber = m_nextPacketNumber;
    packet.frames.swap(m_txFrames); // as SendOnePacket
    m_builder.AppendAck(packet, m_config.mss, now);
    Transmit(packet, QuicCcSentFrames{}, now);
    packet.frames.clear();
    packet.frames.swap(m_txFrames);
}

void
QuicCcConnection::SendConnectionClose(uint64_t errorCode, const std::string& reason)
{
    QuicCcPacket packet;
    packet.connectionId = m_connectionId;
    packet.packetNumber = m_nextPacketNumber;
    packet.frames.emplace_back(QuicCcConnectionCloseFrame{errorCode, reason});
    Transmit(packet, QuicCcSentFrames{}, Simulator::Now());
}

// ---------------------------------------------------------------- timers

void
QuicCcConnection::Timer::Arm(Time now,
                             Time delay,
                             void (QuicCcConnection::*handler)(),
                             QuicCcConnection* connection)
{
    m_event = Simulator::Schedule(delay, handler, connection);
    m_expiry = now + delay;
    m_pending = true;
}

void
QuicCcConnection::Timer::ArmNow(Time now,
                                void (QuicCcConnection::*handler)(),
                                QuicCcConnection* connection)
{
    m_event = Simulator::ScheduleNow(handler, connection);
    m_expiry = now;
    m_pending = true;
}

void
QuicCcConnection::Timer::Cancel()
{
    if (m_pending)
    {
        m_event.Cancel();
        m_pending = false;
    }
}

void
QuicCcConnection::Timer::Remove()
{
    if (m_pending)
    {
        Simulator::Remove(m_event);
        m_pending = false;
    }
}

void
QuicCcConnection::RearmLossTimer(Time now)
{
    if (m_state == STATE_CLOSED)
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
    if (m_lossTimer.IsPending() && m_lossTimer.GetExpiry() <= *deadline)
    {
        return;
    }
    m_lossTimer.Cancel();
    const Time at = std::max(*deadline, now);
    m_lossTimer.Arm(now, at - now, &QuicCcConnection::OnLossTimer, this);
}

void
QuicCcConnection::OnLossTimer()
{
    m_lossTimer.Expired();
    const Time now = Simulator::Now();
    const std::optional<Time> deadline = m_lossDetection->GetTimerDeadline();
    if (!deadline)
    {
        return;
    }
    if (*deadline > now)
    {
        m_lossTimer.Arm(now, *deadline - now, &QuicCcConnection::OnLossTimer, this);
        return;
    }
    QuicLossDetection::TimerResult result = m_lossDetection->OnTimerExpired(now);
    if (result.probes > 0)
    {
        m_owner->OnPtoExpired(m_lossDetection->GetPtoCount());
    }
    OnPacketsLost(result.lostFrames);
    SendPending();
    RearmLossTimer(now);
}

void
QuicCcConnection::RestartIdleTimer()
{
    // Lazy: the timer re-checks m_lastActivity when it fires instead of being moved per packet.
    if (!m_idleTimer.IsPending())
    {
        m_idleTimer.Arm(Simulator::Now(),
                        m_config.idleTimeout,
                        &QuicCcConnection::OnIdleTimer,
                        this);
    }
}

void
QuicCcConnection::OnIdleTimer()
{
    m_idleTimer.Expired();
    const Time now = Simulator::Now();
    const Time idle = now - m_lastActivity;
    if (idle < m_config.idleTimeout)
    {
        m_idleTimer.Arm(now, m_config.idleTimeout - idle, &QuicCcConnection::OnIdleTimer, this);
        return;
    }
    NS_LOG_INFO("idle timeout after " << idle.As(Time::S));
    Ptr<QuicCcConnection> self(this);
    m_owner->OnIdleTimeout(idle);
}

} // namespace ns3
