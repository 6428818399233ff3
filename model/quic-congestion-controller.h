/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CONGESTION_CONTROLLER_H
#define QUIC_CONGESTION_CONTROLLER_H

#include "quic-rtt-stats.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace ns3
{

class QuicHyStartPlusPlus;

/**
 * \ingroup quic-cc-controllers
 * One packet newly acknowledged by an ACK frame, as the controller sees it.
 */
struct QuicAckedPacket
{
    uint64_t packetNumber{0}; //!< packet number
    uint64_t bytes{0};        //!< size counted in bytes in flight (0 for non-ack-eliciting)
    Time timeSent;            //!< time the packet was sent
};

/**
 * \ingroup quic-cc-controllers
 * Congestion state as qlog's recovery:congestion_state_updated reports it (quiche's state_str):
 * ConservativeSlowStart while HyStart++ is in CSS; otherwise SlowStart while cwnd < ssthresh;
 * otherwise Recovery while now <= the recovery start time R; otherwise CongestionAvoidance.
 */
enum QuicCongestionState
{
    QUIC_CC_SLOW_START = 0,              //!< cwnd < ssthresh
    QUIC_CC_CONSERVATIVE_SLOW_START = 1, //!< HyStart++ Conservative Slow Start (RFC 9406)
    QUIC_CC_CONGESTION_AVOIDANCE = 2,    //!< cwnd >= ssthresh, now after R
    QUIC_CC_RECOVERY = 3,                //!< now <= R (RFC 9002 Section 7.3.2)
};

/// Name of a state as qlog writes it: "slow_start", "conservative_slow_start",
/// "congestion_avoidance", "recovery".
const char* QuicCongestionStateName(QuicCongestionState state);

/**
 * \ingroup quic-cc-controllers
 * Checker of a DoubleValue attribute that must lie strictly between \p lo and \p hi (\p hi may
 * be +infinity: then any finite value above \p lo), e.g. CUBIC's Beta in (0, 1) and C > 0 (RFC
 * 9438 Sections 4.6 and 5.1). ns-3's MakeDoubleChecker has closed bounds only. ns-3 rejects a
 * value outside the interval (Config::SetDefault, ObjectFactory::Set, CommandLine) before the
 * object exists; GetUnderlyingTypeInformation() says "double in (lo, hi)".
 */
Ptr<const AttributeChecker> MakeQuicOpenIntervalChecker(double lo, double hi);

/**
 * \ingroup quic-cc-controllers
 * \brief The controller contract: quiche's congestion-control hooks, in quiche's call order.
 *
 * Pure logic: a controller never schedules events, never reads the simulator clock and never
 * touches packets. Time comes in as arguments; every window is in bytes.
 *
 * The base class holds the state every quiche controller shares (quiche's `Congestion`):
 * cwnd, ssthresh, the congestion recovery start time R, app_limited, lost_count and the
 * HyStart++ component. R is both the recovery marker and CUBIC's epoch start.
 *
 * Call order for one ACK frame (see QuicLossDetection): Rollback() on a spurious loss,
 * OnCongestionExperienced() if the frame raised the validated ECN-CE count (ECN on),
 * Checkpoint() + OnCongestionEvent() if the loss pass finds a lost in-flight packet,
 * AddLostPackets(), then OnPacketsAcked().
 */
class QuicCongestionController : public Object
{
  public:
    /// Smallest max datagram size QUIC allows (RFC 9000 Section 14), bytes.
    static constexpr uint64_t kMinMaxDatagramSize = 1200;
    /// Largest UDP payload (65535 - 8 B UDP header), bytes.
    static constexpr uint64_t kMaxMaxDatagramSize = 65527;
    /// Default max datagram size (QuicCcSocket::MaxDatagramSize; quiche max_send_udp_payload_size).
    static constexpr uint64_t kDefaultMaxDatagramSize = 1350;
    /// Default initial window, packets (RFC 9002 Section 7.2 and quiche: 10).
    static constexpr uint64_t kDefaultInitialWindowPackets = 10;
    /// Default minimum window, packets (RFC 9002 kMinimumWindow and quiche: 2).
    static constexpr uint64_t kDefaultMinimumWindowPackets = 2;
    /// Largest window in bytes (2^48): packets x max datagram size stays far from overflow.
    static constexpr uint64_t kMaxWindowBytes = uint64_t{1} << 48;

    /**
     * \return "" if \p maxDatagramSize is in [kMinMaxDatagramSize, kMaxMaxDatagramSize],
     * 1 <= \p minimumWindowPackets <= \p initialWindowPackets and the initial window is at most
     * kMaxWindowBytes; else a message naming the bad value
     * \param prefix  names the caller in the message (e.g. "QuicCcSocket::")
     * \param maxDatagramSize  mss, bytes
     * \param initialWindowPackets  initial window, packets
     * \param minimumWindowPackets  minimum window, packets
     */
    static std::string GetWindowConfigError(const std::string& prefix,
                                            uint64_t maxDatagramSize,
                                            uint64_t initialWindowPackets,
                                            uint64_t minimumWindowPackets);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    QuicCongestionController();           //!< cwnd and ssthresh unset until Configure()
    ~QuicCongestionController() override; //!< destructor

    /**
     * Fix the connection's max datagram size and windows; resets cwnd to the initial window and
     * ssthresh to infinity. Called by the socket before the first send (and by tests).
     * \param maxDatagramSize  mss in bytes, 1200..65527 (RFC 9000 Section 14; 65527 is the UDP
     *                         payload limit)
     * \param initialWindowPackets  initial cwnd in packets, >= 1
     * \param minimumWindowPackets  floor applied inside congestion events, in packets,
     *                              >= 1 and <= initialWindowPackets
     * Any value outside those ranges is a fatal error naming it.
     */
    void Configure(uint64_t maxDatagramSize,
                   uint64_t initialWindowPackets = 10,
                   uint64_t minimumWindowPackets = 2);

    /**
     * A packet was sent. Runs quiche's generic in-flight send steps, in order: app_limited =
     * (bytesInFlightBefore + sentBytes) < cwnd; the algorithm's own send hook (CUBIC: idle
     * restart, PRR); HyStart++ may open a round if enabled and cwnd < ssthresh.
     * \param now  send time
     * \param packetNumber  the packet's number
     * \param sentBytes  bytes counted in flight (0 for a packet that is not ack-eliciting)
     * \param bytesInFlightBefore  bytes in flight before this packet
     */
    void OnPacketSent(Time now,
                      uint64_t packetNumber,
                      uint64_t sentBytes,
                      uint64_t bytesInFlightBefore);

    /**
     * One ACK frame newly acknowledged \p acked (oldest first).
     * \param now  the ACK frame's processing time
     * \param acked  the packets it newly acknowledged, oldest first
     * \param bytesInFlight  bytes in flight after this frame's lost bytes were removed and before
     *                       its acked bytes are (one value for the whole frame)
     * \param rtt  the connection's RTT estimator (min_rtt for CUBIC, latest_rtt for HyStart++)
     */
    void OnPacketsAcked(Time now,
                        const std::vector<QuicAckedPacket>& acked,
                        uint64_t bytesInFlight,
                        const QuicRttStats& rtt);

    /**
     * A loss pass declared in-flight packets lost. Starts a new episode only if
     * \p largestLostTimeSent is after R (RFC 9002 Section 7.3.2).
     * \param now  the loss pass's time (the new R if an episode starts)
     * \param largestLostTimeSent  send time of the largest packet declared lost
     * \param lostBytes  bytes declared lost by this pass
     * \param bytesInFlight  bytes in flight before the lost (and acked) bytes are removed
     */
    void OnCongestionEvent(Time now,
                           Time largestLostTimeSent,
                           uint64_t lostBytes,
                           uint64_t bytesInFlight);

    /**
     * The peer's ECN-CE count rose (RFC 9002 Section 7.1 and Appendix B.7 ProcessECN): a
     * congestion event for the send time of the largest acknowledged packet, with the same
     * response as a loss (OnCongestionEvent with no lost bytes: the algorithm's reduction, PRR,
     * HyStart++'s exit), except that nothing undoes it: the checkpoint of a loss event is
     * discarded first (DiscardCheckpoint), so that neither a spurious loss nor CUBIC's rollback
     * heuristic, which counts losses only, rolls the window back past the marks.
     * \param now  the time the ACK frame is processed (the new R if an episode starts)
     * \param largestAckedTimeSent  send time of the largest newly acknowledged packet
     * \param bytesInFlight  bytes in flight before this frame's lost and acked bytes are removed
     */
    void OnCongestionExperienced(Time now, Time largestAckedTimeSent, uint64_t bytesInFlight);

    /// lost_count += n (n packets declared lost by one loss pass).
    void AddLostPackets(uint64_t n);

    /**
     * RFC 9002 Section 7.6.2: persistent congestion was established (after this pass's
     * OnCongestionEvent, so the window is reduced once, not twice): cwnd = minimum window and
     * R is cleared, so that later ACKs can grow cwnd again. The algorithm resets its epoch state.
     */
    void OnPersistentCongestion(Time now);

    /// Save the state a spurious congestion event would undo (quiche: checkpoint).
    virtual void Checkpoint();
    /// Forget the saved state: Rollback() refuses until the next Checkpoint().
    virtual void DiscardCheckpoint();
    /// Undo the last congestion event if allowed; returns true if it rolled back. The congestion
    /// state is then re-evaluated at the time of the latest timed call.
    virtual bool Rollback();

    // The accessors below are defined here: they run on every packet.

    /// quiche in_congestion_recovery: timeSent <= R (false while R is unset).
    bool InCongestionRecovery(Time timeSent) const
    {
        return m_recoveryStart && timeSent <= *m_recoveryStart;
    }

    /// Set the connection-level app_limited flag.
    void SetAppLimited(bool appLimited)
    {
        m_appLimited = appLimited;
    }

    /// The app_limited flag.
    bool IsAppLimited() const
    {
        return m_appLimited;
    }

    /// cwnd, bytes.
    uint64_t GetCongestionWindow() const
    {
        return m_cwnd.Get();
    }

    /// ssthresh, bytes (UINT64_MAX = not set).
    uint64_t GetSlowStartThreshold() const
    {
        return m_ssthresh.Get();
    }

    /// mss, bytes.
    uint64_t GetMaxDatagramSize() const
    {
        return m_mss;
    }

    /// Minimum window, bytes.
    uint64_t GetMinimumWindow() const
    {
        return m_minimumWindowPackets * m_mss;
    }

    /// Packets declared lost so far.
    uint64_t GetLostCount() const
    {
        return m_lostCount;
    }

    /// R, if set.
    const std::optional<Time>& GetRecoveryStartTime() const
    {
        return m_recoveryStart;
    }

    /// Send budget in bytes: max(cwnd - bytesInFlight, 0), plus PRR's send_count for CUBIC.
    virtual uint64_t GetBytesAvailable(uint64_t bytesInFlight) const;

    /// State under qlog's definition (see QuicCongestionState) at \p now.
    QuicCongestionState GetCongestionState(Time now) const;

    /// The HyStart++ component (always present; active only when the HyStart attribute is true).
    Ptr<QuicHyStartPlusPlus> GetHyStart() const;
    bool IsHyStartEnabled() const; //!< the HyStart attribute

    /// A fresh controller of the same type and attributes, in its initial state.
    virtual Ptr<QuicCongestionController> Fork() const = 0;

    /// Algorithm name as qlog/quiche spell it ("reno", "cubic").
    virtual std::string GetName() const = 0;

  protected:
    /// Add the "HyStart" attribute (default true, as quiche) to an algorithm's TypeId.
    static TypeId AddHyStartAttribute(TypeId tid);

    void DoDispose() override; //!< drops the HyStart++ component

    /**
     * \name Algorithm hooks
     * The base runs quiche's generic steps and gates; an algorithm fills in these steps.
     * Per acked packet, in order (quiche on_packet_acked): in recovery? -> DoRecoveryAck(), stop;
     * app_limited? stop; DoRollbackHeuristic() (CUBIC: spurious-congestion rollback) may stop;
     * then, decided
     * before any increment, slow start (DoSlowStartCredit() + HyStart++) or
     * DoCongestionAvoidanceAck().
     * @{
     */
    /// Algorithm-specific part of OnPacketSent (after app_limited, before HyStart++'s round).
    virtual void DoPacketSent(Time now, uint64_t sentBytes, uint64_t bytesInFlightBefore);
    /// Called once per ACK frame before the per-packet loop (CUBIC: last_ack_time = now).
    virtual void DoAckFrameStart(Time now);
    /**
     * An acked packet sent at or before R; nothing else happens to it (CUBIC: feeds PRR).
     * \param packet  the acknowledged packet
     * \param bytesInFlight  the frame's bytes in flight (PRR's pipe)
     */
    virtual void DoRecoveryAck(const QuicAckedPacket& packet, uint64_t bytesInFlight);
    /**
     * The rollback heuristic (RFC 9438 Section 4.9; quiche cubic's spurious-congestion check), the
     * last gate before window growth, for a packet past the recovery and app_limited gates.
     * Default: never rolls back.
     * \return true if it rolled the congestion event back: this packet grows nothing
     */
    virtual bool DoRollbackHeuristic(Time now);
    /**
     * Slow-start accounting of one acked packet.
     * \param ackedBytes  the packet's size, bytes
     * \return true if the packet earns one slow-start step (mss, or the CSS increment).
     *         Default: every packet, whatever its size (quiche Reno).
     */
    virtual bool DoSlowStartCredit(uint64_t ackedBytes);
    /// Congestion avoidance for one acked packet (cwnd >= ssthresh).
    virtual void DoCongestionAvoidanceAck(Time now,
                                          const QuicAckedPacket& packet,
                                          const QuicRttStats& rtt) = 0;
    /**
     * Window reduction of a new congestion episode (R is already now). The base then leaves
     * HyStart++'s CSS or post-exit state.
     * \param now  the event's time (R)
     * \param lostBytes  bytes declared lost by the pass
     * \param bytesInFlight  bytes in flight before this pass's lost bytes are removed
     */
    virtual void DoCongestionEvent(Time now, uint64_t lostBytes, uint64_t bytesInFlight) = 0;
    /// Body of Rollback(); the default refuses (returns false).
    virtual bool DoRollback();
    /// An acked packet stopped by the app_limited gate while cwnd >= ssthresh (CUBIC's
    /// AppLimitedTime rule opens its app-limited period). Default: nothing.
    virtual void DoAppLimitedAck(Time now);
    /// Algorithm state to reset after OnPersistentCongestion() set cwnd and cleared R.
    virtual void DoPersistentCongestion();
    /** @} */

    /// Write cwnd (fires the CongestionWindow trace on change).
    void SetCwnd(uint64_t cwnd);
    /// Write ssthresh (fires the SlowStartThreshold trace on change).
    void SetSsthresh(uint64_t ssthresh);
    /// Write R (fires the RecoveryStartTime trace with the new R on a change); std::nullopt
    /// unsets it and fires nothing.
    void SetRecoveryStartTime(std::optional<Time> r);
    /// Re-evaluate the qlog congestion state at \p now; fires CongestionState on a change.
    void UpdateCongestionState(Time now);

    /// True if HyStart++ is enabled and in CSS proper (slow-start steps are then mss / divisor).
    bool InHyStartCss() const;
    /**
     * HyStart++'s CSS start time, if HyStart++ is enabled and in CSS or its post-exit state
     * (quiche in_css()): CUBIC's epoch after CSS ended, and the condition for clearing HyStart++
     * at a congestion event.
     */
    std::optional<Time> GetHyStartCssStart() const;

    /**
     * Copy the configuration (every attribute of this object and of its HyStart++ component, and
     * the Configure() values), not the state, into a freshly created \p other of the same type.
     */
    void CopyAttributesTo(QuicCongestionController& other) const;

    /// Fork() for an algorithm \p T: a new T with this controller's configuration.
    template <typename T>
    Ptr<QuicCongestionController> ForkAs() const
    {
        Ptr<T> copy = CreateObject<T>();
        CopyAttributesTo(*copy);
        return copy;
    }

  private:
    /// quiche on_packet_acked for one packet: the shared gates, then slow start or CA.
    void OnOnePacketAcked(Time now,
                          const QuicAckedPacket& packet,
                          uint64_t bytesInFlight,
                          const QuicRttStats& rtt);
    /// Slow-start step shared by every algorithm: cwnd increment, then HyStart++.
    void SlowStartAck(Time now, const QuicAckedPacket& packet, const QuicRttStats& rtt);
    /// RestartWindow attribute, RFC 5681 Section 4.1 restart window: cwnd = min(initial window,
    /// cwnd) on a send after an idle period longer than the retransmission timeout.
    void ApplyRestartWindow(Time now, uint64_t sentBytes, uint64_t bytesInFlightBefore);

    uint64_t m_mss{kDefaultMaxDatagramSize};                       //!< max datagram size, bytes
    uint64_t m_initialWindowPackets{kDefaultInitialWindowPackets}; //!< packets
    uint64_t m_minimumWindowPackets{kDefaultMinimumWindowPackets}; //!< packets
    bool m_hyStartEnabled{true};                                   //!< HyStart attribute
    bool m_restartWindow{false};         //!< RestartWindow attribute (RFC 5681 Section 4.1)
    std::optional<Time> m_lastAckFrame;  //!< last ACK frame that newly acked something
    Time m_rto;                          //!< smoothed_rtt + max(4 rttvar, 1 ms) at that frame
    uint64_t m_ssGrowthThisFrame{0};     //!< slow-start growth in this ACK frame (HyStart++ L)
    bool m_appLimited{false};            //!< quiche app_limited
    uint64_t m_lostCount{0};             //!< quiche lost_count, packets
    std::optional<Time> m_recoveryStart; //!< R: recovery start and CUBIC epoch
    Time m_lastCallTime;                 //!< time of the last timed hook (for Rollback's state)
    Ptr<QuicHyStartPlusPlus> m_hyStart;  //!< HyStart++ component

    TracedValue<uint64_t> m_cwnd{0};                                        //!< cwnd, bytes
    TracedValue<uint64_t> m_ssthresh{std::numeric_limits<uint64_t>::max()}; //!< bytes
    TracedValue<QuicCongestionState> m_state{QUIC_CC_SLOW_START};           //!< qlog state
    TracedCallback<Time> m_recoveryStartTrace; //!< fires with the new R on every change
};

namespace TracedValueCallback
{
/// Callback signature of the CongestionState trace source.
typedef void (*QuicCongestionState)(ns3::QuicCongestionState oldValue,
                                    ns3::QuicCongestionState newValue);
} // namespace TracedValueCallback

} // namespace ns3

#endif // QUIC_CONGESTION_CONTROLLER_H
