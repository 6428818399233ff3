/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_HYSTART_PLUS_PLUS_H
#define QUIC_HYSTART_PLUS_PLUS_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup quic-cc-controllers
 * \brief HyStart++ (RFC 9406) as quiche's hystart.rs runs it (draft-04 logic, RFC constants).
 *
 * A helper of the controllers: it tracks rounds and RTT minima and tells its owner when to leave
 * slow start; it never writes cwnd or ssthresh itself. Pure logic: time comes in as arguments.
 *
 * Phases:
 * - slow start: no CSS start time;
 * - Conservative Slow Start (CSS, RFC 9406 Section 4.3): entered when a round's minimum RTT
 *   exceeds the previous round's by the threshold; cwnd then grows by mss / CssGrowthDivisor;
 * - post-exit: after CssRounds CSS rounds the owner moves to congestion avoidance; the CSS start
 *   time stays set (quiche keeps it; CUBIC uses it as its epoch) until a congestion event.
 *
 * "Infinity" (no sample yet) of the RTT minima is std::nullopt in the accessors.
 */
class QuicHyStartPlusPlus : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    QuicHyStartPlusPlus();
    ~QuicHyStartPlusPlus() override;

    /**
     * Cross-attribute checks, run by the controller before the first send (setters run in
     * registration order, so they cannot compare attributes). Fatal error naming the values if
     * MinRttThresh > MaxRttThresh (the message is GetConfigError's).
     */
    void Validate() const;

    /// \return "" if the attributes fit together, else why not, naming the attributes and their
    /// values, e.g. "QuicHyStartPlusPlus: MinRttThresh (+20ms) exceeds MaxRttThresh (+16ms)"
    std::string GetConfigError() const;

    /**
     * Open a round at an in-flight send in slow start, unless one is open (RFC 9406 Section 4.2:
     * windowEnd = this packet's number; lastRoundMinRTT = currentRoundMinRTT;
     * currentRoundMinRTT = infinity; rttSampleCount = 0).
     * \param packetNumber  number of the packet being sent
     */
    void StartRound(uint64_t packetNumber);

    /**
     * One acked packet that reached the slow-start step (after the owner's cwnd increment).
     * \param packetNumber  the acked packet's number (closes the round if >= windowEnd)
     * \param rttSample     the connection's latest RTT (quiche: one per ACK frame)
     * \param now           ack time (becomes the CSS start time on entry)
     * \return true when CSS has lasted CssRounds rounds: the owner sets ssthresh = cwnd and
     *         continues in congestion avoidance
     */
    bool OnPacketAcked(uint64_t packetNumber, Time rttSample, Time now);

    /// A congestion event (new episode): closes the round and leaves CSS or the post-exit state.
    void CongestionEvent();

    /**
     * cwnd increment per acked packet in CSS, bytes: mss / CssGrowthDivisor (integer division;
     * 300 for 1200 B and the RFC divisor 4).
     * \param mss  max datagram size, bytes
     */
    uint64_t CssCwndIncrement(uint64_t mss) const;

    /**
     * RFC 9406 Section 4.2 cap of slow-start growth per ACK, bytes: L * mss, divided by
     * CssGrowthDivisor in CSS; 0 = no cap (L = 0, quiche's behaviour). The owner applies it only
     * while HyStart++ is enabled.
     * \param mss  max datagram size, bytes
     * \param inCss  true in Conservative Slow Start
     */
    uint64_t SlowStartCapPerAck(uint64_t mss, bool inCss) const;

    /**
     * RFC 9406 Section 4.2 RttThresh = clamp(lastRoundMinRtt / 8, MinRttThresh, MaxRttThresh).
     * \param lastRoundMinRtt  the previous round's minimum RTT
     */
    Time RttThreshold(Time lastRoundMinRtt) const;

    /// True in Conservative Slow Start proper (not in the post-exit state).
    bool InCss() const
    {
        return m_cssStartTime && !m_cssExited;
    }

    /// True after CSS ended by its round limit, until the next congestion event.
    bool InPostCssExit() const;

    /// CSS start time: set in CSS and in the post-exit state (CUBIC's epoch after the exit).
    const std::optional<Time>& GetCssStartTime() const
    {
        return m_cssStartTime;
    }

    /// \name State, read-only, for tests and traces
    /// @{
    std::optional<uint64_t> GetWindowEnd() const;      //!< packet number closing the round, if open
    std::optional<Time> GetCurrentRoundMinRtt() const; //!< nullopt = infinity
    std::optional<Time> GetLastRoundMinRtt() const;    //!< nullopt = infinity
    std::optional<Time> GetCssBaselineMinRtt() const;  //!< nullopt = infinity
    uint32_t GetRttSampleCount() const; //!< samples in this round (not reset on CSS entry)
    uint32_t GetCssRoundCount() const;  //!< CSS rounds completed, entry round included

    /** @} */

  private:
    void SetMinRttThresh(Time t);
    Time GetMinRttThresh() const;
    void SetMaxRttThresh(Time t);
    Time GetMaxRttThresh() const;
    void SetNRttSample(uint32_t n);
    uint32_t GetNRttSample() const;
    void SetCssGrowthDivisor(uint32_t d);
    uint32_t GetCssGrowthDivisor() const;
    void SetCssRounds(uint32_t n);
    uint32_t GetCssRounds() const;

    // Constants (attributes), RFC 9406 Section 4.3
    Time m_minRttThresh{MilliSeconds(4)};  //!< MIN_RTT_THRESH
    Time m_maxRttThresh{MilliSeconds(16)}; //!< MAX_RTT_THRESH
    uint32_t m_nRttSample{8};              //!< N_RTT_SAMPLE, samples per round
    uint32_t m_cssGrowthDivisor{4};        //!< CSS_GROWTH_DIVISOR, unitless, >= 2
    uint32_t m_cssRounds{5};               //!< CSS_ROUNDS, rounds
    uint32_t m_l{0};                       //!< L, packets per ACK; 0 = no cap

    // State
    std::optional<uint64_t> m_windowEnd;      //!< packet number; unset = no round open
    std::optional<Time> m_lastRoundMinRtt;    //!< unset = infinity
    std::optional<Time> m_currentRoundMinRtt; //!< unset = infinity
    std::optional<Time> m_cssBaselineMinRtt;  //!< unset = infinity
    uint32_t m_rttSampleCount{0};             //!< samples
    std::optional<Time> m_cssStartTime;       //!< set in CSS and post-exit
    bool m_cssExited{false};                  //!< post-exit state (with m_cssStartTime set)
    uint32_t m_cssRoundCount{0};              //!< rounds
};

} // namespace ns3

#endif // QUIC_HYSTART_PLUS_PLUS_H
