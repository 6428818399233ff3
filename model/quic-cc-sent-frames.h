/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SENT_FRAMES_H
#define QUIC_CC_SENT_FRAMES_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc-recovery
 * \brief Stream bytes one packet carried: [offset, offset + length), with the FIN if set.
 */
struct QuicCcStreamChunk
{
    uint64_t offset; //!< stream offset
    uint64_t length; //!< bytes
    bool fin;        //!< carries the FIN
};

/**
 * \ingroup quic-cc-recovery
 * \brief The STREAM chunks of one sent packet, in packet order. A packet nearly always carries
 * one (new data) or two (a retransmission, then new data): up to two are kept in place, so
 * that recording a packet allocates nothing; more move to the heap.
 */
class QuicCcStreamChunks
{
  public:
    /// Append \p chunk (in place while there is room, else on the heap).
    void push_back(const QuicCcStreamChunk& chunk)
    {
        if (m_more.empty() && m_count < kInPlace)
        {
            m_inPlace[m_count++] = chunk;
            return;
        }
        if (m_more.empty())
        {
            m_more.assign(m_inPlace.begin(), m_inPlace.begin() + m_count);
        }
        m_more.push_back(chunk);
    }

    /// Number of chunks.
    size_t size() const
    {
        return m_more.empty() ? m_count : m_more.size();
    }

    /// No chunk.
    bool empty() const
    {
        return size() == 0;
    }

    /// The first chunk (chunks are contiguous).
    const QuicCcStreamChunk* begin() const
    {
        return m_more.empty() ? m_inPlace.data() : m_more.data();
    }

    /// Past the last chunk.
    const QuicCcStreamChunk* end() const
    {
        return begin() + size();
    }

    /// Chunk \p i (< size()).
    const QuicCcStreamChunk& operator[](size_t i) const
    {
        return begin()[i];
    }

    /// The last chunk (not empty()).
    const QuicCcStreamChunk& back() const
    {
        return begin()[size() - 1];
    }

  private:
    static constexpr size_t kInPlace = 2;
    std::array<QuicCcStreamChunk, kInPlace> m_inPlace{}; //!< the chunks while m_more is empty
    std::vector<QuicCcStreamChunk> m_more;               //!< all chunks once there are more
    uint8_t m_count{0};                                  //!< chunks in m_inPlace
};

/**
 * \ingroup quic-cc-recovery
 * \brief What one sent packet carried that must be repeated if it is lost: its STREAM ranges and
 * control frames. The packet builder fills it, QuicLossDetection keeps it on the packet's entry of
 * the sent-packet record and hands it back when the packet is acknowledged or declared lost
 * (quiche recovery: Sent::frames, drained as lost_frames / acked_frames).
 */
struct QuicCcSentFrames
{
    QuicCcStreamChunks chunks; //!< STREAM data, in packet order
    bool initial{false};       //!< the client's INITIAL (PING + padding)
    bool handshakeDone{false}; //!< the server's HANDSHAKE_DONE
    bool flowUpdate{false};    //!< MAX_DATA and MAX_STREAM_DATA
    /// DATA_BLOCKED or STREAM_DATA_BLOCKED: the send limit it reported
    std::optional<uint64_t> blocked;
};

} // namespace ns3

#endif // QUIC_CC_SENT_FRAMES_H
