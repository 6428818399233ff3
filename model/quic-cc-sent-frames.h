/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SENT_FRAMES_H
#define QUIC_CC_SENT_FRAMES_H

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
 * \brief What one sent packet carried that must be repeated if it is lost: its STREAM ranges and
 * control frames. The packet builder fills it, QuicLossDetection keeps it on the packet's entry of
 * the sent-packet record and hands it back when the packet is acknowledged or declared lost
 * (quiche recovery: Sent::frames, drained as lost_frames / acked_frames).
 */
struct QuicCcSentFrames
{
    std::vector<QuicCcStreamChunk> chunks; //!< STREAM data, in packet order
    bool initial{false};                   //!< the client's INITIAL (PING + padding)
    bool handshakeDone{false};             //!< the server's HANDSHAKE_DONE
    bool flowUpdate{false};                //!< MAX_DATA and MAX_STREAM_DATA
    /// DATA_BLOCKED or STREAM_DATA_BLOCKED: the send limit it reported
    std::optional<uint64_t> blocked;
};

} // namespace ns3

#endif // QUIC_CC_SENT_FRAMES_H
