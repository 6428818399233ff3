/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_LOSS_DETECTION_H
#define QUIC_LOSS_DETECTION_H

#include "quic-cc-ack-range.h"
#include "quic-cc-ecn.h"
#include "quic-cc-sent-frames.h"
#include "quic-congestion-controller.h"
#include "quic-rtt-stats.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc-recovery
 * Which RFC 9002 Section 6.1 threshold declared a packet lost: the packet threshold
 * (kPacketThreshold packets, or the adapted one, acknowledged after it; Section 6.1.1) or the time
 * threshold (sent time_threshold x max(latest_rtt, smoothed_rtt) ago; Section 6.1.2). A packet
 * both thresholds declare lost counts as REORDERING_THRESHOLD.
 */
enum class QuicLossTrigger
{
    REORDERING_THRESHOLD, //!< qlog packet_lost trigger "reordering_threshold"
    TIME_THRESHOLD,       //!< qlog packet_lost trigger "time_threshold"
};

/// The qlog name of \p trigger (draft-ietf-quic-qlog-quic-events-12 Section 7.4).
const char* QuicLossTriggerName(QuicLossTrigger trigger);

/**
 * \ingroup quic-cc-recovery
 * \brief RFC 9002 Sections 5-6 loss detection as quiche runs it, driving a controller.
 *
 * Owns the sent-packet record, bytes in flight, the RTT estimator, the packet and time
 * thresholds, the loss timer and the PTO. Pure logic: it never schedules events. The transport
 * asks GetTimerDeadline() after each call and calls OnTimerExpired() when that time comes.
 *
 * The record is the connection's only record of sent packets: each entry keeps what the packet
 * carried (QuicCcSentFrames), returned in AckResult / TimerResult when the packet is acknowledged
 * or declared lost, so the transport keeps no shadow copy.
 *
 * One packet-number space (quic-cc does not model separate Initial/Handshake spaces).
 * Packets that are not ack-eliciting are not recorded (they are never declared lost and never
 * count in flight); acknowledgements of unknown packet numbers are ignored.
 *
 * ECN (off until EnableEcn(); RFC 9002 Section 7.1): the record keeps which packets were sent
 * with ECT(0) (QuicCcEcnValidation picks the codepoint of each packet sent); each ACK frame's
 * ECN counts are checked by the validation, and a frame that passes with a higher ECN-CE count
 * is one congestion event for the send time of its largest newly acknowledged packet, processed
 * as RFC 9002 Appendix A.7 orders it (ProcessECN, Appendix B.7: after the RTT sample, before
 * the loss pass). The controller enters recovery as for a loss (OnCongestionEvent, no lost
 * bytes), without a checkpoint: the marks are not undone by a spurious-loss rollback.
 *
 * Cost: an ACK range is located by binary search over the record (packet numbers increase);
 * runs of entries acknowledged earlier are jumped over (path-compressed skip links), and the
 * loss pass starts at the oldest packet neither acknowledged nor lost. The work per ACK so grows
 * with the packets the ACK newly covers, not with the packets in flight, also while a lost
 * packet kept for one smoothed RTT holds a window of acknowledged ones behind it in the record.
 */
class QuicLossDetection
{
  public:
    /// RFC 9002 kPacketThreshold.
    static constexpr uint64_t kPacketThreshold = 3;
    /// quiche's cap on the adapted packet threshold after spurious losses.
    static constexpr uint64_t kMaxPacketThreshold = 20;

    /// What one ACK frame did.
    struct AckResult
    {
        std::vector<uint64_t> newlyAcked; //!< packet numbers, ascending
        std::vector<QuicCcSentFrames>
            ackedFrames;            //!< what each newly acked packet carried (same order)
        std::vector<uint64_t> lost; //!< packet numbers declared lost by this frame's pass
        std::vector<QuicCcSentFrames> lostFrames; //!< what each lost packet carried (same order)
        std::vector<uint64_t> spurious; //!< previously lost packets this frame acknowledged
        bool rttSampled{false};         //!< this frame gave an RTT sample
        uint64_t ceIncrease{0};         //!< validated increase of the peer's ECN-CE count
    };

    /// What an expired timer did.
    struct TimerResult
    {
        std::vector<uint64_t> lost;               //!< packets declared lost by a loss-timer pass
        std::vector<QuicCcSentFrames> lostFrames; //!< what each lost packet carried (same order)
        uint32_t probes{0}; //!< PTO probes the transport must send now (1 or 2)
    };

    /**
     * \param cc  the controller to drive (must not be null)
     * \param rtt  initial RTT estimator (its initial RTT and max_ack_delay)
     */
    QuicLossDetection(Ptr<QuicCongestionController> cc, const QuicRttStats& rtt);

    /**
     * Record a sent packet and run the controller's send hook (quiche order: app_limited,
     * controller, PRR, HyStart++ round).
     * \param now  send time
     * \param packetNumber  the packet's number (increasing)
     * \param size  bytes of the UDP payload
     * \param ackEliciting  RFC 9002 Section 2; only these are recorded and count in flight
     * \param frames  what the packet carried (kept with its record entry)
     * \return the ECN codepoint the packet carries (Not-ECT unless ECN is enabled)
     */
    QuicCcEcnCodepoint OnPacketSent(Time now,
                                    uint64_t packetNumber,
                                    uint64_t size,
                                    bool ackEliciting,
                                    QuicCcSentFrames frames = QuicCcSentFrames{});

    /**
     * Process one ACK frame (RFC 9002 Sections 6 and A.7; quiche recovery on_ack_received).
     * \param now  the frame's processing time
     * \param ranges  acknowledged ranges, descending, disjoint (the ACK frame's own)
     * \param ackDelay  the frame's decoded ack delay
     * \param ecn  the frame's ECN counts (type 0x03), if any; used only with ECN enabled
     * \return what the frame did; valid until the next OnAckReceived (its vectors are reused
     *         from frame to frame, so that a frame allocates nothing in the common case)
     */
    const AckResult& OnAckReceived(Time now,
                                   const std::vector<QuicCcAckRange>& ranges,
                                   Time ackDelay,
                                   const std::optional<QuicCcEcnCounts>& ecn = std::nullopt);

    /// When the loss timer or PTO must fire, if armed (absolute time).
    std::optional<Time> GetTimerDeadline() const;

    /// The timer fired at \p now (at or after GetTimerDeadline()).
    TimerResult OnTimerExpired(Time now);

    /// Number of probes still owed after a PTO (they bypass the congestion window).
    uint32_t GetPendingProbes() const;
    /// A probe was sent: one fewer owed.
    void OnProbeSent();

    /// Mark the handshake confirmed: ack delay is then clamped and PTO adds max_ack_delay.
    void SetHandshakeConfirmed(bool confirmed);
    /// The peer's max_ack_delay (RFC 9000 transport parameter).
    void SetPeerMaxAckDelay(Time d);

    /**
     * Establish persistent congestion (RFC 9002 Section 7.6; off by default, as quiche): after a
     * loss pass, if a run of lost ack-eliciting packets with no acknowledged packet between them
     * includes a packet lost in this pass, all sent after the first RTT sample, and spans (first
     * to last send time) more than GetPersistentCongestionDuration(), the controller's
     * OnPersistentCongestion() runs once after the pass's congestion event.
     */
    void SetPersistentCongestion(bool enabled);
    /// (smoothed_rtt + max(4 rttvar, kGranularity) + max_ack_delay) x 3 (RFC 9002 Section 7.6.1).
    Time GetPersistentCongestionDuration() const;
    /// Times persistent congestion was established.
    uint64_t GetPersistentCongestionCount() const;

    /// Mark packets and process ECN counts from now on (RFC 9000 Section 13.4: validation starts
    /// Testing).
    void EnableEcn();
    /// The ECN validation (its state, counts and failure reason).
    const QuicCcEcnValidation& GetEcnValidation() const;
    /// Congestion events an ECN-CE increase started (window reductions; RFC 9002 Section 7.1).
    uint64_t GetEcnCongestionEventCount() const;

    uint64_t GetBytesInFlight() const; //!< bytes of ack-eliciting packets not acked or lost
    uint32_t GetPtoCount() const;      //!< consecutive PTOs without an ACK
    /// The PTO period now: RFC 9002 Section 6.2.1 (max_ack_delay once the handshake is
    /// confirmed), doubled per consecutive PTO; saturates at Time::Max().
    Time GetPtoDuration() const;
    uint64_t GetPacketThreshold()
        const;                       //!< current packet threshold (3, raised by spurious losses)
    double GetTimeThreshold() const; //!< 9/8, or 5/4 after a spurious loss
    uint64_t GetLostPacketCount() const;             //!< packets declared lost so far
    uint64_t GetSpuriousLossCount() const;           //!< lost packets later acknowledged
    std::optional<uint64_t> GetLargestAcked() const; //!< largest acknowledged packet number
    const QuicRttStats& GetRttStats() const;         //!< the RTT estimator
    size_t GetRecordSize() const; //!< entries in the sent-packet record (tests, benchmarks)
    size_t GetRecordPeak() const; //!< most entries the record held at once

    /**
     * What the oldest packet neither acknowledged nor declared lost carried (null if none): a
     * PTO probe repeats it (RFC 9002 Section 6.2.4).
     */
    const QuicCcSentFrames* GetOldestOutstandingFrames() const;

    /// Per-packet callback: packet number, bytes, time sent.
    typedef Callback<void, uint64_t, uint64_t, Time> PacketCallback;
    /// Change callback: old value, new value.
    typedef Callback<void, uint64_t, uint64_t> ValueCallback;
    /// Called with (packet number, bytes, time sent) for each packet declared lost.
    void TraceConnectPacketLost(const PacketCallback& cb);
    /// Called with (packet number, threshold) for each packet declared lost, just before the
    /// TraceConnectPacketLost callbacks.
    void TraceConnectPacketLostTrigger(const Callback<void, uint64_t, QuicLossTrigger>& cb);
    /// Called with (packet number, bytes, time sent) for each packet newly acknowledged.
    void TraceConnectPacketAcked(const PacketCallback& cb);
    /// Called with (old, new) bytes in flight on every change.
    void TraceConnectBytesInFlight(const ValueCallback& cb);

    /**
     * What the three trace hooks above report, and the ECN validation's reports, as plain
     * virtual calls: one call per packet instead of an ns-3 callback chain (the socket's trace
     * sources listen this way). The listener hears each report before the callbacks connected
     * with TraceConnect*.
     */
    class Listener : public QuicCcEcnValidation::Listener
    {
      public:
        virtual ~Listener() = default;
        /// As TraceConnectBytesInFlight: old and new bytes in flight.
        virtual void OnBytesInFlightTrace(uint64_t oldValue, uint64_t newValue) = 0;
        /// As TraceConnectPacketAcked: packet number, bytes, time sent.
        virtual void OnPacketAckedTrace(uint64_t packetNumber, uint64_t bytes, Time sent) = 0;
        /// As TraceConnectPacketLostTrigger: packet number, the threshold that declared it lost.
        virtual void OnPacketLostTriggerTrace(uint64_t packetNumber, QuicLossTrigger trigger) = 0;
        /// As TraceConnectPacketLost: packet number, bytes, time sent.
        virtual void OnPacketLostTrace(uint64_t packetNumber, uint64_t bytes, Time sent) = 0;
    };

    /// Report to \p listener (null: to nobody); it must outlive this object or be unset.
    void SetListener(Listener* listener);

  private:
    /// One entry of the sent-packet record.
    struct SentPacket
    {
        uint64_t packetNumber{0}; //!< packet number
        uint64_t size{0};         //!< bytes in flight it accounts for
        Time timeSent;            //!< send time
        Time timeLost;            //!< when it was declared lost (valid if lost)
        bool acked{false};        //!< acknowledged
        bool lost{false};         //!< declared lost
        bool ect{false};          //!< sent with ECT(0)
        /// If acked: absolute position (see m_popped) of a later entry; every entry between is
        /// acked too (0 = none known beyond the next entry). See SkipAcked().
        uint64_t skipTo{0};
        QuicCcSentFrames frames; //!< what it carried (moved out when acked or lost)
    };

    /**
     * The sent-packet record: a queue with O(1) indexing. Entries are removed from the front
     * only; the vector's freed front is reclaimed once it is the larger part (each entry moves
     * at most once per reclaim: amortised O(1)).
     */
    class Record
    {
      public:
        bool empty() const
        {
            return m_head == m_entries.size();
        }

        size_t size() const
        {
            return m_entries.size() - m_head;
        }

        SentPacket& operator[](size_t i)
        {
            return m_entries[m_head + i];
        }

        const SentPacket& operator[](size_t i) const
        {
            return m_entries[m_head + i];
        }

        const SentPacket& front() const
        {
            return m_entries[m_head];
        }

        const SentPacket& back() const
        {
            return m_entries.back();
        }

        SentPacket& emplace_back()
        {
            return m_entries.emplace_back();
        }

        void pop_front();

        std::vector<SentPacket>::const_iterator begin() const
        {
            return m_entries.begin() + static_cast<std::ptrdiff_t>(m_head);
        }

        std::vector<SentPacket>::const_iterator end() const
        {
            return m_entries.end();
        }

      private:
        std::vector<SentPacket> m_entries; //!< [m_head, end) is the record
        size_t m_head{0};                  //!< entries removed from the front, not reclaimed
    };

    /// Index of the first record entry with packetNumber >= pn.
    size_t LowerBound(uint64_t pn) const;
    /// Index of the first entry at or after index \p i that is not acked (m_sent.size() if none).
    size_t SkipAcked(size_t i);
    /// RFC 9002 Section 6.1 loss pass; raises at most one congestion event. Appends the packets
    /// it declares lost to \p lost and what they carried to \p lostFrames.
    void DetectLosses(Time now,
                      uint64_t bytesInFlightForEvent,
                      std::vector<uint64_t>& lost,
                      std::vector<QuicCcSentFrames>& lostFrames);
    /// RFC 9002 Section 7.6.2 over the record, after a pass at \p now that lost packets.
    bool InPersistentCongestion(Time now) const;
    Time LossDelay() const;
    /// The PTO period without backoff (the ECN testing period's unit).
    Time PtoPeriod() const;
    /// RFC 9002 Appendix B.7 ProcessECN: one congestion event for a validated ECN-CE increase.
    void ProcessEcn(Time now, Time largestAckedTimeSent, uint64_t bytesInFlight);
    void SetBytesInFlight(uint64_t bytes);
    /// Drop acked entries and lost entries older than one smoothed RTT from the front.
    void Prune(Time now);

    Ptr<QuicCongestionController> m_cc;
    QuicRttStats m_rtt;
    Record m_sent;               //!< record, ascending packet numbers
    uint64_t m_popped{0};        //!< entries pruned so far: absolute position of m_sent[0]
    uint64_t m_lossScanFrom{0};  //!< absolute position; every entry before it is acked or lost
    uint64_t m_bytesInFlight{0}; //!< bytes
    std::optional<uint64_t> m_largestAcked;     //!< largest acknowledged packet number
    std::optional<Time> m_lossTime;             //!< earliest time-threshold loss, if armed
    std::optional<Time> m_lastAckElicitingSent; //!< PTO base time
    uint64_t m_ackElicitingInFlight{0};         //!< packets
    uint32_t m_ptoCount{0};                     //!< consecutive PTOs
    uint32_t m_pendingProbes{0};                //!< probes owed
    uint64_t m_packetThreshold{kPacketThreshold};
    double m_timeThreshold{9.0 / 8}; //!< RFC 9002 kTimeThreshold
    bool m_handshakeConfirmed{false};
    uint64_t m_lostPackets{0};            //!< packets
    uint64_t m_spuriousLosses{0};         //!< packets
    size_t m_recordPeak{0};               //!< most entries m_sent held at once
    bool m_persistentCongestion{false};   //!< RFC 9002 Section 7.6 on
    std::optional<Time> m_firstRttSample; //!< time of the first RTT sample
    uint64_t m_persistentCongestionCount{0};
    QuicCcEcnValidation m_ecn;            //!< RFC 9000 Section 13.4.2 (Disabled unless enabled)
    uint64_t m_ecnCongestionEvents{0};    //!< window reductions an ECN-CE increase started
    AckResult m_ackResult;                //!< OnAckReceived's result (reused)
    std::vector<QuicAckedPacket> m_acked; //!< OnAckReceived's packets for the controller (reused)

    Listener* m_listener{nullptr};                                //!< see SetListener
    TracedCallback<uint64_t, uint64_t, Time> m_packetLostTrace;   //!< see TraceConnectPacketLost
    TracedCallback<uint64_t, QuicLossTrigger> m_lostTriggerTrace; //!< TraceConnectPacketLostTrigger
    TracedCallback<uint64_t, uint64_t, Time> m_packetAckedTrace;  //!< see TraceConnectPacketAcked
    TracedCallback<uint64_t, uint64_t> m_bytesInFlightTrace;      //!< see TraceConnectBytesInFlight
};

} // namespace ns3

#endif // QUIC_LOSS_DETECTION_H
