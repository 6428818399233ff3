/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_PRR_H
#define QUIC_PRR_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc-controllers
 * \brief Proportional Rate Reduction (RFC 6937) as quiche's prr.rs runs it for CUBIC.
 *
 * A value type holding the four RFC 6937 variables. It only computes a send allowance
 * (SendCount(), bytes) on top of the congestion window; the controller adds it to its send budget.
 * - CongestionEvent(): a new recovery episode: RecoverFS = bytes in flight; prr_delivered =
 *   prr_out = sndcnt = 0.
 * - OnPacketSent(): prr_out += size; sndcnt = max(sndcnt - size, 0).
 * - OnPacketAcked() (an acked packet sent before the recovery start):
 *   prr_delivered += size, then, with pipe = the ACK frame's bytes in flight:
 *   pipe > ssthresh: sndcnt = max(ceil(prr_delivered * ssthresh / RecoverFS) - prr_out, 0)
 *                    (0 if RecoverFS is 0)  -- RFC 6937 Section 3.1, proportional part;
 *   otherwise:       sndcnt = min(ssthresh - pipe,
 *                                 max(max(prr_delivered - prr_out, 0), size) + mss)
 *                    -- the Slow Start Reduction Bound.
 * sndcnt is not cleared when recovery ends; only sends use it up (quiche behaviour).
 */
class QuicPrr
{
  public:
    /**
     * Start a recovery episode.
     * \param bytesInFlight  bytes in flight when the congestion event is raised (RecoverFS)
     */
    void CongestionEvent(uint64_t bytesInFlight);

    /**
     * An in-flight packet was sent.
     * \param sentBytes  its size, bytes
     */
    void OnPacketSent(uint64_t sentBytes);

    /**
     * A packet sent before the recovery start was acked.
     * \param ackedBytes  its size, bytes (DeliveredData)
     * \param pipe        bytes in flight of the ACK frame (quiche's pipe)
     * \param ssthresh    current ssthresh, bytes
     * \param mss         max datagram size, bytes
     */
    void OnPacketAcked(uint64_t ackedBytes, uint64_t pipe, uint64_t ssthresh, uint64_t mss);

    /// Bytes that may be sent beyond the congestion window (RFC 6937 sndcnt).
    uint64_t SendCount() const;

    /// \name RFC 6937 variables, read-only, for tests and traces
    /// @{
    uint64_t GetOut() const;       //!< prr_out, bytes
    uint64_t GetRecoverFs() const; //!< RecoverFS, bytes

    /** @} */

  private:
    uint64_t m_delivered{0}; //!< prr_delivered, bytes delivered since the episode started
    uint64_t m_out{0};       //!< prr_out, bytes sent since the episode started
    uint64_t m_recoverFs{0}; //!< RecoverFS, bytes in flight at the episode start
    uint64_t m_sendCount{0}; //!< sndcnt, bytes
};

} // namespace ns3

#endif // QUIC_PRR_H
