/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Trace sources and qlog: each socket trace source fires with the right values in a small
 * scripted run, is reachable through its Config path, and the qlog file says the same.
 */
#include "quic-cc-death-spiral-scenario.h"
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"
#include "quic-cc-test-topology.h"

#include "ns3/applications-module.h"
#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/quic-cc-socket.h"
#include "ns3/test.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

using namespace ns3;
using namespace ns3::quiccc::test;

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

/// Test: a simulation stopped in the middle of a transfer leaves both endpoints' qlog files
/// complete: every record ends with LF and parses, and each file holds every packet the traces
/// reported up to the stop time (the writers flush and close at Simulator::Destroy).
class QuicCcQlogStopMidTransferTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcQlogStopMidTransferTestCase()
        : quiccc::test::SimulationTestCase(
              "qlog of a run stopped mid-transfer: both files complete up to the stop")
    {
    }

  private:
    void DoRun() override
    {
        const std::string qlogDir = CreateTempDirFilename("qlog-stop");
        RngSeedManager::SetRun(1);
        QuicCcHelper quic;
        quic.EnableQlog(qlogDir);
        TwoNodes net(quic, "20Mbps");
        // Packets each endpoint's PacketSent trace reported: node 0 = client, node 1 = server.
        std::array<uint64_t, 2> sent{0, 0};
        for (uint32_t n = 0; n < 2; ++n)
        {
            uint64_t* count = &sent[n];
            net.nodes.Get(n)->GetObject<QuicCcSocketFactory>()->TraceConnectWithoutContext(
                "SocketCreated",
                Callback<void, Ptr<QuicCcSocketBase>>([count](Ptr<QuicCcSocketBase> socket) {
                    socket->TraceConnectWithoutContext(
                        "PacketSent",
                        Callback<void, uint64_t, uint64_t>(
                            [count](uint64_t, uint64_t) { ++*count; }));
                }));
        }
        PacketSinkHelper sink("ns3::QuicCcSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), kPort));
        sink.Install(net.nodes.Get(1));
        BulkSendHelper bulk("ns3::QuicCcSocketFactory",
                            InetSocketAddress(net.interfaces.GetAddress(1), kPort));
        bulk.SetAttribute("MaxBytes", UintegerValue(50'000'000)); // far more than 0.5 s carries
        bulk.Install(net.nodes.Get(0));
        const Time stop = MilliSeconds(500);
        Simulator::Stop(stop);
        Simulator::Run();
        Simulator::Destroy(); // the qlog writers flush and close here

        const std::array<std::string, 2> prefixes{"quic-cc-node0-client-", "quic-cc-node1-server-"};
        for (size_t n = 0; n < 2; ++n)
        {
            const std::string path = FindQlog(qlogDir, prefixes[n]);
            NS_TEST_ASSERT_MSG_EQ(path.empty(), false, "qlog file " + prefixes[n] + "*");
            std::ifstream in(path, std::ios::binary);
            const std::string text((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
            NS_TEST_ASSERT_MSG_EQ(text.empty(), false, path + " is not empty");
            NS_TEST_ASSERT_MSG_EQ(text.back(), '\n', path + " ends with LF (RFC 7464)");
            std::string error;
            const std::vector<nlohmann::json> records = ReadQlog(path, error);
            NS_TEST_ASSERT_MSG_EQ(error, "", path);
            uint64_t packetsSent = 0;
            double lastTime = 0;
            for (size_t i = 1; i < records.size(); ++i)
            {
                packetsSent += records[i]["name"] == "quic:packet_sent" ? 1 : 0;
                lastTime = records[i]["time"].get<double>();
            }
            NS_TEST_ASSERT_MSG_GT(sent[n], 100, "the transfer was under way at the stop");
            NS_TEST_ASSERT_MSG_EQ(packetsSent,
                                  sent[n],
                                  path + ": every packet sent up to the stop");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(lastTime,
                                        stop.GetMilliSeconds(),
                                        "no event after the stop");
            NS_TEST_ASSERT_MSG_GT(lastTime, stop.GetMilliSeconds() - 50, "events up to the stop");
        }
        std::filesystem::remove_all(qlogDir);
    }
};

/// Test: every trace source fires with consistent values; Config paths reach them; the qlog
/// file parses, its timestamps never go backwards and its metrics equal the traced values.
class QuicCcTraceAndQlogTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcTraceAndQlogTestCase()
        : quiccc::test::SimulationTestCase(
              "trace sources fire with the right values; Config path; qlog equals the traces")
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
        Callback<void, Ptr<QuicCcSocketBase>>([s](Ptr<QuicCcSocketBase> socket) {
            s->sender = DynamicCast<QuicCcSocket>(socket);
            socket->TraceConnectWithoutContext(
                "CongestionWindow64",
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
                "SlowStartThreshold64",
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
                "BytesInFlight64",
                Callback<void, uint64_t, uint64_t>(
                    [s](uint64_t, uint64_t v) { s->bytesInFlight.push_back(v); }));
            socket->TraceConnectWithoutContext(
                "CongestionState",
                Callback<void, QuicCongestionState, QuicCongestionState>(
                    [s](QuicCongestionState, QuicCongestionState v) { s->states.push_back(v); }));
            socket->TraceConnectWithoutContext("RecoveryStartTime",
                                               Callback<void, Time>([s](Time r) {
                                                   s->recoveryStarts.push_back(r);
                                                   if (r == Simulator::Now())
                                                   {
                                                       s->eventAt = r;
                                                   }
                                               }));
            socket->TraceConnectWithoutContext(
                "Rtt",
                Callback<void, Time, Time, Time>([s](Time l, Time sm, Time m) {
                    ++s->rttSamples;
                    s->rttConsistent = s->rttConsistent && m <= l && m >= MilliSeconds(10) &&
                                       sm >= m && l < MilliSeconds(200);
                }));
            socket->TraceConnectWithoutContext(
                "PacketSent",
                Callback<void, uint64_t, uint64_t>([s](uint64_t, uint64_t) { ++s->sent; }));
            socket->TraceConnectWithoutContext(
                "PacketReceived",
                Callback<void, uint64_t, uint64_t>([s](uint64_t, uint64_t) { ++s->received; }));
            socket->TraceConnectWithoutContext("PacketAcked",
                                               Callback<void, uint64_t, uint64_t, Time>(
                                                   [s](uint64_t, uint64_t, Time) { ++s->acked; }));
            socket->TraceConnectWithoutContext(
                "PacketLost",
                Callback<void, uint64_t, uint64_t, Time>([s](uint64_t, uint64_t, Time) {
                    ++s->lost;
                    s->lossTimes.push_back(Simulator::Now());
                }));
        }));
    const uint64_t bytes = 3'000'000;
    PacketSinkHelper sink("ns3::QuicCcSocketFactory",
                          InetSocketAddress(Ipv4Address::GetAny(), kPort));
    sink.Install(net.nodes.Get(1));
    BulkSendHelper bulk("ns3::QuicCcSocketFactory",
                        InetSocketAddress(net.interfaces.GetAddress(1), kPort));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    bulk.Install(net.nodes.Get(0));
    // The documented Config path reaches the sender's socket once it exists, with a TCP-style
    // (uint32_t) cwnd sink.
    uint32_t pathMatches = 0;
    Simulator::Schedule(MilliSeconds(1), [&]() {
        const std::string path =
            "/NodeList/0/$ns3::QuicCcSocketFactory/SocketList/0/CongestionWindow";
        pathMatches =
            Config::LookupMatches("/NodeList/0/$ns3::QuicCcSocketFactory/SocketList/0").GetN();
        Config::ConnectWithoutContext(
            path,
            Callback<void, uint32_t, uint32_t>([s](uint32_t, uint32_t) { ++s->configPathCwnd; }));
    });
    Simulator::Stop(Seconds(60));
    Simulator::Run();

    NS_TEST_ASSERT_MSG_EQ(pathMatches, 1, "Config path to SocketList/0");
    NS_TEST_ASSERT_MSG_GT(seen.configPathCwnd, 10, "cwnd changes seen through the Config path");
    NS_TEST_ASSERT_MSG_EQ(seen.cwnd.front(), 10 * kMss, "first cwnd value: the initial window");
    NS_TEST_ASSERT_MSG_EQ(seen.cwnd.back(),
                          seen.sender->GetCongestionController()->GetCongestionWindow(),
                          "last traced cwnd equals the controller's");
    NS_TEST_ASSERT_MSG_GT(seen.ssthresh.size(), 0, "ssthresh set by a congestion event");
    NS_TEST_ASSERT_MSG_GT(seen.reductionsChecked, 3, "several reductions observed");
    NS_TEST_ASSERT_MSG_EQ(seen.ssthreshMismatches,
                          0,
                          "cwnd == the new ssthresh after each CUBIC reduction");
    NS_TEST_ASSERT_MSG_GT(seen.lost, 0, "2 % loss declares packets lost");
    NS_TEST_ASSERT_MSG_EQ(seen.recoveryStarts.front(),
                          seen.lossTimes.front(),
                          "R = the time of the first loss detection (RFC 9002 Section 7.3.2)");
    NS_TEST_ASSERT_MSG_EQ(seen.bytesInFlight.back(), 0, "nothing in flight at the end");
    for (uint64_t b : seen.bytesInFlight)
    {
        NS_TEST_ASSERT_MSG_LT_OR_EQ(b,
                                    seen.maxCwnd + 2 * kMss,
                                    "bytes in flight within cwnd plus two probes");
    }
    NS_TEST_ASSERT_MSG_GT(seen.rttSamples, 100, "RTT samples");
    NS_TEST_ASSERT_MSG_EQ(seen.rttConsistent,
                          true,
                          "min <= latest, min >= path RTT 10 ms, smoothed >= min");
    NS_TEST_ASSERT_MSG_GT_OR_EQ(seen.sent,
                                seen.acked + seen.lost,
                                "every acked or lost packet was sent");
    NS_TEST_ASSERT_MSG_GT(seen.received, 0, "the sender receives ACK packets");
    bool sawRecovery = false;
    bool sawCa = false;
    for (QuicCongestionState st : seen.states)
    {
        sawRecovery = sawRecovery || st == QUIC_CC_RECOVERY;
        sawCa = sawCa || st == QUIC_CC_CONGESTION_AVOIDANCE;
    }
    NS_TEST_ASSERT_MSG_EQ(sawRecovery && sawCa,
                          true,
                          "state passes through recovery and avoidance");

    // The qlog of the same connection.
    const std::string file = FindQlog(qlogDir, "quic-cc-node0-client-");
    NS_TEST_ASSERT_MSG_NE(file, "", "sender qlog file written");
    std::string error;
    const std::vector<nlohmann::json> records = ReadQlog(file, error);
    NS_TEST_ASSERT_MSG_EQ(error, "", "JSON-SEQ framing");
    NS_TEST_ASSERT_MSG_EQ(records.front()["file_schema"],
                          "urn:ietf:params:qlog:file:sequential",
                          "header (draft-ietf-quic-qlog-main-schema-13 QlogFileSeq)");
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
        if (name == "quic:recovery_metrics_updated" && data.contains("congestion_window"))
        {
            cwnd.push_back(data["congestion_window"].get<uint64_t>());
        }
        if (name == "quic:recovery_metrics_updated" && data.contains("bytes_in_flight"))
        {
            bif.push_back(data["bytes_in_flight"].get<uint64_t>());
        }
        if (name == "quic:congestion_state_updated")
        {
            states.push_back(data["new"].get<std::string>());
        }
        lost += name == "quic:packet_lost" ? 1 : 0;
    }
    NS_TEST_ASSERT_MSG_EQ(monotonic, true, "timestamps never go backwards");
    const bool sameCwnd = cwnd == seen.cwnd;
    const bool sameBif = bif == seen.bytesInFlight;
    NS_TEST_ASSERT_MSG_EQ(sameCwnd, true, "qlog cwnd sequence == traced cwnd sequence");
    NS_TEST_ASSERT_MSG_EQ(sameBif, true, "qlog bytes_in_flight == traced");
    NS_TEST_ASSERT_MSG_EQ(lost, seen.lost, "qlog packet_lost count == traced");
    NS_TEST_ASSERT_MSG_EQ(states.size() + 1,
                          seen.states.size(),
                          "one qlog state update per traced change");
    for (size_t i = 0; i < states.size(); ++i)
    {
        NS_TEST_ASSERT_MSG_EQ(states[i],
                              QuicCongestionStateName(seen.states[i + 1]),
                              "state names");
    }
    Simulator::Destroy();
}

/// Test: the qlog of a failing 2020-logic run, read back, shows cwnd held at 2700 B after 3 s,
/// no loss, and the recovery <-> avoidance updates as logged.
class QuicCcDeathSpiralQlogTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcDeathSpiralQlogTestCase()
        : quiccc::test::SimulationTestCase(
              "qlog of a trapped cubic LastSent run: cwnd 2700 B after 3 s, no loss, state flips")
    {
    }

  private:
    void DoRun() override
    {
        QuicCcDeathSpiralParams p;
        p.quic = QuicCcTransportSpec("quic-cc", "cubic");
        p.quic.SetController("IdleRestart", StringValue("LastSent"));
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
            if (name == "quic:recovery_metrics_updated" && data.contains("congestion_window"))
            {
                lastCwnd = data["congestion_window"];
            }
            if (e["time"].get<double>() < 3000)
            {
                continue;
            }
            if (name == "quic:recovery_metrics_updated" && data.contains("congestion_window"))
            {
                ++cwndAfter;
                cwndNot2700 += data["congestion_window"] == 2700 ? 0 : 1;
            }
            lostAfter += name == "quic:packet_lost" ? 1 : 0;
            flips += name == "quic:congestion_state_updated" ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(lastCwnd, 2700, "cwnd held at 2 x 1350 B");
        NS_TEST_ASSERT_MSG_EQ(cwndNot2700, 0, "no other cwnd value after 3 s");
        NS_TEST_ASSERT_MSG_EQ(lostAfter, 0, "no loss after 3 s");
        NS_TEST_ASSERT_MSG_GT(flips, 1000, "two state updates per round trip for 7 s");
        (void)cwndAfter;
    }
};

/// (old, new) pairs of one trace source.
template <typename T>
using Changes = std::vector<std::pair<T, T>>;

/// A trace sink that appends each (old, new) call to \p out.
template <typename T>
Callback<void, T, T>
Recorder(Changes<T>* out)
{
    return Callback<void, T, T>(
        [out](T oldValue, T newValue) { out->emplace_back(oldValue, newValue); });
}

/// What a TCP-width (uint32_t) trace must show for a 64-bit sequence: values above 2^32-1 read
/// as UINT32_MAX, and a change that saturates to the same value is not reported.
Changes<uint32_t>
Saturated(const Changes<uint64_t>& wide)
{
    const auto sat = [](uint64_t v) {
        return static_cast<uint32_t>(std::min<uint64_t>(v, std::numeric_limits<uint32_t>::max()));
    };
    Changes<uint32_t> out;
    for (const auto& [oldValue, newValue] : wide)
    {
        if (sat(oldValue) != sat(newValue))
        {
            out.emplace_back(sat(oldValue), sat(newValue));
        }
    }
    return out;
}

/// Test: QuicCcHelper::ConnectSocketTrace(WithoutContext), called before Simulator::Run, connects
/// TCP-style sinks to the sender's and the accepted server socket's traces from the initial
/// window on; the TCP-width CongestionWindow/SlowStartThreshold equal the saturated 64-bit ones.
class QuicCcHelperSocketTraceTestCase : public quiccc::test::SimulationTestCase
{
  public:
    QuicCcHelperSocketTraceTestCase()
        : quiccc::test::SimulationTestCase(
              "helper connects TCP-style cwnd sinks before Run: initial window, accepted sockets, "
              "uint32 = saturated uint64")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetRun(2);
        QuicCcHelper quic;
        quic.SetCongestionControl("ns3::QuicCubic");
        TwoNodes net(quic, "20Mbps");
        net.AddLoss(0.02);

        Changes<uint32_t> cwnd32;
        Changes<uint64_t> cwnd64;
        Changes<uint32_t> ssthresh32;
        Changes<uint64_t> ssthresh64;
        std::map<std::string, Changes<uint32_t>> byPath;
        // The sinks have the signature of ns-3 TCP cwnd tracers: void (uint32_t, uint32_t).
        quic.ConnectSocketTraceWithoutContext(net.nodes.Get(0),
                                              "CongestionWindow",
                                              Recorder(&cwnd32));
        quic.ConnectSocketTraceWithoutContext(net.nodes.Get(0),
                                              "CongestionWindow64",
                                              Recorder(&cwnd64));
        quic.ConnectSocketTraceWithoutContext(net.nodes.Get(0),
                                              "SlowStartThreshold",
                                              Recorder(&ssthresh32));
        quic.ConnectSocketTraceWithoutContext(net.nodes.Get(0),
                                              "SlowStartThreshold64",
                                              Recorder(&ssthresh64));
        quic.ConnectSocketTrace(net.nodes,
                                "CongestionWindow",
                                Callback<void, std::string, uint32_t, uint32_t>(
                                    [&](std::string path, uint32_t o, uint32_t n) {
                                        byPath[path].emplace_back(o, n);
                                    }));

        const uint64_t bytes = 2'000'000;
        PacketSinkHelper sink("ns3::QuicCcSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), kPort));
        ApplicationContainer sinkApp = sink.Install(net.nodes.Get(1));
        BulkSendHelper bulk("ns3::QuicCcSocketFactory",
                            InetSocketAddress(net.interfaces.GetAddress(1), kPort));
        bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
        bulk.Install(net.nodes.Get(0)).Start(Seconds(0.5));
        Simulator::Stop(Seconds(60));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(DynamicCast<PacketSink>(sinkApp.Get(0))->GetTotalRx(),
                              bytes,
                              "transfer complete");
        const std::pair<uint32_t, uint32_t> initial{0, 10 * kMss};
        NS_TEST_ASSERT_MSG_GT(cwnd32.size(), 10, "cwnd changes traced");
        NS_TEST_ASSERT_MSG_EQ((cwnd32.front() == initial),
                              true,
                              "first TCP-width cwnd call: 0 -> initial window");
        NS_TEST_ASSERT_MSG_EQ((cwnd32 == Saturated(cwnd64)),
                              true,
                              "CongestionWindow = saturated CongestionWindow64");
        NS_TEST_ASSERT_MSG_GT(ssthresh32.size(), 0, "ssthresh set by congestion events");
        NS_TEST_ASSERT_MSG_EQ(ssthresh32.front().first,
                              std::numeric_limits<uint32_t>::max(),
                              "the unset initial ssthresh reads as UINT32_MAX, as TCP's");
        NS_TEST_ASSERT_MSG_EQ(ssthresh64.front().first,
                              std::numeric_limits<uint64_t>::max(),
                              "SlowStartThreshold64 keeps UINT64_MAX for 'not set'");
        NS_TEST_ASSERT_MSG_EQ((ssthresh32 == Saturated(ssthresh64)),
                              true,
                              "SlowStartThreshold = saturated SlowStartThreshold64");

        // Node 1: SocketList/0 is the listener (no connection, no cwnd), SocketList/1 the
        // connection it accepted; node 0: the BulkSend socket.
        const std::string prefix = "/$ns3::QuicCcSocketFactory/SocketList/";
        const std::string sender = "/NodeList/0" + prefix + "0/CongestionWindow";
        const std::string accepted = "/NodeList/1" + prefix + "1/CongestionWindow";
        NS_TEST_ASSERT_MSG_EQ(byPath.size(),
                              2,
                              "two connections traced (sender and accepted socket)");
        NS_TEST_ASSERT_MSG_EQ(byPath.count(sender), 1, "context = the sender socket's Config path");
        NS_TEST_ASSERT_MSG_EQ(byPath.count(accepted),
                              1,
                              "context = the accepted socket's Config path");
        NS_TEST_ASSERT_MSG_EQ((byPath[sender] == cwnd32),
                              true,
                              "with and without context: same values");
        NS_TEST_ASSERT_MSG_EQ((byPath[accepted].front() == initial),
                              true,
                              "accepted server socket: first call 0 -> initial window");
        Simulator::Destroy();
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
        AddTestCase(new QuicCcHelperSocketTraceTestCase, QUICCC_TEST_QUICK);
        AddTestCase(new QuicCcQlogStopMidTransferTestCase, QUICCC_TEST_QUICK);
    }
};

static QuicCcObservabilityTestSuite g_quicCcObservabilityTestSuite; //!< registers the suite
