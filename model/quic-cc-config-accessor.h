/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_CONFIG_ACCESSOR_H
#define QUIC_CC_CONFIG_ACCESSOR_H

#include "ns3/attribute-accessor-helper.h"

#include <tuple>
#include <type_traits>

namespace ns3
{

/**
 * \ingroup quic-cc-support
 * The accessor of an attribute whose value lives in a field of a settings struct held by the
 * object (ns-3's AccessorHelper, what MakeUintegerAccessor(&C::m_x) and its kind build, for
 * object.*p1.*p2 ... instead of a direct member), so that a setting is stored once: in the
 * struct the engine runs with. \p V is the AttributeValue type (UintegerValue, TimeValue, ...).
 *
 * \param path  member pointers from \p Object to the field, e.g. &QuicCcSocket::m_config,
 *              &QuicCcConnection::Config::acks, &QuicCcReceivedPacketManager::Config::maxAckDelay
 */
template <typename V, typename Object, typename... Path>
Ptr<const AttributeAccessor>
QuicCcMakeFieldAccessor(Path... path)
{
    class Accessor : public AccessorHelper<Object, V>
    {
      public:
        explicit Accessor(Path... p)
            : m_path(p...)
        {
        }

        bool HasGetter() const override
        {
            return true;
        }

        bool HasSetter() const override
        {
            return true;
        }

      private:
        /// The field: object.*p1.*p2 ... (a left fold over the member pointers).
        auto& Field(Object* object) const
        {
            return std::apply(
                [object](auto... p) -> auto& { return (*object.*....*p); },
                m_path);
        }

        const auto& Field(const Object* object) const
        {
            return std::apply(
                [object](auto... p) -> const auto& { return (*object.*....*p); },
                m_path);
        }

        bool DoSet(Object* object, const V* value) const override
        {
            using Field_t = std::remove_reference_t<decltype(Field(object))>;
            typename AccessorTrait<Field_t>::Result field;
            if (!value->GetAccessor(field))
            {
                return false;
            }
            Field(object) = field;
            return true;
        }

        bool DoGet(const Object* object, V* value) const override
        {
            value->Set(Field(object));
            return true;
        }

        std::tuple<Path...> m_path;
    };

    return Ptr<const AttributeAccessor>(new Accessor(path...), false);
}

} // namespace ns3

#endif // QUIC_CC_CONFIG_ACCESSOR_H
