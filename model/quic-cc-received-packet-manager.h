/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_RECEIVED_PACKET_MANAGER_H
#define QUIC_CC_RECEIVED_PACKET_MANAGER_H

#include "quic-cc-frames.h"
#include "quic-cc-range-set.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <optional>

namespace ns3
{

/**
 * \ingroup quic-cc-transport
 * \brief The receiver's side of acknowledgement: which packet numbers arrived, when an ACK is
 * owed, and the ACK frame that reports them (Google quiche's QuicReceivedPacketManager plays
 * this part).
 *
 * Pure logic, like QuicLossDetection: it never schedules events. OnAckElicitingReceived() says
 * whether the ACK must leave at once; otherwise the transport arms its ACK timer for
 * GetAckDeadline() (a zero delay is still a timer: the ACK leaves after the current event).
 * OnAckSent() clears the obligation and the deadline.
 *
 * Policies:
 * - Rfc9000 (RFC 9000 Sections 13.2.1-13.2.2): acknowledge every AckElicitingThreshold-th
 *   ack-eliciting packet, or at once when a packet arrives out of order; otherwise within
 *   max_ack_delay of the first unacknowledged one.
 * - ReceiveBatch: one ACK for everything arriving within the batch window of the batch's first
 *   packet, as a quiche receiver's event loop acknowledges once per batch of reads.
 *
 * The receive history is bounded: only the highest ranges can be reported, so at most
 * 4 x MaxAckRanges ranges are kept.
 *
 * ECN (RFC 9000 Section 13.4.1): each new packet counts its IP header's codepoint once (a
 * duplicate is not passed in, so it counts nothing); once any count is above zero, the ACK
 * frame carries the counts (type 0x03, as ngtcp2 sends them). An ack-eliciting packet that
 * arrived with ECN-CE is acknowledged at once under either policy (RFC 9000 Section 13.2.1), so
 * the sender reacts within a round trip. A receiver that does not read codepoints passes
 * Not-ECT and sends type 0x02 only.
 */
class QuicCcReceivedPacketManager
{
  public:
    /// Receiver ACK policy (QuicCcSocket::AckPolicy).
    enum Policy
    {
        RFC9000 = 0,       //!< RFC 9000 Section 13.2
        RECEIVE_BATCH = 1, //!< one ACK per receive batch
    };

    /// Configuration (QuicCcSocket's ACK attributes, stored in QuicCcConnection::Config).
    struct Config
    {
        Policy policy{RECEIVE_BATCH};       //!< AckPolicy
        uint32_t ackElicitingThreshold{2};  //!< AckElicitingThreshold: Rfc9000, >= 1
        Time maxAckDelay{MilliSeconds(25)}; //!< MaxAckDelay: Rfc9000 ACK timer, >= 0
        Time batchWindow{MicroSeconds(50)}; //!< AckBatchWindow: ReceiveBatch, >= 0
        uint32_t maxAckRanges{32};          //!< MaxAckRanges: ranges per ACK frame, >= 1

        /// \return "" if every field is in range, else a message naming the QuicCcSocket
        /// attribute and its value
        std::string GetError() const;
    };

    QuicCcReceivedPacketManager();

    /// Replace the configuration; an invalid field is a fatal error naming it (Config::GetError()).
    void Configure(const Config& config);

    /// True if \p packetNumber arrived before (its frames were processed already).
    bool IsDuplicate(uint64_t packetNumber) const;
    /**
     * Record a new (non-duplicate) packet number that arrived at \p now with the ECN codepoint
     * \p ecn of its IP header (counted).
     * \return true if it arrived out of order (not largest + 1)
     */
    bool OnPacketReceived(uint64_t packetNumber,
                          Time now,
                          QuicCcEcnCodepoint ecn = QuicCcEcnCodepoint::NOT_ECT);
    /**
     * An ack-eliciting packet was processed at \p now: an ACK is owed.
     * \param outOfOrder  it arrived out of order (OnPacketReceived's answer)
     * \param now  the time it was processed
     * \param congestionExperienced  it arrived marked ECN-CE
     * \return true if it must be sent at once; false: it is due at GetAckDeadline()
     */
    bool OnAckElicitingReceived(bool outOfOrder, Time now, bool congestionExperienced = false);
    /// An ACK frame went out: nothing owed, no deadline.
    void OnAckSent();

    bool IsAckPending() const;                   //!< an ACK is owed
    std::optional<Time> GetAckDeadline() const;  //!< when the owed ACK must leave, if any
    bool AnyReceived() const;                    //!< a packet arrived
    uint64_t GetLargestReceived() const;         //!< largest packet number (0 before any)
    size_t GetRangeCount() const;                //!< ranges of the receive history
    const QuicCcEcnCounts& GetEcnCounts() const; //!< packets counted per ECN codepoint

    /**
     * The ACK frame reporting the highest MaxAckRanges ranges; ack delay measured from the
     * arrival of the largest packet number (RFC 9000 Section 19.3); the ECN counts once any is
     * above zero. At least one packet must have arrived.
     */
    QuicCcAckFrame BuildAckFrame(Time now) const;

  private:
    Config m_config;
    QuicCcRangeSet m_received;          //!< received packet numbers
    uint64_t m_largestReceived{0};      //!< largest packet number
    Time m_largestReceivedTime;         //!< its arrival
    bool m_anyReceived{false};          //!< a packet arrived
    uint32_t m_ackElicitingSinceAck{0}; //!< ack-eliciting packets since the last ACK
    bool m_ackPending{false};           //!< an ACK is owed
    std::optional<Time> m_ackDeadline;  //!< when the owed ACK must leave
    QuicCcEcnCounts m_ecn;              //!< packets counted per ECN codepoint
};

} // namespace ns3

#endif // QUIC_CC_RECEIVED_PACKET_MANAGER_H
