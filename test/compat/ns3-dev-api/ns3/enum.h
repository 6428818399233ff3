/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Stand-in for ns-3-dev's src/core/model/enum.h (the API shape since 3.41): declarations only,
 * enough to compile model/quic-cc-compat.h against the newer form. Not a copy of ns-3 code.
 */
#ifndef QUICCC_MOCK_NS3_ENUM_H
#define QUICCC_MOCK_NS3_ENUM_H

#include <type_traits>

namespace ns3
{

template <typename T>
class Ptr
{
};

class AttributeAccessor
{
};

class AttributeValue
{
};

/// ns-3 >= 3.41: EnumValue is a class template over the enum type.
template <typename T>
class EnumValue : public AttributeValue
{
  public:
    EnumValue();
    EnumValue(const T& value);
};

namespace mock
{
template <typename M>
struct MemberValue;

template <typename C, typename V>
struct MemberValue<V C::*>
{
    using type = V;
};
} // namespace mock

/// ns-3 >= 3.41: the enum type comes first and is not deduced.
template <typename T, typename T1>
Ptr<const AttributeAccessor>
MakeEnumAccessor(T1 a1)
{
    static_assert(std::is_enum_v<T>, "mock: T must be the enum type");
    static_assert(std::is_same_v<typename mock::MemberValue<T1>::type, T>,
                  "mock: the member's type must be T");
    return {};
}

template <typename T, typename T1, typename T2>
Ptr<const AttributeAccessor> MakeEnumAccessor(T1 a1, T2 a2);

} // namespace ns3

#endif
