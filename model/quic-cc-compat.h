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

/// Matches when \p Tmpl names a class template over one type: ns3::EnumValue<T> from ns-3 3.41 on.
template <template <typename> class Tmpl>
constexpr bool
IsClassTemplate(int)
{
    return true;
}

/// Matches when \p Class names a plain class: EnumValue (holding an int) up to ns-3 3.40.
template <typename Class>
constexpr bool
IsClassTemplate(long)
{
    return false;
}

/**
 * True when ns3::EnumValue is a class template (ns-3 >= 3.41). Detected from the declaration
 * itself, so it holds for every build mode (standalone, in-tree, waf) and every consumer of the
 * installed headers, without a version number or a build-system define: exactly one overload of
 * IsClassTemplate accepts `EnumValue` as its template argument.
 */
inline constexpr bool kEnumValueIsTemplate = IsClassTemplate<::ns3::EnumValue>(0);

/**
 * MakeEnumAccessor for an attribute of enum type \p E. Up to 3.40, MakeEnumAccessor(T1) deduces
 * everything from the member pointer or setter; from 3.41 it is MakeEnumAccessor<E>(T1). Only the
 * branch for the ns-3 at hand is instantiated.
 */
template <typename E, typename Member>
Ptr<const AttributeAccessor>
MakeEnumAccessorFor(Member member)
{
    static_assert(std::is_enum_v<E>, "QUICCC_ENUM_ACCESSOR: E must be the attribute's enum type");
    if constexpr (kEnumValueIsTemplate)
    {
        return ::ns3::MakeEnumAccessor<E>(member);
    }
    else
    {
        return ::ns3::MakeEnumAccessor(member);
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

// QUICCC_ENUM_ACCESSOR(E, &C::m_x): MakeEnumAccessor(&C::m_x) on 3.37, MakeEnumAccessor<E>(...)
// on >= 3.41 (see compat::kEnumValueIsTemplate).
#define QUICCC_ENUM_ACCESSOR(E, member) (::ns3::quiccc::compat::MakeEnumAccessorFor<E>(member))

#endif // QUIC_CC_COMPAT_H
