/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-prr.h"

#include <algorithm>

namespace ns3
{

void
QuicPrr::CongestionEvent(uint64_t bytesInFlight)
{
    m_delivered = 0;
    m_recoverFs = bytesInFlight;
    m_out = 0;
    m_sendCount = 0;
}

void
QuicPrr::OnPacketSent(uint64_t sentBytes)
{
    m_out += sentBytes;
    m_sendCount = m_sendCount > sentBytes ? m_sendCount - sentBytes : 0;
}

void
QuicPrr::OnPacketAcked(uint64_t ackedBytes, uint64_t pipe, uint64_t ssthresh, uint64_t mss)
{
    m_delivered += ackedBytes;
    if (pipe > ssthresh)
    {
        // RFC 6937 Section 3.1: sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out,
        // in integer arithmetic and never below 0.
        if (m_recoverFs == 0)
        {
            m_sendCount = 0;
            return;
        }
        const uint64_t allowed = (m_delivered * ssthresh + m_recoverFs - 1) / m_recoverFs;
        m_sendCount = allowed > m_out ? allowed - m_out : 0;
        return;
    }
    // RFC 6937 Section 3.1, Slow Start Reduction Bound: catch up towards ssthresh, at most one
    // mss beyond what was delivered.
    const uint64_t deliveredNotSent = m_delivered > m_out ? m_delivered - m_out : 0;
    const uint64_t limit = std::max(deliveredNotSent, ackedBytes) + mss;
    m_sendCount = std::min(ssthresh - pipe, limit);
}

uint64_t
QuicPrr::SendCount() const
{
    return m_sendCount;
}

uint64_t
QuicPrr::GetOut() const
{
    return m_out;
}

uint64_t
QuicPrr::GetRecoverFs() const
{
    return m_recoverFs;
}

} // namespace ns3
