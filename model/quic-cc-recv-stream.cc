/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-recv-stream.h"

#include <algorithm>
#include <limits>
#include <memory>

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
    return std::max<uint64_t>(m_next, last.first + last.second->GetSize());
}

std::string
QuicCcRecvStream::Check(const QuicCcStreamFrame& frame) const
{
    const uint64_t end = frame.offset + frame.Length();
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

namespace
{

/// The frame's data as a packet (shared, never modified): its payload, or an empty packet.
Ptr<const Packet>
FrameData(const QuicCcStreamFrame& frame)
{
    return frame.payload ? frame.payload : Ptr<const Packet>(Create<Packet>());
}

} // namespace

void
QuicCcRecvStream::PushReady(const Ptr<const Packet>& data, uint64_t skip)
{
    const uint32_t size = data->GetSize() - static_cast<uint32_t>(skip);
    Ptr<const Packet> piece = data;
    if (skip > 0)
    {
        piece = data->CreateFragment(static_cast<uint32_t>(skip), size);
    }
    if (size < kCoalesceBelow && !m_ready.empty() &&
        m_ready.back()->GetSize() + size <= kCoalesceLimit)
    {
        // A small piece joins the packet before it, so that many small messages left unread do
        // not each hold a Packet and the whole datagram it came in.
        Ptr<Packet> joined = m_ready.back()->Copy();
        joined->AddAtEnd(piece);
        m_ready.back() = joined;
    }
    else
    {
        m_ready.push_back(piece);
    }
    m_readyBytes += size;
}

uint64_t
QuicCcRecvStream::OnFrame(const QuicCcStreamFrame& frame, bool keep)
{
    const uint64_t length = frame.Length();
    const uint64_t end = frame.offset + length;
    if (frame.fin)
    {
        m_finalSize = end;
    }
    if (frame.offset <= m_next && end > m_next && m_reassembly.empty())
    {
        // In order with nothing waiting (the common case): deliver straight from the frame,
        // without the reassembly map.
        if (keep)
        {
            PushReady(FrameData(frame), m_next - frame.offset);
        }
        const uint64_t delivered = end - m_next;
        m_next = end;
        return delivered;
    }
    if (end > m_next && length > 0)
    {
        auto& slot = m_reassembly[frame.offset];
        if (!slot || length > slot->GetSize())
        {
            slot = FrameData(frame);
        }
    }
    uint64_t delivered = 0;
    while (!m_reassembly.empty() && m_reassembly.begin()->first <= m_next)
    {
        auto it = m_reassembly.begin();
        const uint64_t chunkEnd = it->first + it->second->GetSize();
        if (chunkEnd > m_next)
        {
            if (keep)
            {
                PushReady(it->second, m_next - it->first);
            }
            delivered += chunkEnd - m_next;
            m_next = chunkEnd;
        }
        m_reassembly.erase(it);
    }
    return delivered;
}

uint64_t
QuicCcRecvStream::Available() const
{
    return m_readyBytes;
}

void
QuicCcRecvStream::ConsumeFront(uint32_t bytes)
{
    const Ptr<const Packet> front = m_ready.front();
    if (bytes == front->GetSize())
    {
        m_ready.pop_front();
    }
    else
    {
        m_ready.front() = front->CreateFragment(bytes, front->GetSize() - bytes);
    }
    m_readyBytes -= bytes;
}

Ptr<Packet>
QuicCcRecvStream::Read(uint64_t maxBytes)
{
    const auto n = static_cast<uint32_t>(
        std::min({maxBytes, m_readyBytes, uint64_t{std::numeric_limits<uint32_t>::max()}}));
    if (n == 0)
    {
        return Create<Packet>();
    }
    Ptr<Packet> out;
    const Ptr<const Packet> front = m_ready.front();
    if (front->GetSize() >= n)
    {
        // Shares the buffer.
        out = front->GetSize() == n ? front->Copy() : front->CreateFragment(0, n);
        ConsumeFront(n);
    }
    else
    {
        // Several packets: one copy of their bytes. Appending them one by one with
        // Packet::AddAtEnd would copy the growing packet at every append (ns-3 3.37's
        // Buffer::AddAtEnd), quadratic in a large backlog.
        // Not zero-filled first: every byte is written below.
        const std::unique_ptr<uint8_t[]> bytes(new uint8_t[n]);
        for (uint32_t filled = 0; filled < n;)
        {
            const uint32_t take = std::min(m_ready.front()->GetSize(), n - filled);
            m_ready.front()->CopyData(bytes.get() + filled, take);
            ConsumeFront(take);
            filled += take;
        }
        out = Create<Packet>(bytes.get(), n);
    }
    // The datagram's packet tags (set by the sending UDP socket, FlowMonitor, ...) are not
    // stream data.
    out->RemoveAllPacketTags();
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
