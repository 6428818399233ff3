/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-received-packet-manager.h"

#include "ns3/abort.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

QuicCcReceivedPacketManager::QuicCcReceivedPacketManager() = default;

std::string
QuicCcReceivedPacketManager::Config::GetError() const
{
    std::ostringstream os;
    if (ackElicitingThreshold == 0)
    {
        os << "QuicCcSocket::AckElicitingThreshold must be >= 1, got 0";
    }
    else if (maxAckDelay.IsStrictlyNegative())
    {
        os << "QuicCcSocket::MaxAckDelay must be >= 0, got " << maxAckDelay;
    }
    else if (batchWindow.IsStrictlyNegative())
    {
        os << "QuicCcSocket::AckBatchWindow must be >= 0, got " << batchWindow;
    }
    else if (maxAckRanges == 0)
    {
        os << "QuicCcSocket::MaxAckRanges must be >= 1, got 0";
    }
    return os.str();
}

void
QuicCcReceivedPacketManager::Configure(const Config& config)
{
    if (const std::string error = config.GetError(); !error.empty())
    {
        NS_FATAL_ERROR(error);
    }
    m_config = config;
}

bool
QuicCcReceivedPacketManager::IsDuplicate(uint64_t packetNumber) const
{
    return m_received.Contains(packetNumber);
}

bool
QuicCcReceivedPacketManager::OnPacketReceived(uint64_t packetNumber,
                                              Time now,
                                              QuicCcEcnCodepoint ecn)
{
    m_ecn.Count(ecn);
    const bool outOfOrder = m_anyReceived && packetNumber != m_largestReceived + 1;
    m_received.Add(packetNumber, packetNumber + 1);
    if (!m_anyReceived || packetNumber > m_largestReceived)
    {
        m_largestReceived = packetNumber;
        m_largestReceivedTime = now;
    }
    m_anyReceived = true;
    // Bound the history: the highest MaxAckRanges ranges are all an ACK can report.
    while (m_received.RangeCount() > 4 * static_cast<size_t>(m_config.maxAckRanges))
    {
        const auto low = m_received.Front();
        m_received.Remove(low.first, low.second);
    }
    return outOfOrder;
}

bool
QuicCcReceivedPacketManager::OnAckElicitingReceived(bool outOfOrder,
                                                    Time now,
                                                    bool congestionExperienced)
{
    m_ackPending = true;
    ++m_ackElicitingSinceAck;
    if (congestionExperienced)
    {
        // RFC 9000 Section 13.2.1: a CE-marked packet is acknowledged at once (ngtcp2 too:
        // conn_recv_pkt), whatever the policy.
        m_ackDeadline = now;
        return true;
    }
    if (m_config.policy == RFC9000)
    {
        // RFC 9000 Sections 13.2.1-13.2.2: every threshold-th ack-eliciting packet, or a gap, at
        // once; otherwise within max_ack_delay of the first unacknowledged one.
        if (outOfOrder || m_ackElicitingSinceAck >= m_config.ackElicitingThreshold)
        {
            m_ackDeadline = now;
            return true;
        }
        if (!m_ackDeadline)
        {
            m_ackDeadline = now + m_config.maxAckDelay;
        }
        return false;
    }
    // Receive batch: the batch's first packet starts the window.
    if (!m_ackDeadline)
    {
        m_ackDeadline = now + m_config.batchWindow;
    }
    return false;
}

void
QuicCcReceivedPacketManager::OnAckSent()
{
    m_ackPending = false;
    m_ackElicitingSinceAck = 0;
    m_ackDeadline.reset();
}

bool
QuicCcReceivedPacketManager::IsAckPending() const
{
    return m_ackPending;
}

std::optional<Time>
QuicCcReceivedPacketManager::GetAckDeadline() const
{
    return m_ackDeadline;
}

bool
QuicCcReceivedPacketManager::AnyReceived() const
{
    return m_anyReceived;
}

uint64_t
QuicCcReceivedPacketManager::GetLargestReceived() const
{
    return m_largestReceived;
}

size_t
QuicCcReceivedPacketManager::GetRangeCount() const
{
    return m_received.RangeCount();
}

const QuicCcEcnCounts&
QuicCcReceivedPacketManager::GetEcnCounts() const
{
    return m_ecn;
}

QuicCcAckFrame
QuicCcReceivedPacketManager::BuildAckFrame(Time now) const
{
    NS_ABORT_MSG_UNLESS(m_anyReceived,
                        "QuicCcReceivedPacketManager::BuildAckFrame before any packet");
    // The highest MaxAckRanges ranges, descending, as inclusive [smallest, largest] (written
    // through a local pointer into a list sized once).
    const size_t top = m_received.RangeCount();
    QuicCcAckFrame ack{std::vector<QuicCcAckRange>(std::min<size_t>(top, m_config.maxAckRanges)),
                       Time(),
                       std::nullopt};
    QuicCcAckRange* range = ack.ranges.data();
    for (size_t i = 0; i < ack.ranges.size(); ++i)
    {
        const auto [start, end] = m_received.At(top - 1 - i);
        range[i] = {start, end - 1};
    }
    ack.ackDelay = now - m_largestReceivedTime;
    if (m_ecn.Any())
    {
        ack.ecn = m_ecn;
    }
    return ack;
}

} // namespace ns3
