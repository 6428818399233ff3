/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_TIMER_H
#define QUIC_CC_TIMER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

namespace ns3
{

/**
 * \ingroup quic-cc
 * \brief One timer of a transport: its event, whether it is pending and when it expires, known
 * without asking the simulator.
 *
 * EventId::IsPending (IsRunning before ns-3.42) and EventId::Cancel each cost a virtual call
 * into the simulator and an event look-up, on every packet of a transfer; here the pending
 * state is a flag. It is exact only if every schedule, cancel and removal of the event goes
 * through this class and the scheduled handler calls Expired() first (an event that ran is no
 * longer pending, also while it runs, as for EventId). Cancel and Remove of a timer that is not
 * pending do nothing, as for EventId.
 */
class QuicCcTimer
{
  public:
    /// Schedule \p method on \p object at \p now + \p delay (Simulator::Schedule).
    template <typename MEM, typename OBJ>
    void Schedule(Time now, Time delay, MEM method, OBJ object)
    {
        m_event = Simulator::Schedule(delay, method, object);
        m_expiry = now + delay;
        m_pending = true;
    }

    /// Schedule \p method on \p object now (Simulator::ScheduleNow), after the current event.
    template <typename MEM, typename OBJ>
    void ScheduleNow(Time now, MEM method, OBJ object)
    {
        m_event = Simulator::ScheduleNow(method, object);
        m_expiry = now;
        m_pending = true;
    }

    /// Cancel the pending event (it stays in the event list, as a cancelled event).
    void Cancel()
    {
        if (m_pending)
        {
            m_event.Cancel();
            m_pending = false;
        }
    }

    /// Remove the pending event from the event list (Simulator::Remove).
    void Remove()
    {
        if (m_pending)
        {
            Simulator::Remove(m_event);
            m_pending = false;
        }
    }

    /// The scheduled handler runs: the timer is no longer pending.
    void Expired()
    {
        m_pending = false;
    }

    /// True from Schedule until the event runs, is cancelled or removed.
    bool IsPending() const
    {
        return m_pending;
    }

    /// When the pending event runs (meaningful while IsPending()).
    Time GetExpiry() const
    {
        return m_expiry;
    }

  private:
    EventId m_event;
    Time m_expiry;
    bool m_pending{false};
};

} // namespace ns3

#endif // QUIC_CC_TIMER_H
