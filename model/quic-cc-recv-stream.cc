/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-recv-stream.h"

#include <algorithm>

namespace ns3
{

QuicCcRecvStream::QuicCcRecvStream(uint64_t windowBytes)
    : m_window(windowBytes)
{
}

void
QuicCcRecvStream::SetWindow(uint64_t windowBytes)
{
    m_window = windowBytes;
}

uint64_t
QuicCcRecvStream::HighestEnd() const
{
    if (m_reassembly.empty())
    {
        return m_next;
    }
    const auto& last = *m_reassembly.rbegin();
    return std::max<uint64_t>(m_next, last.first + last.second.size());
}

std::string
QuicCcRecvStream::Check(const QuicCcStreamFrame& frame) const
{
    const uint64_t end = frame.offset + frame.data.size();
    if (end > m_next + m_window)
    {
        return "STREAM data up to offset " + std::to_string(end) +
               " beyond the receive window (next " + std::to_string(m_next) + ")";
    }
    if (m_finalSize && end > *m_finalSize)
    {
        return "STREAM data up to " + std::to_string(end) + " past the final size " +
               std::to_string(*m_finalSize);
    }
    if (frame.fin && m_finalSize && end != *m_finalSize)
    {
        return "FIN changes the final size from " + std::to_string(*m_finalSize) + " to " +
               std::to_string(end);
    }
    if (frame.fin && end < HighestEnd())
    {
        return "FIN at " + std::to_string(end) + " below data already received up to " +
               std::to_string(HighestEnd());
    }
    return "";
}

uint64_t
QuicCcRecvStream::OnFrame(const QuicCcStreamFrame& frame, bool keep)
{
    const uint64_t end = frame.offset + frame.data.size();
    if (frame.fin)
    {
        m_finalSize = end;
    }
    if (frame.offset <= m_next && end > m_next && m_reassembly.empty())
    {
        // In order with nothing waiting (the common case): deliver straight from the frame,
        // without a copy into the reassembly map.
        if (keep)
        {
            const auto skip = static_cast<std::ptrdiff_t>(m_next - frame.offset);
            m_ready.insert(m_ready.end(), frame.data.begin() + skip, frame.data.end());
        }
        const uint64_t delivered = end - m_next;
        m_next = end;
        return delivered;
    }
    if (end > m_next && !frame.data.empty())
    {
        auto& slot = m_reassembly[frame.offset];
        if (frame.data.size() > slot.size())
        {
            slot = frame.data;
        }
    }
    uint64_t delivered = 0;
    while (!m_reassembly.empty() && m_reassembly.begin()->first <= m_next)
    {
        auto it = m_reassembly.begin();
        const uint64_t chunkEnd = it->first + it->second.size();
        if (chunkEnd > m_next)
        {
            const auto skip = static_cast<std::ptrdiff_t>(m_next - it->first);
            if (keep)
            {
                m_ready.insert(m_ready.end(), it->second.begin() + skip, it->second.end());
            }
            delivered += chunkEnd - m_next;
            m_next = chunkEnd;
        }
        m_reassembly.erase(it);
    }
    return delivered;
}

size_t
QuicCcRecvStream::Available() const
{
    return m_ready.size();
}

std::vector<uint8_t>
QuicCcRecvStream::Read(size_t maxBytes)
{
    const auto n = static_cast<std::ptrdiff_t>(std::min(maxBytes, m_ready.size()));
    std::vector<uint8_t> out(m_ready.begin(), m_ready.begin() + n);
    m_ready.erase(m_ready.begin(), m_ready.begin() + n);
    return out;
}

uint64_t
QuicCcRecvStream::Delivered() const
{
    return m_next;
}

bool
QuicCcRecvStream::NothingReceived() const
{
    return m_next == 0 && m_reassembly.empty() && !m_finalSize;
}

bool
QuicCcRecvStream::Complete() const
{
    return m_finalSize && m_next == *m_finalSize;
}

} // namespace ns3
