/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-congestion-controller.h"

#include "quic-cc-attribute-copy.h"
#include "quic-hystart-plus-plus.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"

#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCongestionController");
NS_OBJECT_ENSURE_REGISTERED(QuicCongestionController);

Ptr<const AttributeChecker>
MakeQuicOpenIntervalChecker(double lo, double hi)
{
    /// DoubleValue in (lo, hi), NaN excluded.
    struct Checker : public AttributeChecker
    {
        Checker(double lo, double hi)
            : m_lo(lo),
              m_hi(hi)
        {
        }

        bool Check(const AttributeValue& value) const override
        {
            const auto* v = dynamic_cast<const DoubleValue*>(&value);
            return v && v->Get() > m_lo && v->Get() < m_hi && std::isfinite(v->Get());
        }

        std::string GetValueTypeName() const override
        {
            return "ns3::DoubleValue";
        }

        bool HasUnderlyingTypeInformation() const override
        {
            return true;
        }

        std::string GetUnderlyingTypeInformation() const override
        {
            std::ostringstream os;
            os << "double in (" << m_lo << ", " << m_hi << ")";
            return os.str();
        }

        Ptr<AttributeValue> Create() const override
        {
            return ns3::Create<DoubleValue>();
        }

        bool Copy(const AttributeValue& source, AttributeValue& destination) const override
        {
            const auto* src = dynamic_cast<const DoubleValue*>(&source);
            auto* dst = dynamic_cast<DoubleValue*>(&destination);
            if (!src || !dst)
            {
                return false;
            }
            *dst = *src;
            return true;
        }

        double m_lo; //!< exclusive lower bound
        double m_hi; //!< exclusive upper bound
    };

    NS_ABORT_MSG_UNLESS(lo < hi,
                        "MakeQuicOpenIntervalChecker: empty interval (" << lo << ", " << hi << ")");
    return Ptr<const AttributeChecker>(new Checker(lo, hi), false);
}

const char*
QuicCongestionStateName(QuicCongestionState state)
{
    switch (state)
    {
    case QUIC_CC_SLOW_START:
        return "slow_start";
    case QUIC_CC_CONSERVATIVE_SLOW_START:
        return "conservative_slow_start";
    case QUIC_CC_CONGESTION_AVOIDANCE:
        return "congestion_avoidance";
    case QUIC_CC_RECOVERY:
        return "recovery";
    }
    NS_ABORT_MSG("QuicCongestionStateName: unknown state " << static_cast<int>(state));
    return "";
}

TypeId
QuicCongestionController::AddHyStartAttribute(TypeId tid)
{
    // Registered on each algorithm, so that Config::SetDefault("ns3::QuicCubic::HyStart", ...)
    // and "ns3::QuicReno::HyStart" each reach their own algorithm.
    return tid.AddAttribute("HyStart",
                            "Use HyStart++ (RFC 9406, as quiche: draft-04 logic) in slow start; "
                            "quiche enables it by default.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&QuicCongestionController::m_hyStartEnabled),
                            MakeBooleanChecker());
}

TypeId
QuicCongestionController::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QuicCongestionController")
            .SetParent<Object>()
            .SetGroupName("QuicCc")
            .AddAttribute("RestartWindow",
                          "RFC 5681 Section 4.1 restart window: on a send into an empty pipe "
                          "after no ACK for longer than smoothed_rtt + max(4 rttvar, 1 ms) (the "
                          "retransmission timeout), cwnd = min(initial window, cwnd) (FreeBSD "
                          "cc_newreno.c newreno_cc_after_idle, called by cubic_after_idle). "
                          "quiche: false.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&QuicCongestionController::m_restartWindow),
                          MakeBooleanChecker())
            .AddTraceSource("CongestionWindow",
                            "Congestion window in bytes (RFC 9002 Section 7); fires on every "
                            "change.",
                            MakeTraceSourceAccessor(&QuicCongestionController::m_cwnd),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("SlowStartThreshold",
                            "Slow start threshold in bytes (RFC 9002 Section 7.3.2); "
                            "UINT64_MAX until the first exit from slow start.",
                            MakeTraceSourceAccessor(&QuicCongestionController::m_ssthresh),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("CongestionState",
                            "Congestion state as qlog's recovery:congestion_state_updated "
                            "reports it (see QuicCongestionState).",
                            MakeTraceSourceAccessor(&QuicCongestionController::m_state),
                            "ns3::TracedValueCallback::QuicCongestionState")
            .AddTraceSource(
                "RecoveryStartTime",
                "Congestion recovery start time R (RFC 9002 Section 7.3.2; CUBIC's "
                "epoch too): fires with the new value whenever R is set to a new "
                "value, never when it is unset.",
                MakeTraceSourceAccessor(&QuicCongestionController::m_recoveryStartTrace),
                "ns3::Time::TracedCallback");
    return tid;
}

QuicCongestionController::QuicCongestionController()
    : m_hyStart(CreateObject<QuicHyStartPlusPlus>())
{
    NS_LOG_FUNCTION(this);
    m_cwnd = m_initialWindowPackets * m_mss;
}

QuicCongestionController::~QuicCongestionController()
{
    NS_LOG_FUNCTION(this);
}

void
QuicCongestionController::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_hyStart = nullptr;
    Object::DoDispose();
}

std::string
QuicCongestionController::GetWindowConfigError(const std::string& prefix,
                                               uint64_t maxDatagramSize,
                                               uint64_t initialWindowPackets,
                                               uint64_t minimumWindowPackets)
{
    std::ostringstream os;
    os << prefix;
    if (maxDatagramSize < kMinMaxDatagramSize || maxDatagramSize > kMaxMaxDatagramSize)
    {
        os << "MaxDatagramSize must be in " << kMinMaxDatagramSize << ".." << kMaxMaxDatagramSize
           << " bytes, got " << maxDatagramSize;
    }
    else if (initialWindowPackets == 0)
    {
        os << "InitialWindowPackets must be >= 1, got 0";
    }
    else if (minimumWindowPackets == 0)
    {
        os << "MinimumWindowPackets must be >= 1, got 0";
    }
    else if (minimumWindowPackets > initialWindowPackets)
    {
        os << "MinimumWindowPackets (" << minimumWindowPackets
           << ") must not exceed InitialWindowPackets (" << initialWindowPackets << ")";
    }
    else if (initialWindowPackets > kMaxWindowBytes / maxDatagramSize)
    {
        os << "InitialWindowPackets too large: " << initialWindowPackets << " x " << maxDatagramSize
           << " bytes exceeds 2^48 bytes";
    }
    else
    {
        return "";
    }
    return os.str();
}

void
QuicCongestionController::Configure(uint64_t maxDatagramSize,
                                    uint64_t initialWindowPackets,
                                    uint64_t minimumWindowPackets)
{
    NS_LOG_FUNCTION(this << maxDatagramSize << initialWindowPackets << minimumWindowPackets);
    if (const std::string error = GetWindowConfigError("QuicCongestionController::Configure: ",
                                                       maxDatagramSize,
                                                       initialWindowPackets,
                                                       minimumWindowPackets);
        !error.empty())
    {
        NS_FATAL_ERROR(error);
    }
    m_hyStart->Validate();
    m_mss = maxDatagramSize;
    m_initialWindowPackets = initialWindowPackets;
    m_minimumWindowPackets = minimumWindowPackets;
    SetCwnd(m_initialWindowPackets * m_mss);
    SetSsthresh(std::numeric_limits<uint64_t>::max());
}

void
QuicCongestionController::OnPacketSent(Time now,
                                       uint64_t packetNumber,
                                       uint64_t sentBytes,
                                       uint64_t bytesInFlightBefore)
{
    NS_LOG_FUNCTION(this << now << packetNumber << sentBytes << bytesInFlightBefore);
    m_lastCallTime = now;
    ApplyRestartWindow(now, sentBytes, bytesInFlightBefore);
    // quiche Congestion::on_packet_sent, in its order.
    m_appLimited = (bytesInFlightBefore + sentBytes) < m_cwnd.Get();
    DoPacketSent(now, sentBytes, bytesInFlightBefore);
    if (m_hyStartEnabled && m_cwnd.Get() < m_ssthresh.Get())
    {
        m_hyStart->StartRound(packetNumber);
    }
    UpdateCongestionState(now);
}

void
QuicCongestionController::ApplyRestartWindow(Time now,
                                             uint64_t sentBytes,
                                             uint64_t bytesInFlightBefore)
{
    // FreeBSD tcp_output: idle (nothing outstanding) for at least t_rxtcur since the last
    // receive -> cc_after_idle -> newreno_cc_after_idle: cwnd = min(restart window, cwnd).
    if (!m_restartWindow || sentBytes == 0 || bytesInFlightBefore != 0 || !m_lastAckFrame ||
        now - *m_lastAckFrame <= m_rto)
    {
        return;
    }
    const uint64_t restart = std::min(m_initialWindowPackets * m_mss, m_cwnd.Get());
    NS_LOG_LOGIC("restart window after " << now - *m_lastAckFrame << ": cwnd " << m_cwnd.Get()
                                         << " -> " << restart);
    SetCwnd(restart);
}

void
QuicCongestionController::OnPacketsAcked(Time now,
                                         const std::vector<QuicAckedPacket>& acked,
                                         uint64_t bytesInFlight,
                                         const QuicRttStats& rtt)
{
    NS_LOG_FUNCTION(this << now << acked.size() << bytesInFlight);
    m_lastCallTime = now;
    if (acked.empty())
    {
        return; // a frame that newly acks nothing reaches no controller (quiche)
    }
    DoAckFrameStart(now);
    m_lastAckFrame = now;
    m_rto = rtt.GetPtoBase();
    m_ssGrowthThisFrame = 0;
    for (const QuicAckedPacket& packet : acked)
    {
        OnOnePacketAcked(now, packet, bytesInFlight, rtt);
    }
    UpdateCongestionState(now);
}

void
QuicCongestionController::OnOnePacketAcked(Time now,
                                           const QuicAckedPacket& packet,
                                           uint64_t bytesInFlight,
                                           const QuicRttStats& rtt)
{
    if (InCongestionRecovery(packet.timeSent))
    {
        DoRecoveryAck(packet, bytesInFlight);
        return;
    }
    if (m_appLimited)
    {
        if (m_cwnd.Get() >= m_ssthresh.Get())
        {
            DoAppLimitedAck(now);
        }
        return; // RFC 9002 Section 7.8: no growth while under-utilizing the window
    }
    if (DoRollbackHeuristic(now))
    {
        return;
    }
    if (m_cwnd.Get() < m_ssthresh.Get())
    {
        SlowStartAck(now, packet, rtt);
    }
    else
    {
        DoCongestionAvoidanceAck(now, packet, rtt);
    }
}

void
QuicCongestionController::SlowStartAck(Time now,
                                       const QuicAckedPacket& packet,
                                       const QuicRttStats& rtt)
{
    // RFC 9002 Section 7.3.1 (RFC 9406 Section 4.3 in CSS). No clamp at ssthresh (quiche).
    if (DoSlowStartCredit(packet.bytes))
    {
        uint64_t increment = InHyStartCss() ? m_hyStart->CssCwndIncrement(m_mss) : m_mss;
        // RFC 9406 Section 4.2: at most L * SMSS per ACK (divided by CSS_GROWTH_DIVISOR in CSS).
        const uint64_t cap =
            m_hyStartEnabled ? m_hyStart->SlowStartCapPerAck(m_mss, InHyStartCss()) : 0;
        if (cap > 0)
        {
            increment = std::min(increment, cap - std::min(cap, m_ssGrowthThisFrame));
        }
        m_ssGrowthThisFrame += increment;
        if (increment > 0)
        {
            SetCwnd(m_cwnd.Get() + increment);
        }
    }
    // HyStart++ sees every slow-start ack, even one that earned no increment.
    if (m_hyStartEnabled && m_hyStart->OnPacketAcked(packet.packetNumber, rtt.GetLatestRtt(), now))
    {
        SetSsthresh(m_cwnd.Get()); // CSS ended: continue in congestion avoidance
    }
}

void
QuicCongestionController::OnCongestionEvent(Time now,
                                            Time largestLostTimeSent,
                                            uint64_t lostBytes,
                                            uint64_t bytesInFlight)
{
    NS_LOG_FUNCTION(this << now << largestLostTimeSent << lostBytes << bytesInFlight);
    m_lastCallTime = now;
    // RFC 9002 Section 7.3.2: one reduction per episode; a loss of a packet sent at or before R
    // belongs to the current episode.
    if (!InCongestionRecovery(largestLostTimeSent))
    {
        SetRecoveryStartTime(now);
        DoCongestionEvent(now, lostBytes, bytesInFlight);
        if (GetHyStartCssStart())
        {
            m_hyStart->CongestionEvent();
        }
    }
    UpdateCongestionState(now);
}

void
QuicCongestionController::OnCongestionExperienced(Time now,
                                                  Time largestAckedTimeSent,
                                                  uint64_t bytesInFlight)
{
    NS_LOG_FUNCTION(this << now << largestAckedTimeSent << bytesInFlight);
    DiscardCheckpoint();
    OnCongestionEvent(now, largestAckedTimeSent, 0, bytesInFlight);
}

void
QuicCongestionController::AddLostPackets(uint64_t n)
{
    m_lostCount += n;
}

void
QuicCongestionController::OnPersistentCongestion(Time now)
{
    NS_LOG_FUNCTION(this << now);
    m_lastCallTime = now;
    SetCwnd(GetMinimumWindow());
    SetRecoveryStartTime(std::nullopt);
    DoPersistentCongestion();
    UpdateCongestionState(now);
}

void
QuicCongestionController::Checkpoint()
{
}

void
QuicCongestionController::DiscardCheckpoint()
{
}

bool
QuicCongestionController::Rollback()
{
    NS_LOG_FUNCTION(this);
    const bool rolledBack = DoRollback();
    UpdateCongestionState(m_lastCallTime);
    return rolledBack;
}

uint64_t
QuicCongestionController::GetBytesAvailable(uint64_t bytesInFlight) const
{
    const uint64_t cwnd = m_cwnd;
    return cwnd > bytesInFlight ? cwnd - bytesInFlight : 0;
}

QuicCongestionState
QuicCongestionController::GetCongestionState(Time now) const
{
    if (InHyStartCss())
    {
        return QUIC_CC_CONSERVATIVE_SLOW_START;
    }
    if (m_cwnd.Get() < m_ssthresh.Get())
    {
        return QUIC_CC_SLOW_START;
    }
    if (InCongestionRecovery(now))
    {
        return QUIC_CC_RECOVERY;
    }
    return QUIC_CC_CONGESTION_AVOIDANCE;
}

Ptr<QuicHyStartPlusPlus>
QuicCongestionController::GetHyStart() const
{
    return m_hyStart;
}

bool
QuicCongestionController::IsHyStartEnabled() const
{
    return m_hyStartEnabled;
}

void
QuicCongestionController::DoPacketSent(Time /* now */,
                                       uint64_t /* sentBytes */,
                                       uint64_t /* bytesInFlightBefore */)
{
}

void
QuicCongestionController::DoAckFrameStart(Time /* now */)
{
}

void
QuicCongestionController::DoRecoveryAck(const QuicAckedPacket& /* packet */,
                                        uint64_t /* bytesInFlight */)
{
}

bool
QuicCongestionController::DoRollbackHeuristic(Time /* now */)
{
    return false;
}

bool
QuicCongestionController::DoSlowStartCredit(uint64_t /* ackedBytes */)
{
    return true;
}

bool
QuicCongestionController::DoRollback()
{
    return false;
}

void
QuicCongestionController::DoAppLimitedAck(Time /* now */)
{
}

void
QuicCongestionController::DoPersistentCongestion()
{
}

void
QuicCongestionController::SetCwnd(uint64_t cwnd)
{
    m_cwnd = cwnd;
}

void
QuicCongestionController::SetSsthresh(uint64_t ssthresh)
{
    m_ssthresh = ssthresh;
}

void
QuicCongestionController::SetRecoveryStartTime(std::optional<Time> r)
{
    if (r == m_recoveryStart)
    {
        return;
    }
    m_recoveryStart = r;
    if (r)
    {
        m_recoveryStartTrace(*r);
    }
}

void
QuicCongestionController::UpdateCongestionState(Time now)
{
    m_state = GetCongestionState(now);
}

bool
QuicCongestionController::InHyStartCss() const
{
    return m_hyStartEnabled && m_hyStart->InCss();
}

std::optional<Time>
QuicCongestionController::GetHyStartCssStart() const
{
    if (!m_hyStartEnabled)
    {
        return std::nullopt;
    }
    return m_hyStart->GetCssStartTime();
}

void
QuicCongestionController::CopyAttributesTo(QuicCongestionController& other) const
{
    QuicCcCopyAttributes(*this, other);
    QuicCcCopyAttributes(*m_hyStart, *other.m_hyStart);
    other.Configure(m_mss, m_initialWindowPackets, m_minimumWindowPackets);
}

} // namespace ns3
