/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_RECV_STREAM_H
#define QUIC_CC_RECV_STREAM_H

#include "quic-cc-frames.h"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup quic-cc-transport
 * \brief The receiving half of a connection's byte stream: reassembles STREAM frames that
 * arrive out of order, duplicated or overlapping into the exact byte sequence the peer sent,
 * and holds it until the application reads it.
 * The data is held as ns3::Packets, as TcpRxBuffer holds segments: fragments of the received
 * datagrams (QuicCcStreamFrame::payload), so virtual (zero-filled) data stays virtual, or packets
 * made of a frame's bytes (QuicCcStreamFrame::data). Stored packets are never modified. Small
 * in-order pieces are joined (copied) into the packet before them, so that unread small messages
 * cost about their bytes. Read hands over one packet without packet tags.
 *
 * Received bytes are never trusted: Check() rejects a frame that reaches past the window or
 * contradicts the final size (RFC 9000 Section 4.5) before anything is stored.
 */
class QuicCcRecvStream
{
  public:
    /// \param windowBytes  largest offset accepted beyond the next in-order offset, bytes
    explicit QuicCcRecvStream(uint64_t windowBytes = 128u << 20);

    /// Change the window (bytes beyond the next in-order offset).
    void SetWindow(uint64_t windowBytes);

    /**
     * Why \p frame must be rejected, or "" if it is acceptable: data past the window, data
     * past a known final size, a FIN that changes the final size or lies below data already
     * received (RFC 9000 Section 4.5).
     */
    std::string Check(const QuicCcStreamFrame& frame) const;

    /**
     * Store a frame that passed Check(); duplicate and overlapping bytes are kept once.
     * \param frame  the STREAM frame
     * \param keep  false: count delivered bytes but do not keep them (receive side shut down)
     * \return bytes newly delivered in order
     */
    uint64_t OnFrame(const QuicCcStreamFrame& frame, bool keep);

    uint64_t Available() const; //!< in-order bytes not yet read
    /// Up to \p maxBytes in-order bytes as one packet without packet tags (empty if none are
    /// available; at most 2^32-1 bytes, a Packet's limit).
    Ptr<Packet> Read(uint64_t maxBytes);
    uint64_t Delivered() const;   //!< next in-order offset = bytes delivered
    bool NothingReceived() const; //!< no stream byte or FIN arrived yet
    bool Complete() const;        //!< the FIN arrived and every byte before it

  private:
    uint64_t HighestEnd() const; //!< end of the highest data received
    /// Append \p data from its byte \p skip on to the in-order data.
    void PushReady(const Ptr<const Packet>& data, uint64_t skip);
    /// Remove the first \p bytes of the first in-order packet (all of it: the packet).
    void ConsumeFront(uint32_t bytes);

    /// In-order pieces smaller than this (bytes) are joined to the packet before them ...
    static constexpr uint32_t kCoalesceBelow = 256;
    /// ... while that packet stays within this size (bytes).
    static constexpr uint32_t kCoalesceLimit = 2048;

    uint64_t m_window;                                  //!< bytes
    std::map<uint64_t, Ptr<const Packet>> m_reassembly; //!< out-of-order data by offset
    uint64_t m_next{0};                                 //!< next in-order offset
    std::optional<uint64_t> m_finalSize;                //!< stream length from the FIN
    std::deque<Ptr<const Packet>> m_ready;              //!< in-order data not yet read
    uint64_t m_readyBytes{0};                           //!< bytes in m_ready
};

} // namespace ns3

#endif // QUIC_CC_RECV_STREAM_H
