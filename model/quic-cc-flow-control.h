/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_FLOW_CONTROL_H
#define QUIC_CC_FLOW_CONTROL_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc-transport
 * \brief One receive-side flow-control limit of RFC 9000 Section 4 (the connection's or the
 * stream's): the highest stream offset the peer may send, the receive window, and the bytes the
 * application consumed.
 *
 * Window update rule (quiche quiche/src/flowcontrol.rs, FlowControl::should_update_max_data and
 * FlowControl::max_data_next): a new limit is announced when the window still open,
 * limit - consumed, is less than half the window; the new limit is consumed + window. quiche's
 * window autotuning (FlowControl::autotune_window) is not modelled: the window stays at its
 * initial value.
 *
 * Pure logic, no simulator calls.
 */
class QuicCcFlowControl
{
  public:
    /// \param window the initial limit and the receive window, bytes
    explicit QuicCcFlowControl(uint64_t window = 0);

    uint64_t GetLimit() const; //!< highest offset the peer may send (announced), bytes
    /// True if \p end (offset + length of received data) lies beyond the limit.
    bool Exceeds(uint64_t end) const;
    /// The application consumed \p bytes more.
    void AddConsumed(uint64_t bytes);
    /// True if the window open is less than half the window (quiche's rule).
    bool ShouldUpdate() const;
    /// Set the limit to consumed + window and return it (the value to announce).
    uint64_t Update();

  private:
    uint64_t m_limit;
    uint64_t m_window;
    uint64_t m_consumed{0};
};

} // namespace ns3

#endif // QUIC_CC_FLOW_CONTROL_H
