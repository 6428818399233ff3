/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_ECN_H
#define QUIC_CC_ECN_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

/**
 * \file
 * \ingroup quic-cc
 * Explicit Congestion Notification for QUIC (RFC 9000 Sections 13.4 and 19.3.2, Appendix A.4):
 * the IP header's ECN codepoints, the ECN counts an ACK frame of type 0x03 carries, and the
 * sender's validation of the path and of the peer's counts.
 */

namespace ns3
{

/// The two-bit ECN field of the IP header (RFC 3168 Section 5): the low two bits of the IPv4
/// TOS byte or of the IPv6 Traffic Class.
enum class QuicCcEcnCodepoint : uint8_t
{
    NOT_ECT = 0, //!< not ECN-capable
    ECT1 = 1,    //!< ECN-capable transport (1)
    ECT0 = 2,    //!< ECN-capable transport (0): what a QUIC sender sets (RFC 9000 Section 13.4.2)
    CE = 3,      //!< congestion experienced, set by a router instead of dropping
};

/// The ECN codepoint of an IPv4 TOS byte or IPv6 Traffic Class (its low two bits).
QuicCcEcnCodepoint QuicCcEcnFromTos(uint8_t tos);

/// "Not-ECT", "ECT(1)", "ECT(0)", "CE".
std::ostream& operator<<(std::ostream& os, QuicCcEcnCodepoint codepoint);

/**
 * \ingroup quic-cc
 * The ECN counts of RFC 9000 Section 19.3.2: packets received with each codepoint, per
 * packet-number space (quic-cc has one). Each is a varint on the wire, at most 2^62-1.
 */
struct QuicCcEcnCounts
{
    uint64_t ect0{0}; //!< ECT(0) count
    uint64_t ect1{0}; //!< ECT(1) count
    uint64_t ce{0};   //!< ECN-CE count

    /// Count one packet that arrived with \p codepoint (Not-ECT counts nothing).
    void Count(QuicCcEcnCodepoint codepoint);
    /// True if any count is above zero.
    bool Any() const;
};

/// \name Equality and printing of ECN counts ("ect0=1 ect1=0 ce=2")
/// @{
/// \return whether \p a and \p b hold the same three counts
bool operator==(const QuicCcEcnCounts& a, const QuicCcEcnCounts& b);
/// \return whether \p a and \p b differ in a count
bool operator!=(const QuicCcEcnCounts& a, const QuicCcEcnCounts& b);
/// Print \p counts on \p os; \return \p os
std::ostream& operator<<(std::ostream& os, const QuicCcEcnCounts& counts);

/// @}

/**
 * \ingroup quic-cc
 * The sender's ECN validation state: Disabled (the socket's Ecn attribute is off), then the four
 * states of RFC 9000 Appendix A.4, which qlog's recovery:ecn_state_updated names.
 */
enum QuicCcEcnState
{
    QUIC_CC_ECN_DISABLED = 0, //!< ECN off: nothing is marked, counted or reported
    QUIC_CC_ECN_TESTING = 1,  //!< marking ECT(0) on the first packets to test the path
    QUIC_CC_ECN_UNKNOWN = 2,  //!< testing ended without a verdict: not marking, waiting
    QUIC_CC_ECN_FAILED = 3,   //!< validation failed: ECN disabled for the connection
    QUIC_CC_ECN_CAPABLE = 4,  //!< validated: every packet is marked ECT(0)
};

/// "disabled", "testing", "unknown", "failed", "capable" (qlog's ECNState, plus disabled).
const char* QuicCcEcnStateName(QuicCcEcnState state);

/// Prints QuicCcEcnStateName(state).
std::ostream& operator<<(std::ostream& os, QuicCcEcnState state);

namespace TracedValueCallback
{
/// Callback signature of the EcnState trace source: old state, new state.
typedef void (*QuicCcEcnState)(ns3::QuicCcEcnState oldValue, ns3::QuicCcEcnState newValue);
} // namespace TracedValueCallback

/**
 * \ingroup quic-cc
 * \brief The sender's ECN validation (RFC 9000 Section 13.4.2 and Appendix A.4) as ngtcp2 runs
 * it (lib/ngtcp2_conn.c conn_handle_tx_ecn, lib/ngtcp2_rtb.c conn_verify_ecn and
 * rtb_detect_lost_pkt), for one packet-number space. Pure logic: QuicLossDetection drives it
 * with each packet sent, each ACK frame and each loss pass.
 *
 * - Testing: the first kTestingPackets ack-eliciting packets, or those of the first
 *   kTestingPtos PTO periods after the first of them, carry ECT(0); then Unknown (no marking).
 * - An ACK frame that increases the largest acknowledged packet number is checked (an older,
 *   reordered one is not: RFC 9000 Section 13.4.2.1 forbids failing on it). Validation fails
 *   (Failed, for good: nothing is marked again) if it newly acknowledges ECT(0) packets but
 *   carries no ECN counts (a path or peer that clears or ignores the bits); if a count is below
 *   the one of the last checked frame (counts that go backwards); if the ECT(1) count is not
 *   zero (no packet was sent with ECT(1)); if the ECT(0) count, or ECT(0) + ECN-CE, exceeds
 *   the packets sent with ECT(0) (marks on packets never sent with ECT, counts beyond what was
 *   sent: every count is at most 2^62-1, so the sums cannot overflow); or if ECT(0) and ECN-CE
 *   together grew by less than the ECT(0) packets the frame newly acknowledges (a path that
 *   clears the bits or turns CE into Not-ECT). Counts may grow by more than the packets newly
 *   acknowledged (ACK frames get lost). A frame that passes becomes the reference, and one that
 *   newly acknowledges an ECT(0) packet makes the path Capable (from Testing or Unknown).
 * - All packets sent with ECT(0) declared lost while Testing has ended (Unknown): Failed.
 * - Capable: every packet is marked, ACK-only packets too (ngtcp2 marks those only when
 *   capable). Checks go on: a later failure disables ECN (RFC 9000 Section 13.4.2.2).
 *
 * The increase of the ECN-CE count of a frame that passed is the congestion signal
 * (RFC 9002 Section 7.1; QuicLossDetection's ProcessECN, RFC 9002 Appendix B.7).
 */
class QuicCcEcnValidation
{
  public:
    /// ECT(0) packets sent while Testing (RFC 9000 Section 13.4.2: "the first ten").
    static constexpr uint64_t kTestingPackets = 10;
    /// Testing lasts at most this many PTO periods from its first packet (Section 13.4.2).
    static constexpr int64_t kTestingPtos = 3;

    /// What one ACK frame did.
    struct AckOutcome
    {
        /// Increase of the ECN-CE count, if the frame passed validation (else 0)
        uint64_t ceIncrease{0};
        /// The frame passed and its counts differ from the previous reference
        bool countsChanged{false};
    };

    /// Start testing (Disabled -> Testing); nothing happens in any other state.
    void Enable();
    QuicCcEcnState GetState() const; //!< the current state

    /**
     * The codepoint of a packet sent at \p now, counted.
     * \param now  the send time
     * \param pto  the PTO period now, without backoff (the testing period is kTestingPtos of it)
     * \param ackEliciting  whether the packet is ack-eliciting (Testing marks only those)
     */
    QuicCcEcnCodepoint OnPacketSent(Time now, Time pto, bool ackEliciting);

    /**
     * Check an ACK frame (see the class description).
     * \param largestIncreased  the frame raised the largest acknowledged packet number
     * \param counts  its ECN counts (type 0x03), or none (type 0x02)
     * \param newlyAckedEct  ECT(0) packets it newly acknowledges (ack-eliciting packets only:
     *        the sender keeps no record of the others, so the count errs low, as ngtcp2's)
     */
    AckOutcome OnAckReceived(bool largestIncreased,
                             const std::optional<QuicCcEcnCounts>& counts,
                             uint64_t newlyAckedEct);

    /**
     * A loss pass declared \p lost ECT(0) packets lost at \p now (\p pto as for OnPacketSent):
     * ends an expired testing period, and fails validation once every ECT(0) packet is lost.
     */
    void OnEctPacketsLost(uint64_t lost, Time now, Time pto);

    /// The ECN counts of the last ACK frame that passed validation (the reference).
    const QuicCcEcnCounts& GetPeerCounts() const;
    uint64_t GetEctSent() const; //!< packets sent with ECT(0)
    uint64_t GetEctLost() const; //!< of those, declared lost
    /// Why validation failed, naming the check and the values ("" unless Failed).
    const std::string& GetFailureReason() const;

    /**
     * What validation reports, as plain virtual calls (QuicLossDetection::Listener extends it):
     * an ns-3 callback connected in every connection would cost each socket about 300 bytes
     * of callback state.
     */
    class Listener
    {
      public:
        virtual ~Listener() = default;
        /// The state changed from \p oldState to \p newState.
        virtual void OnEcnStateTrace(QuicCcEcnState oldState, QuicCcEcnState newState) = 0;
        /// New reference counts (ECT(0), ECT(1), ECN-CE), each time they change.
        virtual void OnEcnCountsTrace(uint64_t ect0, uint64_t ect1, uint64_t ce) = 0;
    };

    /// Report to \p listener (null: to nobody); it must outlive this object or be unset.
    void SetListener(Listener* listener);

  private:
    void SetState(QuicCcEcnState state);
    void Fail(const std::string& reason);
    /// Testing -> Unknown once its period of kTestingPtos x \p pto from the first packet is over.
    void EndExpiredTesting(Time now, Time pto);
    /// Unknown with every ECT(0) packet lost: Failed.
    void CheckAllLost();
    /// "" if \p counts pass the checks against the reference, else the failure reason.
    std::string Check(const std::optional<QuicCcEcnCounts>& counts, uint64_t newlyAckedEct) const;

    QuicCcEcnState m_state{QUIC_CC_ECN_DISABLED};
    std::optional<Time> m_testingStart; //!< first packet sent while Testing
    uint64_t m_testingSent{0};          //!< ECT(0) packets sent while Testing
    uint64_t m_ectSent{0};              //!< ECT(0) packets sent
    uint64_t m_ectLost{0};              //!< of those, declared lost
    QuicCcEcnCounts m_peer;             //!< reference counts (last frame that passed)
    std::string m_failure;              //!< why it failed
    Listener* m_listener{nullptr};      //!< see SetListener
};

} // namespace ns3

#endif // QUIC_CC_ECN_H
