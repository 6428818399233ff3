/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_STOP_AT_BYTES_H
#define QUIC_CC_STOP_AT_BYTES_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Counts the bytes that one or more ns-3 PacketSink applications receive (their "Rx" trace) and
 * stops the simulation (Simulator::Stop) at the moment the total reaches a target: the end of a
 * bulk transfer, as the examples and benchmarks measure it.
 *
 * The object must outlive Simulator::Run (the trace callbacks point to it).
 *
 * \code
 *   QuicCcStopAtBytes done(params.transferBytes);
 *   done.Watch(sinkApp.Get(0));
 *   Simulator::Stop(timeout);
 *   Simulator::Run();
 *   if (done.IsComplete()) { ... done.GetCompletionSeconds() ... }
 * \endcode
 */
class QuicCcStopAtBytes
{
  public:
    /// \param target bytes after which the simulation stops (all watched sinks together)
    explicit QuicCcStopAtBytes(uint64_t target);

    /// Count what \p sink (a PacketSink, or any application with an "Rx" trace of that
    /// signature) receives. Fatal error if \p sink has no such trace.
    void Watch(Ptr<Application> sink);

    /// \return true once the target was reached
    bool IsComplete() const;
    /// \return simulated time the target was reached, s (0 before that)
    double GetCompletionSeconds() const;
    /// \return bytes received so far by all watched sinks
    uint64_t GetReceived() const;

    /// Copy the outcome into a result with the fields completed, completionSeconds (valid if
    /// completed) and bytesReceived, as the example scenarios' results have.
    template <class Result>
    void Report(Result& result) const
    {
        result.completed = m_complete;
        result.completionSeconds = m_completionSeconds;
        result.bytesReceived = m_received;
    }

  private:
    /// "Rx" trace sink
    void OnRx(Ptr<const Packet> packet, const Address& from);

    uint64_t m_target;             //!< bytes to wait for
    uint64_t m_received{0};        //!< bytes so far
    bool m_complete{false};        //!< target reached
    double m_completionSeconds{0}; //!< when
};

} // namespace ns3

#endif // QUIC_CC_STOP_AT_BYTES_H
