/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Stand-in for ns-3-dev's src/core/model/test.h (API shape of 3.46, where the unscoped
 * TestCase::QUICK / TestSuite::UNIT aliases deprecated in 3.42 are gone): declarations only.
 */
#ifndef QUICCC_MOCK_NS3_TEST_H
#define QUICCC_MOCK_NS3_TEST_H

#include <string>

namespace ns3
{

class TestCase
{
  public:
    enum class Duration
    {
        QUICK = 1,
        EXTENSIVE = 2,
        TAKES_FOREVER = 3,
    };

  protected:
    void AddTestCase(TestCase* testCase, Duration duration = Duration::QUICK);
};

class TestSuite : public TestCase
{
  public:
    enum class Type
    {
        ALL = 0,
        UNIT,
        SYSTEM,
        EXAMPLE,
        PERFORMANCE,
    };

    TestSuite(std::string name, Type type = Type::UNIT);
};

} // namespace ns3

#endif
