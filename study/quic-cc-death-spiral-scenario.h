/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DEATH_SPIRAL_SCENARIO_H
#define QUIC_CC_DEATH_SPIRAL_SCENARIO_H

#include "quic-cc-record.h"
#include "quic-cc-transport-spec.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/quic-congestion-controller.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Parameters of one run of the CUBIC "death spiral" scenario (Cloudflare 2026, "When idle isn't
 * idle"): two nodes over a point-to-point bottleneck, a download from the server to the client,
 * random packet loss in both directions for the first seconds, then none.
 */
struct QuicCcDeathSpiralParams
{
    /// The transport, its controller and their settings (ACK policy, pacing, ...): quic-cc's
    /// CUBIC with its defaults unless set; the options layer builds it (QuicCcOptions)
    QuicCcTransportSpec quic{"quic-cc", "cubic"};
    uint32_t run{1};                    //!< RngRun
    uint32_t seed{1};                   //!< RngSeed
    uint64_t transferBytes{10'000'000}; //!< download size, bytes (10 MB)
    DataRate rate{"1Gbps"};             //!< bottleneck rate (localhost-like default)
    Time oneWayDelay{MilliSeconds(5)};  //!< propagation delay each way (RTT 10 ms)
    uint32_t bufferPackets{1000};       //!< drop-tail device queue, packets (netem's default limit)
    double lossRate{0.3};               //!< packet loss probability, both directions
    Time lossDuration{Seconds(2)};      //!< loss switched off at this time
    /// Whether the loss phase also hits the handshake: true, loss from t = 0; false, the error
    /// models are switched on when the sender's handshake completes (its first packet from the
    /// server), so no handshake packet is lost.
    bool handshakeLoss{true};
    Time timeout{Seconds(10)}; //!< a run not done by then failed
    uint64_t maxDatagramSize{QuicCongestionController::kDefaultMaxDatagramSize}; //!< bytes
    /// host model: uniform [0, max] before each packet of a burst (QuicCcSocket::SendDelay; a
    /// transport without it runs without)
    Time sendJitterMax{0};
    /// host model: uniform [0, max] before each ACK is processed (QuicCcSocket::AckProcessingDelay)
    Time ackProcessingDelayMax{0};
    Time sampleLate{Seconds(7)};  //!< second cwnd sample, the "late" one (first is lossDuration)
    Time observeFrom{Seconds(2)}; //!< start of the window of min/max cwnd and late losses
    std::string qlogDirectory;    //!< write qlog files of both endpoints here ("" = none)
};

/// Outcome of one run.
struct QuicCcDeathSpiralResult
{
    bool completed{false};       //!< all bytes arrived before the timeout
    double completionSeconds{0}; //!< time the last byte arrived (valid if completed)
    double endSeconds{0};        //!< simulated time the run ended (completion or timeout)
    /// Time the sender (the QUIC client) completed its handshake (its HandshakeCompleted trace:
    /// quic-cc's client at the server's first packet, ngtcp2's when the library says so); -1 if
    /// it never did. Later than lossDuration when the first packets were lost
    /// repeatedly, so the transfer starts after the loss phase.
    double handshakeSeconds{-1};
    uint64_t bytesReceived{0};    //!< at the client when the run ended
    uint64_t cwndAtLossEnd{0};    //!< sender cwnd at lossDuration, bytes (or at the end, if before)
    uint64_t cwndAtLate{0};       //!< sender cwnd at sampleLate, bytes (or at the end, if before)
    uint64_t minCwndAfterLoss{0}; //!< smallest cwnd from observeFrom to the end, bytes
    uint64_t maxCwndAfterLoss{0}; //!< largest cwnd from observeFrom to the end, bytes
    uint64_t maxCwndAfterLate{0}; //!< largest cwnd from sampleLate to the end, bytes
    uint64_t lostAfterLoss{0};    //!< packets declared lost from observeFrom to the end
    uint64_t lostPackets{0};      //!< packets declared lost in the whole run
    uint32_t transitions{0}; //!< Recovery <-> CongestionAvoidance changes after lossDuration, both
                             //!< directions, as qlog logs them
    double meanCyclePeriod{0}; //!< mean seconds between successive entries into Recovery after
                               //!< lossDuration (0 if fewer than 2)
    uint64_t events{0};        //!< simulator events executed
};

/// The serialised form of QuicCcDeathSpiralResult (QuicCcRecordToLine): every field, in this order.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcDeathSpiralResult,
                                   completed,
                                   completionSeconds,
                                   endSeconds,
                                   handshakeSeconds,
                                   bytesReceived,
                                   cwndAtLossEnd,
                                   cwndAtLate,
                                   minCwndAfterLoss,
                                   maxCwndAfterLoss,
                                   maxCwndAfterLate,
                                   lostAfterLoss,
                                   lostPackets,
                                   transitions,
                                   meanCyclePeriod,
                                   events);

/**
 * Run the scenario once (builds its own nodes; calls Simulator::Destroy at the end).
 * Bad parameters (unknown controller, zero transfer) are fatal errors naming the value.
 */
QuicCcDeathSpiralResult QuicCcRunDeathSpiral(const QuicCcDeathSpiralParams& params);

} // namespace ns3

#endif // QUIC_CC_DEATH_SPIRAL_SCENARIO_H
