/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcQlogWriter: the JSON-SEQ framing (RFC 7464), the header of each schema (the main schema
 * draft-ietf-quic-qlog-main-schema-13 / quic-events-12, and qlog 0.3), each event's name and
 * fields, metrics grouped at one instant, Close() flushing, and nothing written after it.
 * QuicCcQlogFile: a failed create or write is one line and exit status 1 (or the installed
 * handler), nothing left on disk.
 */
#include "ns3/quic-cc-qlog.h"
#include "ns3/simulator.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <unistd.h>

using namespace ns3;

namespace
{

/// Every record of \p path; each must be RS, one JSON object, LF.
std::vector<nlohmann::json>
Records(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<nlohmann::json> out;
    size_t pos = 0;
    while (pos < text.size())
    {
        EXPECT_EQ(text[pos], '\x1e') << "record " << out.size() << " starts with RS";
        const size_t end = text.find('\n', pos);
        EXPECT_NE(end, std::string::npos) << "record " << out.size() << " ends with LF";
        if (end == std::string::npos)
        {
            break;
        }
        out.push_back(nlohmann::json::parse(text.substr(pos + 1, end - pos - 1)));
        pos = end + 1;
    }
    return out;
}

std::string
TempPath(const std::string& name)
{
    return (std::filesystem::temp_directory_path() /
            (name + "-" + std::to_string(::getpid()) + ".sqlog"))
        .string();
}

} // namespace

// QlogSchema V0_3: the file quic-cc wrote before the main schema, as qvis reads it.
TEST(QuicCcQlogWriterTest, V0_3HeaderAndEventsAreJsonSeq)
{
    const std::string path = TempPath("quic-cc-qlog-test");
    {
        Ptr<QuicCcQlogWriter> w = Create<QuicCcQlogWriter>(path, "client", "title x", QLOG_0_3);
        EXPECT_EQ(w->GetPath(), path);
        EXPECT_TRUE(w->IsOpen());
        w->Cwnd(0, 13500);
        w->Ssthresh(0, std::numeric_limits<uint64_t>::max()); // "not set": no record
        w->Ssthresh(0, 9450);
        w->BytesInFlight(0, 2700);
        w->Rtt(MilliSeconds(12), MicroSeconds(10500), MilliSeconds(10));
        w->PacketSent(4, 1350);
        w->PacketReceived(7, 60);
        w->PacketLost(4, 1350, MilliSeconds(1));
        w->State(QUIC_CC_SLOW_START, QUIC_CC_RECOVERY);
        w->PacingRate(DataRate(0), DataRate(1000000)); // main schema only
        w->PtoExpired(1);                              // main schema only
        w->Close();
        EXPECT_FALSE(w->IsOpen());
        w->Cwnd(13500, 1); // after Close: ignored
    }
    const std::vector<nlohmann::json> r = Records(path);
    ASSERT_EQ(r.size(), 9u);
    // Byte for byte as before the main schema (key order: the JSON library's, sorted).
    std::ifstream in(path, std::ios::binary);
    std::string first;
    std::getline(in, first);
    EXPECT_EQ(first,
              "\x1e{\"qlog_format\":\"JSON-SEQ\",\"qlog_version\":\"0.3\",\"title\":\"title x\","
              "\"trace\":{\"common_fields\":{\"reference_time\":0,\"time_format\":\"relative\"},"
              "\"vantage_point\":{\"type\":\"client\"}}}");
    EXPECT_EQ(r[0]["qlog_version"], "0.3");
    EXPECT_EQ(r[0]["qlog_format"], "JSON-SEQ");
    EXPECT_EQ(r[0]["title"], "title x");
    EXPECT_EQ(r[0]["trace"]["vantage_point"]["type"], "client");
    EXPECT_EQ(r[1]["name"], "recovery:metrics_updated");
    EXPECT_EQ(r[1]["data"]["congestion_window"], 13500);
    EXPECT_EQ(r[1]["time"], 0.0);
    EXPECT_EQ(r[2]["data"]["ssthresh"], 9450);
    EXPECT_EQ(r[3]["data"]["bytes_in_flight"], 2700);
    EXPECT_EQ(r[4]["data"]["latest_rtt"], 12.0);
    EXPECT_EQ(r[4]["data"]["smoothed_rtt"], 10.5);
    EXPECT_EQ(r[4]["data"]["min_rtt"], 10.0);
    EXPECT_EQ(r[5]["name"], "transport:packet_sent");
    EXPECT_EQ(r[5]["data"]["header"]["packet_number"], 4);
    EXPECT_EQ(r[5]["data"]["raw"]["length"], 1350);
    EXPECT_EQ(r[6]["name"], "transport:packet_received");
    EXPECT_EQ(r[6]["data"]["header"]["packet_number"], 7);
    EXPECT_EQ(r[7]["name"], "recovery:packet_lost");
    EXPECT_EQ(r[8]["name"], "recovery:congestion_state_updated");
    EXPECT_EQ(r[8]["data"]["old"], "slow_start");
    EXPECT_EQ(r[8]["data"]["new"], "recovery");
    std::remove(path.c_str());
}

// The main schema (the default): the QlogFileSeq header, quic: event names, metrics that change
// at one instant in one event (a repeated field starts the next), pacing_rate in bits per second,
// packet_lost with its trigger, the PTO as timer_updated.
TEST(QuicCcQlogWriterTest, MainSchemaHeaderAndEvents)
{
    const std::string path = TempPath("quic-cc-qlog-main");
    {
        Ptr<QuicCcQlogWriter> w = Create<QuicCcQlogWriter>(path, "server", "title y");
        EXPECT_EQ(w->GetSchema(), QLOG_MAIN_SCHEMA_13);
        w->Cwnd(0, 13500);
        w->BytesInFlight(0, 2700);
        w->Rtt(MilliSeconds(12), MicroSeconds(10500), MilliSeconds(10));
        w->PacingRate(DataRate(0), DataRate(12857142));
        w->Cwnd(13500, 15000); // cwnd again: a new event
        w->PacketSent(4, 1350);
        w->PacketLostWithTrigger(4, QuicLossTrigger::TIME_THRESHOLD);
        w->PacketLost(5, 1350, MilliSeconds(1));
        w->PtoExpired(1);
        w->State(QUIC_CC_CONGESTION_AVOIDANCE, QUIC_CC_RECOVERY);
        w->Ssthresh(0, 9450); // pending at Close: written by it
        w->Close();
    }
    const std::vector<nlohmann::json> r = Records(path);
    ASSERT_EQ(r.size(), 9u);
    EXPECT_EQ(r[0]["file_schema"], "urn:ietf:params:qlog:file:sequential");
    EXPECT_EQ(r[0]["serialization_format"], "application/qlog+json-seq");
    EXPECT_EQ(r[0]["title"], "title y");
    EXPECT_EQ(r[0]["trace"]["vantage_point"],
              (nlohmann::json{{"name", "quic-cc"}, {"type", "server"}}));
    EXPECT_EQ(r[0]["trace"]["event_schemas"],
              nlohmann::json::array({"urn:ietf:params:qlog:events:quic-12"}));
    EXPECT_EQ(r[0]["trace"]["common_fields"]["reference_time"],
              (nlohmann::json{{"clock_type", "monotonic"}, {"epoch", "unknown"}}));
    EXPECT_EQ(r[1]["name"], "quic:recovery_metrics_updated");
    EXPECT_EQ(r[1]["data"],
              (nlohmann::json{{"congestion_window", 13500},
                              {"bytes_in_flight", 2700},
                              {"latest_rtt", 12.0},
                              {"smoothed_rtt", 10.5},
                              {"min_rtt", 10.0},
                              {"pacing_rate", 12857142}}));
    EXPECT_EQ(r[2]["data"], (nlohmann::json{{"congestion_window", 15000}}));
    EXPECT_EQ(r[3]["name"], "quic:packet_sent");
    EXPECT_EQ(r[3]["data"]["header"]["packet_number"], 4);
    EXPECT_EQ(r[4]["name"], "quic:packet_lost");
    EXPECT_EQ(r[4]["data"]["trigger"], "time_threshold");
    EXPECT_EQ(r[5]["name"], "quic:packet_lost");
    EXPECT_FALSE(r[5]["data"].contains("trigger"));
    EXPECT_EQ(r[6]["name"], "quic:timer_updated");
    EXPECT_EQ(r[6]["data"], (nlohmann::json{{"timer_type", "pto"}, {"event_type", "expired"}}));
    EXPECT_EQ(r[7]["name"], "quic:congestion_state_updated");
    EXPECT_EQ(r[7]["data"]["new"], "recovery");
    EXPECT_EQ(r[8]["data"], (nlohmann::json{{"ssthresh", 9450}}));
    std::remove(path.c_str());
}

// ECN (main schema): ecn_state_updated on every change (no "old" from ECN off: qlog has no
// "disabled"); the peer's counts ride on the metrics event of their ACK frame, held past the
// events written before its first metric. Nothing in 0.3.
TEST(QuicCcQlogWriterTest, EcnStateAndCountsInTheMainSchema)
{
    for (const QuicCcQlogSchema schema : {QLOG_MAIN_SCHEMA_13, QLOG_0_3})
    {
        const std::string path = TempPath("quic-cc-qlog-ecn");
        {
            Ptr<QuicCcQlogWriter> w = Create<QuicCcQlogWriter>(path, "client", "t", schema);
            w->EcnState(QUIC_CC_ECN_DISABLED, QUIC_CC_ECN_TESTING);
            w->EcnCounts(9, 0, 1);
            w->State(QUIC_CC_SLOW_START, QUIC_CC_RECOVERY); // before the frame's first metric
            w->BytesInFlight(12000, 0);
            w->EcnState(QUIC_CC_ECN_TESTING, QUIC_CC_ECN_CAPABLE);
            w->Close();
        }
        const std::vector<nlohmann::json> r = Records(path);
        if (schema == QLOG_0_3)
        {
            ASSERT_EQ(r.size(), 3u);
            EXPECT_EQ(r[1]["name"], "recovery:congestion_state_updated");
            EXPECT_EQ(r[2]["data"], (nlohmann::json{{"bytes_in_flight", 0}}));
            continue;
        }
        ASSERT_EQ(r.size(), 5u);
        EXPECT_EQ(r[1]["name"], "quic:ecn_state_updated");
        EXPECT_EQ(r[1]["data"], (nlohmann::json{{"new", "testing"}}));
        EXPECT_EQ(r[2]["name"], "quic:congestion_state_updated");
        EXPECT_EQ(r[3]["name"], "quic:recovery_metrics_updated");
        EXPECT_EQ(r[3]["data"],
                  (nlohmann::json{{"bytes_in_flight", 0}, {"ect0", 9}, {"ect1", 0}, {"ce", 1}}));
        EXPECT_EQ(r[4]["data"], (nlohmann::json{{"old", "testing"}, {"new", "capable"}}));
        std::remove(path.c_str());
    }
}

// A metrics field at a later instant starts a new event at that instant.
TEST(QuicCcQlogWriterTest, MetricsOfLaterInstantsAreSeparate)
{
    const std::string path = TempPath("quic-cc-qlog-instants");
    Ptr<QuicCcQlogWriter> w = Create<QuicCcQlogWriter>(path, "client", "t");
    w->Cwnd(0, 1000);
    Simulator::Schedule(MicroSeconds(1500), &QuicCcQlogWriter::BytesInFlight, w, 0, 500);
    Simulator::ScheduleDestroy(&QuicCcQlogWriter::Close, w);
    Simulator::Run();
    Simulator::Destroy();
    const std::vector<nlohmann::json> r = Records(path);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[1]["time"], 0.0);
    EXPECT_EQ(r[1]["data"], (nlohmann::json{{"congestion_window", 1000}}));
    EXPECT_EQ(r[2]["time"], 1.5);
    EXPECT_EQ(r[2]["data"], (nlohmann::json{{"bytes_in_flight", 500}}));
    std::remove(path.c_str());
}

// Events carry the simulation time in milliseconds.
TEST(QuicCcQlogWriterTest, EventTimeIsSimulationTime)
{
    const std::string path = TempPath("quic-cc-qlog-time");
    Ptr<QuicCcQlogWriter> w = Create<QuicCcQlogWriter>(path, "server", "t");
    Simulator::Schedule(MicroSeconds(2500), &QuicCcQlogWriter::PacketSent, w, 1, 100);
    Simulator::ScheduleDestroy(&QuicCcQlogWriter::Close, w);
    Simulator::Run();
    Simulator::Destroy(); // closes the file
    const std::vector<nlohmann::json> r = Records(path);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0]["trace"]["vantage_point"]["type"], "server");
    EXPECT_EQ(r[1]["time"], 2.5);
    std::remove(path.c_str());
}

TEST(QuicCcQlogWriterDeathTest, UnopenablePathIsOneLine)
{
    EXPECT_EXIT(Create<QuicCcQlogWriter>("/nonexistent-dir/x.sqlog", "client", "t"),
                ::testing::ExitedWithCode(1),
                "^[^\n]*: cannot write /nonexistent-dir/x.sqlog: No such file or directory\n$");
}

// A write that fails (a file size limit, as a full disk) ends the program with status 1 and one
// line naming the file; neither the file nor its temporary file is left.
TEST(QuicCcQlogFileDeathTest, FailedWriteIsOneLineAndLeavesNothing)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("quic-cc-qlog-full-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "x.sqlog").string();
    const auto fill = [&]() {
        const rlimit limit{10000, 10000};
        setrlimit(RLIMIT_FSIZE, &limit);
        QuicCcQlogFile file(path);
        const std::string block(1000, 'x');
        for (int i = 0; i < 200; ++i)
        {
            file.Append(block.data(), block.size()); // written in blocks of 64 KiB
        }
        file.Close();
    };
    EXPECT_EXIT(fill(),
                ::testing::ExitedWithCode(1),
                "^[^\n]*: cannot write " + path + ": File too large\n$");
    EXPECT_TRUE(std::filesystem::is_empty(dir));
    std::filesystem::remove_all(dir);
}

// The handler a program installs gets the message instead of the default line and exit.
TEST(QuicCcQlogFileDeathTest, InstalledHandlerGetsTheMessage)
{
    const auto fail = []() {
        QuicCcSetOutputFailureHandler([](const std::string& message) {
            std::fprintf(stderr, "handler: %s\n", message.c_str());
            std::_Exit(7);
        });
        QuicCcQlogFile file("/nonexistent-dir/y.sqlog");
    };
    EXPECT_EXIT(fail(),
                ::testing::ExitedWithCode(7),
                "^handler: cannot write /nonexistent-dir/y.sqlog: No such file or directory\n$");
}
