/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-send-stream.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

QuicCcSendStream::QuicCcSendStream(uint64_t bufferBytes)
    : m_bufferBytes(bufferBytes)
{
}

void
QuicCcSendStream::SetBufferSize(uint64_t bufferBytes)
{
    m_bufferBytes = bufferBytes;
}

uint64_t
QuicCcSendStream::GetBufferedBytes() const
{
    return m_end - m_base;
}

uint64_t
QuicCcSendStream::GetTxAvailable() const
{
    const uint64_t buffered = GetBufferedBytes();
    return buffered >= m_bufferBytes ? 0 : m_bufferBytes - buffered;
}

bool
QuicCcSendStream::CanAppend(uint64_t bytes) const
{
    return bytes <= GetTxAvailable() && m_end + bytes <= kMaxStreamOffset;
}

void
QuicCcSendStream::Append(Ptr<const Packet> data)
{
    NS_ABORT_MSG_UNLESS(CanAppend(data->GetSize()),
                        "QuicCcSendStream::Append: " << data->GetSize() << " bytes do not fit");
    NS_ABORT_MSG_IF(m_finQueued, "QuicCcSendStream::Append after the FIN");
    if (data->GetSize() == 0)
    {
        return;
    }
    // A private copy (copy-on-write): the application may reuse its packet.
    m_segments.emplace_back(m_end, data->Copy());
    m_end += data->GetSize();
}

void
QuicCcSendStream::Finish()
{
    m_finQueued = true;
}

bool
QuicCcSendStream::HasRetransmission() const
{
    return !m_retransmit.Empty();
}

std::pair<uint64_t, uint64_t>
QuicCcSendStream::NextRetransmission() const
{
    return m_retransmit.Front();
}

bool
QuicCcSendStream::HasBareFinRetransmission() const
{
    return m_finRetransmit && m_next == m_end;
}

bool
QuicCcSendStream::HasNewData() const
{
    return m_next < m_end;
}

bool
QuicCcSendStream::HasBareFin() const
{
    return m_finQueued && !m_finSent && m_next == m_end;
}

bool
QuicCcSendStream::HasDataToSend() const
{
    return !m_retransmit.Empty() || m_finRetransmit || m_next < m_end ||
           (m_finQueued && !m_finSent);
}

Ptr<const Packet>
QuicCcSendStream::Slice(uint64_t offset, uint64_t length) const
{
    NS_ABORT_MSG_IF(length == 0 || offset < m_base || offset + length > m_end,
                    "QuicCcSendStream: bytes [" << offset << ", " << offset + length
                                                << ") are not held (held [" << m_base << ", "
                                                << m_end << "))");
    // The last segment starting at or before offset: usually the one the previous slice ended in
    // (new data is taken in order), else found by binary search.
    const auto contains = [this, offset](size_t i) {
        return i < m_segments.size() && m_segments[i].first <= offset &&
               (i + 1 == m_segments.size() || m_segments[i + 1].first > offset);
    };
    size_t index = m_sliceHint >= m_segmentsFreed ? m_sliceHint - m_segmentsFreed : 0;
    if (!contains(index))
    {
        index = static_cast<size_t>(
            std::upper_bound(
                m_segments.begin(),
                m_segments.end(),
                offset,
                [](uint64_t o, const std::pair<uint64_t, Ptr<Packet>>& s) { return o < s.first; }) -
            m_segments.begin() - 1);
    }
    auto it = m_segments.begin() + static_cast<std::ptrdiff_t>(index);
    // Fragments of the held packets, as TcpTxBuffer::GetPacketFromList builds a segment: no byte
    // is copied, and a virtual packet's zero area stays virtual. A slice within one held packet
    // is that packet's fragment; a longer one starts from an empty packet, so that each
    // Buffer::AddAtEnd joins the zero areas (a fragment shares its buffer and cannot).
    Ptr<Packet> out;
    for (uint64_t done = 0; done < length; ++it)
    {
        const auto& [start, packet] = *it;
        const uint64_t within = offset + done - start;
        const uint64_t n = std::min<uint64_t>(length - done, packet->GetSize() - within);
        Ptr<Packet> fragment =
            packet->CreateFragment(static_cast<uint32_t>(within), static_cast<uint32_t>(n));
        m_sliceHint = m_segmentsFreed + static_cast<size_t>(it - m_segments.begin());
        if (n == length)
        {
            return fragment;
        }
        if (!out)
        {
            out = Create<Packet>();
        }
        out->AddAtEnd(fragment);
        done += n;
    }
    return out;
}

QuicCcStreamFrame
QuicCcSendStream::MakeFrame(uint64_t offset, uint64_t length, bool fin) const
{
    QuicCcStreamFrame frame;
    frame.offset = offset;
    frame.fin = fin;
    if (length > 0)
    {
        frame.payload = Slice(offset, length);
    }
    return frame;
}

QuicCcStreamFrame
QuicCcSendStream::TakeRetransmission(uint64_t length)
{
    const auto [start, end] = m_retransmit.Front();
    length = std::min(length, end - start);
    const bool fin = m_finRetransmit && m_finQueued && start + length == m_end;
    if (fin)
    {
        m_finRetransmit = false;
    }
    m_retransmit.Remove(start, start + length);
    return MakeFrame(start, length, fin);
}

QuicCcStreamFrame
QuicCcSendStream::TakeBareFinRetransmission()
{
    m_finRetransmit = false;
    return MakeFrame(m_end, 0, true);
}

QuicCcStreamFrame
QuicCcSendStream::TakeNewData(uint64_t maxLength)
{
    const uint64_t offset = m_next;
    const uint64_t length = std::min(m_end - m_next, maxLength);
    const bool fin = m_finQueued && offset + length == m_end;
    m_next += length;
    m_finSent = m_finSent || fin;
    return MakeFrame(offset, length, fin);
}

QuicCcStreamFrame
QuicCcSendStream::TakeBareFin()
{
    m_finSent = true;
    return MakeFrame(m_end, 0, true);
}

uint64_t
QuicCcSendStream::GetNextOffset() const
{
    return m_next;
}

uint64_t
QuicCcSendStream::GetEndOffset() const
{
    return m_end;
}

void
QuicCcSendStream::OnAcked(const QuicCcStreamChunk& chunk)
{
    m_acked.Add(chunk.offset, chunk.offset + chunk.length);
    m_retransmit.Remove(chunk.offset, chunk.offset + chunk.length);
    if (chunk.fin)
    {
        m_finAcked = true;
        m_finRetransmit = false;
    }
}

void
QuicCcSendStream::ReleaseAcked()
{
    const uint64_t ackedEnd = std::min(GetBytesAcked(), m_end);
    if (ackedEnd <= m_base)
    {
        return;
    }
    while (!m_segments.empty())
    {
        auto& [start, packet] = m_segments.front();
        const uint64_t segmentEnd = start + packet->GetSize();
        if (segmentEnd <= ackedEnd)
        {
            m_segments.pop_front();
            ++m_segmentsFreed;
            continue;
        }
        if (start < ackedEnd)
        {
            packet->RemoveAtStart(static_cast<uint32_t>(ackedEnd - start));
            start = ackedEnd;
        }
        break;
    }
    m_base = ackedEnd;
}

void
QuicCcSendStream::OnLost(const QuicCcStreamChunk& chunk)
{
    // Only what is still unacknowledged goes out again (RFC 9000 Section 13.3).
    for (const auto& [s, e] : m_acked.Missing(chunk.offset, chunk.offset + chunk.length))
    {
        m_retransmit.Add(s, e);
    }
    if (chunk.fin && !m_finAcked)
    {
        m_finRetransmit = true;
    }
}

uint64_t
QuicCcSendStream::GetBytesAcked() const
{
    if (m_acked.Empty() || m_acked.Front().first != 0)
    {
        return 0;
    }
    return m_acked.Front().second;
}

bool
QuicCcSendStream::AllAcked() const
{
    return m_finAcked && m_acked.ContainsAll(0, m_end);
}

bool
QuicCcSendStream::IsFinAcked() const
{
    return m_finAcked;
}

} // namespace ns3
