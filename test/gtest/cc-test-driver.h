/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test-only driver of the controller unit tests: the verbs of the test sender in
 * cloudflare/quiche (quiche/src/recovery/congestion/test_sender.rs), one driver for Reno, CUBIC
 * and HyStart++.
 * No simulator, no loss detection: the clock is a field and every verb calls the controller the
 * way the loss-detection layer would.
 */
#ifndef QUIC_CC_TEST_DRIVER_H
#define QUIC_CC_TEST_DRIVER_H

#include "ns3/boolean.h"
#include "ns3/quic-congestion-controller.h"
#include "ns3/quic-cubic.h"
#include "ns3/quic-hystart-plus-plus.h"
#include "ns3/quic-rtt-stats.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <gtest/gtest.h>
#include <optional>
#include <vector>

namespace ns3
{
namespace quiccc
{
namespace test
{

/// quiche's test datagram size, bytes.
constexpr uint64_t kMss = 1200;

/// Start of the driver's clock (any instant works; t0 in quiche's tests).
inline Time
T0()
{
    return Seconds(1);
}

/**
 * quiche's test sender: sends never enforce cwnd, acks and losses take the oldest
 * packets, the RTT estimator starts at 333 ms with max_ack_delay 0.
 */
class CcTestDriver
{
  public:
    /// Drives \p cc, configured for mss 1200 B and \p initialWindowPackets (10: cwnd 12000 B).
    explicit CcTestDriver(Ptr<QuicCongestionController> cc, uint64_t initialWindowPackets = 10)
        : m_cc(cc),
          m_rtt(MilliSeconds(333), Time(0))
    {
        m_cc->Configure(kMss, initialWindowPackets);
    }

    /// One in-flight send of \p bytes at the clock (bytes in flight before it are passed).
    void Send(uint64_t bytes = kMss)
    {
        m_cc->OnPacketSent(m_now, m_nextPn, bytes, m_inFlight);
        m_sent.push_back({m_nextPn++, bytes, m_now});
        m_inFlight += bytes;
    }

    /// \p n sends of one mss each.
    void SendN(uint64_t n)
    {
        for (uint64_t i = 0; i < n; ++i)
        {
            Send(kMss);
        }
    }

    /**
     * The manual rounds of quiche's HyStart++ tests: open the round by hand with window_end =
     * the burst's last packet number, send \p n full packets, then force app_limited false.
     */
    void SendRound(uint64_t n)
    {
        m_cc->GetHyStart()->StartRound(m_nextPn + n - 1);
        SendN(n);
        m_cc->SetAppLimited(false);
    }

    /// One cycle of the idle scenarios: send \p n full packets, advance \p rtt, ack all \p n.
    void SendAdvanceAck(uint64_t n, Time rtt)
    {
        SendN(n);
        Advance(rtt);
        Ack(n);
    }

    /// The \p n oldest packets in ONE ACK frame at the clock: no RTT sample, no loss detection;
    /// bytes in flight before removal.
    void Ack(size_t n)
    {
        std::vector<QuicAckedPacket> acked(m_sent.begin(), m_sent.begin() + n);
        m_sent.erase(m_sent.begin(), m_sent.begin() + n);
        m_cc->OnPacketsAcked(m_now, acked, m_inFlight, m_rtt);
        for (const QuicAckedPacket& p : acked)
        {
            m_inFlight -= p.bytes;
        }
    }

    /**
     * The \p n oldest packets lost in one loss pass at the clock: Checkpoint() unless the largest
     * (the last, whose send time \p timeSentOverride may replace) is in recovery, ONE congestion
     * event with bytes in flight before removal, lost_count += n.
     */
    void Lose(size_t n, std::optional<Time> timeSentOverride = std::nullopt)
    {
        uint64_t lostBytes = 0;
        Time largestTimeSent;
        for (size_t i = 0; i < n; ++i)
        {
            lostBytes += m_sent.front().bytes;
            largestTimeSent = m_sent.front().timeSent;
            m_sent.pop_front();
        }
        largestTimeSent = timeSentOverride.value_or(largestTimeSent);
        if (!m_cc->InCongestionRecovery(largestTimeSent))
        {
            m_cc->Checkpoint();
        }
        m_cc->OnCongestionEvent(m_now, largestTimeSent, lostBytes, m_inFlight);
        m_cc->AddLostPackets(n);
        m_inFlight -= lostBytes;
    }

    /**
     * The \p n oldest packets acknowledged by ONE ACK frame whose ECN-CE count rose, as
     * QuicLossDetection processes it: OnCongestionExperienced for the send time of the largest
     * (the last) with bytes in flight before removal, then the acks (Ack).
     */
    void AckWithCe(size_t n)
    {
        m_cc->OnCongestionExperienced(m_now, m_sent[n - 1].timeSent, m_inFlight);
        Ack(n);
    }

    /// An RTT sample of \p sample at the clock, ack delay 0, handshake confirmed.
    void Rtt(Time sample)
    {
        m_rtt.Update(sample, Time(0), m_now, true);
    }

    /**
     * Pops the oldest packet but reports a hand-made one (1200 B, sent at \p timeSent) acked at
     * \p now; bytes in flight and the clock do not change.
     */
    void InjectAck(Time timeSent, Time now)
    {
        const uint64_t pn = m_sent.front().packetNumber;
        m_sent.pop_front();
        m_cc->OnPacketsAcked(now, {{pn, kMss, timeSent}}, m_inFlight, m_rtt);
    }

    void Advance(Time d) //!< move the clock forward
    {
        m_now += d;
    }

    Time Now() const //!< the clock
    {
        return m_now;
    }

    uint64_t BytesInFlight() const //!< bytes
    {
        return m_inFlight;
    }

    uint64_t NextPacketNumber() const //!< number of the next send
    {
        return m_nextPn;
    }

    uint64_t Cwnd() const //!< bytes
    {
        return m_cc->GetCongestionWindow();
    }

    uint64_t Ssthresh() const //!< bytes
    {
        return m_cc->GetSlowStartThreshold();
    }

    std::optional<Time> RecoveryStart() const //!< R
    {
        return m_cc->GetRecoveryStartTime();
    }

    const QuicRttStats& RttStats() const //!< the estimator fed by Rtt()
    {
        return m_rtt;
    }

  private:
    Ptr<QuicCongestionController> m_cc; //!< controller under test
    QuicRttStats m_rtt;                 //!< RTT estimator
    std::deque<QuicAckedPacket> m_sent; //!< unacked packets, oldest first
    Time m_now{T0()};                   //!< the clock
    uint64_t m_nextPn{0};               //!< next packet number
    uint64_t m_inFlight{0};             //!< bytes in flight
};

/// A controller of type \p T with HyStart++ off, as quiche's reference tests run it unless
/// they say otherwise.
template <typename T>
Ptr<T>
CreateWithoutHyStart()
{
    Ptr<T> cc = CreateObject<T>();
    cc->SetAttribute("HyStart", BooleanValue(false));
    return cc;
}

/**
 * Common prefix of the idle scenarios (CUBIC, HyStart++ off): send 10; rtt 100 ms (srtt 100 ms,
 * rttvar 50 ms); +100 ms lose 1 (8400 B, R = t0 + 100 ms); advance \p drainAfter; ack the other
 * 9 (all in recovery), which empties the pipe.
 */
inline void
LoseOneThenDrain(CcTestDriver& d, Time drainAfter = Time(0))
{
    d.SendN(10);
    d.Rtt(MilliSeconds(100));
    d.Advance(MilliSeconds(100));
    d.Lose(1);
    ASSERT_EQ(d.Cwnd(), 8400u);
    ASSERT_EQ(d.RecoveryStart(), T0() + MilliSeconds(100));
    d.Advance(drainAfter);
    d.Ack(9);
    ASSERT_EQ(d.BytesInFlight(), 0u);
}

/**
 * Rounds 1 and 2 of quiche's HyStart++ CSS tests (manual rounds, forced app_limited false), from
 * a fresh driver: round 1: send 8; +50 ms; rtt 50 ms; ack 8 (+8 mss). +100 ms; round 2: send 8;
 * 8 x {rtt r; ack 1} with r = 100, 204, 412, ... 13308 ms (each 2 r + 4 ms of the previous one),
 * all at one instant: the 8th ack enters CSS (with HyStart++ on), after +8 mss more.
 */
inline void
RunCssEntryRounds(CcTestDriver& d)
{
    d.SendRound(8);
    d.Advance(MilliSeconds(50));
    d.Rtt(MilliSeconds(50));
    d.Ack(8);
    d.Advance(MilliSeconds(100));
    d.SendRound(8);
    for (int64_t r : {100, 204, 412, 828, 1660, 3324, 6652, 13308})
    {
        d.Rtt(MilliSeconds(r));
        d.Ack(1);
    }
}

/**
 * A congestion signal during CSS (CUBIC, HyStart++ on): the reference CSS entry
 * (RunCssEntryRounds, 31200 B in CSS), a round of 8 sent 100 ms later and, 10 ms into it,
 * \p signal (a loss, or an ACK whose ECN-CE count rose). The window is cut (31200 * 0.7 =
 * 21840 B, W_max 31200 B), HyStart++ leaves CSS and closes its round, the state is recovery.
 */
inline void
ExpectCssEndsOnCongestion(const std::function<void(CcTestDriver&)>& signal)
{
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    CcTestDriver d(cubic);
    Ptr<QuicHyStartPlusPlus> h = cubic->GetHyStart();
    RunCssEntryRounds(d);
    ASSERT_TRUE(h->InCss());
    d.Advance(MilliSeconds(100));
    d.SendRound(8);
    d.Advance(MilliSeconds(10));
    signal(d);
    EXPECT_EQ(d.Cwnd(), 21840u); // trunc(31200 * 0.7)
    EXPECT_EQ(d.Ssthresh(), 21840u);
    EXPECT_FALSE(h->InCss());
    EXPECT_FALSE(h->GetCssStartTime().has_value());
    EXPECT_FALSE(h->GetWindowEnd().has_value());
    EXPECT_DOUBLE_EQ(cubic->GetWMax(), 31200.0);
    EXPECT_EQ(cubic->GetCongestionState(d.Now()), QUIC_CC_RECOVERY);
}

} // namespace test
} // namespace quiccc
} // namespace ns3

#endif // QUIC_CC_TEST_DRIVER_H
