/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-reno.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicReno");
NS_OBJECT_ENSURE_REGISTERED(QuicReno);

namespace
{
/// kLossReductionFactor (RFC 9002 Appendix B.2), unitless; applied in double, then truncated.
constexpr double kLossReductionFactor = 0.5;
} // namespace

TypeId
QuicReno::GetTypeId()
{
    static TypeId tid = AddHyStartAttribute(TypeId("ns3::QuicReno")
                                                .SetParent<QuicCongestionController>()
                                                .SetGroupName("QuicCc")
                                                .AddConstructor<QuicReno>());
    return tid;
}

QuicReno::QuicReno()
{
    NS_LOG_FUNCTION(this);
}

QuicReno::~QuicReno()
{
    NS_LOG_FUNCTION(this);
}

Ptr<QuicCongestionController>
QuicReno::Fork() const
{
    return ForkAs<QuicReno>();
}

std::string
QuicReno::GetName() const
{
    return "reno";
}

uint64_t
QuicReno::GetBytesAckedCongestionAvoidance() const
{
    return m_bytesAckedCa;
}

void
QuicReno::DoCongestionAvoidanceAck(Time /* now */,
                                   const QuicAckedPacket& packet,
                                   const QuicRttStats& /* rtt */)
{
    // RFC 9002 Section 7.3.3: one mss per cwnd of acknowledged bytes.
    m_bytesAckedCa += packet.bytes;
    const uint64_t cwnd = GetCongestionWindow();
    if (m_bytesAckedCa >= cwnd)
    {
        m_bytesAckedCa -= cwnd;
        SetCwnd(cwnd + GetMaxDatagramSize());
    }
}

void
QuicReno::DoCongestionEvent(Time now, uint64_t lostBytes, uint64_t bytesInFlight)
{
    NS_LOG_FUNCTION(this << now << lostBytes << bytesInFlight);
    // RFC 9002 Section 7.3.2 and Appendix B.6; products in double, then truncated (quiche).
    const auto halved =
        static_cast<uint64_t>(static_cast<double>(GetCongestionWindow()) * kLossReductionFactor);
    const uint64_t cwnd = std::max(halved, GetMinimumWindow());
    SetCwnd(cwnd);
    m_bytesAckedCa = static_cast<uint64_t>(static_cast<double>(cwnd) * kLossReductionFactor);
    SetSsthresh(cwnd);
}

} // namespace ns3
