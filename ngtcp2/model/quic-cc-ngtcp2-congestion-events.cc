/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ngtcp2-congestion-events.h"

namespace ns3
{

bool
QuicCcNgtcp2CongestionEvents::Update(const Sample& sample)
{
    const Sample last = m_last;
    m_last = sample;
    if (!m_started)
    {
        m_started = true;
        m_state = sample.cwnd < sample.ssthresh ? QUIC_CC_SLOW_START : QUIC_CC_CONGESTION_AVOIDANCE;
        return false;
    }
    const bool lost = sample.packetsLost > last.packetsLost;
    const bool cut = sample.ssthresh < last.ssthresh || sample.cwnd < last.cwnd;
    const bool marked = m_ecn && !lost && sample.ssthresh < last.ssthresh &&
                        sample.cwnd < last.cwnd; // HyStart++'s exit sets ssthresh only
    if ((lost && cut) || marked)
    {
        ++m_events;
        m_ecnEvents += marked ? 1 : 0;
        m_state = QUIC_CC_RECOVERY;
        return true;
    }
    if (m_state != QUIC_CC_RECOVERY || sample.cwnd > last.cwnd)
    {
        m_state = sample.cwnd < sample.ssthresh ? QUIC_CC_SLOW_START : QUIC_CC_CONGESTION_AVOIDANCE;
    }
    return false;
}

QuicCongestionState
QuicCcNgtcp2CongestionEvents::GetState() const
{
    return m_state;
}

uint64_t
QuicCcNgtcp2CongestionEvents::GetEvents() const
{
    return m_events;
}

void
QuicCcNgtcp2CongestionEvents::SetEcn(bool ecn)
{
    m_ecn = ecn;
}

uint64_t
QuicCcNgtcp2CongestionEvents::GetEcnEvents() const
{
    return m_ecnEvents;
}

} // namespace ns3
