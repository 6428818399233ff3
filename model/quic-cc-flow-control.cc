/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-flow-control.h"

namespace ns3
{

QuicCcFlowControl::QuicCcFlowControl(uint64_t window)
    : m_limit(window),
      m_window(window)
{
}

uint64_t
QuicCcFlowControl::GetLimit() const
{
    return m_limit;
}

bool
QuicCcFlowControl::Exceeds(uint64_t end) const
{
    return end > m_limit;
}

void
QuicCcFlowControl::AddConsumed(uint64_t bytes)
{
    m_consumed += bytes;
}

bool
QuicCcFlowControl::ShouldUpdate() const
{
    return m_limit - m_consumed < m_window / 2;
}

uint64_t
QuicCcFlowControl::Update()
{
    m_limit = m_consumed + m_window;
    return m_limit;
}

} // namespace ns3
