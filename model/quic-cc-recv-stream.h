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
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * \brief The receiving half of a connection's byte stream: reassembles STREAM frames that
 * arrive out of order, duplicated or overlapping into the exact byte sequence the peer sent,
 * and holds it until the application reads it.
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
     * Store a frame that passed Check() (a parsed frame: its bytes are in \p frame.data);
     * duplicate and overlapping bytes are kept once.
     * \param keep  false: count delivered bytes but do not keep them (receive side shut down)
     * \return bytes newly delivered in order
     */
    uint64_t OnFrame(const QuicCcStreamFrame& frame, bool keep);

    size_t Available() const;                   //!< in-order bytes not yet read
    std::vector<uint8_t> Read(size_t maxBytes); //!< up to maxBytes in-order bytes
    uint64_t Delivered() const;                 //!< next in-order offset = bytes delivered
    bool NothingReceived() const;               //!< no stream byte or FIN arrived yet
    bool Complete() const;                      //!< the FIN arrived and every byte before it

  private:
    uint64_t HighestEnd() const; //!< end of the highest data received

    uint64_t m_window;                                     //!< bytes
    std::map<uint64_t, std::vector<uint8_t>> m_reassembly; //!< out-of-order data by offset
    uint64_t m_next{0};                                    //!< next in-order offset
    std::optional<uint64_t> m_finalSize;                   //!< stream length from the FIN
    std::deque<uint8_t> m_ready;                           //!< in-order bytes not yet read
};

} // namespace ns3

#endif // QUIC_CC_RECV_STREAM_H
