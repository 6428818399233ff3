/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Trace sources and qlog: each socket trace source fires with the right values in a small
 * scripted run, is reachable through its Config path, and the qlog file says the same.
 */
#include "quic-cc-test-topology.h"

#include "ns3/applications-module.h"
#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/quic-cc-compat.h"
#include "quic-cc-death-spiral-scenario.h"
#include "ns3/quic-cc-socket.h"
#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <nlohmann/json.hpp>

using namespace ns3;
using namespace ns3::quiccctest;

namespace
{

constexpr uint16_t kPort = 4433;
constexpr uint64_t kMss = 1350;

/// Parse a .sqlog file: every record must be valid JSON (an exception fails the test).
std::vector<nlohmann::json>
ReadQlog(const std::string& path, std::string& error)
{
    std::ifstream in(path);
    std::vector<nlohmann::json> records;
    std::string line;
    while (std::getline(in, line))
    {
        if (line.empty() || line[0] != '\x1e')
        {
            error = "record without RS prefix: " + line.substr(0, 40);
            return {};
        }
        records.push_back(nlohmann::json::parse(line.substr(1)));
    }
    return records;
}

std::string
FindQlog(const std::string& dir, const std::string& prefix)
{
    for (const auto& entry : std::filesystem::directory_iterator(dir))
    {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) == 0)
        {
            return entry.path().string();
        }
    }
    return "";
}

/// What the trace sinks saw.
struct Seen
{
    std::vector<uint64_t> cwnd;
    std::vector<uint64_t> ssthresh;
    std::vector<uint64_t> bytesInFlight;
    std::vector<QuicCongestionState> states{QUIC_CC_SLOW_START};
    std::vector<Time> recoveryStarts;
    std::vector<Time> lossTimes;
    uint32_t rttSamples{0};
    bool rttConsistent{true};
    uint64_t sent{0};
    uint64_t received{0};
    uint64_t acked{0};
    uint64_t lost{0};
    uint64_t maxCwnd{0};
    uint64_t configPathCwnd{0};
    uint32_t ssthreshMismatches{0};
    uint32_t reductionsChecked{0};
    std::optional<uint64_t> expectCwnd;
    Time eventAt{-1};
    Ptr<QuicCcSocket> sender;
};

} // namespace

/// Test: every trace source fires with consistent values; Config paths reach them; the qlog
/// file parses, its timestamps never go backwards and its metrics equal the traced values.
class QuicCcTraceAndQlogTestCase : public TestCase
{
  public:
    QuicCcTraceAndQlogTestCase()
        : TestCase("trace sources fire with the right values; Config path; qlog equals the traces")
    {
    }

  private:
    void DoRun() override;
};

void
QuicCcTraceAndQlogTestCase::DoRun()
{
    const std::string qlogDir = CreateTempDirFilename("qlog");
    RngSeedManager::SetRun(2);
    QuicCcHelper quic;
    quic.SetCongestionControl("ns3::QuicCubic");
    quic.EnableQlog(qlogDir);
    TwoNodes net(quic, "20Mbps");
    net.AddLoss(0.02);
    Seen seen;
    Seen* s = &seen;
    net.nodes.Get(0)->GetObject<QuicCcSocketFactory>()->TraceConnectWithoutContext(
        "SocketCreated",
        Callback<void, Ptr<QuicCcSocket>>([s](Ptr<QuicCcSocket> socket) {
            s->sender = socket;
            socket->TraceConnectWithoutContext("CongestionWindow",
                                               Callback<void, uint64_t, uint64_t>([s](uint64_t, uint64_t v) {
                                                   s->cwnd.push_back(v);
                                                   s->maxCwnd = std::max(s->maxCwnd, v);
                                                   if (s->expectCwnd)
                                                   {
                                                       s->ssthreshMismatches += v == *s->expectCwnd ? 0 : 1;
                                                       ++s->reductionsChecked;
                                                       s->expectCwnd.reset();
                                                   }
                                               }));
            socket->TraceConnectWithoutContext(
                "SlowStartThreshold",
                Callback<void, uint64_t, uint64_t>([s](uint64_t oldValue, uint64_t v) {
                    s->ssthresh.push_back(v);
                    // A reduction: CUBIC writes cwnd = ssthresh next (RFC 9438 Section 4.6).
                    // HyStart++ leaving CSS sets ssthresh = cwnd (RFC 9406) with cwnd unchanged;
                    // a rollback restores both. A congestion event first moves R to now.
                    if (s->eventAt == Simulator::Now() && v < oldValue &&
                        s->sender->GetCongestionController()->GetCongestionWindow() != v)
                    {
                        s->expectCwnd = v;
                    }
                }));
            socket->TraceConnectWithoutContext(
                "BytesInFlight",
                Callback<void, uint64_t, uint64_t>([s](uint64_t, uint64_t v) { s->bytesInFlight.push_back(v); }));
            socket->TraceConnectWithoutContext(
                "CongestionState",
                Callback<void, QuicCongestionState, QuicCongestionState>(
                    [s](QuicCongestionState, QuicCongestionState v) { s->states.push_back(v); }));
            socket->TraceConnectWithoutContext("RecoveryStartTime", Callback<void, Time>([s](Time r) {
                                                   s->recoveryStarts.push_back(r);
                                                   if (r == Simulator::Now())
                                                   {
                                                       s->eventAt = r;
                                                   }
                                               }));
            socket->TraceConnectWithoutContext("Rtt", Callback<void, Time, Time, Time>([s](Time l, Time sm, Time m) {
                                                   ++s->rttSamples;
                                                   s->rttConsistent = s->rttConsistent && m <= l &&
                                                                      m >= MilliSeconds(10) && sm >= m &&
                                                                      l < MilliSeconds(200);
                                               }));
            socket->TraceConnectWithoutContext(
                "PacketSent",
                Callback<void, uint64_t, uint64_t>([s](uint64_t, uint64_t) { ++s->sent; }));
            socket->TraceConnectWithoutContext(
                "PacketReceived",
                Callback<void, uint64_t, uint64_t>([s](uint64_t, uint64_t) { ++s->received; }));
            socket->TraceConnectWithoutContext(
                "PacketAcked",
                Callback<void, uint64_t, uint64_t, Time>([s](uint64_t, uint64_t, Time) { ++s->acked; }));
            socket->TraceConnectWithoutContext("PacketLost",
                                               Callback<void, uint64_t, uint64_t, Time>([s](uint64_t, uint64_t, Time) {
                                                   ++s->lost;
                                                   s->lossTimes.push_back(Simulator::Now());
                                               }));
        }));
    const uint64_t bytes = 3'000'000;
    PacketSinkHelper sink("ns3::QuicCcSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), kPort));
    sink.Install(net.nodes.Get(1));
    BulkSendHelper bulk("ns3::QuicCcSocketFactory", InetSocketAddress(net.interfaces.GetAddress(1), kPort));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    bulk.Install(net.nodes.Get(0));
    // The documented Config path reaches the sender's socket once it exists.
    uint32_t pathMatches = 0;
    Simulator::Schedule(MilliSeconds(1), [&]() {
        const std::string path = "/NodeList/0/$ns3::QuicCcSocketFactory/SocketList/0/CongestionWindow";
        pathMatches = Config::LookupMatches("/NodeList/0/$ns3::QuicCcSocketFactory/SocketList/0").GetN();
        Config::ConnectWithoutContext(path, Callback<void, uint64_t, uint64_t>([s](uint64_t, uint64_t) {
                                          ++s->configPathCwnd;
                                      }));
    });
    Simulator::Stop(Seconds(60));
    Simulator::Run();

    NS_TEST_ASSERT_MSG_EQ(pathMatches, 1, "Config path to SocketList/0");
    NS_TEST_ASSERT_MSG_GT(seen.configPathCwnd, 10, "cwnd changes seen through the Config path");
    NS_TEST_ASSERT_MSG_EQ(seen.cwnd.front(), 10 * kMss, "first cwnd value: the initial window");
    NS_TEST_ASSERT_MSG_EQ(seen.cwnd.back(), seen.sender->GetCongestionController()->GetCongestionWindow(),
                          "last traced cwnd equals the controller's");
    NS_TEST_ASSERT_MSG_GT(seen.ssthresh.size(), 0, "ssthresh set by a congestion event");
    NS_TEST_ASSERT_MSG_GT(seen.reductionsChecked, 3, "several reductions observed");
    NS_TEST_ASSERT_MSG_EQ(seen.ssthreshMismatches, 0, "cwnd == the new ssthresh after each CUBIC reduction");
    NS_TEST_ASSERT_MSG_GT(seen.lost, 0, "2 % loss declares packets lost");
    NS_TEST_ASSERT_MSG_EQ(seen.recoveryStarts.front(), seen.lossTimes.front(),
                          "R = the time of the first loss detection (RFC 9002 Section 7.3.2)");
    NS_TEST_ASSERT_MSG_EQ(seen.bytesInFlight.back(), 0, "nothing in flight at the end");
    for (uint64_t b : seen.bytesInFlight)
    {
        NS_TEST_ASSERT_MSG_LT_OR_EQ(b, seen.maxCwnd + 2 * kMss, "bytes in flight within cwnd plus two probes");
    }
    NS_TEST_ASSERT_MSG_GT(seen.rttSamples, 100, "RTT samples");
    NS_TEST_ASSERT_MSG_EQ(seen.rttConsistent, true, "min <= latest, min >= path RTT 10 ms, smoothed >= min");
    NS_TEST_ASSERT_MSG_GT_OR_EQ(seen.sent, seen.acked + seen.lost, "every acked or lost packet was sent");
    NS_TEST_ASSERT_MSG_GT(seen.received, 0, "the sender receives ACK packets");
    bool sawRecovery = false;
    bool sawCa = false;
    for (QuicCongestionState st : seen.states)
    {
        sawRecovery = sawRecovery || st == QUIC_CC_RECOVERY;
        sawCa = sawCa || st == QUIC_CC_CONGESTION_AVOIDANCE;
    }
    NS_TEST_ASSERT_MSG_EQ(sawRecovery && sawCa, true, "state passes through recovery and avoidance");

    // The qlog of the same connection.
    const std::string file = FindQlog(qlogDir, "quic-cc-node0-client-");
    NS_TEST_ASSERT_MSG_NE(file, "", "sender qlog file written");
    std::string error;
    const std::vector<nlohmann::json> records = ReadQlog(file, error);
    NS_TEST_ASSERT_MSG_EQ(error, "", "JSON-SEQ framing");
    NS_TEST_ASSERT_MSG_EQ(records.front()["qlog_format"], "JSON-SEQ", "header");
    std::vector<uint64_t> cwnd;
    std::vector<uint64_t> bif;
    std::vector<std::string> states;
    uint64_t lost = 0;
    double lastTime = 0;
    bool monotonic = true;
    for (size_t i = 1; i < records.size(); ++i)
    {
        const auto& e = records[i];
        const double t = e["time"].get<double>();
        monotonic = monotonic && t >= lastTime;
        lastTime = t;
        const std::string name = e["name"];
        const auto& data = e["data"];
        if (name == "recovery:metrics_updated" && data.contains("congestion_window"))
        {
            cwnd.push_back(data["congestion_window"].get<uint64_t>());
        }
        if (name == "recovery:metrics_updated" && data.contains("bytes_in_flight"))
        {
            bif.push_back(data["bytes_in_flight"].get<uint64_t>());
        }
        if (name == "recovery:congestion_state_updated")
        {
            states.push_back(data["new"].get<std::string>());
        }
        lost += name == "recovery:packet_lost" ? 1 : 0;
    }
    NS_TEST_ASSERT_MSG_EQ(monotonic, true, "timestamps never go backwards");
    const bool sameCwnd = cwnd == seen.cwnd;
    const bool sameBif = bif == seen.bytesInFlight;
    NS_TEST_ASSERT_MSG_EQ(sameCwnd, true, "qlog cwnd sequence == traced cwnd sequence");
    NS_TEST_ASSERT_MSG_EQ(sameBif, true, "qlog bytes_in_flight == traced");
    NS_TEST_ASSERT_MSG_EQ(lost, seen.lost, "qlog packet_lost count == traced");
    NS_TEST_ASSERT_MSG_EQ(states.size() + 1, seen.states.size(), "one qlog state update per traced change");
    for (size_t i = 0; i < states.size(); ++i)
    {
        NS_TEST_ASSERT_MSG_EQ(states[i], QuicCongestionStateName(seen.states[i + 1]), "state names");
    }
    Simulator::Destroy();
}

/// Test: the qlog of a failing 2020-logic run, read back, shows cwnd held at 2700 B after 3 s,
/// no loss, and the recovery <-> avoidance updates as logged.
class QuicCcDeathSpiralQlogTestCase : public TestCase
{
  public:
    QuicCcDeathSpiralQlogTestCase()
        : TestCase("qlog of a trapped cubic LastSent run: cwnd 2700 B after 3 s, no loss, state flips")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcDeathSpiralParams p;
        p.controller = "cubic";
        p.idleRestart = "LastSent";
        p.run = 1;
        p.qlogDirectory = CreateTempDirFilename("death-spiral-qlog");
        std::filesystem::create_directories(p.qlogDirectory);
        const QuicCcDeathSpiralResult r = QuicCcRunDeathSpiral(p);
        NS_TEST_ASSERT_MSG_EQ(r.completed, false, "RngRun 1 is trapped");
        std::string error;
        const auto records = ReadQlog(FindQlog(p.qlogDirectory, "quic-cc-node0-"), error);
        NS_TEST_ASSERT_MSG_EQ(error, "", "framing");
        uint32_t cwndAfter = 0;
        uint32_t cwndNot2700 = 0;
        uint32_t lostAfter = 0;
        uint32_t flips = 0;
        uint64_t lastCwnd = 0;
        for (size_t i = 1; i < records.size(); ++i)
        {
            const auto& e = records[i];
            const std::string name = e["name"];
            const auto& data = e["data"];
            if (name == "recovery:metrics_updated" && data.contains("congestion_window"))
            {
                lastCwnd = data["congestion_window"];
            }
            if (e["time"].get<double>() < 3000)
            {
                continue;
            }
            if (name == "recovery:metrics_updated" && data.contains("congestion_window"))
            {
                ++cwndAfter;
                cwndNot2700 += data["congestion_window"] == 2700 ? 0 : 1;
            }
            lostAfter += name == "recovery:packet_lost" ? 1 : 0;
            flips += name == "recovery:congestion_state_updated" ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(lastCwnd, 2700, "cwnd held at 2 x 1350 B");
        NS_TEST_ASSERT_MSG_EQ(cwndNot2700, 0, "no other cwnd value after 3 s");
        NS_TEST_ASSERT_MSG_EQ(lostAfter, 0, "no loss after 3 s");
        NS_TEST_ASSERT_MSG_GT(flips, 1000, "two state updates per round trip for 7 s");
        (void)cwndAfter;
    }
};

/// The observability TestSuite.
class QuicCcObservabilityTestSuite : public TestSuite
{
  public:
    QuicCcObservabilityTestSuite()
        : TestSuite("quic-cc-observability", QUICCC_SUITE_SYSTEM)
    {
        AddTestCase(new QuicCcTraceAndQlogTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcDeathSpiralQlogTestCase, QUICCC_TEST_QUICK);
    }
};

static QuicCcObservabilityTestSuite g_quicCcObservabilityTestSuite; //!< registers the suite
