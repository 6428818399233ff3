/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_IDLE_OBSERVER_H
#define QUIC_CC_IDLE_OBSERVER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/quic-cc-socket.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Controller state at one instant (CUBIC fields NaN / -1 for Reno).
 */
struct QuicCcIdleSnapshot
{
    uint64_t cwnd{0};     //!< congestion window, bytes
    uint64_t ssthresh{0}; //!< slow start threshold, bytes
    double wMax{-1};      //!< CUBIC W_max, bytes (RFC 9438 Section 4.1.2); -1: not CUBIC
    double k{-1};         //!< CUBIC K, seconds (RFC 9438 Section 4.2); -1: not CUBIC
    double epoch{-1};     //!< the epoch t counts from, s (QuicCubic::GetEpochStart); -1: none
};

/**
 * \ingroup quic-cc
 * One pause of the sender and its resume: the pipe emptied (bytes in flight 0) at idleStart and
 * the next ack-eliciting packet left at resume.
 */
struct QuicCcIdlePause
{
    double idleStart{0};       //!< s: bytes in flight reached 0 (or the marked instant)
    double resume{0};          //!< s: first packet into the empty pipe
    double srtt{0};            //!< smoothed_rtt at the resume, s
    QuicCcIdleSnapshot before; //!< when the pipe emptied
    QuicCcIdleSnapshot after;  //!< just after the first send (the idle rule has run)
    uint64_t burst1ms{0};      //!< bytes sent in [resume, resume + 1 ms)
    uint64_t burstTenthRtt{0}; //!< bytes sent in [resume, resume + 0.1 srtt)
    uint32_t longestTrain{0};  //!< most packets back to back in the first srtt (see Observe)
    uint32_t lostFirstRtt{0};  //!< packets sent in [resume, resume + srtt) later declared lost
    uint32_t lostFirst3Rtt{0}; //!< the same for [resume, resume + 3 srtt)
    uint64_t peakCwnd3Rtt{0};  //!< largest cwnd in [resume, resume + 3 srtt), bytes

    /// Peak cwnd in the first 3 RTTs over cwnd before the pause.
    double PeakRatio() const;
    /// resume - idleStart, s
    double IdleSeconds() const;
};

/**
 * \ingroup quic-cc
 * Watches a sending QuicCcSocket through its public trace sources (BytesInFlight, PacketSent,
 * PacketLost, CongestionWindow64, Rtt) and the controller's public accessors (QuicCubic::GetWMax,
 * GetK, GetEpochStart), or a QuicCcNgtcp2Socket through the same trace sources (its PacketTraces
 * on) and SlowStartThreshold64 (its controller's state is ngtcp2's: W_max, K and the epoch stay
 * unknown, -1), and records every pause of at least a minimum length: the controller's
 * state before and after it, the burst at the resume, losses in its first RTT and the cwnd peak
 * in its first three RTTs. A "back-to-back train" is a run of packets each sent less than one
 * bottleneck serialization time of a MaxDatagramSize packet after the previous one, i.e. faster
 * than the bottleneck drains them.
 *
 * The object must outlive Simulator::Run.
 */
class QuicCcIdleObserver
{
  public:
    /**
     * \param minPause  shortest idle period recorded as a pause
     * \param bottleneck the path's bottleneck rate (defines back to back)
     * \param mss       MaxDatagramSize, bytes
     */
    QuicCcIdleObserver(Time minPause, DataRate bottleneck, uint64_t mss);

    /// Connect to \p socket's trace sources (call before its first packet, or at least before the
    /// first pause): a QuicCcSocket, or any socket with its trace sources (QuicCcNgtcp2Socket).
    void Observe(Ptr<Socket> socket);

    /// Record a pause of length 0 now (the end of an app-limited phase): the next ack-eliciting
    /// packet is its resume. Ignored while a pause is open.
    void MarkResumeNow();

    /// \return the pauses so far; losses are final once the run has ended
    const std::vector<QuicCcIdlePause>& GetPauses() const;
    /// \return packets the sender declared lost so far (the whole run)
    uint64_t GetLostPackets() const;

  private:
    QuicCcIdleSnapshot Snapshot() const;
    void OnBytesInFlight(uint64_t oldValue, uint64_t newValue);
    void OnPacketSent(uint64_t packetNumber, uint64_t bytes);
    void OnPacketLost(uint64_t packetNumber, uint64_t bytes, Time timeSent);
    void OnCwnd(uint64_t oldValue, uint64_t newValue);
    void OnSsthresh(uint64_t oldValue, uint64_t newValue);
    void OnRtt(Time latest, Time smoothed, Time min);
    void SnapshotAfterResume(size_t pause);

    Time m_minPause;                       //!< shortest pause
    Time m_backToBack;                     //!< serialization time of one MaxDatagramSize packet
    Ptr<QuicCcSocket> m_socket;            //!< the sender, if a QuicCcSocket
    uint64_t m_cwnd{0};                    //!< latest CongestionWindow64 (other sockets)
    uint64_t m_ssthresh{UINT64_MAX};       //!< latest SlowStartThreshold64 (other sockets)
    Time m_srtt;                           //!< latest smoothed_rtt
    bool m_idle{false};                    //!< pipe empty since m_idleStart
    bool m_marked{false};                  //!< MarkResumeNow pending
    Time m_idleStart;                      //!< when the pipe emptied
    QuicCcIdleSnapshot m_idleSnapshot;     //!< state then
    std::vector<QuicCcIdlePause> m_pauses; //!< recorded pauses
    Time m_lastSend;                       //!< previous packet of the open window
    uint32_t m_train{0};                   //!< current back-to-back run
    uint64_t m_lost{0};                    //!< packets declared lost
};

} // namespace ns3

#endif // QUIC_CC_IDLE_OBSERVER_H
