/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-pacer.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

void
QuicCcPacer::Configure(double gain, uint32_t burstPackets, uint64_t mss)
{
    NS_ABORT_MSG_UNLESS(gain > 0.0 && std::isfinite(gain),
                        "QuicCcPacer: pacing gain N must be > 0, got " << gain);
    NS_ABORT_MSG_UNLESS(burstPackets >= 1,
                        "QuicCcPacer: burst allowance must be >= 1 packet, got " << burstPackets);
    NS_ABORT_MSG_UNLESS(mss > 0, "QuicCcPacer: mss must be > 0, got " << mss);
    m_gain = gain;
    m_capacity = static_cast<double>(burstPackets) * static_cast<double>(mss);
    m_tokens = m_capacity;
    m_started = false;
}

double
QuicCcPacer::Rate(uint64_t cwnd, Time smoothedRtt) const
{
    // RFC 9002 Section 7.7: rate = N * congestion_window / smoothed_rtt.
    return m_gain * static_cast<double>(cwnd) / smoothedRtt.GetSeconds();
}

void
QuicCcPacer::Refill(Time now, uint64_t cwnd, Time smoothedRtt)
{
    if (m_started && now > m_lastUpdate)
    {
        const double earned = Rate(cwnd, smoothedRtt) * (now - m_lastUpdate).GetSeconds();
        m_tokens = std::min(m_capacity, m_tokens + earned);
    }
    m_started = true;
    m_lastUpdate = std::max(m_lastUpdate, now);
}

Time
QuicCcPacer::NextSendTime(Time now, uint64_t bytes, uint64_t cwnd, Time smoothedRtt)
{
    Refill(now, cwnd, smoothedRtt);
    const double missing = static_cast<double>(bytes) - m_tokens;
    if (missing <= 0.0)
    {
        return now;
    }
    // Round up to the next nanosecond so that the bucket holds enough at that time.
    return now +
           NanoSeconds(static_cast<int64_t>(std::ceil(missing / Rate(cwnd, smoothedRtt) * 1e9)));
}

void
QuicCcPacer::OnPacketSent(Time now, uint64_t bytes, uint64_t cwnd, Time smoothedRtt)
{
    Refill(now, cwnd, smoothedRtt);
    m_tokens -= static_cast<double>(bytes);
}

double
QuicCcPacer::GetTokens() const
{
    return m_tokens;
}

} // namespace ns3
