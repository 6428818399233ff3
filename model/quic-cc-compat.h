/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The only file of quic-cc that knows about ns-3 API drift between 3.37 (Debian bookworm) and
 * current releases. Everything else uses the macros below.
 */
#ifndef QUIC_CC_COMPAT_H
#define QUIC_CC_COMPAT_H

#include "ns3/enum.h"
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

/// TestCase::QUICK on 3.37, TestCase::Duration::QUICK from 3.42 on.
template <typename T = TestCase>
constexpr auto
Quick()
{
    if constexpr (HasScopedDuration<T>::value)
    {
        return T::Duration::QUICK;
    }
    else
    {
        return T::QUICK;
    }
}

/// TestCase::EXTENSIVE on 3.37, TestCase::Duration::EXTENSIVE from 3.42 on.
template <typename T = TestCase>
constexpr auto
Extensive()
{
    if constexpr (HasScopedDuration<T>::value)
    {
        return T::Duration::EXTENSIVE;
    }
    else
    {
        return T::EXTENSIVE;
    }
}

} // namespace compat
} // namespace quiccc
} // namespace ns3

#define QUICCC_TEST_QUICK (::ns3::quiccc::compat::Quick())
#define QUICCC_TEST_EXTENSIVE (::ns3::quiccc::compat::Extensive())
// Valid on every version: C++11 allows Enum::X for a plain enum, and 3.42 made Type scoped.
#define QUICCC_SUITE_UNIT (::ns3::TestSuite::Type::UNIT)
#define QUICCC_SUITE_SYSTEM (::ns3::TestSuite::Type::SYSTEM)

// MakeEnumAccessor: on 3.37 its template parameter is deduced from the member pointer; from 3.41
// EnumValue is a template and MakeEnumAccessor takes the enum type first. The build defines
// NS3_ENUM_VALUE_IS_TEMPLATE when it finds the newer form.
#if defined(NS3_ENUM_VALUE_IS_TEMPLATE)
#define QUICCC_ENUM_ACCESSOR(E, member) ::ns3::MakeEnumAccessor<E>(member)
#else
#define QUICCC_ENUM_ACCESSOR(E, member) ::ns3::MakeEnumAccessor(member)
#endif

#endif // QUIC_CC_COMPAT_H
