/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ngtcp2-handshake.h"

#include <algorithm>

namespace ns3
{

std::vector<uint8_t>
QuicCcNgtcp2Handshake::Encode(Type type,
                              const uint8_t* params,
                              size_t paramsLength,
                              size_t totalBytes)
{
    const size_t body = std::max(totalBytes, MinimumBytes() + paramsLength) - kHeaderBytes;
    std::vector<uint8_t> out(kHeaderBytes + body, 0);
    out[0] = type;
    out[1] = static_cast<uint8_t>(body >> 16);
    out[2] = static_cast<uint8_t>(body >> 8);
    out[3] = static_cast<uint8_t>(body);
    out[4] = static_cast<uint8_t>(paramsLength >> 8);
    out[5] = static_cast<uint8_t>(paramsLength);
    std::copy(params, params + paramsLength, out.begin() + MinimumBytes());
    return out;
}

bool
QuicCcNgtcp2Handshake::Receive(size_t level,
                               uint64_t offset,
                               const uint8_t* data,
                               size_t length,
                               std::vector<Message>& out)
{
    if (level >= kLevels || offset != m_nextOffset[level])
    {
        return false;
    }
    m_nextOffset[level] += length;
    std::vector<uint8_t>& pending = m_pending[level];
    pending.insert(pending.end(), data, data + length);
    size_t start = 0;
    while (pending.size() - start >= kHeaderBytes)
    {
        const uint8_t* m = pending.data() + start;
        const size_t body = (size_t{m[1]} << 16) | (size_t{m[2]} << 8) | m[3];
        if (body > kMaxMessageBytes || body < kParamsLengthBytes)
        {
            return false;
        }
        if (m[0] != CLIENT_HELLO && m[0] != SERVER_HELLO && m[0] != SERVER_FLIGHT &&
            m[0] != FINISHED)
        {
            return false;
        }
        if (pending.size() - start < kHeaderBytes + body)
        {
            break;
        }
        const size_t paramsLength = (size_t{m[4]} << 8) | m[5];
        if (paramsLength > body - kParamsLengthBytes)
        {
            return false;
        }
        const uint8_t* params = m + MinimumBytes();
        out.push_back(
            Message{static_cast<Type>(m[0]), std::vector<uint8_t>(params, params + paramsLength)});
        start += kHeaderBytes + body;
    }
    pending.erase(pending.begin(), pending.begin() + start);
    if (pending.empty())
    {
        std::vector<uint8_t>().swap(pending); // a level's messages are few: free the room
    }
    return true;
}

} // namespace ns3
