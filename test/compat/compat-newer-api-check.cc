/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Compile-only check: model/quic-cc-compat.h and test/quic-cc-test-compat.h against the newer ns-3
 * API forms (EnumValue<T> and MakeEnumAccessor<T> from 3.41; TestCase::Duration and TestSuite::Type
 * scoped from 3.42, old names gone in 3.46), as declared by the stand-ins in ns3-dev-api/. The 3.37
 * forms are checked by every other file of the build. Built as C++20, the floor of ns-3 >= 3.41.
 */
#include "quic-cc-compat.h"
#include "quic-cc-test-compat.h"

#include <type_traits>

namespace
{

struct Owner
{
    enum Mode
    {
        MODE_A,
        MODE_B,
    };

    Mode m_mode{MODE_A};
};

static_assert(ns3::quiccc::compat::kEnumValueIsTemplate,
              "EnumValue<T> (ns-3 >= 3.41) must be detected as a template");
static_assert(std::is_same_v<std::decay_t<decltype(QUICCC_TEST_QUICK)>, ns3::TestCase::Duration>);
static_assert(QUICCC_TEST_QUICK == ns3::TestCase::Duration::QUICK);
static_assert(QUICCC_TEST_EXTENSIVE == ns3::TestCase::Duration::EXTENSIVE);
static_assert(QUICCC_TEST_TAKES_FOREVER == ns3::TestCase::Duration::TAKES_FOREVER);
static_assert(QUICCC_SUITE_UNIT == ns3::TestSuite::Type::UNIT);
static_assert(QUICCC_SUITE_SYSTEM == ns3::TestSuite::Type::SYSTEM);

} // namespace

// The mock's MakeEnumAccessor<T, T1> static_asserts that T is the member's enum type.
ns3::Ptr<const ns3::AttributeAccessor>
QuicCcCompatNewerApiAccessor()
{
    return QUICCC_ENUM_ACCESSOR(Owner::Mode, &Owner::m_mode);
}
