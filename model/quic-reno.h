/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_RENO_H
#define QUIC_RENO_H

#include "quic-congestion-controller.h"

namespace ns3
{

/**
 * \ingroup quic-cc-controllers
 * \brief NewReno (RFC 9002 Section 7.3) exactly as quiche's reno.rs runs it.
 *
 * - Slow start: +1 mss per acked packet, whatever its size (mss / CssGrowthDivisor in HyStart++
 *   CSS); no clamp at ssthresh.
 * - Congestion avoidance: bytes_acked_ca += size; once it reaches cwnd (before the increase),
 *   bytes_acked_ca -= cwnd and cwnd += mss; at most one step per packet.
 * - New congestion episode: cwnd = max(trunc(cwnd * 0.5), minimum window); ssthresh = cwnd;
 *   bytes_acked_ca = trunc(cwnd * 0.5), a half-window pre-credit.
 * - No PRR; Checkpoint() and Rollback() do nothing (Rollback() returns false).
 */
class QuicReno : public QuicCongestionController
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    QuicReno();
    ~QuicReno() override;

    Ptr<QuicCongestionController> Fork() const override;
    std::string GetName() const override; //!< "reno"

    /// bytes_acked_ca, bytes: credit towards the next congestion-avoidance step (for tests and
    /// traces).
    uint64_t GetBytesAckedCongestionAvoidance() const;

  protected:
    void DoCongestionAvoidanceAck(Time now,
                                  const QuicAckedPacket& packet,
                                  const QuicRttStats& rtt) override;
    void DoCongestionEvent(Time now, uint64_t lostBytes, uint64_t bytesInFlight) override;

  private:
    uint64_t m_bytesAckedCa{0}; //!< bytes_acked_ca, bytes
};

} // namespace ns3

#endif // QUIC_RENO_H
