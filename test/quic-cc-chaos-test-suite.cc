/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * quic-cc-chaos: hostile paths. Each case moves a known byte pattern from a client to a server
 * and must end in exactly one of the documented ways: every byte delivered once, in order, and
 * both sides closing normally; or (100 % loss) the error close callbacks at the idle timeout.
 * It must never hang (a watchdog fails the case if events are still pending long after the
 * ending), and the sender's sent-packet record must stay bounded by its congestion window
 * (QuicCcSocket::GetSentPacketRecordPeak() against the largest cwnd seen). Deterministic: a fixed
 * seed and run per case.
 */
#include "quic-cc-test-case.h"
#include "quic-cc-test-compat.h"
#include "quic-cc-test-topology.h"

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/quic-cc-compat.h"
#include "ns3/quic-cc-socket.h"
#include "ns3/test.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>

using namespace ns3;
using namespace ns3::quiccc::test;

namespace
{

constexpr uint16_t kPort = 4433;
constexpr uint64_t kMb = 1'000'000;

/// What a chaos case sets up around the common client -> server flow.
struct ChaosParams
{
    std::string rate{"100Mbps"};
    Time oneWayDelay{MilliSeconds(10)};
    uint32_t bufferPackets{1000};
    uint64_t bytes{2 * kMb};
    uint32_t sndBufBytes{128u << 20};
    Time idleTimeout{Seconds(30)};
    /// 0: the server reads everything as it arrives; otherwise bytes read per 10 ms poll.
    uint32_t slowReadBytes{0};
    bool flowControl{false};  //!< QuicCcSocket::FlowControl on both ends
    Time limit{Seconds(300)}; //!< watchdog: the flow must have ended well before
};

/// The client writes the pattern and closes; the server checks every byte. Records the endings,
/// the largest cwnd and the sender's record peak.
class ChaosFlow
{
  public:
    ChaosFlow(const TwoNodes& net, const ChaosParams& params)
        : m_params(params),
          m_net(net)
    {
        m_listener = net.CreateSocket(1);
        m_listener->SetAttribute("FlowControl", BooleanValue(params.flowControl));
        m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
        m_listener->Listen();
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&ChaosFlow::OnAccept, this));
        m_client = DynamicCast<QuicCcSocket>(net.CreateSocket(0));
        m_client->SetAttribute("SndBufSize", UintegerValue(params.sndBufBytes));
        m_client->SetAttribute("FlowControl", BooleanValue(params.flowControl));
        m_client->TraceConnectWithoutContext("CongestionWindow64",
                                             MakeCallback(&ChaosFlow::OnCwnd, this));
        m_writer = std::make_unique<PatternWriter>(m_client, params.bytes);
        m_client->SetConnectCallback(MakeCallback(&ChaosFlow::OnConnected, this),
                                     MakeCallback(&ChaosFlow::OnClientFailed, this));
        m_client->SetCloseCallbacks(MakeCallback(&ChaosFlow::OnClientNormal, this),
                                    MakeCallback(&ChaosFlow::OnClientError, this));
        Simulator::ScheduleNow([this]() {
            m_client->Connect(InetSocketAddress(m_net.interfaces.GetAddress(1), kPort));
        });
        m_watchdog = Simulator::Schedule(params.limit, &ChaosFlow::OnWatchdog, this);
    }

    /// Run until no event is left (the watchdog stops a run that would not end).
    void Run()
    {
        Simulator::Run();
    }

    /// Called once per received-byte milestone: \p fn runs when the server has \p bytes.
    void AtReceived(uint64_t bytes, std::function<void()> fn)
    {
        m_milestones.emplace_back(bytes, std::move(fn));
    }

    const PatternReader& Reader() const
    {
        return m_reader;
    }

    Ptr<QuicCcSocket> Client() const
    {
        return m_client;
    }

    uint64_t MaxCwnd() const
    {
        return m_maxCwnd;
    }

    bool WatchdogFired() const
    {
        return m_watchdogFired;
    }

    uint32_t ClientNormal() const
    {
        return m_clientNormal;
    }

    uint32_t ClientError() const
    {
        return m_clientError;
    }

    uint32_t ClientFailed() const
    {
        return m_clientFailed;
    }

    uint32_t ServerNormal() const
    {
        return m_serverNormal;
    }

    uint32_t ServerError() const
    {
        return m_serverError;
    }

    Time EndedAt() const
    {
        return m_endedAt;
    }

    uint64_t PeakUnread() const
    {
        return m_peakUnread;
    }

    /// The record never holds more packets than two windows of full-size packets (in flight,
    /// plus acked or lost ones kept behind the oldest outstanding one), plus PTO probes.
    uint64_t RecordBound() const
    {
        return 2 * m_maxCwnd / 1200 + 16;
    }

  private:
    void OnConnected(Ptr<Socket>)
    {
        m_writer->Start();
    }

    void OnAccept(Ptr<Socket> s, const Address&)
    {
        m_server = s;
        s->SetCloseCallbacks(MakeCallback(&ChaosFlow::OnServerNormal, this),
                             MakeCallback(&ChaosFlow::OnServerError, this));
        if (m_params.slowReadBytes == 0)
        {
            s->SetRecvCallback(MakeCallback(&ChaosFlow::OnReadable, this));
        }
        else
        {
            Simulator::Schedule(MilliSeconds(10), &ChaosFlow::SlowRead, this);
        }
    }

    void OnReadable(Ptr<Socket> s)
    {
        while (m_reader.ReadUpTo(s, std::numeric_limits<uint32_t>::max()) > 0)
        {
        }
        CheckMilestones();
    }

    void SlowRead()
    {
        m_peakUnread = std::max<uint64_t>(m_peakUnread, m_server->GetRxAvailable());
        m_reader.ReadUpTo(m_server, m_params.slowReadBytes);
        CheckMilestones();
        // The bytes stay readable after the connection closed (the peer's Close() completes
        // once everything is acknowledged, long before this application has read it all).
        if (m_reader.Received() < m_params.bytes &&
            (!m_serverEnded || m_server->GetRxAvailable() > 0))
        {
            Simulator::Schedule(MilliSeconds(10), &ChaosFlow::SlowRead, this);
        }
    }

    void CheckMilestones()
    {
        while (!m_milestones.empty() && m_reader.Received() >= m_milestones.front().first)
        {
            auto fn = std::move(m_milestones.front().second);
            m_milestones.erase(m_milestones.begin());
            fn();
        }
    }

    void OnCwnd(uint64_t, uint64_t cwnd)
    {
        m_maxCwnd = std::max(m_maxCwnd, cwnd);
    }

    void OnClientNormal(Ptr<Socket>)
    {
        Ended(m_clientNormal);
    }

    void OnClientError(Ptr<Socket>)
    {
        Ended(m_clientError);
    }

    void OnClientFailed(Ptr<Socket>)
    {
        Ended(m_clientFailed);
    }

    void OnServerNormal(Ptr<Socket>)
    {
        m_serverEnded = true;
        Ended(m_serverNormal);
    }

    void OnServerError(Ptr<Socket>)
    {
        m_serverEnded = true;
        Ended(m_serverError);
    }

    /// An ending: what remains (closing handshakes, stray reinjections, cancelled timers, which
    /// ns-3 keeps in the queue until their time) must be gone 120 s later, or the watchdog stops
    /// the run and the case fails.
    void Ended(uint32_t& counter)
    {
        ++counter;
        m_endedAt = Simulator::Now();
        Simulator::Remove(m_watchdog);
        m_watchdog = Simulator::Schedule(Seconds(120), &ChaosFlow::OnWatchdog, this);
    }

    /// Fails the run only if something other than the watchdog is still scheduled (the
    /// watchdog has left the event queue when it runs).
    void OnWatchdog()
    {
        if (!Simulator::IsFinished())
        {
            m_watchdogFired = true;
            Simulator::Stop();
        }
    }

    ChaosParams m_params;
    const TwoNodes& m_net;
    Ptr<Socket> m_listener;
    Ptr<QuicCcSocket> m_client;
    Ptr<Socket> m_server;
    std::unique_ptr<PatternWriter> m_writer;
    PatternReader m_reader;
    std::vector<std::pair<uint64_t, std::function<void()>>> m_milestones;
    EventId m_watchdog;
    bool m_watchdogFired{false};
    bool m_serverEnded{false};
    uint64_t m_maxCwnd{0};
    uint64_t m_peakUnread{0};
    uint32_t m_clientNormal{0};
    uint32_t m_clientError{0};
    uint32_t m_clientFailed{0};
    uint32_t m_serverNormal{0};
    uint32_t m_serverError{0};
    Time m_endedAt;
};

/// Base of the chaos cases: builds the path and the flow, runs, checks the common outcome.
class ChaosTestCase : public quiccc::test::SimulationTestCase
{
  public:
    ChaosTestCase(const std::string& name, uint32_t run)
        : quiccc::test::SimulationTestCase(name),
          m_run(run)
    {
    }

  protected:
    /// Set the path up and return its parameters (called before the flow exists).
    virtual ChaosParams Params() = 0;
    /// Add the chaos to \p net and \p flow (after both exist).
    virtual void Disturb(TwoNodes& net, ChaosFlow& flow) = 0;

    /// Extra assertions after the run.
    virtual void Check(TwoNodes& net, ChaosFlow& flow)
    {
    }

    /// true: the documented ending is the error close at the idle timeout, not delivery.
    virtual bool ExpectsIdleTimeout() const
    {
        return false;
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(13);
        RngSeedManager::SetRun(m_run);
        const ChaosParams params = Params();
        QuicCcHelper quic;
        quic.SetCongestionControl("ns3::QuicCubic");
        quic.SetSocketAttribute("IdleTimeout", TimeValue(params.idleTimeout));
        TwoNodes net(quic, params.rate, params.oneWayDelay, params.bufferPackets);
        ChaosFlow flow(net, params);
        Disturb(net, flow);
        flow.Run();

        NS_TEST_EXPECT_MSG_EQ(flow.WatchdogFired(), false, "the run must end by itself (no hang)");
        NS_TEST_EXPECT_MSG_EQ(flow.Reader().Mismatches(), 0, "every received byte in order");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(flow.Client()->GetSentPacketRecordPeak(),
                                    flow.RecordBound(),
                                    "sent-packet record bounded by the window (largest cwnd "
                                        << flow.MaxCwnd() << " B)");
        if (ExpectsIdleTimeout())
        {
            NS_TEST_EXPECT_MSG_LT(flow.Reader().Received(),
                                  params.bytes,
                                  "not everything can arrive");
            NS_TEST_EXPECT_MSG_EQ(flow.ClientError(), 1, "client: error close at the idle timeout");
            NS_TEST_EXPECT_MSG_EQ(flow.ServerError(), 1, "server: error close at the idle timeout");
            NS_TEST_EXPECT_MSG_EQ(flow.ClientNormal() + flow.ServerNormal(), 0, "no normal close");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(flow.Reader().Received(), params.bytes, "every byte delivered");
            NS_TEST_EXPECT_MSG_EQ(flow.ClientNormal(), 1, "client: Close() completes");
            NS_TEST_EXPECT_MSG_EQ(flow.ServerNormal(), 1, "server: normal close");
            NS_TEST_EXPECT_MSG_EQ(flow.ClientError() + flow.ServerError() + flow.ClientFailed(),
                                  0,
                                  "no error");
        }
        Check(net, flow);
        std::clog << "  chaos [" << GetName() << "]: delivered " << flow.Reader().Received()
                  << " of " << params.bytes << " B, ended at " << flow.EndedAt().As(Time::S)
                  << ", record peak " << flow.Client()->GetSentPacketRecordPeak()
                  << " packets (bound " << flow.RecordBound() << "), largest cwnd "
                  << flow.MaxCwnd() << " B, lost "
                  << flow.Client()->GetLossDetection()->GetLostPacketCount() << ", spurious "
                  << flow.Client()->GetLossDetection()->GetSpuriousLossCount() << std::endl;
        Simulator::Destroy();
    }

    uint32_t m_run;
};

/// Reordering and/or duplication on both receivers (ReorderDuplicateModel).
class ReorderDuplicateCase : public ChaosTestCase
{
  public:
    ReorderDuplicateCase(const std::string& name,
                         double reorder,
                         double duplicate,
                         uint32_t extraRtts)
        : ChaosTestCase(name, 21),
          m_reorder(reorder),
          m_duplicate(duplicate),
          m_extraRtts(extraRtts)
    {
    }

  private:
    ChaosParams Params() override
    {
        ChaosParams p;
        p.rate = "50Mbps";
        p.bytes = 3 * kMb;
        return p;
    }

    void Disturb(TwoNodes& net, ChaosFlow&) override
    {
        const Time rtt = 2 * MilliSeconds(10);
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<ReorderDuplicateModel> m = CreateObject<ReorderDuplicateModel>();
            m->Configure(DynamicCast<PointToPointNetDevice>(net.devices.Get(i)),
                         m_reorder,
                         m_duplicate,
                         rtt * static_cast<int64_t>(m_extraRtts));
            net.devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(m));
            m_models.push_back(m);
        }
    }

    void Check(TwoNodes&, ChaosFlow&) override
    {
        // Data flows to node 1: its model must really have disturbed hundreds of packets.
        if (m_reorder > 0)
        {
            NS_TEST_EXPECT_MSG_GT(m_models[1]->Reordered(), 100, "packets held back");
        }
        if (m_duplicate > 0)
        {
            NS_TEST_EXPECT_MSG_GT(m_models[1]->Duplicated(), 50, "packets duplicated");
        }
    }

    double m_reorder;
    double m_duplicate;
    uint32_t m_extraRtts;
    std::vector<Ptr<ReorderDuplicateModel>> m_models;
};

/// Every packet in both directions is lost for a while (or for good: until the idle timeout).
class BlackholeCase : public ChaosTestCase
{
  public:
    /// \param length  blackhole length; Time(0) = it never ends
    BlackholeCase(const std::string& name, Time length)
        : ChaosTestCase(name, 22),
          m_length(length)
    {
    }

  private:
    ChaosParams Params() override
    {
        ChaosParams p;
        p.bytes = 4 * kMb;
        p.idleTimeout = Seconds(10);
        return p;
    }

    void Disturb(TwoNodes& net, ChaosFlow& flow) override
    {
        m_loss = net.AddLoss(1.0);
        for (auto& em : m_loss)
        {
            em->Disable();
        }
        // Starts once a quarter of the stream has arrived: mid-transfer whatever the speed.
        flow.AtReceived(kMb, [this, &flow]() {
            m_start = Simulator::Now();
            m_ptoAtStart = flow.Client()->GetLossDetection()->GetRttStats().GetPtoBase();
            for (auto& em : m_loss)
            {
                em->Enable();
                if (m_length.IsStrictlyPositive())
                {
                    Simulator::Schedule(m_length, &RateErrorModel::Disable, em);
                }
            }
        });
    }

    void Check(TwoNodes&, ChaosFlow& flow) override
    {
        NS_TEST_EXPECT_MSG_GT(m_start, Time(0), "the blackhole started");
        if (m_length.IsStrictlyPositive())
        {
            // More than three consecutive PTOs fit in it (1 + 2 + 4 PTO periods, backed off).
            NS_TEST_EXPECT_MSG_GT(m_length, 7 * m_ptoAtStart, "blackhole longer than three PTOs");
            NS_TEST_EXPECT_MSG_GT(flow.EndedAt(),
                                  m_start + m_length,
                                  "delivery completed after it");
        }
        else
        {
            // The last packet got through at the blackhole's start; the idle timeout is 10 s.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(flow.EndedAt(),
                                        m_start + Seconds(10),
                                        "not before the idle timeout");
            NS_TEST_EXPECT_MSG_LT(flow.EndedAt(), m_start + Seconds(11), "at the idle timeout");
        }
    }

    bool ExpectsIdleTimeout() const override
    {
        return !m_length.IsStrictlyPositive();
    }

    Time m_length;
    std::vector<Ptr<RateErrorModel>> m_loss;
    Time m_start;
    Time m_ptoAtStart;
};

/// The bottleneck rate drops 100x once 0.5 MB of 3 MB has arrived (100 Mbps -> 1 Mbps, both
/// directions).
class RateDropCase : public ChaosTestCase
{
  public:
    RateDropCase()
        : ChaosTestCase("bottleneck rate drops 100x mid-transfer (100 Mbps -> 1 Mbps)", 23)
    {
    }

  private:
    ChaosParams Params() override
    {
        ChaosParams p;
        p.bufferPackets = 100;
        p.bytes = 3 * kMb;
        return p;
    }

    void Disturb(TwoNodes& net, ChaosFlow& flow) override
    {
        flow.AtReceived(kMb / 2, [this, &net]() {
            m_dropAt = Simulator::Now();
            for (uint32_t i = 0; i < 2; ++i)
            {
                net.devices.Get(i)->SetAttribute("DataRate", DataRateValue(DataRate("1Mbps")));
            }
        });
    }

    void Check(TwoNodes&, ChaosFlow& flow) override
    {
        NS_TEST_EXPECT_MSG_GT(m_dropAt, Time(0), "the rate dropped");
        // 2.5 MB were still to arrive, at most one window (< 0.9 MB) of it already past the
        // bottleneck: more than 1.6 MB (12.8 Mbit) went at 1 Mbps.
        NS_TEST_EXPECT_MSG_GT(flow.EndedAt(), m_dropAt + Seconds(12.8), "the rest went at 1 Mbps");
    }

    Time m_dropAt;
};

/// A long fat path: 10 Gbps, 500 ms RTT (BDP 625 MB); windows grow to tens or hundreds of MB.
class LongFatPathCase : public ChaosTestCase
{
  public:
    /// \param bufferPackets  bottleneck buffer: slow start ends in loss near BDP + buffer
    LongFatPathCase(uint64_t bytes, uint32_t bufferPackets, uint64_t minCwnd)
        : ChaosTestCase("10 Gbps x 500 ms path, " + std::to_string(bytes / kMb) + " MB, " +
                            std::to_string(bufferPackets) + "-packet buffer",
                        24),
          m_bytes(bytes),
          m_bufferPackets(bufferPackets),
          m_minCwnd(minCwnd)
    {
    }

  private:
    ChaosParams Params() override
    {
        ChaosParams p;
        p.rate = "10Gbps";
        p.oneWayDelay = MilliSeconds(250);
        p.bufferPackets = m_bufferPackets;
        p.bytes = m_bytes;
        p.sndBufBytes = std::numeric_limits<uint32_t>::max();
        p.limit = Seconds(600);
        return p;
    }

    void Disturb(TwoNodes&, ChaosFlow&) override
    {
    }

    void Check(TwoNodes&, ChaosFlow& flow) override
    {
        NS_TEST_EXPECT_MSG_GT_OR_EQ(flow.MaxCwnd(), m_minCwnd, "the window really grew");
    }

    uint64_t m_bytes;
    uint32_t m_bufferPackets;
    uint64_t m_minCwnd;
};

/// The server application reads only 16 KB every 10 ms (1.6 MB/s) from a 100 Mbps path, without
/// and with flow control (QuicCcSocket::FlowControl).
class SlowReaderCase : public ChaosTestCase
{
  public:
    explicit SlowReaderCase(bool flowControl)
        : ChaosTestCase(std::string("receiving application reads slowly (16 KB per 10 ms on a "
                                    "100 Mbps path), flow control ") +
                            (flowControl ? "on" : "off"),
                        25),
          m_flowControl(flowControl)
    {
    }

  private:
    ChaosParams Params() override
    {
        ChaosParams p;
        p.bytes = 4 * kMb;
        p.slowReadBytes = 16'000;
        p.flowControl = m_flowControl;
        return p;
    }

    void Disturb(TwoNodes&, ChaosFlow&) override
    {
    }

    void Check(TwoNodes&, ChaosFlow& flow) override
    {
        if (m_flowControl)
        {
            // RFC 9000 Section 4: the unread backlog never exceeds the stream's receive window.
            UintegerValue window;
            flow.Client()->GetAttribute("InitialMaxStreamData", window);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(flow.PeakUnread(),
                                        window.Get(),
                                        "memory bounded by InitialMaxStreamData");
            NS_TEST_EXPECT_MSG_GT(flow.PeakUnread(), window.Get() / 2, "the reader fell behind");
        }
        else
        {
            // Without flow control (QuicCcSocket::RcvBufSize limits reassembly, not unread
            // bytes): the unread backlog is what the application has not read yet.
            NS_TEST_EXPECT_MSG_GT(flow.PeakUnread(), 2 * kMb, "the reader really fell behind");
        }
        NS_TEST_EXPECT_MSG_GT(flow.Reader().LastByteTime(),
                              Seconds(2.4),
                              "reading took 4 MB / 1.6 MB/s");
    }

    bool m_flowControl;
};

/// The chaos TestSuite.
class QuicCcChaosTestSuite : public TestSuite
{
  public:
    QuicCcChaosTestSuite()
        : TestSuite("quic-cc-chaos", QUICCC_SUITE_SYSTEM)
    {
        AddTestCase(
            new ReorderDuplicateCase("10 % reordering, up to 3 RTT extra delay", 0.10, 0, 3),
            QUICCC_TEST_QUICK);
        AddTestCase(new ReorderDuplicateCase("5 % duplication", 0, 0.05, 1), QUICCC_TEST_QUICK);
        AddTestCase(new BlackholeCase("5 s blackhole mid-transfer", Seconds(5)), QUICCC_TEST_QUICK);
        AddTestCase(new BlackholeCase("100 % loss mid-transfer until the idle timeout", Time(0)),
                    QUICCC_TEST_QUICK);
        AddTestCase(new RateDropCase, QUICCC_TEST_QUICK);
        AddTestCase(new LongFatPathCase(64 * kMb, 10'000, 16 * kMb), QUICCC_TEST_QUICK);
        AddTestCase(new SlowReaderCase(false), QUICCC_TEST_QUICK);
        AddTestCase(new SlowReaderCase(true), QUICCC_TEST_QUICK);
        // 1 GB over the long fat path: windows of hundreds of MB (about 5 min; see
        // doc/quic-cc-results.rst, "Hostile paths").
        AddTestCase(new LongFatPathCase(1000 * kMb, 100'000, 100 * kMb), QUICCC_TEST_EXTENSIVE);
    }
};

static QuicCcChaosTestSuite g_quicCcChaosTestSuite; //!< registers the suite

} // namespace
