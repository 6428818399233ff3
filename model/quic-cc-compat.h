/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The only model file of quic-cc that knows about ns-3 API drift between 3.37 (Debian bookworm)
 * and current releases (test-only drift: test/quic-cc-test-compat.h). Everything else uses the
 * macros below.
 */
#ifndef QUIC_CC_COMPAT_H
#define QUIC_CC_COMPAT_H

#include "ns3/enum.h"

#include <type_traits>

namespace ns3
{
namespace quiccc
{
namespace compat
{

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

/// The AttributeValue of enum \p E when ns3::EnumValue is a class template (ns-3 >= 3.41).
template <template <typename> class Tmpl, typename E>
Tmpl<E> EnumValueTypeOf(int);

/// The AttributeValue of any enum when ns3::EnumValue is a plain class (up to ns-3 3.40).
template <typename Class, typename E>
Class EnumValueTypeOf(long);

/// The AttributeValue type of an enum attribute of type \p E: EnumValue<E> or EnumValue.
template <typename E>
using EnumValueOf = decltype(EnumValueTypeOf<::ns3::EnumValue, E>(0));

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

// QUICCC_ENUM_ACCESSOR(E, &C::m_x): MakeEnumAccessor(&C::m_x) on 3.37, MakeEnumAccessor<E>(...)
// on >= 3.41 (see compat::kEnumValueIsTemplate).
#define QUICCC_ENUM_ACCESSOR(E, member) (::ns3::quiccc::compat::MakeEnumAccessorFor<E>(member))

#endif // QUIC_CC_COMPAT_H
