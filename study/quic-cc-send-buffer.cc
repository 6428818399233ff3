/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-send-buffer.h"

#include "quic-cc-argument-check.h"
#include "quic-cc-command-line.h"
#include "quic-cc-transport-spec.h"

#include "ns3/abort.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

QuicCcSendBuffer
QuicCcSmallestSendBuffer(const std::vector<std::string>& transports)
{
    QuicCcSendBuffer smallest;
    for (const std::string& transport : transports)
    {
        const std::string socket = QuicCcTransportSpec::SocketTypeName(transport);
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_UNLESS(TypeId::LookupByName(socket).LookupAttributeByName("SndBufSize", &info),
                            socket << " has no SndBufSize");
        const uint64_t bytes = DynamicCast<const UintegerValue>(info.initialValue)->Get();
        if (bytes < smallest.bytes)
        {
            smallest = {bytes, QuicCcTransportSpec::SocketAttributeName(transport, "SndBufSize")};
        }
    }
    return smallest;
}

void
QuicCcRequireWriteFits(const std::vector<std::string>& transports,
                       uint64_t writeBytes,
                       const std::string& what)
{
    const QuicCcSendBuffer buffer = QuicCcSmallestSendBuffer(transports);
    QuicCcRequire(writeBytes <= buffer.bytes,
                  "",
                  QuicCcQuoteAttribute(buffer.attribute, std::to_string(buffer.bytes)),
                  "is below " + what + " (" + std::to_string(writeBytes) +
                      " B, one Send each): the socket would refuse every write and send nothing");
}

} // namespace ns3
