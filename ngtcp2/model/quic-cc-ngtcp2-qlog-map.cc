/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ngtcp2-qlog-map.h"

#include "ns3/fatal-error.h"

#include <nlohmann/json.hpp>
#include <string_view>

namespace ns3
{

namespace
{

/// {"data": hex} (ngtcp2's form of a token or stateless reset token) -> hex.
void
UnwrapHex(nlohmann::json& object, const char* key)
{
    if (object.contains(key) && object[key].is_object() && object[key].contains("data"))
    {
        object[key] = nlohmann::json(object[key]["data"]);
    }
}

/// A frame's own length field moves to raw.length (quic-events-12 Sections 8.13.6, 8.13.8,
/// 8.13.22).
void
LengthToRaw(nlohmann::json& frame)
{
    if (frame.contains("length"))
    {
        frame["raw"]["length"] = frame["length"];
        frame.erase("length");
    }
}

void
MapFrame(nlohmann::json& frame)
{
    const std::string type = frame.value("frame_type", "");
    if (type == "stream" || type == "crypto" || type == "datagram")
    {
        LengthToRaw(frame);
    }
    else if (type == "new_token")
    {
        // Token (Section 8.9): the bytes and their length in raw.
        nlohmann::json token = {{"raw", {{"length", frame.value("length", 0)}}}};
        if (frame.contains("token") && frame["token"].contains("data"))
        {
            token["raw"]["data"] = frame["token"]["data"];
        }
        frame.erase("length");
        frame["token"] = std::move(token);
    }
    else if (type == "reset_stream" || type == "stop_sending")
    {
        frame["error"] = "unknown"; // an application error code: its number in error_code
    }
    else if (type == "connection_close")
    {
        frame.erase("raw_error_code");
    }
    else if (type == "new_connection_id")
    {
        UnwrapHex(frame, "stateless_reset_token");
    }
}

void
MapPacket(nlohmann::json& data)
{
    if (data.contains("header") && data["header"].contains("token"))
    {
        nlohmann::json& token = data["header"]["token"];
        token = {{"raw", {{"data", token.value("data", "")}}}};
    }
    if (data.contains("frames"))
    {
        for (nlohmann::json& frame : data["frames"])
        {
            MapFrame(frame);
        }
    }
}

void
MapParameters(nlohmann::json& data)
{
    if (data.contains("owner"))
    {
        data["initiator"] = data["owner"];
        data.erase("owner");
    }
    UnwrapHex(data, "stateless_reset_token");
    if (data.contains("preferred_address"))
    {
        UnwrapHex(data["preferred_address"], "stateless_reset_token");
    }
}

std::string
Event(double time, const char* name, nlohmann::json data)
{
    return nlohmann::json{{"time", time}, {"name", name}, {"data", std::move(data)}}.dump();
}

} // namespace

std::vector<std::string>
QuicCcNgtcp2QlogMap::Map(const uint8_t* data, size_t length, double nowMs)
{
    std::string_view text(reinterpret_cast<const char*>(data), length);
    while (!text.empty() && (text.front() == '\x1e' || text.back() == '\n'))
    {
        text = text.front() == '\x1e' ? text.substr(1) : text.substr(0, text.size() - 1);
    }
    if (text.empty())
    {
        return {}; // the last write (ngtcp2_qlog_end)
    }
    nlohmann::json record = nlohmann::json::parse(text, nullptr, false);
    if (record.is_discarded() || !record.is_object())
    {
        NS_FATAL_ERROR("ngtcp2 wrote a qlog record that is not a JSON object: " << text);
    }
    if (record.contains("qlog_version"))
    {
        return {}; // ngtcp2_qlog_start's header
    }
    const std::string name = record.value("name", "");
    nlohmann::json& d = record["data"];
    if (name == "transport:packet_sent" || name == "transport:packet_received")
    {
        MapPacket(d);
        return {Event(nowMs,
                      name == "transport:packet_sent" ? "quic:packet_sent" : "quic:packet_received",
                      std::move(d))};
    }
    if (name == "transport:parameters_set")
    {
        MapParameters(d);
        return {Event(nowMs, "quic:parameters_set", std::move(d))};
    }
    if (name == "recovery:packet_lost")
    {
        return {Event(nowMs, "quic:packet_lost", std::move(d))};
    }
    if (name == "recovery:metrics_updated")
    {
        std::vector<std::string> out;
        const uint64_t ptoCount = d.value("pto_count", uint64_t{0});
        if (ptoCount > m_ptoCount)
        {
            out.push_back(Event(nowMs,
                                "quic:timer_updated",
                                {{"timer_type", "pto"}, {"event_type", "expired"}}));
        }
        m_ptoCount = ptoCount;
        out.push_back(Event(nowMs, "quic:recovery_metrics_updated", std::move(d)));
        return out;
    }
    NS_FATAL_ERROR("ngtcp2 logged the qlog event \"" << name
                                                     << "\", which QuicCcNgtcp2QlogMap does not "
                                                        "map to draft-ietf-quic-qlog-quic-events");
}

} // namespace ns3
