/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-qlog.h"

#include "quic-cc-socket.h"

#include "ns3/abort.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

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

/// One qlog event at the current simulation time, serialized by the JSON library.
std::string
Event(const char* name, nlohmann::json data)
{
    nlohmann::json event = {{"time", Ms(Simulator::Now())},
                            {"name", name},
                            {"data", std::move(data)}};
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
                                   const std::string& title)
    : m_file(path)
{
    nlohmann::json header = {
        {"qlog_version", "0.3"},
        {"qlog_format", "JSON-SEQ"},
        {"title", title},
        {"trace",
         {{"vantage_point", {{"type", vantagePoint}}},
          {"common_fields", {{"time_format", "relative"}, {"reference_time", 0}}}}},
    };
    Emit(header.dump());
}

QuicCcQlogWriter::~QuicCcQlogWriter()
{
    Close();
}

void
QuicCcQlogWriter::Close()
{
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

void
QuicCcQlogWriter::Emit(const std::string& record)
{
    if (m_file.IsOpen())
    {
        const std::string framed = kRecordSeparator + record + '\n';
        m_file.Append(framed.data(), framed.size());
    }
}

void
QuicCcQlogWriter::PacketSent(uint64_t packetNumber, uint64_t bytes)
{
    nlohmann::json data = {{"header", {{"packet_type", "1RTT"}, {"packet_number", packetNumber}}},
                           {"raw", {{"length", bytes}}}};
    Emit(Event("transport:packet_sent", std::move(data)));
}

void
QuicCcQlogWriter::PacketReceived(uint64_t packetNumber, uint64_t bytes)
{
    nlohmann::json data = {{"header", {{"packet_type", "1RTT"}, {"packet_number", packetNumber}}},
                           {"raw", {{"length", bytes}}}};
    Emit(Event("transport:packet_received", std::move(data)));
}

void
QuicCcQlogWriter::PacketLost(uint64_t packetNumber, uint64_t bytes, Time timeSent)
{
    nlohmann::json data = {{"header", {{"packet_type", "1RTT"}, {"packet_number", packetNumber}}}};
    Emit(Event("recovery:packet_lost", std::move(data)));
}

void
QuicCcQlogWriter::Cwnd(uint64_t, uint64_t newValue)
{
    Emit(Event("recovery:metrics_updated", nlohmann::json{{"congestion_window", newValue}}));
}

void
QuicCcQlogWriter::Ssthresh(uint64_t, uint64_t newValue)
{
    if (newValue == std::numeric_limits<uint64_t>::max())
    {
        return; // "not set" has no qlog value
    }
    Emit(Event("recovery:metrics_updated", nlohmann::json{{"ssthresh", newValue}}));
}

void
QuicCcQlogWriter::BytesInFlight(uint64_t, uint64_t newValue)
{
    Emit(Event("recovery:metrics_updated", nlohmann::json{{"bytes_in_flight", newValue}}));
}

void
QuicCcQlogWriter::Rtt(Time latest, Time smoothed, Time min)
{
    Emit(Event("recovery:metrics_updated",
               nlohmann::json{{"latest_rtt", Ms(latest)},
                              {"smoothed_rtt", Ms(smoothed)},
                              {"min_rtt", Ms(min)}}));
}

void
QuicCcQlogWriter::State(QuicCongestionState oldValue, QuicCongestionState newValue)
{
    Emit(Event("recovery:congestion_state_updated",
               nlohmann::json{{"old", QuicCongestionStateName(oldValue)},
                              {"new", QuicCongestionStateName(newValue)}}));
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
    Ptr<QuicCcQlogWriter> w =
        Create<QuicCcQlogWriter>(path.str(), client ? "client" : "server", title.str());
    socket->TraceConnectWithoutContext("PacketSent",
                                       MakeCallback(&QuicCcQlogWriter::PacketSent, w));
    socket->TraceConnectWithoutContext("PacketReceived",
                                       MakeCallback(&QuicCcQlogWriter::PacketReceived, w));
    socket->TraceConnectWithoutContext("PacketLost",
                                       MakeCallback(&QuicCcQlogWriter::PacketLost, w));
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
