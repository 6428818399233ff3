/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-time-average.h"

#include <algorithm>

namespace ns3
{

QuicCcTimeAverage::QuicCcTimeAverage(Time from)
    : m_from(from)
{
}

void
QuicCcTimeAverage::Update(Time now, double value)
{
    Accumulate(now);
    m_value = value;
}

void
QuicCcTimeAverage::Close(Time now)
{
    Accumulate(now);
    m_closed = true;
}

double
QuicCcTimeAverage::Mean() const
{
    return m_covered.IsStrictlyPositive() ? m_integral / m_covered.GetSeconds() : 0;
}

void
QuicCcTimeAverage::Accumulate(Time now)
{
    if (m_closed)
    {
        return;
    }
    const Time begin = std::max(m_last, m_from);
    if (now > begin && m_started)
    {
        m_integral += m_value * (now - begin).GetSeconds();
        m_covered += now - begin;
    }
    m_last = now;
    m_started = true;
}

} // namespace ns3
