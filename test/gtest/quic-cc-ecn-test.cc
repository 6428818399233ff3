/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ECN validation (RFC 9000 Section 13.4.2, Appendix A.4): QuicCcEcnValidation on its own, one
 * test per way the path or the peer can fail it, and the transitions that do not fail.
 */
#include "ns3/quic-cc-ecn.h"

#include <gtest/gtest.h>
#include <limits>
#include <vector>

using namespace ns3;

namespace
{

const Time kPto = MilliSeconds(100);

/// A validation with \p n ack-eliciting packets sent at time 0 (Testing marks the first ten).
QuicCcEcnValidation
SentPackets(uint64_t n)
{
    QuicCcEcnValidation v;
    v.Enable();
    for (uint64_t i = 0; i < n; ++i)
    {
        v.OnPacketSent(Time(0), kPto, true);
    }
    return v;
}

QuicCcEcnCounts
Counts(uint64_t ect0, uint64_t ect1, uint64_t ce)
{
    return QuicCcEcnCounts{ect0, ect1, ce};
}

/// Records what a validation reports.
struct Recorder : QuicCcEcnValidation::Listener
{
    std::vector<std::pair<QuicCcEcnState, QuicCcEcnState>> changes; //!< (old, new) states
    std::vector<QuicCcEcnCounts> counts;                            //!< reference counts

    void OnEcnStateTrace(QuicCcEcnState oldState, QuicCcEcnState newState) override
    {
        changes.emplace_back(oldState, newState);
    }

    void OnEcnCountsTrace(uint64_t ect0, uint64_t ect1, uint64_t ce) override
    {
        counts.push_back({ect0, ect1, ce});
    }
};

} // namespace

TEST(QuicCcEcnTest, CodepointsAreTheLowTwoBitsOfTheTosByte)
{
    EXPECT_EQ(QuicCcEcnFromTos(0x00), QuicCcEcnCodepoint::NOT_ECT);
    EXPECT_EQ(QuicCcEcnFromTos(0x01), QuicCcEcnCodepoint::ECT1);
    EXPECT_EQ(QuicCcEcnFromTos(0x02), QuicCcEcnCodepoint::ECT0);
    EXPECT_EQ(QuicCcEcnFromTos(0xb8 | 0x03), QuicCcEcnCodepoint::CE); // EF DSCP + CE
    QuicCcEcnCounts c;
    for (uint8_t tos : {0, 1, 2, 2, 3, 3, 3})
    {
        c.Count(QuicCcEcnFromTos(tos));
    }
    EXPECT_EQ(c, Counts(2, 1, 3));
    EXPECT_TRUE(c.Any());
    EXPECT_FALSE(QuicCcEcnCounts{}.Any());
}

TEST(QuicCcEcnTest, DisabledMarksNothingAndIgnoresCounts)
{
    QuicCcEcnValidation v;
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_DISABLED);
    EXPECT_EQ(v.OnPacketSent(Time(0), kPto, true), QuicCcEcnCodepoint::NOT_ECT);
    EXPECT_EQ(v.OnAckReceived(true, Counts(5, 5, 5), 0).ceIncrease, 0u);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_DISABLED);
    EXPECT_EQ(v.GetEctSent(), 0u);
}

TEST(QuicCcEcnTest, TestingMarksTenAckElicitingPacketsThenUnknown)
{
    QuicCcEcnValidation v;
    Recorder recorder;
    v.SetListener(&recorder);
    const auto& changes = recorder.changes;
    v.Enable();
    // ACK-only packets are not marked while testing (as ngtcp2's conn_handle_tx_ecn).
    EXPECT_EQ(v.OnPacketSent(Time(0), kPto, false), QuicCcEcnCodepoint::NOT_ECT);
    for (int i = 0; i < 10; ++i)
    {
        EXPECT_EQ(v.OnPacketSent(MilliSeconds(i), kPto, true), QuicCcEcnCodepoint::ECT0) << i;
    }
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_UNKNOWN);
    EXPECT_EQ(v.OnPacketSent(MilliSeconds(11), kPto, true), QuicCcEcnCodepoint::NOT_ECT);
    EXPECT_EQ(v.GetEctSent(), 10u);
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes[0], std::make_pair(QUIC_CC_ECN_DISABLED, QUIC_CC_ECN_TESTING));
    EXPECT_EQ(changes[1], std::make_pair(QUIC_CC_ECN_TESTING, QUIC_CC_ECN_UNKNOWN));
}

TEST(QuicCcEcnTest, TestingEndsAfterThreePtoPeriods)
{
    QuicCcEcnValidation v;
    v.Enable();
    EXPECT_EQ(v.OnPacketSent(Seconds(1), kPto, true), QuicCcEcnCodepoint::ECT0);
    EXPECT_EQ(v.OnPacketSent(Seconds(1) + kPto * 3 - NanoSeconds(1), kPto, true),
              QuicCcEcnCodepoint::ECT0);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_TESTING);
    EXPECT_EQ(v.OnPacketSent(Seconds(1) + kPto * 3, kPto, true), QuicCcEcnCodepoint::NOT_ECT);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_UNKNOWN);
    EXPECT_EQ(v.GetEctSent(), 2u);
}

TEST(QuicCcEcnTest, ValidAckMakesThePathCapableAndMarksEverything)
{
    QuicCcEcnValidation v = SentPackets(3);
    const auto outcome = v.OnAckReceived(true, Counts(3, 0, 0), 3);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_CAPABLE);
    EXPECT_EQ(outcome.ceIncrease, 0u);
    EXPECT_TRUE(outcome.countsChanged);
    EXPECT_EQ(v.GetPeerCounts(), Counts(3, 0, 0));
    // Capable: ACK-only packets are marked too, and beyond the ten of testing.
    for (int i = 0; i < 20; ++i)
    {
        EXPECT_EQ(v.OnPacketSent(MilliSeconds(i), kPto, i % 2 == 0), QuicCcEcnCodepoint::ECT0);
    }
    EXPECT_EQ(v.GetEctSent(), 23u);
}

TEST(QuicCcEcnTest, UnknownBecomesCapableOnAValidAck)
{
    QuicCcEcnValidation v = SentPackets(12);
    ASSERT_EQ(v.GetState(), QUIC_CC_ECN_UNKNOWN);
    v.OnAckReceived(true, Counts(10, 0, 0), 10);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_CAPABLE);
}

TEST(QuicCcEcnTest, CeIncreaseIsReportedOncePerValidatedFrame)
{
    QuicCcEcnValidation v = SentPackets(4);
    EXPECT_EQ(v.OnAckReceived(true, Counts(1, 0, 1), 2).ceIncrease, 1u);
    EXPECT_EQ(v.OnAckReceived(true, Counts(1, 0, 1), 0).ceIncrease, 0u); // same counts
    EXPECT_EQ(v.OnAckReceived(true, Counts(1, 0, 3), 2).ceIncrease, 2u);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_CAPABLE);
}

TEST(QuicCcEcnTest, CountsMayGrowByMoreThanTheNewlyAckedPackets)
{
    // RFC 9000 Section 13.4.2.1: ACK frames get lost, so a later one reports more.
    QuicCcEcnValidation v = SentPackets(8);
    v.OnAckReceived(true, Counts(8, 0, 0), 1);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_CAPABLE);
    EXPECT_EQ(v.GetPeerCounts(), Counts(8, 0, 0));
}

TEST(QuicCcEcnTest, ReorderedAckIsNotChecked)
{
    // RFC 9000 Section 13.4.2.1: an ACK frame that does not raise the largest acknowledged
    // packet number must not fail validation; its counts are not used either (ngtcp2).
    QuicCcEcnValidation v = SentPackets(4);
    v.OnAckReceived(true, Counts(3, 0, 1), 4);
    const auto outcome = v.OnAckReceived(false, Counts(2, 0, 2), 1);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_CAPABLE);
    EXPECT_EQ(outcome.ceIncrease, 0u);
    EXPECT_EQ(v.GetPeerCounts(), Counts(3, 0, 1));
}

// ---- each way validation fails

TEST(QuicCcEcnTest, FailsOnAnAckWithoutCountsForEctPackets)
{
    // A path that clears the ECN field, or a peer that does not report counts.
    QuicCcEcnValidation v = SentPackets(2);
    v.OnAckReceived(true, std::nullopt, 2);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_FAILED);
    EXPECT_EQ(v.GetFailureReason(),
              "an ACK frame without ECN counts newly acknowledged 2 packet(s) sent with ECT(0)");
    EXPECT_EQ(v.OnPacketSent(Time(0), kPto, true), QuicCcEcnCodepoint::NOT_ECT);
}

TEST(QuicCcEcnTest, AckWithoutCountsForNonEctPacketsIsFine)
{
    QuicCcEcnValidation v = SentPackets(12);
    v.OnAckReceived(true, std::nullopt, 0);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_UNKNOWN);
}

TEST(QuicCcEcnTest, FailsOnCountsThatGoBackwards)
{
    QuicCcEcnValidation v = SentPackets(6);
    v.OnAckReceived(true, Counts(3, 0, 2), 3);
    ASSERT_EQ(v.GetState(), QUIC_CC_ECN_CAPABLE);
    v.OnAckReceived(true, Counts(5, 0, 1), 1);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_FAILED);
    EXPECT_EQ(v.GetFailureReason(),
              "ECN counts went backwards: ect0=5 ect1=0 ce=1 after ect0=3 ect1=0 ce=2");
    // A failed path stays failed: its counts are not used any more.
    EXPECT_EQ(v.OnAckReceived(true, Counts(6, 0, 6), 1).ceIncrease, 0u);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_FAILED);
}

TEST(QuicCcEcnTest, FailsOnAnEct1CountNeverSent)
{
    // Packets remarked to ECT(1) in the network.
    QuicCcEcnValidation v = SentPackets(2);
    v.OnAckReceived(true, Counts(1, 1, 0), 1);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_FAILED);
    EXPECT_EQ(v.GetFailureReason(), "ECT(1) count 1 but no packet was sent with ECT(1)");
}

TEST(QuicCcEcnTest, FailsOnAnEct0CountAboveThePacketsSent)
{
    QuicCcEcnValidation v = SentPackets(3);
    v.OnAckReceived(true, Counts(4, 0, 0), 3);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_FAILED);
    EXPECT_EQ(v.GetFailureReason(), "ECT(0) count 4 exceeds the 3 packets sent with ECT(0)");
}

TEST(QuicCcEcnTest, FailsOnMarksOfPacketsNeverSentWithEct)
{
    // CE on packets sent Not-ECT: the ECT(0) + CE total exceeds what was sent with ECT(0).
    QuicCcEcnValidation v = SentPackets(3);
    v.OnAckReceived(true, Counts(3, 0, 1), 3);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_FAILED);
    EXPECT_EQ(v.GetFailureReason(),
              "ECT(0) + ECN-CE counts 3 + 1 exceed the 3 packets sent with ECT(0) (marks on "
              "packets never sent with ECT)");
}

TEST(QuicCcEcnTest, FailsWhenCountsGrowLessThanTheEctPacketsAcked)
{
    // A path that clears the bits of some packets (or turns CE into Not-ECT).
    QuicCcEcnValidation v = SentPackets(5);
    v.OnAckReceived(true, Counts(2, 0, 1), 3);
    ASSERT_EQ(v.GetState(), QUIC_CC_ECN_CAPABLE);
    v.OnAckReceived(true, Counts(3, 0, 1), 2);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_FAILED);
    EXPECT_EQ(v.GetFailureReason(),
              "ECT(0) and ECN-CE counts grew by 1 but the frame newly acknowledged 2 packets "
              "sent with ECT(0) (marks cleared on the path)");
}

TEST(QuicCcEcnTest, HugeCountsFailWithoutOverflow)
{
    // The largest varints a frame can carry: the sums stay within 64 bits, validation fails.
    const uint64_t max = (uint64_t{1} << 62) - 1;
    for (const QuicCcEcnCounts& c : {Counts(max, 0, 0), Counts(0, 0, max), Counts(1, 0, max)})
    {
        QuicCcEcnValidation v = SentPackets(2);
        const auto outcome = v.OnAckReceived(true, c, 2);
        EXPECT_EQ(v.GetState(), QUIC_CC_ECN_FAILED) << c;
        EXPECT_EQ(outcome.ceIncrease, 0u) << c;
        EXPECT_EQ(v.GetPeerCounts(), Counts(0, 0, 0)) << c;
    }
}

TEST(QuicCcEcnTest, FailsWhenEveryEctPacketIsLost)
{
    QuicCcEcnValidation v = SentPackets(10);
    ASSERT_EQ(v.GetState(), QUIC_CC_ECN_UNKNOWN);
    v.OnEctPacketsLost(9, Time(0), kPto);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_UNKNOWN);
    v.OnEctPacketsLost(1, Time(0), kPto);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_FAILED);
    EXPECT_EQ(v.GetFailureReason(), "all 10 packets sent with ECT(0) were declared lost");
}

TEST(QuicCcEcnTest, LossesWhileTestingWaitForTheEndOfTesting)
{
    // While more test packets may follow, losing the first ones is no verdict; once the testing
    // period is over with all of them lost, validation fails.
    QuicCcEcnValidation v = SentPackets(2);
    v.OnEctPacketsLost(2, MilliSeconds(10), kPto);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_TESTING);
    v.OnEctPacketsLost(0, kPto * 3, kPto);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_FAILED);
}

TEST(QuicCcEcnTest, CapableIgnoresLosses)
{
    QuicCcEcnValidation v = SentPackets(3);
    v.OnAckReceived(true, Counts(1, 0, 0), 1);
    v.OnEctPacketsLost(2, Seconds(1), kPto);
    EXPECT_EQ(v.GetState(), QUIC_CC_ECN_CAPABLE);
}

TEST(QuicCcEcnTest, CountsTraceFiresWithEachNewReference)
{
    QuicCcEcnValidation v = SentPackets(4);
    Recorder recorder;
    v.SetListener(&recorder);
    const auto& seen = recorder.counts;
    v.OnAckReceived(true, Counts(2, 0, 0), 2);
    v.OnAckReceived(true, Counts(2, 0, 0), 0);
    v.OnAckReceived(true, Counts(3, 0, 1), 2);
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0], Counts(2, 0, 0));
    EXPECT_EQ(seen[1], Counts(3, 0, 1));
}
