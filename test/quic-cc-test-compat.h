/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test-only ns-3 API drift between 3.37 (Debian bookworm) and current releases: TestCase
 * durations and TestSuite types. Kept out of the model's headers so that model code never pulls
 * in ns3/test.h.
 */
#ifndef QUIC_CC_TEST_COMPAT_H
#define QUIC_CC_TEST_COMPAT_H

#include "ns3/test.h"

#include <type_traits>

namespace ns3
{
namespace quiccc
{
namespace compat
{

/// True when TestCase has the scoped `TestCase::Duration` enum (ns-3 >= 3.42).
template <typename T, typename = void>
struct HasScopedDuration : std::false_type
{
};

template <typename T>
struct HasScopedDuration<T, std::void_t<typename T::Duration>> : std::true_type
{
};

/// Defines Fn(): TestCase::NAME on 3.37, TestCase::Duration::NAME from 3.42 on.
#define QUICCC_COMPAT_DURATION(Fn, NAME)                                                           \
    template <typename T = TestCase>                                                               \
    constexpr auto Fn()                                                                            \
    {                                                                                              \
        if constexpr (HasScopedDuration<T>::value)                                                 \
        {                                                                                          \
            return T::Duration::NAME;                                                              \
        }                                                                                          \
        else                                                                                       \
        {                                                                                          \
            return T::NAME;                                                                        \
        }                                                                                          \
    }

QUICCC_COMPAT_DURATION(Quick, QUICK)
QUICCC_COMPAT_DURATION(Extensive, EXTENSIVE)
QUICCC_COMPAT_DURATION(TakesForever, TAKES_FOREVER)
#undef QUICCC_COMPAT_DURATION

} // namespace compat
} // namespace quiccc
} // namespace ns3

#define QUICCC_TEST_QUICK (::ns3::quiccc::compat::Quick())
#define QUICCC_TEST_EXTENSIVE (::ns3::quiccc::compat::Extensive())
#define QUICCC_TEST_TAKES_FOREVER (::ns3::quiccc::compat::TakesForever())
// Valid on every version: C++11 allows Enum::X for a plain enum, and 3.42 made Type scoped.
#define QUICCC_SUITE_UNIT (::ns3::TestSuite::Type::UNIT)
#define QUICCC_SUITE_SYSTEM (::ns3::TestSuite::Type::SYSTEM)

#endif // QUIC_CC_TEST_COMPAT_H
