/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-loss-phases.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/simulator.h"

namespace ns3
{

QuicCcLossPhases::QuicCcLossPhases(double rate, Time onMean, Time offMean)
    : m_model(CreateObject<RateErrorModel>()),
      m_on(CreateObject<ExponentialRandomVariable>()),
      m_off(CreateObject<ExponentialRandomVariable>())
{
    NS_ABORT_MSG_UNLESS(rate >= 0 && rate <= 1,
                        "loss phases: rate must be in [0, 1], got " << rate);
    NS_ABORT_MSG_UNLESS(onMean.IsStrictlyPositive() && offMean.IsStrictlyPositive(),
                        "loss phases: mean phase lengths must be > 0, got " << onMean << ", "
                                                                            << offMean);
    m_model->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    m_model->SetRate(rate);
    m_model->Disable();
    m_on->SetAttribute("Mean", DoubleValue(onMean.GetSeconds()));
    m_off->SetAttribute("Mean", DoubleValue(offMean.GetSeconds()));
}

Ptr<RateErrorModel>
QuicCcLossPhases::GetErrorModel() const
{
    return m_model;
}

int64_t
QuicCcLossPhases::AssignStreams(int64_t stream)
{
    const int64_t used = m_model->AssignStreams(stream);
    m_on->SetStream(stream + used);
    m_off->SetStream(stream + used + 1);
    m_streamsAssigned = true;
    return used + 2;
}

void
QuicCcLossPhases::Start()
{
    NS_ABORT_MSG_UNLESS(m_streamsAssigned,
                        "loss phases: AssignStreams before Start (the first phase would be drawn "
                        "from a stream that depends on the runs before it)");
    Simulator::Schedule(Seconds(m_off->GetValue()), &QuicCcLossPhases::Switch, this, true);
}

void
QuicCcLossPhases::Switch(bool on)
{
    if (on)
    {
        m_model->Enable();
    }
    else
    {
        m_model->Disable();
    }
    const double next = on ? m_on->GetValue() : m_off->GetValue();
    Simulator::Schedule(Seconds(next), &QuicCcLossPhases::Switch, this, !on);
}

} // namespace ns3
