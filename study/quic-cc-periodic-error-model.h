/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_PERIODIC_ERROR_MODEL_H
#define QUIC_CC_PERIODIC_ERROR_MODEL_H

#include "ns3/error-model.h"
#include "ns3/net-device.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc
 * \brief Drops every Period-th data packet, counted, not drawn: the deterministic loss model of
 * the response functions in RFC 9438 Section 5.1 (a loss rate p is one loss every 1/p packets).
 *
 * Packets smaller than MinSize (pure ACKs, handshake and control packets) are neither counted
 * nor dropped. The first drop is the FirstDrop-th counted packet (default: the Period-th), then
 * every Period-th after it.
 */
class QuicCcPeriodicErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId();
    QuicCcPeriodicErrorModel();

    uint64_t GetDropped() const; //!< data packets dropped so far

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    void SetPeriod(uint64_t period);
    uint64_t GetPeriod() const;

    uint64_t m_period{100};  //!< drop one in this many data packets (>= 1)
    uint64_t m_firstDrop{0}; //!< count of the first dropped packet (0 = m_period)
    uint32_t m_minSize{200}; //!< smallest packet counted as data, bytes (as seen by the device)
    uint64_t m_counted{0};   //!< data packets seen
    uint64_t m_dropped{0};   //!< data packets dropped
};

/**
 * A QuicCcPeriodicErrorModel as \p device's receive error model that drops QUIC data packets
 * only: those of at least min(\p mss, 1250) bytes (larger than any ACK and than the 1200-byte
 * padded Initial). It drops the \p first such packet, then every \p period-th after it
 * (\p period 0: the first only).
 */
Ptr<QuicCcPeriodicErrorModel> QuicCcDropDataPackets(Ptr<NetDevice> device,
                                                    uint64_t first,
                                                    uint64_t period,
                                                    uint64_t mss);

} // namespace ns3

#endif // QUIC_CC_PERIODIC_ERROR_MODEL_H
