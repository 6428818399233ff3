/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicLossDetection (RFC 9002 Sections 5-6 as quiche runs it) driving a real QuicReno
 * (mss 1200 B, cwnd 12000 B, HyStart++ off), with synthetic sends and ACK ranges.
 * Reference: RFC 9002 Sections 6 and A.7 as cloudflare/quiche runs them (quiche/src/recovery/,
 * on_ack_received and detect_lost_packets). Every expected value is a literal with its arithmetic
 * beside it.
 *
 * Reminders used throughout:
 * - kInitialRtt 333 ms: before a sample, PTO base = 333 + 4 * 166.5 = 999 ms.
 * - loss_delay = 9/8 * max(latest_rtt, smoothed_rtt) (5/4 after a spurious loss).
 * - Sending 10 x 1200 B fills the 12000 B window: the 10th send clears app_limited
 *   (10800 + 1200 < 12000 is false), so slow-start ACKs then grow cwnd by 1200 per packet.
 */
#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/quic-loss-detection.h"
#include "ns3/quic-reno.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <optional>
#include <utility>
#include <vector>

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

constexpr uint64_t kPacketBytes = 1200; //!< every packet is one mss

using Ranges = std::vector<QuicCcAckRange>; // {smallest, largest}, descending
using Pns = std::vector<uint64_t>;

/// t0 of every scenario.
Time
T0()
{
    return Seconds(10);
}

/// t0 + ms milliseconds.
Time
Ms(int64_t ms)
{
    return T0() + MilliSeconds(ms);
}

/// t0 + us microseconds (for the 9/8 fractions).
Time
Us(int64_t us)
{
    return T0() + MicroSeconds(us);
}

/// Records the bytes-in-flight trace.
struct FlightRecorder
{
    void Changed(uint64_t oldBytes, uint64_t newBytes)
    {
        changes.emplace_back(oldBytes, newBytes);
    }

    std::vector<std::pair<uint64_t, uint64_t>> changes;
};

class QuicLossDetectionTest : public ::testing::Test
{
  protected:
    QuicLossDetectionTest()
        : m_reno(MakeReno()),
          m_ld(m_reno, QuicRttStats())
    {
    }

    static Ptr<QuicReno> MakeReno()
    {
        Ptr<QuicReno> reno = CreateObject<QuicReno>();
        reno->SetAttribute("HyStart", BooleanValue(false));
        reno->Configure(kPacketBytes);
        return reno;
    }

    /// One ack-eliciting packet of 1200 B.
    void Send(uint64_t pn, Time at)
    {
        m_ld.OnPacketSent(at, pn, kPacketBytes, true);
    }

    /// Packets first..last (inclusive), packet i sent at t0 + i ms.
    void SendStaggered(uint64_t first, uint64_t last)
    {
        for (uint64_t pn = first; pn <= last; ++pn)
        {
            Send(pn, Ms(static_cast<int64_t>(pn)));
        }
    }

    QuicLossDetection::AckResult Ack(Time at, const Ranges& ranges, Time ackDelay = Time(0))
    {
        return m_ld.OnAckReceived(at, ranges, ackDelay);
    }

    uint64_t Cwnd() const
    {
        return m_reno->GetCongestionWindow();
    }

    Ptr<QuicReno> m_reno;
    QuicLossDetection m_ld;
};

// ---------------------------------------------------------------------------------------------
// Bytes in flight, records

// Scenario: three 1200 B packets and one non-ack-eliciting packet; ack one, ack another, the
// third is lost on the loss timer. The trace sees every change.
TEST_F(QuicLossDetectionTest, BytesInFlightAccounting)
{
    FlightRecorder rec;
    m_ld.TraceConnectBytesInFlight(MakeCallback(&FlightRecorder::Changed, &rec));

    Send(0, T0());
    Send(1, T0());
    Send(2, T0());
    m_ld.OnPacketSent(T0(), 3, 50, false);     // not ack-eliciting: not recorded, not in flight
    EXPECT_EQ(m_ld.GetBytesInFlight(), 3600u); // 3 * 1200
    EXPECT_EQ(m_ld.GetRecordSize(), 3u);

    auto r = Ack(Ms(100), {{0, 0}});
    EXPECT_EQ(r.newlyAcked, Pns({0}));
    EXPECT_EQ(m_ld.GetBytesInFlight(), 2400u); // 3600 - 1200
    EXPECT_EQ(m_ld.GetRecordSize(), 2u);       // packet 0 leaves the front of the record

    r = Ack(Ms(110), {{2, 2}});
    // sample 110 ms; loss_delay = 9/8 * 110 = 123.75 ms; packet 1 (t0) not lost:
    // 1 + 3 > 2 and t0 > t0 + 110 - 123.75
    EXPECT_EQ(r.newlyAcked, Pns({2}));
    EXPECT_TRUE(r.lost.empty());
    EXPECT_EQ(m_ld.GetBytesInFlight(), 1200u);
    EXPECT_EQ(m_ld.GetRecordSize(), 2u); // packet 1 still pending at the front, 2 behind it
    EXPECT_EQ(m_ld.GetTimerDeadline(), Us(123750)); // t0 + 123.75 ms

    auto t = m_ld.OnTimerExpired(Us(123750));
    EXPECT_EQ(t.lost, Pns({1}));
    EXPECT_EQ(m_ld.GetBytesInFlight(), 0u);
    EXPECT_EQ(m_ld.GetTimerDeadline(), std::nullopt); // nothing in flight

    using Change = std::pair<uint64_t, uint64_t>;
    const std::vector<Change> expected{{0, 1200},
                                       {1200, 2400},
                                       {2400, 3600},
                                       {3600, 2400},
                                       {2400, 1200},
                                       {1200, 0}};
    EXPECT_EQ(rec.changes, expected);
}

// Scenario: packets that are not ack-eliciting are neither recorded nor in flight, arm no PTO
// and reach no controller; their acknowledgement acknowledges nothing.
TEST_F(QuicLossDetectionTest, NonAckElicitingPacketsNotRecorded)
{
    m_ld.OnPacketSent(T0(), 0, 40, false);
    m_ld.OnPacketSent(T0(), 1, 40, false);
    EXPECT_EQ(m_ld.GetRecordSize(), 0u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 0u);
    EXPECT_EQ(m_ld.GetTimerDeadline(), std::nullopt);
    EXPECT_FALSE(m_reno->IsAppLimited()); // the controller's send hook never ran

    auto r = Ack(Ms(100), {{0, 1}});
    EXPECT_TRUE(r.newlyAcked.empty());
    EXPECT_FALSE(m_ld.GetRttStats().HasSample());

    Send(2, Ms(100));
    EXPECT_EQ(m_ld.GetRecordSize(), 1u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 1200u);
    EXPECT_TRUE(m_reno->IsAppLimited()); // 0 + 1200 < 12000
    r = Ack(Ms(150), {{0, 2}});
    EXPECT_EQ(r.newlyAcked, Pns({2}));
    EXPECT_EQ(m_ld.GetRttStats().GetLatestRtt(), MilliSeconds(50)); // 150 - 100
    EXPECT_EQ(m_ld.GetBytesInFlight(), 0u);
}

// Scenario: an ACK range that spans packet numbers never sent acknowledges only the sent ones.
TEST_F(QuicLossDetectionTest, AckRangeWithGapsOfUnsentNumbers)
{
    Send(0, T0());
    Send(1, T0());
    Send(5, T0()); // numbers 2..4 were never sent
    auto r = Ack(Ms(100), {{0, 5}});
    EXPECT_EQ(r.newlyAcked, Pns({0, 1, 5}));
    EXPECT_EQ(m_ld.GetBytesInFlight(), 0u);
    EXPECT_EQ(m_ld.GetRecordSize(), 0u);
    EXPECT_EQ(m_ld.GetLargestAcked(), std::optional<uint64_t>(5));
}

// ---------------------------------------------------------------------------------------------
// RTT sample and controller calls

// Scenario: 10 packets, packet i sent at t0 + i ms, then ACKs of 0, of 2 and of 1.
TEST_F(QuicLossDetectionTest, RttSampleOnlyWhenLargestNewlyAckedIsNewLargest)
{
    SendStaggered(0, 9);
    EXPECT_FALSE(m_reno->IsAppLimited()); // the window is full

    auto r = Ack(Ms(100), {{0, 0}});
    // first sample: 100 - 0 = 100 ms; smoothed 100, rttvar 50
    EXPECT_EQ(r.newlyAcked, Pns({0}));
    EXPECT_EQ(m_ld.GetRttStats().GetLatestRtt(), MilliSeconds(100));
    EXPECT_EQ(Cwnd(), 13200u); // slow start: 12000 + 1200

    r = Ack(Ms(150), {{2, 2}});
    // 2 > 0 is the new largest: sample 150 - 2 = 148 ms
    // rttvar = 37.5 + |100 - 148| / 4 = 37.5 + 12 = 49.5 ms; smoothed = 87.5 + 18.5 = 106 ms
    EXPECT_EQ(m_ld.GetRttStats().GetLatestRtt(), MilliSeconds(148));
    EXPECT_EQ(m_ld.GetRttStats().GetSmoothedRtt(), MilliSeconds(106));
    EXPECT_EQ(m_ld.GetRttStats().GetRttVar(), NanoSeconds(49500000));
    EXPECT_EQ(Cwnd(), 14400u); // + 1200
    // packet 1: 2 < 1 + 3; loss_delay = 9/8 * 148 = 166.5 ms; sent t0 + 1 ms is not
    // <= t0 + 150 - 166.5: loss timer at t0 + 1 + 166.5 = t0 + 167.5 ms
    EXPECT_TRUE(r.lost.empty());
    EXPECT_EQ(m_ld.GetTimerDeadline(), Us(167500));

    r = Ack(Ms(160), {{1, 1}});
    // 1 is newly acked but below the largest acked (2): no RTT sample; the controller still
    // sees the packet
    EXPECT_EQ(r.newlyAcked, Pns({1}));
    EXPECT_EQ(m_ld.GetRttStats().GetLatestRtt(), MilliSeconds(148));
    EXPECT_EQ(m_ld.GetRttStats().GetSmoothedRtt(), MilliSeconds(106));
    EXPECT_EQ(m_ld.GetRttStats().GetRttVar(), NanoSeconds(49500000));
    EXPECT_EQ(Cwnd(), 15600u); // + 1200
    EXPECT_EQ(m_ld.GetLargestAcked(), std::optional<uint64_t>(2));
    // no loss timer left: PTO from the last send (t0 + 9 ms) + 106 + 4 * 49.5 = t0 + 313 ms
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(313));
}

// Scenario: the ack delay reaches the RTT estimator (handshake confirmed, max_ack_delay 25 ms).
TEST_F(QuicLossDetectionTest, AckDelayPassedToRttEstimator)
{
    m_ld.SetPeerMaxAckDelay(MilliSeconds(25));
    m_ld.SetHandshakeConfirmed(true);
    Send(0, T0());
    Send(1, Ms(10));
    Ack(Ms(100), {{0, 0}}, MilliSeconds(20)); // first sample 100 ms, delay ignored
    Ack(Ms(210), {{1, 1}}, MilliSeconds(40));
    // sample 200 ms, delay min(40, 25) = 25, 200 >= 100 + 25: adjusted 175 ms
    // smoothed = 87.5 + 175 / 8 = 109.375 ms; rttvar = 37.5 + 75 / 4 = 56.25 ms
    EXPECT_EQ(m_ld.GetRttStats().GetSmoothedRtt(), NanoSeconds(109375000));
    EXPECT_EQ(m_ld.GetRttStats().GetRttVar(), NanoSeconds(56250000));
}

// Scenario: duplicate ACKs and ACKs of unknown packet numbers newly ack nothing: no RTT sample,
// no controller call, no loss pass, no change to bytes in flight or the largest acked.
TEST_F(QuicLossDetectionTest, NothingNewlyAckedChangesNothing)
{
    SendStaggered(0, 9);
    Ack(Ms(100), {{0, 0}}); // sample 100 ms, cwnd 13200
    Ack(Ms(150), {{2, 2}}); // sample 148 ms, cwnd 14400, loss timer t0 + 167.5 ms
    ASSERT_EQ(Cwnd(), 14400u);
    ASSERT_EQ(m_ld.GetBytesInFlight(), 9600u); // 12000 - 2 * 1200

    // packet 2 again (still in the record), packet 0 again (already dropped from it),
    // and numbers never sent
    for (const Ranges& ranges : {Ranges{{2, 2}}, Ranges{{0, 0}}, Ranges{{50, 60}, {20, 30}}})
    {
        auto r = Ack(Ms(155), ranges);
        EXPECT_TRUE(r.newlyAcked.empty());
        EXPECT_TRUE(r.lost.empty());
        EXPECT_TRUE(r.spurious.empty());
    }
    EXPECT_EQ(m_ld.GetRttStats().GetLatestRtt(), MilliSeconds(148));
    EXPECT_EQ(m_ld.GetRttStats().GetSmoothedRtt(), MilliSeconds(106));
    EXPECT_EQ(Cwnd(), 14400u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 9600u);
    EXPECT_EQ(m_ld.GetLargestAcked(), std::optional<uint64_t>(2)); // not 60
    EXPECT_EQ(m_ld.GetTimerDeadline(), Us(167500));                // loss timer unchanged

    // an empty frame is harmless too
    auto r = Ack(Ms(156), {});
    EXPECT_TRUE(r.newlyAcked.empty());
    EXPECT_EQ(m_ld.GetBytesInFlight(), 9600u);
}

// Scenario: an ACK of packet numbers never sent, before any other ACK.
TEST_F(QuicLossDetectionTest, AckOfUnknownPacketNumbersIgnored)
{
    Send(0, T0());
    Send(1, T0());
    auto r = Ack(Ms(100), {{7, 9}});
    EXPECT_TRUE(r.newlyAcked.empty());
    EXPECT_EQ(m_ld.GetLargestAcked(), std::nullopt);
    EXPECT_FALSE(m_ld.GetRttStats().HasSample());
    EXPECT_EQ(m_ld.GetBytesInFlight(), 2400u);
    EXPECT_EQ(m_ld.GetRecordSize(), 2u);
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(999)); // PTO: t0 + 999 ms, untouched
}

// ---------------------------------------------------------------------------------------------
// Loss detection

// Scenario: 4 packets (packet i at t0 + i ms); the ACK of 3 loses 0 by packet threshold only.
TEST_F(QuicLossDetectionTest, PacketThresholdLoss)
{
    SendStaggered(0, 3);
    auto r = Ack(Ms(50), {{3, 3}});
    // sample 50 - 3 = 47 ms. Packet 0: 3 >= 0 + 3, lost. Packet 1: 3 < 1 + 3, and
    // loss_delay = 9/8 * 47 = 52.875 ms: t0 + 1 > t0 + 50 - 52.875, not lost:
    // loss timer at t0 + 1 + 52.875 = t0 + 53.875 ms
    EXPECT_EQ(r.newlyAcked, Pns({3}));
    EXPECT_EQ(r.lost, Pns({0}));
    EXPECT_EQ(m_ld.GetTimerDeadline(), Us(53875));
    EXPECT_EQ(m_ld.GetBytesInFlight(), 2400u); // 4800 - 1200 lost - 1200 acked
    EXPECT_EQ(m_ld.GetLostPacketCount(), 1u);
    EXPECT_EQ(m_reno->GetLostCount(), 1u);
    // congestion event: 12000 * 0.5
    EXPECT_EQ(Cwnd(), 6000u);
    EXPECT_EQ(m_reno->GetSlowStartThreshold(), 6000u);
    EXPECT_EQ(m_reno->GetRecoveryStartTime(), std::optional<Time>(Ms(50)));
}

// Scenario: packet 0 at t0, 1 at t0 + 30 ms, 2 at t0 + 40 ms; the ACK of 2 at t0 + 140 ms
// loses 0 by time; the loss timer then loses 1.
TEST_F(QuicLossDetectionTest, TimeThresholdLossAndLossTimer)
{
    Send(0, T0());
    Send(1, Ms(30));
    Send(2, Ms(40));
    auto r = Ack(Ms(140), {{2, 2}});
    // sample 100 ms: loss_delay = 9/8 * 100 = 112.5 ms; lost if sent <= t0 + 140 - 112.5
    // = t0 + 27.5 ms. Packet 0 (t0): lost. Packet 1 (t0 + 30 ms): not lost; the scan stops
    // and arms the loss timer at t0 + 30 + 112.5 = t0 + 142.5 ms.
    EXPECT_EQ(r.lost, Pns({0}));
    EXPECT_EQ(m_ld.GetTimerDeadline(), Us(142500));
    EXPECT_EQ(Cwnd(), 6000u);
    EXPECT_EQ(m_reno->GetRecoveryStartTime(), std::optional<Time>(Ms(140)));
    EXPECT_EQ(m_ld.GetBytesInFlight(), 1200u); // 3600 - 1200 - 1200

    // 1 ns early: nothing happens
    auto t = m_ld.OnTimerExpired(Us(142500) - NanoSeconds(1));
    EXPECT_TRUE(t.lost.empty());
    EXPECT_EQ(t.probes, 0u);
    EXPECT_EQ(m_ld.GetTimerDeadline(), Us(142500));

    // on time: packet 1 sent t0 + 30 <= t0 + 142.5 - 112.5 = t0 + 30 (boundary included)
    t = m_ld.OnTimerExpired(Us(142500));
    EXPECT_EQ(t.lost, Pns({1}));
    EXPECT_EQ(t.probes, 0u);
    EXPECT_EQ(m_ld.GetPtoCount(), 0u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 0u);
    EXPECT_EQ(m_ld.GetLostPacketCount(), 2u);
    EXPECT_EQ(m_reno->GetLostCount(), 2u);
    // packet 1 was sent before R (t0 + 140 ms): same episode, no second reduction
    EXPECT_EQ(Cwnd(), 6000u);
    EXPECT_EQ(m_reno->GetRecoveryStartTime(), std::optional<Time>(Ms(140)));
    EXPECT_EQ(m_ld.GetTimerDeadline(), std::nullopt);
}

// Scenario: the first loss of the connection is found by the loss timer: that pass raises the
// congestion event, with R = the timer time.
TEST_F(QuicLossDetectionTest, LossTimerPassRaisesCongestionEvent)
{
    Send(0, T0());
    Send(1, Ms(10));
    auto r = Ack(Ms(110), {{1, 1}});
    // sample 100 ms, loss_delay 112.5 ms: packet 0 (t0) > t0 + 110 - 112.5, not lost yet;
    // loss timer at t0 + 112.5 ms
    EXPECT_TRUE(r.lost.empty());
    EXPECT_EQ(Cwnd(), 12000u); // app-limited (2 packets): no growth
    EXPECT_EQ(m_ld.GetTimerDeadline(), Us(112500));

    auto t = m_ld.OnTimerExpired(Us(112500));
    EXPECT_EQ(t.lost, Pns({0}));
    EXPECT_EQ(Cwnd(), 6000u); // 12000 * 0.5
    EXPECT_EQ(m_reno->GetSlowStartThreshold(), 6000u);
    EXPECT_EQ(m_reno->GetRecoveryStartTime(), std::optional<Time>(Us(112500)));
    EXPECT_EQ(m_ld.GetBytesInFlight(), 0u);
}

// Scenario: 6 packets sent at t0, the ACK of 5 loses 0, 1 and 2 in one pass: ONE congestion
// event (12000 -> 6000), not three (12000 -> 6000 -> 3000 -> 2400).
TEST_F(QuicLossDetectionTest, OneCongestionEventPerPass)
{
    for (uint64_t pn = 0; pn <= 5; ++pn)
    {
        Send(pn, T0());
    }
    auto r = Ack(Ms(100), {{5, 5}});
    // 5 >= pn + 3 for pn 0..2; packets 3 and 4 are not lost (sample 100 ms, loss_delay
    // 112.5 ms): loss timer at t0 + 112.5 ms
    EXPECT_EQ(r.lost, Pns({0, 1, 2}));
    EXPECT_EQ(Cwnd(), 6000u);
    EXPECT_EQ(m_reno->GetSlowStartThreshold(), 6000u);
    EXPECT_EQ(m_reno->GetBytesAckedCongestionAvoidance(), 3000u); // 6000 * 0.5, once
    EXPECT_EQ(m_ld.GetLostPacketCount(), 3u);
    EXPECT_EQ(m_reno->GetLostCount(), 3u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 2400u); // 7200 - 3 * 1200 - 1200
    EXPECT_EQ(m_ld.GetTimerDeadline(), Us(112500));

    // the loss timer pass loses 3 and 4, sent before R = t0 + 100 ms: no further reduction
    auto t = m_ld.OnTimerExpired(Us(112500));
    EXPECT_EQ(t.lost, Pns({3, 4}));
    EXPECT_EQ(Cwnd(), 6000u);
    EXPECT_EQ(m_ld.GetLostPacketCount(), 5u);
    EXPECT_EQ(m_reno->GetLostCount(), 5u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 0u);
}

// ---------------------------------------------------------------------------------------------
// PTO

// Scenario: one packet at t0, no RTT sample: PTO = 999 ms; max_ack_delay (25 ms) joins only
// once the handshake is confirmed, and is doubled with the PTO.
TEST_F(QuicLossDetectionTest, PtoDeadlineAndMaxAckDelay)
{
    m_ld.SetPeerMaxAckDelay(MilliSeconds(25));
    EXPECT_EQ(m_ld.GetTimerDeadline(), std::nullopt); // nothing sent
    Send(0, T0());
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(999)); // t0 + 333 + 4 * 166.5
    m_ld.SetHandshakeConfirmed(true);
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(1024)); // t0 + 999 + 25
    m_ld.SetHandshakeConfirmed(false);
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(999));

    auto t = m_ld.OnTimerExpired(Ms(999));
    EXPECT_EQ(t.probes, 1u);
    m_ld.OnProbeSent();
    Send(1, Ms(999));
    // pto_count 1: t0 + 999 + 999 * 2 = t0 + 2997 ms
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(2997));
    m_ld.SetHandshakeConfirmed(true);
    // + 25 * 2: t0 + 999 + (999 + 25) * 2 = t0 + 3047 ms
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(3047));
}

// Scenario: the PTO doubles each time, asks for 1 probe then 2, declares nothing lost and
// leaves the controller alone; the next ACK that newly acks something resets the count.
TEST_F(QuicLossDetectionTest, PtoDoublingProbesAndReset)
{
    m_ld.SetPeerMaxAckDelay(MilliSeconds(25));
    m_ld.SetHandshakeConfirmed(true);
    Send(0, T0());
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(1024)); // 999 + 25

    auto t = m_ld.OnTimerExpired(Ms(1023)); // early: nothing
    EXPECT_EQ(t.probes, 0u);
    EXPECT_EQ(m_ld.GetPtoCount(), 0u);

    // 1st PTO
    t = m_ld.OnTimerExpired(Ms(1024));
    EXPECT_TRUE(t.lost.empty());
    EXPECT_EQ(t.probes, 1u);
    EXPECT_EQ(m_ld.GetPtoCount(), 1u);
    EXPECT_EQ(m_ld.GetPendingProbes(), 1u);
    EXPECT_EQ(Cwnd(), 12000u);
    EXPECT_EQ(m_reno->GetSlowStartThreshold(), UINT64_MAX);
    EXPECT_EQ(m_reno->GetRecoveryStartTime(), std::nullopt);
    EXPECT_EQ(m_reno->GetLostCount(), 0u);
    EXPECT_EQ(m_ld.GetLostPacketCount(), 0u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 1200u);
    m_ld.OnProbeSent();
    Send(1, Ms(1024));
    EXPECT_EQ(m_ld.GetPendingProbes(), 0u);
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(3072)); // 1024 + 1024 * 2

    // 2nd PTO
    t = m_ld.OnTimerExpired(Ms(3072));
    EXPECT_EQ(t.probes, 2u);
    EXPECT_EQ(m_ld.GetPtoCount(), 2u);
    m_ld.OnProbeSent();
    Send(2, Ms(3072));
    m_ld.OnProbeSent();
    Send(3, Ms(3072));
    EXPECT_EQ(m_ld.GetPendingProbes(), 0u);
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(7168)); // 3072 + 1024 * 4

    // 3rd PTO: still 2 probes (min(3, 2))
    t = m_ld.OnTimerExpired(Ms(7168));
    EXPECT_EQ(t.probes, 2u);
    EXPECT_EQ(m_ld.GetPtoCount(), 3u);
    m_ld.OnProbeSent();
    Send(4, Ms(7168));
    EXPECT_EQ(m_ld.GetPendingProbes(), 1u);        // one still owed
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(15360)); // 7168 + 1024 * 8
    EXPECT_TRUE(t.lost.empty());
    EXPECT_EQ(Cwnd(), 12000u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 6000u); // 5 packets, none lost
    EXPECT_EQ(m_ld.GetLostPacketCount(), 0u);

    // the ACK of packet 0 resets the PTO count and the owed probe
    auto r = Ack(Ms(7200), {{0, 0}});
    EXPECT_EQ(r.newlyAcked, Pns({0}));
    EXPECT_EQ(m_ld.GetPtoCount(), 0u);
    EXPECT_EQ(m_ld.GetPendingProbes(), 0u);
    // first sample 7200 ms: smoothed 7200, rttvar 3600: PTO = 7200 + 14400 + 25 = 21625 ms
    // from the last ack-eliciting send (t0 + 7168 ms): t0 + 28793 ms
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(28793));
}

// Scenario: an ACK that newly acks nothing does not reset the PTO count.
TEST_F(QuicLossDetectionTest, DuplicateAckDoesNotResetPtoCount)
{
    Send(0, T0());
    Send(1, T0());
    Ack(Ms(100), {{0, 0}});
    // smoothed 100, rttvar 50: PTO = 100 + 200 = 300 ms from t0
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(300));
    auto t = m_ld.OnTimerExpired(Ms(300));
    EXPECT_EQ(t.probes, 1u);
    EXPECT_EQ(m_ld.GetPtoCount(), 1u);

    Ack(Ms(310), {{0, 0}}); // duplicate
    EXPECT_EQ(m_ld.GetPtoCount(), 1u);
    EXPECT_EQ(m_ld.GetPendingProbes(), 1u);

    Ack(Ms(320), {{0, 1}}); // newly acks 1
    EXPECT_EQ(m_ld.GetPtoCount(), 0u);
    EXPECT_EQ(m_ld.GetPendingProbes(), 0u);
    EXPECT_EQ(m_ld.GetTimerDeadline(), std::nullopt);
}

// ---------------------------------------------------------------------------------------------
// Spurious losses

// Scenario: 10 packets (packet i at t0 + i ms). The ACK of 9 at t0 + 109 ms loses 0..6 by
// packet threshold; a late ACK of 2 and 4..6 shows they were not lost.
TEST_F(QuicLossDetectionTest, SpuriousLossRaisesThresholds)
{
    SendStaggered(0, 9);
    auto r = Ack(Ms(109), {{9, 9}});
    // sample 109 - 9 = 100 ms; 9 >= pn + 3 for pn 0..6. Packet 7: loss_delay 112.5 ms,
    // t0 + 7 > t0 + 109 - 112.5: loss timer at t0 + 7 + 112.5 = t0 + 119.5 ms
    EXPECT_EQ(r.lost, Pns({0, 1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(m_ld.GetTimerDeadline(), Us(119500));
    EXPECT_EQ(Cwnd(), 6000u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 2400u); // 12000 - 7 * 1200 - 1200
    EXPECT_EQ(m_ld.GetPacketThreshold(), 3u);
    EXPECT_DOUBLE_EQ(m_ld.GetTimeThreshold(), 1.125);

    // A frame whose own largest (6) is below the largest acked (9).
    r = Ack(Ms(110), {{4, 6}, {2, 2}});
    EXPECT_EQ(r.spurious, Pns({2, 4, 5, 6}));
    EXPECT_TRUE(r.newlyAcked.empty());
    EXPECT_EQ(m_ld.GetSpuriousLossCount(), 4u);
    // packet threshold = max(3, min(largest acked 9 - lowest spurious 2 + 1, 20)) = 8
    EXPECT_EQ(m_ld.GetPacketThreshold(), 8u);
    EXPECT_DOUBLE_EQ(m_ld.GetTimeThreshold(), 1.25);
    EXPECT_EQ(Cwnd(), 6000u);                       // Reno refuses the rollback
    EXPECT_EQ(m_ld.GetBytesInFlight(), 2400u);      // lost bytes are not counted twice
    EXPECT_EQ(m_ld.GetTimerDeadline(), Us(119500)); // no loss pass

    r = Ack(Ms(115), {{7, 7}});
    // 7 < 9: no RTT sample (latest and smoothed stay 100 ms). Packet 8: 9 < 8 + 8, and
    // loss_delay = 5/4 * 100 = 125 ms: t0 + 8 > t0 + 115 - 125: loss timer at
    // t0 + 8 + 125 = t0 + 133 ms (at 9/8 it would be t0 + 120.5 ms)
    EXPECT_EQ(r.newlyAcked, Pns({7}));
    EXPECT_TRUE(r.lost.empty());
    EXPECT_EQ(m_ld.GetTimerDeadline(), Ms(133));
    EXPECT_EQ(m_ld.GetBytesInFlight(), 1200u);

    // Packet threshold 8 in action: send 10..17 (t0 + 200 ms), ACK 17: largest 17 >= 8 + 8
    // loses 8 by count, but 10..16 are safe (17 < 10 + 8, and sent 100 ms ago < 125 ms).
    for (uint64_t pn = 10; pn <= 17; ++pn)
    {
        Send(pn, Ms(200));
    }
    r = Ack(Ms(300), {{17, 17}});
    EXPECT_EQ(r.lost, Pns({8}));
}

// Scenario: 30 packets; the ACK of 29 loses 0..26. The raised threshold is capped at 20 and
// never lowered.
TEST_F(QuicLossDetectionTest, SpuriousPacketThresholdCappedAndNeverLowered)
{
    for (uint64_t pn = 0; pn <= 29; ++pn)
    {
        Send(pn, T0());
    }
    auto r = Ack(Ms(100), {{29, 29}});
    EXPECT_EQ(r.lost.size(), 27u); // 29 >= pn + 3 for pn 0..26

    Ack(Ms(101), {{26, 26}});
    EXPECT_EQ(m_ld.GetPacketThreshold(), 4u); // 29 - 26 + 1
    Ack(Ms(102), {{1, 1}});
    EXPECT_EQ(m_ld.GetPacketThreshold(), 20u); // min(29 - 1 + 1 = 29, 20)
    Ack(Ms(103), {{25, 25}});
    EXPECT_EQ(m_ld.GetPacketThreshold(), 20u); // max(20, 29 - 25 + 1 = 5)
    EXPECT_EQ(m_ld.GetSpuriousLossCount(), 3u);
    EXPECT_DOUBLE_EQ(m_ld.GetTimeThreshold(), 1.25);
}

// Scenario: a lost packet is remembered about one smoothed RTT only: an ACK after that is an
// ACK of an unknown packet, not a spurious loss.
TEST_F(QuicLossDetectionTest, LostPacketForgottenAfterAboutOneSmoothedRtt)
{
    for (uint64_t pn = 0; pn <= 4; ++pn)
    {
        Send(pn, T0());
    }
    auto r = Ack(Ms(100), {{3, 3}}); // sample 100 ms; 3 >= 0 + 3: packet 0 lost at t0 + 100 ms
    EXPECT_EQ(r.lost, Pns({0}));
    r = Ack(Ms(105), {{1, 2}}); // 5 ms after the loss (< smoothed 100 ms): 0 is kept
    EXPECT_EQ(r.newlyAcked, Pns({1, 2}));
    EXPECT_EQ(m_ld.GetRecordSize(), 5u); // 0 (lost), 1..3 (acked), 4 (pending)

    r = Ack(Ms(250), {{4, 4}});
    // sample 250 ms: smoothed = 87.5 + 250 / 8 = 118.75 ms; the loss is 150 ms old (> 118.75):
    // 0 leaves the record with 1..4
    EXPECT_EQ(m_ld.GetRttStats().GetSmoothedRtt(), NanoSeconds(118750000));
    EXPECT_EQ(m_ld.GetRecordSize(), 0u);

    r = Ack(Ms(260), {{0, 0}});
    EXPECT_TRUE(r.spurious.empty());
    EXPECT_EQ(m_ld.GetSpuriousLossCount(), 0u);
    EXPECT_EQ(m_ld.GetPacketThreshold(), 3u);
    EXPECT_DOUBLE_EQ(m_ld.GetTimeThreshold(), 1.125);
}

// ---------------------------------------------------------------------------------------------
// Cost

// Scenario: 100000 packets in flight; an ACK of one packet touches only that packet: the
// record shrinks by one entry from the front, and an ACK in the middle drops nothing until
// the gap before it closes.
TEST_F(QuicLossDetectionTest, LargeRecordAckOfOnePacket)
{
    constexpr uint64_t kCount = 100000;
    for (uint64_t pn = 0; pn < kCount; ++pn)
    {
        Send(pn, T0());
    }
    EXPECT_EQ(m_ld.GetRecordSize(), 100000u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 120000000u); // 100000 * 1200

    auto r = Ack(Ms(100), {{0, 0}});
    EXPECT_EQ(r.newlyAcked, Pns({0}));
    EXPECT_TRUE(r.lost.empty());
    EXPECT_EQ(m_ld.GetRecordSize(), 99999u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 119998800u); // 99999 * 1200

    r = Ack(Ms(100), {{2, 2}});
    // 2 < 1 + 3 and packet 1 (t0) > t0 + 100 - 112.5: nothing lost; 1 is pending at the front
    EXPECT_EQ(r.newlyAcked, Pns({2}));
    EXPECT_TRUE(r.lost.empty());
    EXPECT_EQ(m_ld.GetRecordSize(), 99999u);
    EXPECT_EQ(m_ld.GetBytesInFlight(), 119997600u); // 99998 * 1200

    r = Ack(Ms(100), {{1, 1}});
    EXPECT_EQ(r.newlyAcked, Pns({1}));
    EXPECT_EQ(m_ld.GetRecordSize(), 99997u);        // 1 and 2 leave together
    EXPECT_EQ(m_ld.GetBytesInFlight(), 119996400u); // 99997 * 1200
}

// ---------------------------------------------------------------------------------------------
// Contract

// ---------------------------------------------------------------------------------------------
// ECN (RFC 9002 Section 7.1 and Appendix A.7 / B.7; validation: QuicCcEcnTest)

// Scenario: ECN on; the 10 ack-eliciting packets of the testing period carry ECT(0), an ACK-only
// packet does not; one ACK frame for packets 0..9 with ECT(0) 9 and CE 1 (valid: 10 >= 10 newly
// acknowledged ECT packets) is one congestion event: cwnd 12000 -> 6000, the path Capable.
TEST_F(QuicLossDetectionTest, EcnCeRiseIsOneCongestionEvent)
{
    m_ld.EnableEcn();
    EXPECT_EQ(m_ld.OnPacketSent(T0(), 0, 40, false), QuicCcEcnCodepoint::NOT_ECT);
    for (uint64_t pn = 1; pn <= 10; ++pn)
    {
        EXPECT_EQ(m_ld.OnPacketSent(T0(), pn, kPacketBytes, true), QuicCcEcnCodepoint::ECT0);
    }
    const auto r = m_ld.OnAckReceived(Ms(100), {{0, 10}}, Time(0), QuicCcEcnCounts{9, 0, 1});
    EXPECT_EQ(r.ceIncrease, 1u);
    EXPECT_EQ(Cwnd(), 6000u);
    EXPECT_EQ(m_reno->GetRecoveryStartTime(), Ms(100));
    EXPECT_EQ(m_ld.GetEcnCongestionEventCount(), 1u);
    EXPECT_EQ(m_ld.GetLostPacketCount(), 0u);
    EXPECT_EQ(m_ld.GetEcnValidation().GetState(), QUIC_CC_ECN_CAPABLE);
    // Capable: the next packets (ACK-only ones too) carry ECT(0).
    EXPECT_EQ(m_ld.OnPacketSent(Ms(100), 11, 40, false), QuicCcEcnCodepoint::ECT0);
}

// Scenario: ECN off (quiche): the same frame's counts are ignored; slow start grows cwnd.
TEST_F(QuicLossDetectionTest, EcnOffIgnoresCounts)
{
    for (uint64_t pn = 0; pn < 10; ++pn)
    {
        EXPECT_EQ(m_ld.OnPacketSent(T0(), pn, kPacketBytes, true), QuicCcEcnCodepoint::NOT_ECT);
    }
    const auto r = m_ld.OnAckReceived(Ms(100), {{0, 9}}, Time(0), QuicCcEcnCounts{9, 0, 1});
    EXPECT_EQ(r.ceIncrease, 0u);
    EXPECT_EQ(Cwnd(), 24000u); // 12000 + 10 * 1200
    EXPECT_EQ(m_ld.GetEcnValidation().GetState(), QUIC_CC_ECN_DISABLED);
}

// Scenario: counts that fail validation (ECT(1) never sent) carry no congestion signal, and a
// CE rise in a reordered frame (not raising the largest acknowledged) is not used either.
TEST_F(QuicLossDetectionTest, EcnCountsUsedOnlyWhenValidated)
{
    m_ld.EnableEcn();
    SendStaggered(0, 5);
    auto r = m_ld.OnAckReceived(Ms(100), {{5, 5}, {0, 3}}, Time(0), QuicCcEcnCounts{5, 0, 0});
    ASSERT_EQ(m_ld.GetEcnValidation().GetState(), QUIC_CC_ECN_CAPABLE);
    ASSERT_TRUE(r.lost.empty());
    // Packet 4 acknowledged late, in a frame below the largest acknowledged: its CE rise is not
    // used (RFC 9000 Section 13.4.2.1, as ngtcp2).
    r = m_ld.OnAckReceived(Ms(101), {{4, 4}}, Time(0), QuicCcEcnCounts{5, 0, 1});
    EXPECT_EQ(r.newlyAcked, Pns({4}));
    EXPECT_EQ(r.ceIncrease, 0u);
    EXPECT_EQ(m_ld.GetEcnValidation().GetPeerCounts(), (QuicCcEcnCounts{5, 0, 0}));
    // ECT(1) was never sent: validation fails and the CE rise of the frame is not used.
    Send(6, Ms(102));
    r = m_ld.OnAckReceived(Ms(150), {{0, 6}}, Time(0), QuicCcEcnCounts{6, 1, 1});
    EXPECT_EQ(r.ceIncrease, 0u);
    EXPECT_EQ(m_ld.GetEcnValidation().GetState(), QUIC_CC_ECN_FAILED);
    EXPECT_EQ(m_ld.GetEcnCongestionEventCount(), 0u);
    EXPECT_EQ(m_reno->GetRecoveryStartTime(), std::nullopt);
    EXPECT_EQ(m_ld.OnPacketSent(Ms(150), 7, kPacketBytes, true), QuicCcEcnCodepoint::NOT_ECT);
}

// Scenario: the ten ECT(0) packets of the testing period are all declared lost (the path drops
// ECT packets), the packets after them arrive Not-ECT and are acknowledged without counts:
// validation fails in the loss pass (RFC 9000 Section 13.4.2), nothing is marked any more.
TEST_F(QuicLossDetectionTest, EcnFailsWhenEveryEctPacketIsLost)
{
    m_ld.EnableEcn();
    SendStaggered(0, 9);
    ASSERT_EQ(m_ld.GetEcnValidation().GetState(), QUIC_CC_ECN_UNKNOWN);
    EXPECT_EQ(m_ld.OnPacketSent(Ms(10), 10, kPacketBytes, true), QuicCcEcnCodepoint::NOT_ECT);
    for (uint64_t pn = 11; pn <= 13; ++pn)
    {
        Send(pn, Ms(static_cast<int64_t>(pn)));
    }
    const auto r = Ack(Ms(100), {{10, 13}}); // packets 0..9 lost by the packet threshold
    EXPECT_EQ(r.lost.size(), 10u);
    EXPECT_EQ(m_ld.GetEcnValidation().GetState(), QUIC_CC_ECN_FAILED);
    EXPECT_EQ(m_ld.GetEcnValidation().GetFailureReason(),
              "all 10 packets sent with ECT(0) were declared lost");
}

TEST(QuicLossDetectionDeathTest, NullControllerIsFatal)
{
    EXPECT_DEATH(QuicLossDetection(nullptr, QuicRttStats()), "needs a congestion controller");
}

TEST(QuicLossDetectionDeathTest, PacketNumbersMustIncrease)
{
    Ptr<QuicReno> reno = CreateObject<QuicReno>();
    reno->Configure(kPacketBytes);
    QuicLossDetection ld(reno, QuicRttStats());
    ld.OnPacketSent(T0(), 5, kPacketBytes, true);
    EXPECT_DEATH(ld.OnPacketSent(T0(), 5, kPacketBytes, true), "packet number 5 does not increase");
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
