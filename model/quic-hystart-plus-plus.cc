/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-hystart-plus-plus.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicHyStartPlusPlus");
NS_OBJECT_ENSURE_REGISTERED(QuicHyStartPlusPlus);

TypeId
QuicHyStartPlusPlus::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QuicHyStartPlusPlus")
            .SetParent<Object>()
            .SetGroupName("QuicCc")
            .AddConstructor<QuicHyStartPlusPlus>()
            .AddAttribute("MinRttThresh",
                          "MIN_RTT_THRESH: lower clamp of the RTT increase that moves slow start "
                          "into CSS, >= 0 and <= MaxRttThresh (RFC 9406 Section 4.3: 4 ms).",
                          TimeValue(MilliSeconds(4)),
                          MakeTimeAccessor(&QuicHyStartPlusPlus::SetMinRttThresh,
                                           &QuicHyStartPlusPlus::GetMinRttThresh),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxRttThresh",
                          "MAX_RTT_THRESH: upper clamp of that RTT increase, >= 0 "
                          "(RFC 9406 Section 4.3: 16 ms).",
                          TimeValue(MilliSeconds(16)),
                          MakeTimeAccessor(&QuicHyStartPlusPlus::SetMaxRttThresh,
                                           &QuicHyStartPlusPlus::GetMaxRttThresh),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("NRttSample",
                          "N_RTT_SAMPLE: RTT samples per round before a decision, >= 1 "
                          "(RFC 9406 Section 4.3: 8).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&QuicHyStartPlusPlus::SetNRttSample,
                                               &QuicHyStartPlusPlus::GetNRttSample),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CssGrowthDivisor",
                          "CSS_GROWTH_DIVISOR: cwnd grows by mss / divisor per acked packet in "
                          "CSS, unitless, >= 2 (RFC 9406 Section 4.3: 4).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&QuicHyStartPlusPlus::SetCssGrowthDivisor,
                                               &QuicHyStartPlusPlus::GetCssGrowthDivisor),
                          MakeUintegerChecker<uint32_t>(2))
            .AddAttribute("CssRounds",
                          "CSS_ROUNDS: rounds of CSS before congestion avoidance, >= 1; the "
                          "round in which CSS starts counts (RFC 9406 Section 4.3: 5).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&QuicHyStartPlusPlus::SetCssRounds,
                                               &QuicHyStartPlusPlus::GetCssRounds),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("L",
                          "L: cap of slow-start growth per ACK frame in packets (RFC 9406 "
                          "Section 4.2: cwnd += min(N, L * SMSS), divided by CSS_GROWTH_DIVISOR "
                          "in CSS; the RFC suggests 8 for an unpaced sender and no cap when "
                          "paced). 0 = no cap (quiche, default).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&QuicHyStartPlusPlus::m_l),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

QuicHyStartPlusPlus::QuicHyStartPlusPlus()
{
    NS_LOG_FUNCTION(this);
}

QuicHyStartPlusPlus::~QuicHyStartPlusPlus()
{
    NS_LOG_FUNCTION(this);
}

std::string
QuicHyStartPlusPlus::GetConfigError() const
{
    if (m_minRttThresh <= m_maxRttThresh)
    {
        return "";
    }
    std::ostringstream os;
    os << "QuicHyStartPlusPlus: MinRttThresh (" << m_minRttThresh.As(Time::MS)
       << ") exceeds MaxRttThresh (" << m_maxRttThresh.As(Time::MS) << ")";
    return os.str();
}

void
QuicHyStartPlusPlus::Validate() const
{
    if (const std::string error = GetConfigError(); !error.empty())
    {
        NS_FATAL_ERROR(error);
    }
}

void
QuicHyStartPlusPlus::StartRound(uint64_t packetNumber)
{
    if (m_windowEnd)
    {
        return;
    }
    NS_LOG_FUNCTION(this << packetNumber);
    m_windowEnd = packetNumber;
    m_lastRoundMinRtt = m_currentRoundMinRtt;
    m_currentRoundMinRtt.reset();
    m_rttSampleCount = 0;
}

bool
QuicHyStartPlusPlus::OnPacketAcked(uint64_t packetNumber, Time rttSample, Time now)
{
    m_currentRoundMinRtt =
        m_currentRoundMinRtt ? std::min(*m_currentRoundMinRtt, rttSample) : rttSample;
    ++m_rttSampleCount;

    // The branch follows quiche: it keys on the CSS start time, which the post-exit state keeps.
    if (!m_cssStartTime)
    {
        // RFC 9406 Section 4.2: leave slow start for CSS once the round's minimum RTT rose by
        // at least RttThresh over the previous round's. The sample count is not reset here.
        if (m_rttSampleCount >= m_nRttSample && m_currentRoundMinRtt && m_lastRoundMinRtt &&
            *m_currentRoundMinRtt >= *m_lastRoundMinRtt + RttThreshold(*m_lastRoundMinRtt))
        {
            NS_LOG_LOGIC("enter CSS: round min " << *m_currentRoundMinRtt << ", last round min "
                                                 << *m_lastRoundMinRtt);
            m_cssBaselineMinRtt = m_currentRoundMinRtt;
            m_cssStartTime = now;
            m_cssExited = false;
        }
    }
    else if (m_rttSampleCount >= m_nRttSample)
    {
        // RFC 9406 Section 4.3: a round minimum below the baseline means the RTT increase was
        // spurious: back to slow start. The round stays open.
        m_rttSampleCount = 0;
        if (*m_currentRoundMinRtt < m_cssBaselineMinRtt.value_or(Time::Max()))
        {
            NS_LOG_LOGIC("CSS -> slow start: round min " << *m_currentRoundMinRtt);
            m_cssBaselineMinRtt.reset();
            m_cssStartTime.reset();
            m_cssExited = false;
            m_cssRoundCount = 0;
        }
    }

    if (m_windowEnd && packetNumber >= *m_windowEnd)
    {
        m_windowEnd.reset();
        if (m_cssStartTime)
        {
            ++m_cssRoundCount;
            if (m_cssRoundCount >= m_cssRounds)
            {
                NS_LOG_LOGIC("CSS ended after " << m_cssRoundCount << " rounds");
                m_cssRoundCount = 0;
                m_cssExited = true;
                return true;
            }
        }
    }
    return false;
}

void
QuicHyStartPlusPlus::CongestionEvent()
{
    NS_LOG_FUNCTION(this);
    m_windowEnd.reset();
    m_cssStartTime.reset();
    m_cssExited = false;
}

uint64_t
QuicHyStartPlusPlus::CssCwndIncrement(uint64_t mss) const
{
    return mss / m_cssGrowthDivisor;
}

uint64_t
QuicHyStartPlusPlus::SlowStartCapPerAck(uint64_t mss, bool inCss) const
{
    const uint64_t cap = static_cast<uint64_t>(m_l) * mss;
    return inCss ? cap / m_cssGrowthDivisor : cap;
}

Time
QuicHyStartPlusPlus::RttThreshold(Time lastRoundMinRtt) const
{
    // Integer nanoseconds, as quiche divides a Duration: 100 ms / 8 = 12.5 ms exactly.
    const Time eighth = NanoSeconds(lastRoundMinRtt.GetNanoSeconds() / 8);
    return std::min(std::max(eighth, m_minRttThresh), m_maxRttThresh);
}

bool
QuicHyStartPlusPlus::InPostCssExit() const
{
    return m_cssStartTime && m_cssExited;
}

std::optional<uint64_t>
QuicHyStartPlusPlus::GetWindowEnd() const
{
    return m_windowEnd;
}

std::optional<Time>
QuicHyStartPlusPlus::GetCurrentRoundMinRtt() const
{
    return m_currentRoundMinRtt;
}

std::optional<Time>
QuicHyStartPlusPlus::GetLastRoundMinRtt() const
{
    return m_lastRoundMinRtt;
}

std::optional<Time>
QuicHyStartPlusPlus::GetCssBaselineMinRtt() const
{
    return m_cssBaselineMinRtt;
}

uint32_t
QuicHyStartPlusPlus::GetRttSampleCount() const
{
    return m_rttSampleCount;
}

uint32_t
QuicHyStartPlusPlus::GetCssRoundCount() const
{
    return m_cssRoundCount;
}

void
QuicHyStartPlusPlus::SetMinRttThresh(Time t)
{
    NS_ABORT_MSG_IF(t.IsStrictlyNegative(),
                    "QuicHyStartPlusPlus::MinRttThresh must be >= 0, got " << t.As(Time::MS));
    m_minRttThresh = t;
}

Time
QuicHyStartPlusPlus::GetMinRttThresh() const
{
    return m_minRttThresh;
}

void
QuicHyStartPlusPlus::SetMaxRttThresh(Time t)
{
    NS_ABORT_MSG_IF(t.IsStrictlyNegative(),
                    "QuicHyStartPlusPlus::MaxRttThresh must be >= 0, got " << t.As(Time::MS));
    m_maxRttThresh = t;
}

Time
QuicHyStartPlusPlus::GetMaxRttThresh() const
{
    return m_maxRttThresh;
}

void
QuicHyStartPlusPlus::SetNRttSample(uint32_t n)
{
    NS_ABORT_MSG_IF(n == 0, "QuicHyStartPlusPlus::NRttSample must be >= 1, got " << n);
    m_nRttSample = n;
}

uint32_t
QuicHyStartPlusPlus::GetNRttSample() const
{
    return m_nRttSample;
}

void
QuicHyStartPlusPlus::SetCssGrowthDivisor(uint32_t d)
{
    // RFC 9406 Section 4.3: CSS_GROWTH_DIVISOR MUST be at least 2.
    NS_ABORT_MSG_IF(d < 2, "QuicHyStartPlusPlus::CssGrowthDivisor must be >= 2, got " << d);
    m_cssGrowthDivisor = d;
}

uint32_t
QuicHyStartPlusPlus::GetCssGrowthDivisor() const
{
    return m_cssGrowthDivisor;
}

void
QuicHyStartPlusPlus::SetCssRounds(uint32_t n)
{
    NS_ABORT_MSG_IF(n == 0, "QuicHyStartPlusPlus::CssRounds must be >= 1, got " << n);
    m_cssRounds = n;
}

uint32_t
QuicHyStartPlusPlus::GetCssRounds() const
{
    return m_cssRounds;
}

} // namespace ns3
