/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SEND_STREAM_H
#define QUIC_CC_SEND_STREAM_H

#include "quic-cc-frames.h"
#include "quic-cc-range-set.h"
#include "quic-cc-sent-frames.h"

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <utility>

namespace ns3
{

/**
 * \ingroup quic-cc-transport
 * \brief The sending half of a connection's byte stream (the counterpart of QuicCcRecvStream):
 * the bytes the application handed over and not yet acknowledged, the lost ranges awaiting
 * retransmission, and the FIN.
 *
 * Outgoing data is kept as the application's ns3::Packets (as ns-3's TcpTxBuffer does), so
 * virtual packets (Create<Packet>(size), as BulkSendApplication sends) cost no memory while they
 * wait, and a frame carries its data as fragments of those packets (QuicCcStreamFrame::payload):
 * virtual data stays virtual in the datagrams too. The acknowledged prefix is freed.
 *
 * Order of what goes out (RFC 9000 Sections 2.2 and 13.3; quiche's send buffer): lost ranges
 * first, oldest offset first, then new data, then a bare FIN. The packet builder decides how
 * many bytes fit; this class only hands out frames and keeps the books. Pure logic: no
 * simulator calls.
 */
class QuicCcSendStream
{
  public:
    /// Largest encodable stream offset (RFC 9000 Section 19.8).
    static constexpr uint64_t kMaxStreamOffset = (uint64_t{1} << 62) - 1;

    /// \param bufferBytes  bytes the application may hand over that are not yet acknowledged
    explicit QuicCcSendStream(uint64_t bufferBytes = 128u << 20);

    /// Change the buffer size, bytes.
    void SetBufferSize(uint64_t bufferBytes);
    /// Bytes the application may still hand over.
    uint64_t GetTxAvailable() const;
    /// True if \p bytes more fit the buffer and the stream offset space.
    bool CanAppend(uint64_t bytes) const;
    /// Queue the application's bytes at the end of the stream (call CanAppend first).
    void Append(Ptr<const Packet> data);
    /// The application is done: the FIN follows the last byte.
    void Finish();

    bool HasDataToSend() const;     //!< lost ranges, new data or a FIN wait
    bool HasRetransmission() const; //!< lost ranges wait
    /// The lowest lost range [start, end) waiting (HasRetransmission() must be true).
    std::pair<uint64_t, uint64_t> NextRetransmission() const;
    /// A lost FIN waits and every byte was sent once (it goes out as a bare FIN).
    bool HasBareFinRetransmission() const;
    bool HasNewData() const; //!< bytes never sent wait
    bool HasBareFin() const; //!< all bytes were sent, the FIN never was

    /// A frame re-sending [start, start + length) of the lowest lost range; carries the FIN if
    /// it is lost and the frame reaches the end of the stream.
    QuicCcStreamFrame TakeRetransmission(uint64_t length);
    /// A bare FIN re-sent (HasBareFinRetransmission() must be true).
    QuicCcStreamFrame TakeBareFinRetransmission();
    /// A frame with up to \p maxLength never-sent bytes (and the FIN if it reaches the end).
    QuicCcStreamFrame TakeNewData(uint64_t maxLength);
    /// A bare FIN (HasBareFin() must be true).
    QuicCcStreamFrame TakeBareFin();

    /// Offset of the next never-sent byte.
    uint64_t GetNextOffset() const;
    /// Offset after the last byte the application handed over (= bytes handed over).
    uint64_t GetEndOffset() const;

    /// \p chunk was acknowledged.
    void OnAcked(const QuicCcStreamChunk& chunk);
    /// Free the acknowledged prefix of the buffer (after a batch of OnAcked calls).
    void ReleaseAcked();
    /// \p chunk must be sent again (declared lost, or repeated by a probe): the parts not yet
    /// acknowledged join the retransmission queue.
    void OnLost(const QuicCcStreamChunk& chunk);

    uint64_t GetBytesAcked() const;    //!< length of the acknowledged prefix
    bool AllAcked() const;             //!< every byte and the FIN acknowledged
    bool IsFinAcked() const;           //!< the FIN was acknowledged
    uint64_t GetBufferedBytes() const; //!< bytes held (handed over, not freed)

  private:
    /// [offset, offset + length) as fragments of the held packets (no byte copied).
    Ptr<const Packet> Slice(uint64_t offset, uint64_t length) const;
    /// A frame for [offset, offset + length); its payload is Slice() (none if empty).
    QuicCcStreamFrame MakeFrame(uint64_t offset, uint64_t length, bool fin) const;

    uint64_t m_bufferBytes;                                  //!< buffer size, bytes
    std::deque<std::pair<uint64_t, Ptr<Packet>>> m_segments; //!< (stream offset, data), ascending
    size_t m_segmentsFreed{0}; //!< segments removed from the front so far
    /// Absolute index (m_segmentsFreed + position) of the segment the last slice ended in
    mutable size_t m_sliceHint{0};
    uint64_t m_base{0};          //!< offset of the first byte held
    uint64_t m_next{0};          //!< next never-sent offset
    uint64_t m_end{0};           //!< offset after the last byte handed over
    bool m_finQueued{false};     //!< the FIN follows m_end
    bool m_finSent{false};       //!< the FIN went out once
    bool m_finAcked{false};      //!< the FIN was acknowledged
    bool m_finRetransmit{false}; //!< the FIN must be sent again
    QuicCcRangeSet m_acked;      //!< acknowledged offsets
    QuicCcRangeSet m_retransmit; //!< lost offsets awaiting retransmission
};

} // namespace ns3

#endif // QUIC_CC_SEND_STREAM_H
