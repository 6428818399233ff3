/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-rtt-stats.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

const Time QuicRttStats::kGranularity = MilliSeconds(1);

QuicRttStats::QuicRttStats(Time initialRtt, Time maxAckDelay)
    : m_initialRtt(initialRtt),
      m_maxAckDelay(maxAckDelay),
      m_smoothedRtt(initialRtt),
      m_rttVar(NanoSeconds(initialRtt.GetNanoSeconds() / 2))
{
    NS_ABORT_MSG_UNLESS(initialRtt.IsStrictlyPositive(),
                        "QuicRttStats: initial RTT must be positive, got " << initialRtt);
    SetMaxAckDelay(maxAckDelay);
    for (auto& m : m_min)
    {
        m = {initialRtt, Time(0)};
    }
    UpdatePtoBase();
}

bool
QuicRttStats::Update(Time latestRtt, Time ackDelay, Time now, bool handshakeConfirmed)
{
    if (!latestRtt.IsStrictlyPositive())
    {
        return false;
    }
    m_latestRtt = latestRtt;
    if (!m_hasSample)
    {
        // RFC 9002 Section 5.3: the first sample initialises every estimate; ack delay ignored.
        m_hasSample = true;
        for (auto& m : m_min)
        {
            m = {latestRtt, now};
        }
        m_smoothedRtt = latestRtt;
        m_rttVar = NanoSeconds(latestRtt.GetNanoSeconds() / 2);
        UpdatePtoBase();
        return true;
    }
    UpdateMinRtt(latestRtt, now);

    Time delay = ackDelay.IsStrictlyPositive() ? ackDelay : Time(0);
    if (handshakeConfirmed)
    {
        delay = std::min(delay, m_maxAckDelay);
    }
    // Subtract the ack delay only if that does not take the sample below min_rtt. (Compared as
    // latest - min_rtt >= delay: the peer's ack delay may be as large as an ns3::Time goes, and
    // min_rtt + delay would overflow.)
    Time adjusted = latestRtt;
    if (latestRtt - GetMinRtt() >= delay)
    {
        adjusted = latestRtt - delay;
    }
    const int64_t smoothed = m_smoothedRtt.GetNanoSeconds();
    const int64_t adj = adjusted.GetNanoSeconds();
    const int64_t diff = smoothed > adj ? smoothed - adj : adj - smoothed;
    // quiche rtt.rs: each term is truncated on its own (rttvar * 3 / 4 + diff / 4), which can
    // differ by 1 ns from a single division of the sum.
    m_rttVar = NanoSeconds(m_rttVar.GetNanoSeconds() * 3 / 4 + diff / 4);
    m_smoothedRtt = NanoSeconds(smoothed * 7 / 8 + adj / 8);
    UpdatePtoBase();
    return true;
}

void
QuicRttStats::UpdateMinRtt(Time sample, Time now)
{
    // Windowed minimum: keeps the best, second-best and third-best samples of the last window so
    // that the minimum can age out without storing every sample.
    const Time window = Seconds(kMinRttWindowSeconds);
    if (sample <= m_min[0].rtt || now - m_min[2].when > window)
    {
        for (auto& m : m_min)
        {
            m = {sample, now};
        }
        return;
    }
    if (sample <= m_min[1].rtt)
    {
        m_min[1] = m_min[2] = {sample, now};
    }
    else if (sample <= m_min[2].rtt)
    {
        m_min[2] = {sample, now};
    }
    // Age out the best choices once they leave the window. The sub-window tests measure from
    // the best choice's time (quiche minmax.rs, Linux win_minmax.c).
    if (now - m_min[0].when > window)
    {
        m_min[0] = m_min[1];
        m_min[1] = m_min[2];
        m_min[2] = {sample, now};
        if (now - m_min[0].when > window)
        {
            m_min[0] = m_min[1];
            m_min[1] = m_min[2];
        }
    }
    else if (m_min[1].when == m_min[0].when && now - m_min[1].when > window / 4)
    {
        m_min[1] = m_min[2] = {sample, now};
    }
    else if (m_min[2].when == m_min[1].when && now - m_min[0].when > window / 2)
    {
        m_min[2] = {sample, now};
    }
}

void
QuicRttStats::SetMaxAckDelay(Time d)
{
    NS_ABORT_MSG_IF(d.IsStrictlyNegative(), "QuicRttStats: max_ack_delay must be >= 0, got " << d);
    m_maxAckDelay = d;
}

void
QuicRttStats::UpdatePtoBase()
{
    m_ptoBase = m_smoothedRtt + std::max(NanoSeconds(m_rttVar.GetNanoSeconds() * 4), kGranularity);
}

} // namespace ns3
