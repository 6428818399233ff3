/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ecn.h"

#include "ns3/log.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcEcn");

QuicCcEcnCodepoint
QuicCcEcnFromTos(uint8_t tos)
{
    return static_cast<QuicCcEcnCodepoint>(tos & 0x3);
}

std::ostream&
operator<<(std::ostream& os, QuicCcEcnCodepoint codepoint)
{
    static const char* const kNames[] = {"Not-ECT", "ECT(1)", "ECT(0)", "CE"};
    return os << kNames[static_cast<uint8_t>(codepoint) & 0x3];
}

void
QuicCcEcnCounts::Count(QuicCcEcnCodepoint codepoint)
{
    switch (codepoint)
    {
    case QuicCcEcnCodepoint::ECT0:
        ++ect0;
        break;
    case QuicCcEcnCodepoint::ECT1:
        ++ect1;
        break;
    case QuicCcEcnCodepoint::CE:
        ++ce;
        break;
    case QuicCcEcnCodepoint::NOT_ECT:
        break;
    }
}

bool
QuicCcEcnCounts::Any() const
{
    return ect0 > 0 || ect1 > 0 || ce > 0;
}

bool
operator==(const QuicCcEcnCounts& a, const QuicCcEcnCounts& b)
{
    return a.ect0 == b.ect0 && a.ect1 == b.ect1 && a.ce == b.ce;
}

bool
operator!=(const QuicCcEcnCounts& a, const QuicCcEcnCounts& b)
{
    return !(a == b);
}

std::ostream&
operator<<(std::ostream& os, const QuicCcEcnCounts& counts)
{
    return os << "ect0=" << counts.ect0 << " ect1=" << counts.ect1 << " ce=" << counts.ce;
}

const char*
QuicCcEcnStateName(QuicCcEcnState state)
{
    switch (state)
    {
    case QUIC_CC_ECN_DISABLED:
        return "disabled";
    case QUIC_CC_ECN_TESTING:
        return "testing";
    case QUIC_CC_ECN_UNKNOWN:
        return "unknown";
    case QUIC_CC_ECN_FAILED:
        return "failed";
    case QUIC_CC_ECN_CAPABLE:
        return "capable";
    }
    return "invalid";
}

std::ostream&
operator<<(std::ostream& os, QuicCcEcnState state)
{
    return os << QuicCcEcnStateName(state);
}

void
QuicCcEcnValidation::Enable()
{
    if (m_state == QUIC_CC_ECN_DISABLED)
    {
        SetState(QUIC_CC_ECN_TESTING);
    }
}

QuicCcEcnState
QuicCcEcnValidation::GetState() const
{
    return m_state;
}

void
QuicCcEcnValidation::SetState(QuicCcEcnState state)
{
    if (state != m_state)
    {
        const QuicCcEcnState old = m_state;
        m_state = state;
        NS_LOG_INFO("ECN validation " << old << " -> " << state);
        if (m_listener)
        {
            m_listener->OnEcnStateTrace(old, state);
        }
    }
}

void
QuicCcEcnValidation::Fail(const std::string& reason)
{
    m_failure = reason;
    NS_LOG_INFO("ECN validation failed: " << reason);
    SetState(QUIC_CC_ECN_FAILED);
}

void
QuicCcEcnValidation::EndExpiredTesting(Time now, Time pto)
{
    if (m_state == QUIC_CC_ECN_TESTING && m_testingStart &&
        now - *m_testingStart >= pto * kTestingPtos)
    {
        SetState(QUIC_CC_ECN_UNKNOWN);
        CheckAllLost();
    }
}

void
QuicCcEcnValidation::CheckAllLost()
{
    if (m_state == QUIC_CC_ECN_UNKNOWN && m_ectSent > 0 && m_ectLost == m_ectSent)
    {
        std::ostringstream os;
        os << "all " << m_ectSent << " packets sent with ECT(0) were declared lost";
        Fail(os.str());
    }
}

QuicCcEcnCodepoint
QuicCcEcnValidation::OnPacketSent(Time now, Time pto, bool ackEliciting)
{
    if (m_state == QUIC_CC_ECN_TESTING)
    {
        if (!ackEliciting)
        {
            return QuicCcEcnCodepoint::NOT_ECT;
        }
        EndExpiredTesting(now, pto);
    }
    if (m_state == QUIC_CC_ECN_TESTING)
    {
        if (!m_testingStart)
        {
            m_testingStart = now;
        }
        ++m_ectSent;
        if (++m_testingSent == kTestingPackets)
        {
            SetState(QUIC_CC_ECN_UNKNOWN); // this packet is the last marked one
            CheckAllLost();
        }
        return QuicCcEcnCodepoint::ECT0;
    }
    if (m_state == QUIC_CC_ECN_CAPABLE)
    {
        ++m_ectSent;
        return QuicCcEcnCodepoint::ECT0;
    }
    return QuicCcEcnCodepoint::NOT_ECT;
}

std::string
QuicCcEcnValidation::Check(const std::optional<QuicCcEcnCounts>& counts,
                           uint64_t newlyAckedEct) const
{
    std::ostringstream os;
    if (!counts)
    {
        if (newlyAckedEct > 0)
        {
            os << "an ACK frame without ECN counts newly acknowledged " << newlyAckedEct
               << " packet(s) sent with ECT(0)";
        }
        return os.str();
    }
    const QuicCcEcnCounts& c = *counts;
    if (c.ect0 < m_peer.ect0 || c.ect1 < m_peer.ect1 || c.ce < m_peer.ce)
    {
        os << "ECN counts went backwards: " << c << " after " << m_peer;
    }
    else if (c.ect1 > 0)
    {
        os << "ECT(1) count " << c.ect1 << " but no packet was sent with ECT(1)";
    }
    else if (c.ect0 > m_ectSent)
    {
        os << "ECT(0) count " << c.ect0 << " exceeds the " << m_ectSent
           << " packets sent with ECT(0)";
    }
    else if (c.ect0 + c.ce > m_ectSent) // each <= 2^62-1: the sum fits in 64 bits
    {
        os << "ECT(0) + ECN-CE counts " << c.ect0 << " + " << c.ce << " exceed the " << m_ectSent
           << " packets sent with ECT(0) (marks on packets never sent with ECT)";
    }
    else if ((c.ect0 - m_peer.ect0) + (c.ce - m_peer.ce) < newlyAckedEct)
    {
        os << "ECT(0) and ECN-CE counts grew by " << (c.ect0 - m_peer.ect0) + (c.ce - m_peer.ce)
           << " but the frame newly acknowledged " << newlyAckedEct
           << " packets sent with ECT(0) (marks cleared on the path)";
    }
    return os.str();
}

QuicCcEcnValidation::AckOutcome
QuicCcEcnValidation::OnAckReceived(bool largestIncreased,
                                   const std::optional<QuicCcEcnCounts>& counts,
                                   uint64_t newlyAckedEct)
{
    AckOutcome outcome;
    if (m_state == QUIC_CC_ECN_DISABLED || m_state == QUIC_CC_ECN_FAILED || !largestIncreased)
    {
        return outcome;
    }
    if (const std::string failure = Check(counts, newlyAckedEct); !failure.empty())
    {
        Fail(failure);
        return outcome;
    }
    if (newlyAckedEct > 0)
    {
        SetState(QUIC_CC_ECN_CAPABLE);
    }
    if (counts && *counts != m_peer)
    {
        outcome.ceIncrease = counts->ce - m_peer.ce;
        outcome.countsChanged = true;
        m_peer = *counts;
        if (m_listener)
        {
            m_listener->OnEcnCountsTrace(m_peer.ect0, m_peer.ect1, m_peer.ce);
        }
    }
    return outcome;
}

void
QuicCcEcnValidation::OnEctPacketsLost(uint64_t lost, Time now, Time pto)
{
    if (m_state == QUIC_CC_ECN_DISABLED || m_state == QUIC_CC_ECN_FAILED)
    {
        return;
    }
    m_ectLost += lost;
    EndExpiredTesting(now, pto);
    CheckAllLost();
}

const QuicCcEcnCounts&
QuicCcEcnValidation::GetPeerCounts() const
{
    return m_peer;
}

uint64_t
QuicCcEcnValidation::GetEctSent() const
{
    return m_ectSent;
}

uint64_t
QuicCcEcnValidation::GetEctLost() const
{
    return m_ectLost;
}

const std::string&
QuicCcEcnValidation::GetFailureReason() const
{
    return m_failure;
}

void
QuicCcEcnValidation::SetListener(Listener* listener)
{
    m_listener = listener;
}

} // namespace ns3
