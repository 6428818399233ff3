/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_PACER_H
#define QUIC_CC_PACER_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc-transport
 * \brief RFC 9002 Section 7.7 pacer: a token bucket refilled at N x cwnd / smoothed_rtt.
 *
 * The bucket holds at most the burst allowance (BurstPackets x mss bytes) and starts full, so a
 * connection may send that many packets back to back; after that packets leave at the pacing
 * rate. The rate is re-read from cwnd and smoothed_rtt at every call. ACK-only packets are not
 * paced: the caller neither asks nor charges the pacer for them.
 *
 * Pure logic (a value type, like QuicPrr): time comes in as arguments, nothing is scheduled.
 */
class QuicCcPacer
{
  public:
    /**
     * \param gain  N, unitless, > 0 (RFC 9002 Section 7.7 suggests 1.25)
     * \param burstPackets  burst allowance in packets, >= 1 (RFC 9002: the initial window)
     * \param mss  max datagram size, bytes, > 0
     * Fatal error naming the value if one is out of range. Refills the bucket.
     */
    void Configure(double gain, uint32_t burstPackets, uint64_t mss);

    /// Pacing rate N x cwnd / smoothed_rtt, bytes per second (smoothed_rtt > 0).
    double Rate(uint64_t cwnd, Time smoothedRtt) const;

    /**
     * Earliest time a packet of \p bytes may leave (\p now if the bucket holds enough).
     * \param now  current time
     * \param bytes  the packet's size, bytes
     * \param cwnd  congestion window, bytes
     * \param smoothedRtt  the RTT estimator's smoothed_rtt
     */
    Time NextSendTime(Time now, uint64_t bytes, uint64_t cwnd, Time smoothedRtt);

    /// A paced packet of \p bytes left at \p now: the bucket is charged (it may go negative).
    void OnPacketSent(Time now, uint64_t bytes, uint64_t cwnd, Time smoothedRtt);

    double GetTokens() const; //!< bytes currently in the bucket

  private:
    /// Add rate x (now - last update) to the bucket, capped at the burst allowance.
    void Refill(Time now, uint64_t cwnd, Time smoothedRtt);

    double m_gain{1.25};   //!< N
    double m_capacity{0};  //!< burst allowance, bytes
    double m_tokens{0};    //!< bytes
    bool m_started{false}; //!< m_lastUpdate valid
    Time m_lastUpdate;     //!< time of the last refill
};

} // namespace ns3

#endif // QUIC_CC_PACER_H
