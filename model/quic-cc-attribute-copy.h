/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_ATTRIBUTE_COPY_H
#define QUIC_CC_ATTRIBUTE_COPY_H

#include "ns3/object.h"
#include "ns3/ptr.h"

namespace ns3
{

/**
 * \ingroup quic-cc-support
 * Give \p to every attribute value of \p from (its TypeId and every parent) that can be both
 * read and written. \p to must be of \p from's TypeId. Values are copied as AttributeValues: an
 * attribute holding a pointer then points to the same object in both (see QuicCcCloneObject).
 */
void QuicCcCopyAttributes(const Object& from, Object& to);

/**
 * \ingroup quic-cc-support
 * A new object of \p original's TypeId, constructed (ObjectFactory) with every readable and
 * writable attribute value of \p original: a random variable cloned so draws a stream of its own
 * with the same distribution and stream setting.
 */
Ptr<Object> QuicCcCloneObject(const Object& original);

/// QuicCcCloneObject() for an object of type \p T; null stays null.
template <typename T>
Ptr<T>
QuicCcCloneObject(Ptr<const T> original)
{
    return original ? DynamicCast<T>(QuicCcCloneObject(static_cast<const Object&>(*original)))
                    : nullptr;
}

} // namespace ns3

#endif // QUIC_CC_ATTRIBUTE_COPY_H
