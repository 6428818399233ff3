/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-attribute-copy.h"

#include "ns3/object-factory.h"
#include "ns3/type-id.h"

namespace ns3
{

namespace
{
/// Call \p visit(info, value) for every attribute of \p object, its TypeId's and its parents',
/// that can be read and written (the one attribute walker of quic-cc).
template <typename Visit>
void
ForEachReadWriteAttribute(const Object& object, Visit visit)
{
    for (TypeId tid = object.GetInstanceTypeId();; tid = tid.GetParent())
    {
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(i);
            if (!(info.flags & TypeId::ATTR_GET) || !(info.flags & TypeId::ATTR_SET) ||
                !info.accessor->HasGetter() || !info.accessor->HasSetter())
            {
                continue;
            }
            Ptr<AttributeValue> value = info.checker->Create();
            if (info.accessor->Get(&object, *value))
            {
                visit(info, *value);
            }
        }
        if (tid == tid.GetParent())
        {
            break; // ns3::ObjectBase is its own parent
        }
    }
}
} // namespace

void
QuicCcCopyAttributes(const Object& from, Object& to)
{
    NS_ASSERT(from.GetInstanceTypeId() == to.GetInstanceTypeId());
    ForEachReadWriteAttribute(
        from,
        [&to](const TypeId::AttributeInformation& info, const AttributeValue& value) {
            info.accessor->Set(&to, value);
        });
}

Ptr<Object>
QuicCcCloneObject(const Object& original)
{
    ObjectFactory factory;
    factory.SetTypeId(original.GetInstanceTypeId());
    ForEachReadWriteAttribute(
        original,
        [&factory](const TypeId::AttributeInformation& info, const AttributeValue& value) {
            factory.Set(info.name, value);
        });
    return factory.Create();
}

} // namespace ns3
