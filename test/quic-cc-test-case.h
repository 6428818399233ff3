/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_TEST_CASE_H
#define QUIC_CC_TEST_CASE_H

#include "ns3/simulator.h"
#include "ns3/test.h"

#include <string>
#include <utility>

namespace ns3
{
namespace quiccc
{
namespace test
{

/**
 * \ingroup quic-cc
 * Base of every quic-cc test case that runs a simulation: DoTeardown() always runs
 * Simulator::Destroy (as ns-3's TCP tests do), so a case that stops at a failed assertion
 * cannot leave events, nodes or sockets behind for the next case.
 */
class SimulationTestCase : public TestCase
{
  public:
    /// \param name  the case's description
    explicit SimulationTestCase(std::string name)
        : TestCase(std::move(name))
    {
    }

  protected:
    void DoTeardown() override
    {
        Simulator::Destroy();
    }
};

} // namespace test
} // namespace quiccc
} // namespace ns3

#endif // QUIC_CC_TEST_CASE_H
