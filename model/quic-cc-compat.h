/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The only model file of quic-cc that knows about ns-3 API drift between 3.37 (Debian bookworm)
 * and 3.48 (test-only drift: test/quic-cc-test-compat.h; build-system drift: CMakeLists.txt).
 * Everything else uses the names below. Each difference is detected from the declaration itself
 * (no version number, no build-system define), so the header holds in every build mode and for
 * every consumer of the installed headers:
 *
 *  - ns-3.41: EnumValue and EnumChecker became class templates over the enum type
 *    (MakeEnumAccessor<E>): QUICCC_ENUM_ACCESSOR, QUICCC_ENUM_VALUE.
 *  - ns-3.42: EventId::IsRunning() deprecated for EventId::IsPending(); 3.48's event-id.h has
 *    only IsPending(): compat::IsPending.
 */
#ifndef QUIC_CC_COMPAT_H
#define QUIC_CC_COMPAT_H

/**
 * \file
 * \ingroup quic-cc-support
 * API differences between ns-3 releases, detected from the declarations (QUICCC_ENUM_ACCESSOR,
 * QUICCC_ENUM_VALUE, quiccc::compat::IsPending).
 */

#include "ns3/enum.h"
#include "ns3/event-id.h"

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

/// The EnumValue type for an enum \p E: ns3::EnumValue<E> from 3.41 (picked by overload: only
/// one of the two declarations accepts EnumValue as its first template argument).
template <template <typename> class Tmpl, typename E>
Tmpl<E> EnumValueFor(int);
/// Up to 3.40: the plain class EnumValue, whatever \p E.
template <typename Class, typename E>
Class EnumValueFor(long);

/// True when T has IsPending() (ns-3 >= 3.42).
template <typename T, typename = void>
struct HasIsPending : std::false_type
{
};

template <typename T>
struct HasIsPending<T, std::void_t<decltype(std::declval<const T&>().IsPending())>> : std::true_type
{
};

/// Whether \p event is scheduled and not yet run or cancelled: EventId::IsPending() from 3.42,
/// EventId::IsRunning() (the same meaning) before.
template <typename T = EventId>
bool
IsPending(const T& event)
{
    if constexpr (HasIsPending<T>::value)
    {
        return event.IsPending();
    }
    else
    {
        return event.IsRunning();
    }
}

} // namespace compat
} // namespace quiccc
} // namespace ns3

/// QUICCC_ENUM_VALUE(E): the EnumValue type that holds an E (EnumValue on 3.37, EnumValue<E> on
/// >= 3.41), for reading an enum attribute: QUICCC_ENUM_VALUE(QuicCubic::IdleRestart) v;
#define QUICCC_ENUM_VALUE(E) decltype(::ns3::quiccc::compat::EnumValueFor<::ns3::EnumValue, E>(0))

/// QUICCC_ENUM_ACCESSOR(E, &C::m_x): MakeEnumAccessor(&C::m_x) on 3.37, MakeEnumAccessor<E>(...)
/// on >= 3.41 (see compat::kEnumValueIsTemplate).
#define QUICCC_ENUM_ACCESSOR(E, member) (::ns3::quiccc::compat::MakeEnumAccessorFor<E>(member))

#endif // QUIC_CC_COMPAT_H
