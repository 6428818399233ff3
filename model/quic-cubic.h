/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CUBIC_H
#define QUIC_CUBIC_H

#include "quic-congestion-controller.h"
#include "quic-prr.h"

#include <optional>

namespace ns3
{

/**
 * \ingroup quic-cc-controllers
 * \brief CUBIC (RFC 9438) with the arithmetic of quiche's cubic.rs.
 *
 * Windows are bytes; W_max, K (seconds) and W_est stay double; a product with beta is truncated
 * when written into cwnd or ssthresh (84000 * 0.7 -> 58799). Pure logic: never calls Simulator.
 *
 * - Slow start: byte-counted (one mss, or the HyStart++ CSS increment, per mss of acked bytes;
 *   at most one step per packet; the remainder carries over).
 * - Congestion avoidance, per acked packet: the epoch is R, or HyStart++'s CSS start time after
 *   CSS ended by its round limit; W_cubic(t + min_rtt) clipped to [cwnd, 1.5 cwnd] is the target
 *   (RFC 9438 Section 4.2); W_est grows by alpha * (size / cwnd) * mss (Section 4.3); cwnd_inc
 *   accumulates the per-ack gain and cwnd grows by one mss whenever it reaches one mss.
 * - New congestion episode: R = now; fast convergence (Section 4.7); ssthresh = cwnd =
 *   max(trunc(cwnd * beta), minimum window) (Section 4.6); K recomputed; PRR restarts.
 * - PRR (RFC 6937) adds its send count to the send budget.
 * - Checkpoint()/Rollback(): quiche's spurious-congestion undo (RFC 9438 Section 4.9), also run
 *   as a heuristic on every ack: fewer new losses than max(20% of cwnd in packets, 2) undo the
 *   last reduction.
 * - Idle restart: after an idle or app-limited period the epoch (R by default) moves, as chosen
 *   by the IdleRestart attribute (at the first send into an empty pipe, or at an ACK).
 *
 * R doubles as the recovery marker and the epoch start: this coupling is what traps quiche's
 * 2020 idle logic in perpetual recovery (see IDLE_RESTART_LAST_SENT).
 */
class QuicCubic : public QuicCongestionController
{
  public:
    /// How CUBIC's epoch (R, or its own with EPOCH_SEPARATE) follows an idle or app-limited
    /// period: at the first send into an empty pipe (LAST_SENT, LAST_ACTIVITY,
    /// LAST_SENT_CLAMPED, EPOCH_RESET) or at an ACK (ACK_GAP, APP_LIMITED_TIME).
    enum IdleRestart // plain enum: 3.37's EnumValue holds an int (enum class arrives in 3.41)
    {
        /// quiche 2020: every in-flight send (0-byte ones too) records last_sent_time; into an
        /// empty pipe R += now - last_sent_time. Traps small windows in perpetual recovery.
        IDLE_RESTART_LAST_SENT,
        /// quiche 2026 fix (PR #2370): 0-byte sends are ignored; R += now - max(last ack,
        /// last send). Default.
        IDLE_RESTART_LAST_ACTIVITY,
        /// Linux 2015 style: as LAST_SENT, but R is never moved past now.
        IDLE_RESTART_LAST_SENT_CLAMPED,
        /// R never moves on idle.
        IDLE_RESTART_OFF,
        /// msquic (src/core/cubic.c, CubicCongestionControlOnDataAcknowledged): on an ACK in
        /// congestion avoidance, if the time since the previous ACK frame exceeds both
        /// SendIdleTimeout and SRTT + 4 RTTVAR, the epoch moves forward by that gap, never past
        /// now. Nothing happens at send time.
        IDLE_RESTART_ACK_GAP,
        /// ngtcp2 (lib/ngtcp2_cc.c, ngtcp2_cc_cubic_cc_on_ack_recv): time spent app-limited in
        /// congestion avoidance (from the first app-limited ack to the next ack that is not) is
        /// accumulated and left out of t; the sum is cleared at a congestion event.
        IDLE_RESTART_APP_LIMITED_TIME,
        /// picoquic (picoquic/cubic.c, picoquic_cubic_notify) / FreeBSD
        /// (sys/netinet/cc/cc_cubic.c, cubic_after_idle): the epoch restarts at the end of an
        /// idle period, i.e. epoch = now on the first send into an empty pipe.
        IDLE_RESTART_EPOCH_RESET,
    };

    /// What serves as CUBIC's epoch start.
    enum EpochSource
    {
        /// quiche: R, the recovery start time, is the epoch; idle rules move R. Default.
        EPOCH_SHARED_WITH_RECOVERY,
        /// CUBIC keeps its own epoch, set at a congestion event (or when congestion avoidance
        /// starts without one) and moved by the idle rule; R is set by congestion events only
        /// (RFC 9002 Section 7.3.2), never by an idle rule (as ngtcp2 and msquic keep them).
        EPOCH_SEPARATE,
    };

    /// When alpha_cubic of the Reno-friendly estimate W_est becomes 1.
    enum RenoFriendly
    {
        /// quiche cubic.rs: once W_est >= W_max (after fast convergence W_max < cwnd_prior).
        /// Default.
        RENO_FRIENDLY_QUICHE,
        /// RFC 9438 Section 4.3: once W_est >= cwnd_prior, the cwnd just before the last
        /// reduction (as ngtcp2_cc_cubic_cc_on_ack_recv compares w_est with cwnd_prior).
        RENO_FRIENDLY_RFC9438,
    };

    /// Where CUBIC's epoch starts when HyStart++ leaves CSS by its round limit.
    enum CssExitEpoch
    {
        /// quiche cubic.rs: t counts from the CSS start time. Default.
        CSS_EXIT_EPOCH_CSS_START,
        /// ngtcp2_cc_cubic_cc_on_ack_recv: the epoch starts at the exit (epoch_start = ts,
        /// W_max = W_est = cwnd_prior = cwnd).
        CSS_EXIT_EPOCH_EXIT,
    };

    /// The RTT added to t in the target W_cubic(t + RTT) (RFC 9438 Section 4.2).
    enum TargetRtt
    {
        /// quiche cubic.rs: min_rtt. Default.
        TARGET_RTT_MIN,
        /// RFC 9438 Section 4.2 and ngtcp2_cc_cubic_cc_on_ack_recv: smoothed_rtt.
        TARGET_RTT_SMOOTHED,
    };

    /// How often the concave/convex step (target - cwnd) / cwnd is taken.
    enum CubicStep
    {
        /// quiche cubic.rs: once per acknowledged packet. Default.
        CUBIC_STEP_PER_PACKET,
        /// ngtcp2_cc_cubic_cc_on_ack_recv: once per ACK frame (RFC 9438 Section 4.4: "for each
        /// received ACK").
        CUBIC_STEP_PER_ACK_FRAME,
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    QuicCubic();
    ~QuicCubic() override;

    Ptr<QuicCongestionController> Fork() const override;
    std::string GetName() const override; //!< "cubic"

    /// Save cwnd, ssthresh, W_max, K, R and lost_count (quiche checkpoint; RFC 9438 Section 4.9).
    void Checkpoint() override;
    /// Forget the checkpoint (an ECN-CE congestion event is never rolled back).
    void DiscardCheckpoint() override;

    /// Send budget: max(cwnd - bytesInFlight, 0) plus PRR's send count (when Prr is on), bytes.
    uint64_t GetBytesAvailable(uint64_t bytesInFlight) const override;

    /// \name State, read-only, for tests and traces
    /// @{
    double GetWMax() const;                      //!< W_max, bytes (RFC 9438 Section 4.1.2)
    double GetK() const;                         //!< K, seconds (RFC 9438 Section 4.2)
    double GetWEst() const;                      //!< W_est, bytes (RFC 9438 Section 4.3)
    double GetAlpha() const;                     //!< alpha_cubic, unitless (RFC 9438 Section 4.3)
    uint64_t GetCwndIncrement() const;           //!< cwnd_inc accumulator, bytes
    std::optional<Time> GetLastSentTime() const; //!< last send the idle rule counts
    /// The epoch t counts from (R, CUBIC's own epoch, or HyStart++'s CSS start), if any.
    std::optional<Time> GetEpochStart() const;
    double GetCwndPrior() const;        //!< cwnd before the last reduction, bytes
    Time GetAppLimitedDuration() const; //!< AppLimitedTime: app-limited time left out of t
    const QuicPrr& GetPrr() const;      //!< PRR state

    /** @} */

  protected:
    void DoPacketSent(Time now, uint64_t sentBytes, uint64_t bytesInFlightBefore) override;
    void DoAckFrameStart(Time now) override;
    void DoRecoveryAck(const QuicAckedPacket& packet, uint64_t bytesInFlight) override;
    bool DoRollbackHeuristic(Time now) override;
    bool DoSlowStartCredit(uint64_t ackedBytes) override;
    void DoCongestionAvoidanceAck(Time now,
                                  const QuicAckedPacket& packet,
                                  const QuicRttStats& rtt) override;
    void DoCongestionEvent(Time now, uint64_t lostBytes, uint64_t bytesInFlight) override;
    void DoAppLimitedAck(Time now) override;
    void DoPersistentCongestion() override;
    bool DoRollback() override;

  private:
    /// What Checkpoint() saves and Rollback() restores (quiche: PriorState).
    struct Restorable
    {
        uint64_t cwnd{0};                  //!< bytes
        uint64_t ssthresh{0};              //!< bytes
        double wMax{0};                    //!< W_max, bytes
        double k{0};                       //!< K, seconds
        std::optional<Time> recoveryStart; //!< R (may be unset)
        uint64_t lostCount{0};             //!< packets
        std::optional<Time> epoch;         //!< own epoch (EpochSource Separate)
        double cwndPrior{0};               //!< cwnd_prior, bytes
    };

    void SetBeta(double beta);
    double GetBeta() const;
    void SetC(double c);
    void SetSendIdleTimeout(Time t);
    Time GetSendIdleTimeout() const;
    double GetC() const;

    /// alpha_aimd = 3 (1 - beta) / (1 + beta) (RFC 9438 Section 4.3), unitless.
    double AlphaAimd() const;
    /// W_cubic(t) = (C (t - K)^3 + W_max / mss) * mss, bytes (RFC 9438 Eq. 1). \param t seconds
    double WCubic(double t) const;
    /// Start an epoch at the current cwnd: W_max = W_est = cwnd, K = 0, alpha = alpha_aimd.
    void ResetEpochState();
    /// IdleRestart attribute: move CUBIC's epoch after an idle period (RFC 9438 Section 5.8), so
    /// that the window keeps following the curve (not the RFC 5681 restart window).
    void ShiftEpochAfterIdle(Time now, uint64_t sentBytes, uint64_t bytesInFlightBefore);
    /// The epoch the idle rules move: R (SharedWithRecovery) or CUBIC's own (Separate).
    std::optional<Time> IdleEpoch() const;
    /// Move that epoch to \p epoch.
    void SetIdleEpoch(Time epoch);
    /// AckGap (msquic): move the epoch by the gap since the previous ACK frame, if long enough.
    void AckGapShift(Time now, const QuicRttStats& rtt);

    // Attributes
    double m_beta{0.7}; //!< beta_cubic, unitless (RFC 9438 Section 4.6)
    double m_c{0.4};    //!< C, segments/s^3 (RFC 9438 Section 5.1)
    IdleRestart m_idleRestart{IDLE_RESTART_LAST_ACTIVITY}; //!< idle rule for R
    bool m_prrEnabled{true};                               //!< PRR send budget in recovery
    bool m_rollbackEnabled{true};                          //!< spurious-congestion undo
    bool m_fastConvergence{true};                          //!< RFC 9438 Section 4.7
    EpochSource m_epochSource{EPOCH_SHARED_WITH_RECOVERY}; //!< R or own epoch
    RenoFriendly m_renoFriendly{RENO_FRIENDLY_QUICHE};     //!< alpha switch rule
    Time m_sendIdleTimeout{Seconds(1)};                    //!< AckGap threshold (msquic)
    CssExitEpoch m_cssExitEpoch{CSS_EXIT_EPOCH_CSS_START}; //!< epoch after the CSS exit
    TargetRtt m_targetRtt{TARGET_RTT_MIN};                 //!< RTT term of the target
    CubicStep m_cubicStep{CUBIC_STEP_PER_PACKET};          //!< cubic-region step frequency

    // State
    double m_wMax{0};                      //!< W_max, bytes; 0 = no epoch yet
    double m_k{0};                         //!< K, seconds
    double m_wEst{0};                      //!< W_est, bytes
    double m_alpha{0};                     //!< alpha_cubic currently applied to W_est, unitless
    uint64_t m_cwndInc{0};                 //!< cwnd_inc, bytes earned towards the next mss
    uint64_t m_bytesAckedSl{0};            //!< bytes_acked_sl, bytes towards the next SS step
    std::optional<Time> m_lastSentTime;    //!< last counted send
    std::optional<Time> m_lastAckTime;     //!< last ACK frame that newly acked something
    std::optional<Time> m_prevAckTime;     //!< the ACK frame before m_lastAckTime (AckGap)
    bool m_ackGapPending{false};           //!< AckGap: this frame's gap not yet checked
    std::optional<Time> m_epoch;           //!< own epoch (EpochSource Separate)
    std::optional<Time> m_cssExitTime;     //!< CssExitEpoch Exit: the epoch after the CSS exit
    bool m_cubicStepTaken{false};          //!< CubicStep PerAckFrame: this frame stepped
    double m_cwndPrior{0};                 //!< cwnd_prior, bytes (RFC 9438 Section 4.3)
    std::optional<Time> m_appLimitedStart; //!< AppLimitedTime: open app-limited period
    Time m_appLimitedDuration;             //!< AppLimitedTime: sum left out of t
    std::optional<Restorable> m_saved;     //!< set by Checkpoint(), cleared by DiscardCheckpoint()
    QuicPrr m_prr;                         //!< RFC 6937 state
};

} // namespace ns3

#endif // QUIC_CUBIC_H
