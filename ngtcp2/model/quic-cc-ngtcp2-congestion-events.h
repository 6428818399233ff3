/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_CONGESTION_EVENTS_H
#define QUIC_CC_NGTCP2_CONGESTION_EVENTS_H

#include "ns3/quic-congestion-controller.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc-ngtcp2
 * Congestion events and the qlog congestion state of an ngtcp2 connection, inferred from what
 * ngtcp2_conn_get_conn_info shows after each call into the library (ngtcp2 1.x has no
 * congestion-event callback and keeps its recovery start time internal):
 *  - a congestion event: packets were declared lost in this call (the loss counter grew) and
 *    the controller cut ssthresh or cwnd; the state becomes Recovery;
 *  - Recovery ends at the first cwnd increase (ngtcp2's Reno and CUBIC do not grow cwnd for
 *    packets sent before the recovery start: ngtcp2_cc.c, ngtcp2_cc_cubic_cc_on_ack_recv);
 *  - otherwise SlowStart while cwnd < ssthresh, else CongestionAvoidance; an ssthresh set
 *    without loss is HyStart++ leaving slow start (ngtcp2_cc.c), not an event. Conservative slow
 *    start is not visible and reads as SlowStart.
 * Several losses inside one call count as one event, as in the library.
 *
 * With ECN (SetEcn): ngtcp2's Reno and CUBIC answer a rise of the peer's ECN-CE count with the
 * same congestion_event as a loss (conn_verify_ecn, lib/ngtcp2_rtb.c), so a call in which both
 * ssthresh and cwnd fell with no packet lost is a congestion event too, counted apart
 * (GetEcnEvents). ngtcp2's BBR enters its loss recovery on one (bbr_cc_congestion_event)
 * without touching ssthresh: not seen. A call that both lost packets and saw a mark counts as
 * a loss event. Pure logic.
 */
class QuicCcNgtcp2CongestionEvents
{
  public:
    /// What one update saw.
    struct Sample
    {
        uint64_t cwnd;        //!< bytes
        uint64_t ssthresh;    //!< bytes, UINT64_MAX = not set
        uint64_t packetsLost; //!< ngtcp2's cumulative count
    };

    /// Infer ECN-CE congestion events too (the connection passes ECN codepoints).
    void SetEcn(bool ecn);
    /// Take the state after a call; true when it holds a new congestion event.
    bool Update(const Sample& sample);
    QuicCongestionState GetState() const; //!< after the latest Update
    uint64_t GetEvents() const;           //!< congestion events so far (both kinds)
    uint64_t GetEcnEvents() const;        //!< of those, without a loss (ECN-CE)

  private:
    Sample m_last{0, UINT64_MAX, 0};
    bool m_started{false};
    uint64_t m_events{0};
    bool m_ecn{false};
    uint64_t m_ecnEvents{0};
    QuicCongestionState m_state{QUIC_CC_SLOW_START};
};

} // namespace ns3

#endif // QUIC_CC_NGTCP2_CONGESTION_EVENTS_H
