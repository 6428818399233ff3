/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DELIVERY_CLOCK_H
#define QUIC_CC_DELIVERY_CLOCK_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * The times a PacketSink's received byte count (its "Rx" trace) first reaches each of a list
 * of cumulative marks: with marks S, 2S, 3S, ... the moments the chunks of a chunked transfer are
 * complete. Stops the simulation when the last mark is reached. Must outlive Simulator::Run.
 */
class QuicCcDeliveryClock
{
  public:
    /// \param marks cumulative byte counts, increasing
    explicit QuicCcDeliveryClock(std::vector<uint64_t> marks);
    /// Count what \p sink receives (fatal error if it has no "Rx" trace)
    void Watch(Ptr<Application> sink);
    /// \return the time each mark was reached so far, s
    const std::vector<double>& GetTimes() const;
    /// \return bytes received so far
    uint64_t GetReceived() const;

  private:
    void OnRx(Ptr<const Packet> packet, const Address& from);

    std::vector<uint64_t> m_marks; //!< cumulative marks
    std::vector<double> m_times;   //!< reached so far
    uint64_t m_received{0};        //!< bytes so far
};

} // namespace ns3

#endif // QUIC_CC_DELIVERY_CLOCK_H
