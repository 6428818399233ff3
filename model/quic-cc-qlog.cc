/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-qlog.h"

#include "quic-cc-socket.h"

#include "ns3/abort.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ns3
{

namespace
{
/// RFC 7464 record separator.
constexpr char kRecordSeparator = 0x1e;
/// Records are written in blocks of about this many bytes.
constexpr size_t kFlushBytes = 64 * 1024;

double
Ms(Time t)
{
    return t.GetNanoSeconds() / 1e6;
}

/// One qlog event at \p time (the current simulation time by default), serialized by the JSON
/// library.
std::string
Event(const char* name, nlohmann::json data, Time time = Simulator::Now())
{
    nlohmann::json event = {{"time", Ms(time)}, {"name", name}, {"data", std::move(data)}};
    return event.dump();
}
} // namespace

QuicCcQlogFile::QuicCcQlogFile(const std::string& path)
    : m_path(path)
{
    if (const int err = m_file.Open(path); err != 0)
    {
        Fail(err);
    }
}

QuicCcQlogFile::~QuicCcQlogFile()
{
    Close();
}

void
QuicCcQlogFile::Append(const char* data, size_t bytes)
{
    if (m_file.IsOpen())
    {
        m_buffer.append(data, bytes);
        if (m_buffer.size() >= kFlushBytes)
        {
            Flush();
        }
    }
}

void
QuicCcQlogFile::Close()
{
    if (m_file.IsOpen())
    {
        Flush();
        if (const int err = m_file.Commit(); err != 0)
        {
            Fail(err);
        }
    }
}

bool
QuicCcQlogFile::IsOpen() const
{
    return m_file.IsOpen();
}

const std::string&
QuicCcQlogFile::GetPath() const
{
    return m_path;
}

void
QuicCcQlogFile::Flush()
{
    if (const int err = m_file.Write(m_buffer); err != 0)
    {
        Fail(err);
    }
    m_buffer.clear();
}

void
QuicCcQlogFile::Fail(int error)
{
    m_file.Discard();
    m_buffer.clear();
    QuicCcOutputFailed("cannot write " + m_path + ": " + std::strerror(error));
}

void
QuicCcCreateQlogDirectory(const std::string& directory)
{
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec || !std::filesystem::is_directory(directory))
    {
        QuicCcOutputFailed("cannot create qlog directory " + directory + ": " +
                           (ec ? ec.message() : std::string("exists and is not a directory")));
    }
}

QuicCcQlogWriter::QuicCcQlogWriter(const std::string& path,
                                   const std::string& vantagePoint,
                                   const std::string& title,
                                   QuicCcQlogSchema schema,
                                   const std::string& vantageName)
    : m_file(path),
      m_schema(schema)
{
    nlohmann::json header;
    if (schema == QLOG_0_3)
    {
        header = {
            {"qlog_version", "0.3"},
            {"qlog_format", "JSON-SEQ"},
            {"title", title},
            {"trace",
             {{"vantage_point", {{"type", vantagePoint}}},
              {"common_fields", {{"time_format", "relative"}, {"reference_time", 0}}}}},
        };
    }
    else
    {
        // draft-ietf-quic-qlog-main-schema-13 Sections 3, 5, 7.1; the draft event schema URI of
        // draft-ietf-quic-qlog-quic-events-12 Section 2.1.
        nlohmann::json trace = {
            {"description", "time: ns-3 simulation time in ms since the simulation started"},
            {"common_fields",
             {{"time_format", "relative_to_epoch"},
              {"reference_time", {{"clock_type", "monotonic"}, {"epoch", "unknown"}}}}},
            {"vantage_point", {{"name", vantageName}, {"type", vantagePoint}}},
            {"event_schemas", {"urn:ietf:params:qlog:events:quic-12"}},
        };
        header = {
            {"file_schema", "urn:ietf:params:qlog:file:sequential"},
            {"serialization_format", "application/qlog+json-seq"},
            {"title", title},
            {"trace", std::move(trace)},
        };
    }
    Emit(header.dump());
}

QuicCcQlogWriter::~QuicCcQlogWriter()
{
    Close();
}

void
QuicCcQlogWriter::Close()
{
    FlushMetrics();
    m_file.Close();
}

bool
QuicCcQlogWriter::IsOpen() const
{
    return m_file.IsOpen();
}

const std::string&
QuicCcQlogWriter::GetPath() const
{
    return m_file.GetPath();
}

QuicCcQlogSchema
QuicCcQlogWriter::GetSchema() const
{
    return m_schema;
}

void
QuicCcQlogWriter::Emit(const std::string& record)
{
    FlushMetrics();
    if (m_file.IsOpen())
    {
        const std::string framed = kRecordSeparator + record + '\n';
        m_file.Append(framed.data(), framed.size());
    }
}

void
QuicCcQlogWriter::Record(const std::string& event)
{
    Emit(event);
}

void
QuicCcQlogWriter::FlushMetrics()
{
    if (m_metrics.empty())
    {
        return;
    }
    nlohmann::json data = nlohmann::json::object();
    for (const auto& [name, value] : m_metrics)
    {
        std::visit([&data, &name = name](auto v) { data[name] = v; }, value);
    }
    m_metrics.clear();
    if (m_ecnCounts)
    {
        data["ect0"] = m_ecnCounts->ect0;
        data["ect1"] = m_ecnCounts->ect1;
        data["ce"] = m_ecnCounts->ce;
        m_ecnCounts.reset();
    }
    Emit(Event("quic:recovery_metrics_updated", std::move(data), m_metricsTime));
}

void
QuicCcQlogWriter::Metrics(const char* field, std::variant<uint64_t, double> value)
{
    if (m_schema == QLOG_0_3)
    {
        nlohmann::json data;
        std::visit([&data, field](auto v) { data[field] = v; }, value);
        Emit(Event("recovery:metrics_updated", std::move(data)));
        return;
    }
    const Time now = Simulator::Now();
    const bool present = std::any_of(m_metrics.begin(), m_metrics.end(), [field](const auto& f) {
        return f.first == field;
    });
    if (!m_metrics.empty() && (now != m_metricsTime || present))
    {
        FlushMetrics();
    }
    m_metricsTime = now;
    m_metrics.emplace_back(field, value);
}

namespace
{
/// The packet header of a 1-RTT packet (PacketHeader: draft-ietf-quic-qlog-quic-events-12
/// Section 8.8; the same fields in qlog 0.3).
nlohmann::json
PacketHeader(uint64_t packetNumber)
{
    return {{"packet_type", "1RTT"}, {"packet_number", packetNumber}};
}
} // namespace

void
QuicCcQlogWriter::PacketSent(uint64_t packetNumber, uint64_t bytes)
{
    Emit(Event(m_schema == QLOG_0_3 ? "transport:packet_sent" : "quic:packet_sent",
               {{"header", PacketHeader(packetNumber)}, {"raw", {{"length", bytes}}}}));
}

void
QuicCcQlogWriter::PacketReceived(uint64_t packetNumber, uint64_t bytes)
{
    Emit(Event(m_schema == QLOG_0_3 ? "transport:packet_received" : "quic:packet_received",
               {{"header", PacketHeader(packetNumber)}, {"raw", {{"length", bytes}}}}));
}

void
QuicCcQlogWriter::PacketLost(uint64_t packetNumber, uint64_t, Time)
{
    Emit(Event(m_schema == QLOG_0_3 ? "recovery:packet_lost" : "quic:packet_lost",
               {{"header", PacketHeader(packetNumber)}}));
}

void
QuicCcQlogWriter::PacketLostWithTrigger(uint64_t packetNumber, QuicLossTrigger trigger)
{
    if (m_schema == QLOG_0_3)
    {
        PacketLost(packetNumber, 0, Time());
        return;
    }
    Emit(
        Event("quic:packet_lost",
              {{"header", PacketHeader(packetNumber)}, {"trigger", QuicLossTriggerName(trigger)}}));
}

void
QuicCcQlogWriter::Cwnd(uint64_t, uint64_t newValue)
{
    Metrics("congestion_window", newValue);
}

void
QuicCcQlogWriter::Ssthresh(uint64_t, uint64_t newValue)
{
    if (newValue == std::numeric_limits<uint64_t>::max())
    {
        return; // "not set" has no qlog value
    }
    Metrics("ssthresh", newValue);
}

void
QuicCcQlogWriter::BytesInFlight(uint64_t, uint64_t newValue)
{
    Metrics("bytes_in_flight", newValue);
}

void
QuicCcQlogWriter::Rtt(Time latest, Time smoothed, Time min)
{
    if (m_schema == QLOG_0_3)
    {
        Emit(Event("recovery:metrics_updated",
                   nlohmann::json{{"latest_rtt", Ms(latest)},
                                  {"smoothed_rtt", Ms(smoothed)},
                                  {"min_rtt", Ms(min)}}));
        return;
    }
    Metrics("latest_rtt", Ms(latest));
    Metrics("smoothed_rtt", Ms(smoothed));
    Metrics("min_rtt", Ms(min));
}

void
QuicCcQlogWriter::PacingRate(DataRate, DataRate newValue)
{
    if (m_schema != QLOG_0_3)
    {
        Metrics("pacing_rate", newValue.GetBitRate()); // bits per second (Section 7.2)
    }
}

void
QuicCcQlogWriter::State(QuicCongestionState oldValue, QuicCongestionState newValue)
{
    Emit(Event(m_schema == QLOG_0_3 ? "recovery:congestion_state_updated"
                                    : "quic:congestion_state_updated",
               nlohmann::json{{"old", QuicCongestionStateName(oldValue)},
                              {"new", QuicCongestionStateName(newValue)}}));
}

void
QuicCcQlogWriter::PtoExpired(uint32_t)
{
    if (m_schema != QLOG_0_3)
    {
        Emit(Event("quic:timer_updated", {{"timer_type", "pto"}, {"event_type", "expired"}}));
    }
}

void
QuicCcQlogWriter::EcnState(QuicCcEcnState oldValue, QuicCcEcnState newValue)
{
    if (m_schema == QLOG_0_3)
    {
        return;
    }
    nlohmann::json data{{"new", QuicCcEcnStateName(newValue)}};
    if (oldValue != QUIC_CC_ECN_DISABLED) // qlog's ECNState has no "disabled"
    {
        data["old"] = QuicCcEcnStateName(oldValue);
    }
    Emit(Event("quic:ecn_state_updated", std::move(data)));
}

void
QuicCcQlogWriter::EcnCounts(uint64_t ect0, uint64_t ect1, uint64_t ce)
{
    if (m_schema != QLOG_0_3)
    {
        m_ecnCounts = QuicCcEcnCounts{ect0, ect1, ce};
    }
}

namespace
{
/// The connection closed: nothing more is traced.
void
CloseQlog(Ptr<QuicCcQlogWriter> writer, Ptr<QuicCcSocket>)
{
    writer->Close();
}

/// A connection started: open its qlog file and connect the writer to the socket's traces.
void
StartQlog(std::string directory, Ptr<QuicCcSocket> socket)
{
    const bool client = socket->IsClient();
    std::ostringstream path;
    path << directory << "/quic-cc-node" << (socket->GetNode() ? socket->GetNode()->GetId() : 0)
         << "-" << (client ? "client" : "server") << "-" << std::hex << socket->GetConnectionId()
         << ".sqlog";
    std::ostringstream title;
    title << "quic-cc " << socket->GetCongestionController()->GetName() << " connection "
          << std::hex << socket->GetConnectionId();
    Ptr<QuicCcQlogWriter> w = Create<QuicCcQlogWriter>(path.str(),
                                                       client ? "client" : "server",
                                                       title.str(),
                                                       socket->GetQlogSchema());
    socket->TraceConnectWithoutContext("PacketSent",
                                       MakeCallback(&QuicCcQlogWriter::PacketSent, w));
    socket->TraceConnectWithoutContext("PacketReceived",
                                       MakeCallback(&QuicCcQlogWriter::PacketReceived, w));
    // Every loss with its trigger (fired just before PacketLost, once per lost packet).
    socket->TraceConnectWithoutContext("PacketLostTrigger",
                                       MakeCallback(&QuicCcQlogWriter::PacketLostWithTrigger, w));
    socket->TraceConnectWithoutContext("PacingRate",
                                       MakeCallback(&QuicCcQlogWriter::PacingRate, w));
    socket->TraceConnectWithoutContext("PtoExpired",
                                       MakeCallback(&QuicCcQlogWriter::PtoExpired, w));
    socket->TraceConnectWithoutContext("EcnState", MakeCallback(&QuicCcQlogWriter::EcnState, w));
    socket->TraceConnectWithoutContext("EcnCounts", MakeCallback(&QuicCcQlogWriter::EcnCounts, w));
    socket->TraceConnectWithoutContext("CongestionWindow64",
                                       MakeCallback(&QuicCcQlogWriter::Cwnd, w));
    socket->TraceConnectWithoutContext("SlowStartThreshold64",
                                       MakeCallback(&QuicCcQlogWriter::Ssthresh, w));
    socket->TraceConnectWithoutContext("BytesInFlight64",
                                       MakeCallback(&QuicCcQlogWriter::BytesInFlight, w));
    socket->TraceConnectWithoutContext("Rtt", MakeCallback(&QuicCcQlogWriter::Rtt, w));
    socket->TraceConnectWithoutContext("CongestionState",
                                       MakeCallback(&QuicCcQlogWriter::State, w));
    socket->TraceConnectWithoutContext("ConnectionClosed", MakeBoundCallback(&CloseQlog, w));
    // Flushed and closed at Simulator::Destroy too, whatever state the connection is in.
    Simulator::ScheduleDestroy(&QuicCcQlogWriter::Close, w);
}

} // namespace

void
QuicCcAttachQlog(std::string directory, Ptr<QuicCcSocketBase> created)
{
    Ptr<QuicCcSocket> socket = DynamicCast<QuicCcSocket>(created);
    NS_ABORT_MSG_UNLESS(socket, "QuicCcAttachQlog: not a QuicCcSocket");
    socket->TraceConnectWithoutContext("ConnectionStarted",
                                       MakeBoundCallback(&StartQlog, directory));
}

} // namespace ns3
