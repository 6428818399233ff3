/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_RECORD_H
#define QUIC_CC_RECORD_H

#include "ns3/nstime.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

/**
 * \file
 * \ingroup quic-cc
 * Result records of the batch examples as one line of JSON (nlohmann-json), e.g. for
 * QuicCcRunBatch's pipe. Each record struct lists its fields once, right after its definition,
 * with NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Struct, field, ...); that list is the serialised form in
 * both directions. Doubles round-trip exactly (nlohmann writes the shortest form that reads back
 * as the same double); a non-finite double would be written as null, so a record keeps an
 * undefined value as std::optional (null) instead of NaN.
 */

namespace nlohmann
{

/// ns3::Time as its integer count of time steps (exact).
template <>
struct adl_serializer<ns3::Time>
{
    static void to_json(json& j, const ns3::Time& t)
    {
        j = t.GetTimeStep();
    }

    static void from_json(const json& j, ns3::Time& t)
    {
        t = ns3::TimeStep(j.get<int64_t>());
    }
};

/// std::optional<T> as null or the value (the nlohmann-json README's recipe for third-party
/// types).
template <typename T>
struct adl_serializer<std::optional<T>>
{
    static void to_json(json& j, const std::optional<T>& v)
    {
        j = v ? json(*v) : json(nullptr);
    }

    static void from_json(const json& j, std::optional<T>& v)
    {
        v = j.is_null() ? std::nullopt : std::optional<T>(j.get<T>());
    }
};

} // namespace nlohmann

namespace ns3
{

/// \p record as one line of JSON (no newline).
template <typename Record>
std::string
QuicCcRecordToLine(const Record& record)
{
    return nlohmann::json(record).dump();
}

/// Read \p line (from QuicCcRecordToLine) into \p record; false if it is not such a record.
template <typename Record>
bool
QuicCcRecordFromLine(const std::string& line, Record& record)
{
    try
    {
        nlohmann::json::parse(line).get_to(record);
        return true;
    }
    catch (const nlohmann::json::exception&)
    {
        return false;
    }
}

} // namespace ns3

#endif // QUIC_CC_RECORD_H
