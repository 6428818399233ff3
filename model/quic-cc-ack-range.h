/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_ACK_RANGE_H
#define QUIC_CC_ACK_RANGE_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc-transport
 * \brief One range of acknowledged packet numbers, inclusive: smallest <= largest. An ACK frame
 * (QuicCcAckFrame) carries them and QuicLossDetection reads them, in the frame's order
 * (descending).
 */
struct QuicCcAckRange
{
    uint64_t smallest; //!< smallest packet number acknowledged by this range
    uint64_t largest;  //!< largest packet number acknowledged by this range
};

} // namespace ns3

#endif // QUIC_CC_ACK_RANGE_H
