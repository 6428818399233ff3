/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_RTT_STATS_H
#define QUIC_RTT_STATS_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc-recovery
 * \brief RTT estimator of RFC 9002 Section 5, with quiche's integer-nanosecond arithmetic.
 *
 * - First sample: min_rtt = smoothed_rtt = latest_rtt, rttvar = latest_rtt / 2; the ack delay
 *   is ignored (RFC 9002 Section 5.3).
 * - Later samples: min_rtt is the minimum of latest_rtt over a sliding window (300 s, as quiche);
 *   the ack delay is clamped to max_ack_delay once the handshake is confirmed and subtracted only
 *   if latest_rtt >= min_rtt + ack_delay; rttvar = rttvar * 3 / 4 + |smoothed - adjusted| / 4
 *   with the old smoothed value, then smoothed = smoothed * 7 / 8 + adjusted / 8: integer
 *   nanoseconds, each term truncated on its own, as quiche's rtt.rs (multiply before dividing).
 * - Before any sample: smoothed_rtt = initial RTT (333 ms default), rttvar = initial RTT / 2,
 *   min_rtt = initial RTT, latest_rtt = 0.
 *
 * A value type: no simulator calls, no events; time comes in as arguments.
 */
class QuicRttStats
{
  public:
    /// RFC 9002 kGranularity (1 ms): the timer granularity every loss delay and PTO respects.
    static const Time kGranularity;
    /// Window of the min_rtt filter (quiche: 300 s).
    static constexpr int64_t kMinRttWindowSeconds = 300;

    /**
     * \param initialRtt   RTT assumed before the first sample (RFC 9002 kInitialRtt, 333 ms);
     *                     must be positive (fatal error naming the value otherwise)
     * \param maxAckDelay  the peer's max_ack_delay; 0 until the transport parameters are known
     */
    explicit QuicRttStats(Time initialRtt = MilliSeconds(333), Time maxAckDelay = Time(0));

    /**
     * Feed one RTT sample (RFC 9002 Section 5.3).
     * \param latestRtt  now minus the send time of the largest newly acked packet; must be > 0
     *                   (a zero or negative sample is ignored and reported as false)
     * \param ackDelay   the ACK frame's ack delay, already decoded; negative values count as 0
     * \param now        the time of the sample (drives the min_rtt window)
     * \param handshakeConfirmed  clamp ackDelay to max_ack_delay when true
     * \return true if the sample was used
     */
    bool Update(Time latestRtt, Time ackDelay, Time now, bool handshakeConfirmed = true);

    // The accessors are defined here: the send and ACK paths read them on every packet.

    /// latest_rtt, 0 before the first sample.
    Time GetLatestRtt() const
    {
        return m_latestRtt;
    }

    /// smoothed_rtt.
    Time GetSmoothedRtt() const
    {
        return m_smoothedRtt;
    }

    /// rttvar.
    Time GetRttVar() const
    {
        return m_rttVar;
    }

    /// min_rtt (the initial RTT before the first sample).
    Time GetMinRtt() const
    {
        return m_min[0].rtt;
    }

    /// The configured initial RTT.
    Time GetInitialRtt() const
    {
        return m_initialRtt;
    }

    /// True once a sample was taken.
    bool HasSample() const
    {
        return m_hasSample;
    }

    /// The peer's max_ack_delay (0 until known).
    Time GetMaxAckDelay() const
    {
        return m_maxAckDelay;
    }

    void SetMaxAckDelay(Time d); //!< fatal error on a negative value

    /// smoothed_rtt + max(4 rttvar, kGranularity): one unscaled PTO period (RFC 9002 Section 6.2.1)
    Time GetPtoBase() const
    {
        return m_ptoBase;
    }

  private:
    /// Recomputes m_ptoBase from m_smoothedRtt and m_rttVar.
    void UpdatePtoBase();

    /// One candidate of the windowed-minimum filter.
    struct MinSample
    {
        Time rtt;  //!< sample value
        Time when; //!< time the sample was taken
    };

    void UpdateMinRtt(Time sample, Time now);

    Time m_initialRtt;       //!< kInitialRtt
    Time m_maxAckDelay;      //!< peer's max_ack_delay
    Time m_latestRtt{0};     //!< latest_rtt
    Time m_smoothedRtt;      //!< smoothed_rtt
    Time m_rttVar;           //!< rttvar
    Time m_ptoBase;          //!< GetPtoBase, kept with the two above (read once per packet)
    bool m_hasSample{false}; //!< a sample was taken
    MinSample
        m_min[3]; //!< best, second and third choice of the min filter (Kathleen Nichols' scheme)
};

} // namespace ns3

#endif // QUIC_RTT_STATS_H
