/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_LOSS_PHASES_H
#define QUIC_CC_LOSS_PHASES_H

#include "ns3/error-model.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Random loss phases: a RateErrorModel (per packet, \p rate) switched on and off, starting off,
 * for exponentially distributed times of mean \p onMean and \p offMean (both > 0). Install
 * GetErrorModel() on a device; call AssignStreams(), then Start() once before Simulator::Run
 * (Start draws the first phase, so a run's phases come from its own streams only). The object
 * must outlive Simulator::Run.
 */
class QuicCcLossPhases
{
  public:
    QuicCcLossPhases(double rate, Time onMean, Time offMean);
    /// \return the error model to install as a device's ReceiveErrorModel
    Ptr<RateErrorModel> GetErrorModel() const;
    /// Fix the random streams (the error model's and the two phase lengths'); \return streams used
    int64_t AssignStreams(int64_t stream);
    /// Schedule the first switch-on; a fatal error before AssignStreams.
    void Start();

  private:
    void Switch(bool on);

    Ptr<RateErrorModel> m_model;          //!< the loss
    Ptr<ExponentialRandomVariable> m_on;  //!< on-phase lengths, s
    Ptr<ExponentialRandomVariable> m_off; //!< off-phase lengths, s
    bool m_streamsAssigned{false};        //!< AssignStreams was called
};

} // namespace ns3

#endif // QUIC_CC_LOSS_PHASES_H
