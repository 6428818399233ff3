/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_CUBIC_GROWTH_SCENARIO_H
#define QUIC_CC_CUBIC_GROWTH_SCENARIO_H

#include "quic-cc-record.h"
#include "quic-cc-transport-spec.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/quic-congestion-controller.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * One run of the CUBIC growth study (doc/quic-cc.rst, "CUBIC growth against the ACK ratio"): a
 * bulk transfer from node 0 (the QUIC client) to node 1 over a drop-tail point-to-point link
 * whose buffer never fills, the receiver acknowledging every ackRatio-th ack-eliciting packet
 * (RFC 9000 Section 13.2.2's ack-eliciting threshold, max_ack_delay as the timer), data packets
 * dropped on their way to the receiver by count: one (dropDataPacket: congestion avoidance after
 * a single loss) or one in lossPeriod (RFC 9438 Section 5.1's deterministic loss model).
 */
struct QuicCcCubicGrowthParams
{
    /// Whose CUBIC: "quiche" (quic-cc's, quiche's defaults), "ngtcp2-profile" (quic-cc's with
    /// QuicCcNgtcp2Profile: the increment taken per ACK frame, as ngtcp2 1.24), "ngtcp2-profile-
    /// per-packet" (the profile with QuicCubic::CubicStep=PerPacket, as ngtcp2 commit 42d626f8)
    /// or "ngtcp2" (the linked ngtcp2 library's own)
    std::string stack{"quiche"};
    uint32_t ackRatio{2};               //!< receiver's AckElicitingThreshold, >= 1
    Time maxAckDelay{MilliSeconds(25)}; //!< receiver's max_ack_delay (ACK timer)
    uint32_t run{1};                    //!< RngRun (nothing here is random; kept for the batch)
    uint32_t seed{1};                   //!< RngSeed
    DataRate rate{"100Mbps"};           //!< link rate
    Time oneWayDelay{MilliSeconds(50)}; //!< propagation delay each way
    uint32_t bufferPackets{10000};      //!< drop-tail device queue, packets
    uint64_t maxDatagramSize{
        QuicCongestionController::kDefaultMaxDatagramSize}; //!< packet size from the first packet
                                                            //!< on, bytes
    uint64_t dropDataPacket{0}; //!< drop the n-th data packet to the receiver, once (0 = none)
    uint64_t lossPeriod{0};     //!< drop one data packet in this many (0 = none)
    uint64_t lossFirstDrop{0};  //!< lossPeriod: count of the first drop (0 = lossPeriod)
    Time duration{Seconds(12)}; //!< the run stops here
    Time measureFrom{0};        //!< goodput and mean cwnd count from here to the end
    /// Offsets after the first congestion event at which cwnd is sampled.
    std::vector<Time> afterEvent{MilliSeconds(250),
                                 MilliSeconds(1250),
                                 Seconds(2),
                                 Seconds(3),
                                 Seconds(4),
                                 Seconds(6)};
};

/// Outcome of one run; times in seconds of simulated time, windows in bytes.
struct QuicCcCubicGrowthResult
{
    double minRttSeconds{0}; //!< smallest latest-RTT sample of the sender
    /// First congestion event (CongestionState -> Recovery) and the window just before it.
    std::optional<double> eventSeconds;
    uint64_t wMax{0};                    //!< largest cwnd before the event (W_max), bytes
    uint64_t cwndAfterEvent{0};          //!< cwnd the event set (cwnd_start of the epoch), bytes
    std::optional<double> growthSeconds; //!< first cwnd increase after the event, s after it
    std::vector<uint64_t> cwndAt;        //!< at each afterEvent offset (0 if not reached)
    std::optional<double> regainSeconds; //!< cwnd >= wMax again, s after the event
    uint32_t events{0};                  //!< congestion events of the run
    double goodputMbps{0};               //!< received from measureFrom to the end, Mbit/s
    double meanCwnd{0};                  //!< time-weighted mean cwnd over that window, bytes
    uint64_t drops{0};                   //!< data packets the loss model dropped
    uint64_t lostPackets{0};             //!< declared lost by the sender
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcCubicGrowthResult,
                                   minRttSeconds,
                                   eventSeconds,
                                   wMax,
                                   cwndAfterEvent,
                                   growthSeconds,
                                   cwndAt,
                                   regainSeconds,
                                   events,
                                   goodputMbps,
                                   meanCwnd,
                                   drops,
                                   lostPackets);

/// The stacks QuicCcCubicGrowthParams::stack takes, in the order of the study's rows.
const std::vector<std::string>& QuicCcCubicGrowthStacks();

/**
 * The CUBIC of \p stack as a transport: ngtcp2's own ("ngtcp2"), quic-cc's under the ngtcp2
 * profile (QuicCcNgtcp2DiffTransport), the profile with CubicStep=PerPacket, or quic-cc's with
 * quiche's defaults ("quiche"). Another name is a fatal error naming it.
 */
QuicCcTransportSpec QuicCcCubicGrowthTransport(const std::string& stack);

/**
 * Run once (builds its own nodes; calls Simulator::Destroy at the end). Bad parameters are
 * fatal errors naming the value; stack "ngtcp2" in a build without it is a fatal error.
 */
QuicCcCubicGrowthResult QuicCcRunCubicGrowth(const QuicCcCubicGrowthParams& params);

/**
 * RFC 9438's window after a congestion event, in bytes: W_cubic(t) = C (t - K)^3 + W_max
 * (Eq. 1, in packets of \p mss bytes, C = 0.4), K = cbrt((W_max - cwnd_epoch) / C) (Eq. 2) with
 * cwnd_epoch the window the event set; \p t is the time since the event, s.
 */
double QuicCcRfc9438CubicAt(double t, double wMax, double cwndEpoch, double mss);

/// K of QuicCcRfc9438CubicAt, s: when W_cubic regains W_max.
double QuicCcRfc9438K(double wMax, double cwndEpoch, double mss);

} // namespace ns3

#endif // QUIC_CC_CUBIC_GROWTH_SCENARIO_H
