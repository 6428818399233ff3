/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cubic.h"

#include "quic-cc-compat.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCubic");
NS_OBJECT_ENSURE_REGISTERED(QuicCubic);

namespace
{
/// Rollback heuristic: fewer new losses than this share of cwnd (in packets) is spurious.
constexpr uint64_t kRollbackThresholdPercent = 20;
/// Rollback heuristic: the threshold is never below this many packets.
constexpr uint64_t kMinRollbackThresholdPackets = 2;

/// A duration in seconds as Rust's Duration::as_secs_f64 forms it (whole seconds + fraction).
double
ToSeconds(Time d)
{
    const int64_t ns = d.GetNanoSeconds();
    constexpr int64_t kNsPerSecond = 1000000000;
    return static_cast<double>(ns / kNsPerSecond) +
           static_cast<double>(ns % kNsPerSecond) / static_cast<double>(kNsPerSecond);
}
} // namespace

TypeId
QuicCubic::GetTypeId()
{
    static TypeId tid = AddHyStartAttribute(
        TypeId("ns3::QuicCubic")
            .SetParent<QuicCongestionController>()
            .SetGroupName("QuicCc")
            .AddConstructor<QuicCubic>()
            .AddAttribute("Beta",
                          "Multiplicative decrease factor beta_cubic, unitless, 0 < Beta < 1 "
                          "(RFC 9438 Section 4.6; quiche uses 0.7).",
                          DoubleValue(0.7),
                          MakeDoubleAccessor(&QuicCubic::SetBeta, &QuicCubic::GetBeta),
                          MakeQuicOpenIntervalChecker(0, 1))
            .AddAttribute("C",
                          "CUBIC constant C in segments/s^3, > 0 (RFC 9438 Section 5.1; quiche "
                          "uses 0.4).",
                          DoubleValue(0.4),
                          MakeDoubleAccessor(&QuicCubic::SetC, &QuicCubic::GetC),
                          MakeQuicOpenIntervalChecker(0, std::numeric_limits<double>::infinity()))
            .AddAttribute("IdleRestart",
                          "How CUBIC's epoch follows an idle or app-limited period (each rule: "
                          "doc/quic-cc-user.rst, Attributes).",
                          EnumValue(QuicCubic::IDLE_RESTART_LAST_ACTIVITY),
                          QUICCC_ENUM_ACCESSOR(QuicCubic::IdleRestart, &QuicCubic::m_idleRestart),
                          MakeEnumChecker(QuicCubic::IDLE_RESTART_LAST_SENT,
                                          "LastSent",
                                          QuicCubic::IDLE_RESTART_LAST_ACTIVITY,
                                          "LastActivity",
                                          QuicCubic::IDLE_RESTART_LAST_SENT_CLAMPED,
                                          "LastSentClamped",
                                          QuicCubic::IDLE_RESTART_OFF,
                                          "Off",
                                          QuicCubic::IDLE_RESTART_ACK_GAP,
                                          "AckGap",
                                          QuicCubic::IDLE_RESTART_APP_LIMITED_TIME,
                                          "AppLimitedTime",
                                          QuicCubic::IDLE_RESTART_EPOCH_RESET,
                                          "EpochReset"))
            .AddAttribute(
                "SendIdleTimeout",
                "AckGap only: a gap between ACK frames must exceed this (and SRTT + 4 "
                "RTTVAR) to move the epoch, > 0 (msquic SendIdleTimeoutMs, default "
                "1 s).",
                TimeValue(Seconds(1)),
                MakeTimeAccessor(&QuicCubic::SetSendIdleTimeout, &QuicCubic::GetSendIdleTimeout),
                MakeTimeChecker(TimeStep(1)))
            .AddAttribute("EpochSource",
                          "CUBIC's epoch: SharedWithRecovery (quiche, default: the recovery "
                          "start time R is the epoch and idle rules move R) or Separate (own "
                          "epoch set at a congestion event and moved by the idle rule; R set "
                          "only by congestion events, RFC 9002 Section 7.3.2, as ngtcp2 and "
                          "msquic keep them apart).",
                          EnumValue(QuicCubic::EPOCH_SHARED_WITH_RECOVERY),
                          QUICCC_ENUM_ACCESSOR(QuicCubic::EpochSource, &QuicCubic::m_epochSource),
                          MakeEnumChecker(QuicCubic::EPOCH_SHARED_WITH_RECOVERY,
                                          "SharedWithRecovery",
                                          QuicCubic::EPOCH_SEPARATE,
                                          "Separate"))
            .AddAttribute("RenoFriendly",
                          "When alpha of the Reno-friendly estimate W_est becomes 1: Quiche "
                          "(default, quiche cubic.rs: once W_est >= W_max) or Rfc9438 (RFC 9438 "
                          "Section 4.3: once W_est >= cwnd_prior, the cwnd before the last "
                          "reduction; ngtcp2_cc_cubic_cc_on_ack_recv).",
                          EnumValue(QuicCubic::RENO_FRIENDLY_QUICHE),
                          QUICCC_ENUM_ACCESSOR(QuicCubic::RenoFriendly, &QuicCubic::m_renoFriendly),
                          MakeEnumChecker(QuicCubic::RENO_FRIENDLY_QUICHE,
                                          "Quiche",
                                          QuicCubic::RENO_FRIENDLY_RFC9438,
                                          "Rfc9438"))
            .AddAttribute("CssExitEpoch",
                          "Where CUBIC's epoch starts after HyStart++ leaves CSS by its round "
                          "limit: CssStart (quiche, default: t counts from the CSS start) or Exit "
                          "(ngtcp2_cc_cubic_cc_on_ack_recv: the epoch starts at the exit with "
                          "W_max = cwnd).",
                          EnumValue(QuicCubic::CSS_EXIT_EPOCH_CSS_START),
                          QUICCC_ENUM_ACCESSOR(QuicCubic::CssExitEpoch, &QuicCubic::m_cssExitEpoch),
                          MakeEnumChecker(QuicCubic::CSS_EXIT_EPOCH_CSS_START,
                                          "CssStart",
                                          QuicCubic::CSS_EXIT_EPOCH_EXIT,
                                          "Exit"))
            .AddAttribute("TargetRtt",
                          "RTT added to t in the target W_cubic(t + RTT): MinRtt (quiche, "
                          "default) or SmoothedRtt (RFC 9438 Section 4.2; "
                          "ngtcp2_cc_cubic_cc_on_ack_recv).",
                          EnumValue(QuicCubic::TARGET_RTT_MIN),
                          QUICCC_ENUM_ACCESSOR(QuicCubic::TargetRtt, &QuicCubic::m_targetRtt),
                          MakeEnumChecker(QuicCubic::TARGET_RTT_MIN,
                                          "MinRtt",
                                          QuicCubic::TARGET_RTT_SMOOTHED,
                                          "SmoothedRtt"))
            .AddAttribute("CubicStep",
                          "How often the concave/convex increase (target - cwnd) / cwnd is "
                          "taken: PerPacket (quiche, default: per acknowledged packet) or "
                          "PerAckFrame (ngtcp2_cc_cubic_cc_on_ack_recv; RFC 9438 Section 4.4 "
                          "'for each received ACK').",
                          EnumValue(QuicCubic::CUBIC_STEP_PER_PACKET),
                          QUICCC_ENUM_ACCESSOR(QuicCubic::CubicStep, &QuicCubic::m_cubicStep),
                          MakeEnumChecker(QuicCubic::CUBIC_STEP_PER_PACKET,
                                          "PerPacket",
                                          QuicCubic::CUBIC_STEP_PER_ACK_FRAME,
                                          "PerAckFrame"))
            .AddAttribute("Prr",
                          "Add Proportional Rate Reduction's send count (RFC 6937) to the send "
                          "budget during recovery (quiche: always on).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&QuicCubic::m_prrEnabled),
                          MakeBooleanChecker())
            .AddAttribute("SpuriousLossRollback",
                          "Undo a congestion event judged spurious: on a spurious loss, and per "
                          "ack when fewer than max(20% of cwnd in packets, 2) packets were lost "
                          "since the checkpoint (RFC 9438 Section 4.9 as quiche runs it).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&QuicCubic::m_rollbackEnabled),
                          MakeBooleanChecker())
            .AddAttribute("FastConvergence",
                          "Fast convergence: a congestion event below W_max sets W_max = cwnd * "
                          "(1 + beta) / 2 (RFC 9438 Section 4.7).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&QuicCubic::m_fastConvergence),
                          MakeBooleanChecker()));
    return tid;
}

QuicCubic::QuicCubic()
{
    NS_LOG_FUNCTION(this);
}

QuicCubic::~QuicCubic()
{
    NS_LOG_FUNCTION(this);
}

Ptr<QuicCongestionController>
QuicCubic::Fork() const
{
    return ForkAs<QuicCubic>();
}

std::string
QuicCubic::GetName() const
{
    return "cubic";
}

void
QuicCubic::SetBeta(double beta)
{
    NS_ABORT_MSG_UNLESS(beta > 0.0 && beta < 1.0,
                        "QuicCubic::Beta must be in (0, 1), got " << beta);
    m_beta = beta;
}

double
QuicCubic::GetBeta() const
{
    return m_beta;
}

void
QuicCubic::SetC(double c)
{
    NS_ABORT_MSG_UNLESS(c > 0.0 && std::isfinite(c), "QuicCubic::C must be > 0, got " << c);
    m_c = c;
}

double
QuicCubic::GetC() const
{
    return m_c;
}

void
QuicCubic::SetSendIdleTimeout(Time t)
{
    NS_ABORT_MSG_UNLESS(t.IsStrictlyPositive(),
                        "QuicCubic::SendIdleTimeout must be > 0, got " << t);
    m_sendIdleTimeout = t;
}

Time
QuicCubic::GetSendIdleTimeout() const
{
    return m_sendIdleTimeout;
}

double
QuicCubic::AlphaAimd() const
{
    // Same operation order as quiche, so the double is bit-identical (0.5294117647058825).
    return 3.0 * (1.0 - m_beta) / (1.0 + m_beta);
}

double
QuicCubic::WCubic(double t) const
{
    const double mss = static_cast<double>(GetMaxDatagramSize());
    const double d = t - m_k;
    return (m_c * (d * d * d) + m_wMax / mss) * mss;
}

void
QuicCubic::ResetEpochState()
{
    m_wMax = static_cast<double>(GetCongestionWindow());
    m_k = 0.0;
    m_wEst = m_wMax;
    m_cwndPrior = m_wMax;
    m_alpha = AlphaAimd();
}

std::optional<Time>
QuicCubic::IdleEpoch() const
{
    return m_epochSource == EPOCH_SEPARATE ? m_epoch : GetRecoveryStartTime();
}

void
QuicCubic::SetIdleEpoch(Time epoch)
{
    NS_LOG_LOGIC("idle restart: epoch " << *IdleEpoch() << " -> " << epoch);
    if (m_epochSource == EPOCH_SEPARATE)
    {
        m_epoch = epoch;
    }
    else
    {
        SetRecoveryStartTime(epoch);
    }
}

void
QuicCubic::DoPacketSent(Time now, uint64_t sentBytes, uint64_t bytesInFlightBefore)
{
    ShiftEpochAfterIdle(now, sentBytes, bytesInFlightBefore);
    if (m_prrEnabled)
    {
        m_prr.OnPacketSent(sentBytes);
    }
}

void
QuicCubic::ShiftEpochAfterIdle(Time now, uint64_t sentBytes, uint64_t bytesInFlightBefore)
{
    // RFC 9438 Section 5.8 / Linux 30927520dbae: after an idle period, shift the epoch so that
    // the window keeps following the cubic curve instead of jumping.
    const bool lastActivity = m_idleRestart == IDLE_RESTART_LAST_ACTIVITY;
    if (lastActivity && sentBytes == 0)
    {
        return; // quiche 2026: a packet that is not ack-eliciting is no activity
    }
    const std::optional<Time> epoch = IdleEpoch();
    const bool sendRule = m_idleRestart == IDLE_RESTART_LAST_SENT || lastActivity ||
                          m_idleRestart == IDLE_RESTART_LAST_SENT_CLAMPED;
    if (bytesInFlightBefore == 0 && epoch && sendRule)
    {
        std::optional<Time> idleStart = m_lastSentTime;
        if (lastActivity && m_lastAckTime && (!idleStart || *m_lastAckTime > *idleStart))
        {
            idleStart = m_lastAckTime;
        }
        if (idleStart && *idleStart < now)
        {
            Time shifted = *epoch + (now - *idleStart);
            if (m_idleRestart == IDLE_RESTART_LAST_SENT_CLAMPED)
            {
                shifted = std::min(shifted, now);
            }
            SetIdleEpoch(shifted);
        }
    }
    else if (bytesInFlightBefore == 0 && sentBytes > 0 && epoch && *epoch < now &&
             m_idleRestart == IDLE_RESTART_EPOCH_RESET)
    {
        // picoquic_cubic_notify: start_of_epoch = max(start_of_epoch, last_sender_limited_time);
        // FreeBSD cubic_after_idle: t_epoch = ticks. The idle period ends with this send.
        SetIdleEpoch(now);
    }
    m_lastSentTime = now;
}

void
QuicCubic::AckGapShift(Time now, const QuicRttStats& rtt)
{
    // msquic CubicCongestionControlOnDataAcknowledged: TimeOfCongAvoidStart += TimeSinceLastAck
    // when that gap exceeds SendIdleTimeoutMs and SmoothedRtt + 4 * RttVariance; never past now.
    if (!m_prevAckTime)
    {
        return;
    }
    const Time gap = now - *m_prevAckTime;
    const std::optional<Time> epoch = IdleEpoch();
    if (epoch && gap > m_sendIdleTimeout && gap > rtt.GetSmoothedRtt() + 4 * rtt.GetRttVar())
    {
        SetIdleEpoch(std::min(*epoch + gap, now));
    }
}

void
QuicCubic::DoAckFrameStart(Time now)
{
    m_prevAckTime = m_lastAckTime;
    m_ackGapPending = true;
    m_cubicStepTaken = false;
    m_lastAckTime = now;
}

void
QuicCubic::DoAppLimitedAck(Time now)
{
    // ngtcp2_cc_cubic_cc_on_ack_recv: an app-limited ack in congestion avoidance opens the
    // app-limited period (if none is open).
    if (m_idleRestart == IDLE_RESTART_APP_LIMITED_TIME && !m_appLimitedStart)
    {
        m_appLimitedStart = now;
    }
}

void
QuicCubic::DoRecoveryAck(const QuicAckedPacket& packet, uint64_t bytesInFlight)
{
    if (m_prrEnabled)
    {
        m_prr.OnPacketAcked(packet.bytes,
                            bytesInFlight,
                            GetSlowStartThreshold(),
                            GetMaxDatagramSize());
    }
}

bool
QuicCubic::DoRollbackHeuristic(Time /* now */)
{
    // quiche's spurious-congestion heuristic (RFC 9438 Section 4.9): while R is set, an episode
    // that has cost few packets so far is undone. Re-checked on every ack, on the current cwnd.
    if (!m_rollbackEnabled || !GetRecoveryStartTime())
    {
        return false;
    }
    // newLost < max(cwnd / mss * 20 %, 2): the division only when fewer than 2 do not decide.
    const uint64_t newLost = GetLostCount() - (m_saved ? m_saved->lostCount : 0);
    const bool fewLost =
        newLost < kMinRollbackThresholdPackets ||
        newLost < GetCongestionWindow() / GetMaxDatagramSize() * kRollbackThresholdPercent / 100;
    return fewLost && DoRollback();
}

bool
QuicCubic::DoSlowStartCredit(uint64_t ackedBytes)
{
    // Byte counting (RFC 3465 style): one step per mss of acked bytes, at most one per packet.
    m_bytesAckedSl += ackedBytes;
    if (m_bytesAckedSl < GetMaxDatagramSize())
    {
        return false;
    }
    m_bytesAckedSl -= GetMaxDatagramSize();
    return true;
}

void
QuicCubic::DoCongestionAvoidanceAck(Time now,
                                    const QuicAckedPacket& packet,
                                    const QuicRttStats& rtt)
{
    const uint64_t mss = GetMaxDatagramSize();
    const uint64_t cwnd = GetCongestionWindow();

    // Epoch: HyStart++'s CSS start after CSS ended by its round limit, else R (or CUBIC's own
    // epoch with EpochSource Separate); with neither, a new epoch starts now (quiche: R = now).
    Time epoch = now;
    if (const std::optional<Time> cssStart = GetHyStartCssStart())
    {
        epoch = *cssStart;
        if (m_cssExitEpoch == CSS_EXIT_EPOCH_EXIT)
        {
            // ngtcp2: at the exit epoch_start = ts and w_max = w_est = cwnd_prior = cwnd.
            if (!m_cssExitTime)
            {
                m_cssExitTime = now;
                ResetEpochState();
            }
            epoch = *m_cssExitTime;
        }
        else if (m_wMax == 0.0)
        {
            ResetEpochState();
        }
    }
    else if (IdleEpoch())
    {
        if (m_idleRestart == IDLE_RESTART_ACK_GAP && m_ackGapPending)
        {
            AckGapShift(now, rtt);
        }
        epoch = *IdleEpoch();
    }
    else
    {
        if (m_epochSource == EPOCH_SEPARATE)
        {
            m_epoch = now;
        }
        else
        {
            SetRecoveryStartTime(now);
        }
        ResetEpochState();
    }
    m_ackGapPending = false;
    if (m_appLimitedStart)
    {
        // ngtcp2: the first ack that is not app-limited closes the period.
        m_appLimitedDuration += now - *m_appLimitedStart;
        m_appLimitedStart.reset();
    }
    const Time t = std::max(now - epoch - m_appLimitedDuration, Time(0));

    // RFC 9438 Section 4.2: target = W_cubic(t + RTT), clipped to [cwnd, 1.5 cwnd].
    const double cwndBytes = static_cast<double>(cwnd);
    const Time targetRtt =
        m_targetRtt == TARGET_RTT_SMOOTHED ? rtt.GetSmoothedRtt() : rtt.GetMinRtt();
    double target = WCubic(ToSeconds(t + targetRtt));
    target = std::min(std::max(target, cwndBytes), cwndBytes * 1.5);

    // RFC 9438 Section 4.3: W_est += alpha * (acked / cwnd), in bytes.
    m_wEst += m_alpha * (static_cast<double>(packet.bytes) / cwndBytes) * static_cast<double>(mss);
    if (m_wEst >= (m_renoFriendly == RENO_FRIENDLY_RFC9438 ? m_cwndPrior : m_wMax))
    {
        m_alpha = 1.0;
    }

    uint64_t candidate = cwnd;
    if (WCubic(ToSeconds(t)) < m_wEst)
    {
        candidate = std::max(cwnd, static_cast<uint64_t>(m_wEst)); // Reno-friendly region
    }
    else if (m_cubicStep == CUBIC_STEP_PER_PACKET || !m_cubicStepTaken)
    {
        // Concave and convex regions: (target - cwnd) / cwnd mss per acked packet (or, with
        // PerAckFrame, once per ACK frame).
        candidate = cwnd + mss * (static_cast<uint64_t>(target) - cwnd) / cwnd;
        m_cubicStepTaken = true;
    }

    m_cwndInc += candidate - cwnd;
    if (m_cwndInc >= mss)
    {
        SetCwnd(cwnd + mss);
        m_cwndInc -= mss;
    }
}

void
QuicCubic::DoCongestionEvent(Time now, uint64_t lostBytes, uint64_t bytesInFlight)
{
    NS_LOG_FUNCTION(this << now << lostBytes << bytesInFlight);
    const uint64_t mss = GetMaxDatagramSize();
    const double cwnd = static_cast<double>(GetCongestionWindow());

    // RFC 9438 Section 4.7: fast convergence.
    m_cwndPrior = cwnd;
    m_wMax = (m_fastConvergence && cwnd < m_wMax) ? cwnd * (1.0 + m_beta) / 2.0 : cwnd;

    // RFC 9438 Section 4.6: multiplicative decrease, truncated.
    const uint64_t reduced = std::max(static_cast<uint64_t>(cwnd * m_beta), GetMinimumWindow());
    SetSsthresh(reduced);
    SetCwnd(reduced);

    // RFC 9438 Eq. 2: K = cbrt((W_max - cwnd) / C) in segments; 0 when W_max is below cwnd.
    const double reducedBytes = static_cast<double>(reduced);
    m_k = m_wMax < reducedBytes ? 0.0
                                : std::cbrt((m_wMax / static_cast<double>(mss) -
                                             reducedBytes / static_cast<double>(mss)) /
                                            m_c);

    m_cwndInc = static_cast<uint64_t>(static_cast<double>(m_cwndInc) * m_beta);
    m_wEst = reducedBytes;
    m_alpha = AlphaAimd();
    if (m_epochSource == EPOCH_SEPARATE)
    {
        m_epoch = now;
    }
    // ngtcp2_cc_cubic_cc_congestion_event: the app-limited sum starts again.
    m_cssExitTime.reset();
    m_appLimitedStart.reset();
    m_appLimitedDuration = Time(0);

    if (m_prrEnabled)
    {
        m_prr.CongestionEvent(bytesInFlight);
    }
}

void
QuicCubic::Checkpoint()
{
    m_saved = Restorable{GetCongestionWindow(),
                         GetSlowStartThreshold(),
                         m_wMax,
                         m_k,
                         GetRecoveryStartTime(),
                         GetLostCount(),
                         m_epoch,
                         m_cwndPrior};
}

void
QuicCubic::DiscardCheckpoint()
{
    m_saved.reset();
}

void
QuicCubic::DoPersistentCongestion()
{
    // RFC 9002 Section 7.6.2 (ngtcp2_cc_cubic_cc_on_persistent_congestion resets the CUBIC
    // state): the next congestion-avoidance ack starts a new epoch at the minimum window.
    m_wMax = 0.0;
    m_k = 0.0;
    m_cwndInc = 0;
    m_epoch.reset();
    m_cssExitTime.reset();
    m_appLimitedStart.reset();
    m_appLimitedDuration = Time(0);
}

bool
QuicCubic::DoRollback()
{
    if (!m_rollbackEnabled || !m_saved)
    {
        return false;
    }
    if (m_saved->cwnd < m_saved->ssthresh)
    {
        return false; // never back into slow start
    }
    if (GetCongestionWindow() >= m_saved->cwnd)
    {
        return false;
    }
    NS_LOG_LOGIC("rollback: cwnd " << GetCongestionWindow() << " -> " << m_saved->cwnd);
    SetCwnd(m_saved->cwnd);
    SetSsthresh(m_saved->ssthresh);
    m_wMax = m_saved->wMax;
    m_k = m_saved->k;
    m_epoch = m_saved->epoch;
    m_cwndPrior = m_saved->cwndPrior;
    SetRecoveryStartTime(m_saved->recoveryStart);
    return true;
}

uint64_t
QuicCubic::GetBytesAvailable(uint64_t bytesInFlight) const
{
    const uint64_t window = QuicCongestionController::GetBytesAvailable(bytesInFlight);
    return m_prrEnabled ? window + m_prr.SendCount() : window;
}

double
QuicCubic::GetWMax() const
{
    return m_wMax;
}

double
QuicCubic::GetK() const
{
    return m_k;
}

double
QuicCubic::GetWEst() const
{
    return m_wEst;
}

double
QuicCubic::GetAlpha() const
{
    return m_alpha;
}

uint64_t
QuicCubic::GetCwndIncrement() const
{
    return m_cwndInc;
}

std::optional<Time>
QuicCubic::GetLastSentTime() const
{
    return m_lastSentTime;
}

std::optional<Time>
QuicCubic::GetEpochStart() const
{
    if (const std::optional<Time> cssStart = GetHyStartCssStart())
    {
        return cssStart;
    }
    return IdleEpoch();
}

double
QuicCubic::GetCwndPrior() const
{
    return m_cwndPrior;
}

Time
QuicCubic::GetAppLimitedDuration() const
{
    return m_appLimitedDuration;
}

const QuicPrr&
QuicCubic::GetPrr() const
{
    return m_prr;
}

} // namespace ns3
