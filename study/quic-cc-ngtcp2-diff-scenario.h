/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_DIFF_SCENARIO_H
#define QUIC_CC_NGTCP2_DIFF_SCENARIO_H

#include "quic-cc-death-spiral-scenario.h"
#include "quic-cc-record.h"

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
 * One run of the model-vs-library paths of the differential check (doc/quic-cc-results.rst,
 * "Model vs library"): a bulk transfer from node 0 (the QUIC client) to node 1 over a drop-tail
 * point-to-point link, with quic-cc's CUBIC under the ngtcp2 profile (QuicCcNgtcp2Profile) or
 * with the real ngtcp2 library's CUBIC; optionally one data packet dropped on its way to the
 * receiver (the only loss of the run when the buffer is large enough).
 */
struct QuicCcNgtcp2DiffParams
{
    /// "quic-cc" (its CUBIC under the ngtcp2 profile) or "ngtcp2" (QuicCcNgtcp2DiffTransport)
    std::string transport{"quic-cc"};
    uint32_t run{1};                     //!< RngRun
    uint32_t seed{1};                    //!< RngSeed
    DataRate rate{"100Mbps"};            //!< bottleneck rate
    Time oneWayDelay{MilliSeconds(20)};  //!< propagation delay each way
    uint32_t bufferPackets{5000};        //!< drop-tail device queue, packets
    uint64_t transferBytes{100'000'000}; //!< bytes
    uint64_t maxDatagramSize{
        QuicCongestionController::kDefaultMaxDatagramSize}; //!< packet size from the first packet
                                                            //!< on, bytes
    uint64_t dropDataPacket{0}; //!< drop the n-th data packet to the receiver (0 = none)
    Time duration{Seconds(10)}; //!< the run stops here at the latest
    uint32_t rounds{40};        //!< cwnd samples at round starts (see the result)
    /// Offsets after the first congestion event, and after ssthresh is first set, at which cwnd
    /// is sampled.
    std::vector<Time> afterEvent{MilliSeconds(500), Seconds(1), Seconds(2), Seconds(3), Seconds(4)};
};

/// Outcome of one run; times in seconds of simulated time, windows in bytes.
struct QuicCcNgtcp2DiffResult
{
    bool completed{false};       //!< all bytes arrived before the end
    double completionSeconds{0}; //!< when (valid if completed)
    uint64_t bytesReceived{0};   //!< at the receiver
    double handshakeSeconds{-1}; //!< sender's HandshakeCompleted
    /// The first ACK that grew cwnd past the initial window plus one packet (so not ngtcp2's
    /// credit for the client Initial): round 0 starts here, with the cwnd before that ACK.
    std::optional<double> firstGrowthSeconds;
    /// cwnd at the start of each round: round r + 1 starts one latest RTT (the sender's Rtt
    /// trace at the start of round r) after round r.
    std::vector<uint64_t> roundCwnd;
    std::vector<double> roundStart; //!< start of each round
    /// The first time ssthresh was set, with or without loss (HyStart++ exit or congestion event).
    std::optional<double> ssthreshSetSeconds;
    uint64_t ssthreshFirst{0};  //!< its value
    bool ssthreshByLoss{false}; //!< packets had been declared lost by then
    uint64_t peakCwndBefore{0}; //!< largest cwnd before that, bytes
    std::vector<uint64_t>
        cwndAfterExit; //!< at each afterEvent offset after that (0 if not reached)
    /// First HyStart++ CSS step before ssthresh was set: a cwnd increase smaller than one packet
    /// (slow start adds at least one packet per ACK on both stacks, CSS a quarter of that).
    std::optional<double> cssSeconds;
    uint64_t cwndAtCss{0};                 //!< cwnd before that step, bytes
    std::optional<double> cssTraceSeconds; //!< the model's own CongestionState report of CSS
    /// First congestion event (CongestionState -> Recovery) and the window just before it.
    std::optional<double> eventSeconds;
    uint64_t cwndBeforeEvent{0};          //!< largest cwnd before the event (W_max), bytes
    uint64_t ssthreshAfterEvent{0};       //!< ssthresh the event set, bytes
    std::vector<uint64_t> cwndAfterEvent; //!< at each afterEvent offset (0 if not reached)
    std::optional<double> regainSeconds;  //!< first time after the event cwnd >= cwndBeforeEvent
    uint64_t lostPackets{0};              //!< declared lost by the sender
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcNgtcp2DiffResult,
                                   completed,
                                   completionSeconds,
                                   bytesReceived,
                                   handshakeSeconds,
                                   firstGrowthSeconds,
                                   roundCwnd,
                                   roundStart,
                                   ssthreshSetSeconds,
                                   ssthreshFirst,
                                   ssthreshByLoss,
                                   peakCwndBefore,
                                   cwndAfterExit,
                                   cssSeconds,
                                   cwndAtCss,
                                   cssTraceSeconds,
                                   eventSeconds,
                                   cwndBeforeEvent,
                                   ssthreshAfterEvent,
                                   cwndAfterEvent,
                                   regainSeconds,
                                   lostPackets);

/**
 * Run once (builds its own nodes; calls Simulator::Destroy at the end). Bad parameters are
 * fatal errors naming the value; transport "ngtcp2" in a build without it is a fatal error.
 */
QuicCcNgtcp2DiffResult QuicCcRunNgtcp2Diff(const QuicCcNgtcp2DiffParams& params);

/**
 * Index of the round that contains \p t in \p result (rounds start at roundStart), or -1 if
 * \p t is before round 0 or after the last sampled round's start plus its length.
 */
int QuicCcNgtcp2DiffRoundOf(const QuicCcNgtcp2DiffResult& result, double t);

/**
 * One side of the check as a transport: ngtcp2's CUBIC (\p transport "ngtcp2"), or quic-cc's
 * CUBIC with every setting of the ngtcp2 profile (QuicCcNgtcp2Profile: controller and socket
 * attributes, and the HyStart++ defaults) for "quic-cc".
 */
QuicCcTransportSpec QuicCcNgtcp2DiffTransport(const std::string& transport);

/// The death spiral's parameters for one side of the check (QuicCcNgtcp2DiffTransport), with
/// packets of \p mss bytes.
QuicCcDeathSpiralParams QuicCcNgtcp2DiffSpiralParams(const std::string& transport, uint64_t mss);

} // namespace ns3

#endif // QUIC_CC_NGTCP2_DIFF_SCENARIO_H
