/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_IDLE_SCENARIO_H
#define QUIC_CC_IDLE_SCENARIO_H

#include "quic-cc-idle-observer.h"
#include "quic-cc-transport-spec.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/quic-congestion-controller.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Parameters of one run of the true-idle study (quic-cc-idle): two nodes over a point-to-point
 * bottleneck with a drop-tail device queue, one connection whose application pauses. Workloads:
 *  - "chunked": pauses + 1 chunks of chunkBytes, one every period (QuicCcChunkedSender);
 *  - "request-response": pauses + 1 requests, think time fixed or exponential between a
 *    response and the next request (QuicCcRequestClient, QuicCcResponseServer; the server is
 *    the data sender);
 *  - "rate-limited": writes at fraction x rate for limitedFor, then bulkBytes at once
 *    (QuicCcRateLimitedSender; the switch is the one "pause", of length 0);
 *  - "slow-reader": bulkBytes in one write to a receiver that reads at readRate
 *    (QuicCcChunkedSender with one chunk, QuicCcSlowReader); without flow control the
 *    receiver's backlog grows (peakBacklog), with it (flowControl) the stream window bounds it;
 *  - "onoff": ns-3's OnOffApplication over "ns3::QuicCcSocketFactory" at fraction x rate,
 *    pauses + 1 on periods (it starts with an off period).
 * Over the real ngtcp2 library (a "ngtcp2" spec) the same applications run with the library's
 * own controller, pacing, ACK policy and flow control (InitialMaxData and InitialMaxStreamData, 16
 * MiB; its PacketTraces on, for the observer), and the snapshots' W_max, K and epoch stay -1.
 */
struct QuicCcIdleParams
{
    std::string workload{"chunked"}; //!< see above
    /// The transport, its controller and their settings (IdleRestart, EpochSource,
    /// RestartWindow, Pacing, FlowControl, ...): quic-cc's CUBIC with its defaults unless set
    QuicCcTransportSpec quic{"quic-cc", "cubic"};
    uint32_t run{1};                    //!< RngRun
    uint32_t seed{1};                   //!< RngSeed
    DataRate rate{"100Mbps"};           //!< bottleneck rate
    Time oneWayDelay{MilliSeconds(10)}; //!< each way (RTT 20 ms)
    uint32_t bufferPackets{93};         //!< drop-tail queue, packets (0.5 BDP)
    double lossRate{0}; //!< random loss on the data direction during loss phases (0 = none)
    Time lossOnMean{Seconds(1)};  //!< loss phases: mean on length (exponential)
    Time lossOffMean{Seconds(3)}; //!< loss phases: mean off length (exponential; first phase off)
    uint64_t maxDatagramSize{QuicCongestionController::kDefaultMaxDatagramSize}; //!< bytes
    uint32_t pauses{10};               //!< pauses per run (bounds the run)
    uint64_t chunkBytes{2'000'000};    //!< chunked: chunk size
    Time period{Seconds(2)};           //!< chunked: time between chunk writes
    uint64_t requestBytes{1000};       //!< request-response: request size
    uint64_t responseBytes{2'000'000}; //!< request-response: response size
    Time thinkTime{Seconds(2)};        //!< request-response: (mean) think time
    bool thinkExponential{false};      //!< exponential think time with that mean
    double fraction{0.5};              //!< rate-limited, onoff: share of the bottleneck rate
    Time limitedFor{Seconds(5)};       //!< rate-limited: length of that phase
    uint64_t bulkBytes{10'000'000};    //!< rate-limited, slow-reader: the bulk write
    DataRate readRate{"20Mbps"};       //!< slow-reader: the application's read rate
    Time onTime{Seconds(1)};           //!< onoff: on period
    Time offTime{Seconds(2)};          //!< onoff: off period
    Time minPause{MilliSeconds(100)};  //!< shorter idle periods are not pauses
    Time timeout{Seconds(60)};         //!< a run not done by then is incomplete
    std::string qlogDirectory;         //!< qlog of both endpoints ("" = none)
};

/// Outcome of one run.
struct QuicCcIdleResult
{
    bool completed{false};                 //!< every chunk / response / bulk byte arrived
    double endSeconds{0};                  //!< simulated time the run ended
    std::vector<QuicCcIdlePause> pauses;   //!< every pause of the data sender
    std::vector<double> completionSeconds; //!< per chunk / response / bulk (onoff: none)
    std::vector<double> startSeconds;      //!< when each of those was written, s
    uint64_t bytesReceived{0};             //!< by the receiving application
    uint64_t corruptBytes{0};              //!< request-response: bytes not as sent
    uint64_t lostPackets{0};               //!< declared lost by the sender, whole run
    uint64_t peakBacklog{0}; //!< slow-reader: most bytes received but not yet read, bytes
};

/// Run one simulation (fatal error on inconsistent parameters).
QuicCcIdleResult QuicCcRunIdle(const QuicCcIdleParams& params);

} // namespace ns3

#endif // QUIC_CC_IDLE_SCENARIO_H
