/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ngtcp2-qlog-packets.h"

#include <string_view>

namespace ns3
{

namespace
{

/// The decimal number after \p key in \p text (searched from \p from); false if none.
bool
NumberAfter(std::string_view text, std::string_view key, size_t from, uint64_t& value)
{
    const size_t at = text.find(key, from);
    if (at == std::string_view::npos)
    {
        return false;
    }
    size_t i = at + key.size();
    if (i >= text.size() || text[i] < '0' || text[i] > '9')
    {
        return false;
    }
    value = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
    {
        value = value * 10 + static_cast<uint64_t>(text[i] - '0');
    }
    return true;
}

} // namespace

QuicCcNgtcp2QlogPacket
QuicCcNgtcp2QlogPacket::Parse(const uint8_t* data, size_t length)
{
    const std::string_view text(reinterpret_cast<const char*>(data), length);
    QuicCcNgtcp2QlogPacket out;
    Kind kind = OTHER;
    if (text.find("\"name\":\"transport:packet_sent\"") != std::string_view::npos)
    {
        kind = SENT;
    }
    else if (text.find("\"name\":\"recovery:packet_lost\"") != std::string_view::npos)
    {
        kind = LOST;
    }
    else if (text.find("\"name\":\"transport:packet_received\"") != std::string_view::npos)
    {
        // At most one ACK frame per packet; its counts follow its ranges (write_ack_frame).
        const size_t ack = text.find("\"frame_type\":\"ack\"");
        if (ack != std::string_view::npos &&
            text.find("\"header\":{\"packet_type\":\"1RTT\",") != std::string_view::npos &&
            NumberAfter(text, "\"ect1\":", ack, out.ect1) &&
            NumberAfter(text, "\"ect0\":", ack, out.ect0) &&
            NumberAfter(text, "\"ce\":", ack, out.ce))
        {
            out.kind = ACK_ECN;
        }
        return out;
    }
    else if (text.find("\"name\":\"recovery:metrics_updated\"") != std::string_view::npos)
    {
        if (NumberAfter(text, "\"pto_count\":", 0, out.ptoCount))
        {
            out.kind = METRICS;
        }
        return out;
    }
    else
    {
        return out;
    }
    // The header follows the frames of a sent packet: the last one in the record.
    const size_t header = text.rfind("\"header\":{\"packet_type\":\"1RTT\",");
    if (header == std::string_view::npos ||
        !NumberAfter(text, "\"packet_number\":", header, out.packetNumber))
    {
        return out;
    }
    if (kind == SENT && !NumberAfter(text, "\"raw\":{\"length\":", header, out.bytes))
    {
        return out;
    }
    out.kind = kind;
    return out;
}

} // namespace ns3
