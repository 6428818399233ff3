/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_INTEROP_SCENARIO_H
#define QUIC_CC_INTEROP_SCENARIO_H

#include "quic-cc-record.h"
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
 * One run of the QUIC interop runner's measurements (quic-interop/quic-interop-runner,
 * testcases_quic.py: MeasurementGoodput "G" and MeasurementCrossTraffic "C") on the path of its
 * network simulator's scenario `simple-p2p --delay=15ms --bandwidth=10Mbps --queue=25`
 * (quic-interop/quic-network-simulator, sim/scenarios/simple-p2p and helper/
 * quic-point-to-point-helper.cc): one point-to-point link of that rate and one-way delay whose
 * devices hold 1 packet under a PfifoFastQueueDisc root queue disc of 25 packets, in both
 * directions, between two routers; the data sender and receiver (and, for C, an ns-3 TCP CUBIC
 * sender and receiver, the runner's iperf containers) on fast access links at either end. The
 * measured flow transfers transferBytes; its goodput is 8 x transferBytes over the time from the
 * first to the last data packet that reaches the receiver's side (the runner: the first and last
 * 1-RTT packet of the server in the client-side trace).
 */
struct QuicCcInteropParams
{
    /// The measured flow: "quic-cc-reno", "quic-cc-cubic" (quic-cc's controllers), "ngtcp2-reno",
    /// "ngtcp2-cubic", "ngtcp2-bbr" (the linked ngtcp2 library's) or "tcp-cubic" (ns-3's TcpCubic)
    std::string stack{"quic-cc-cubic"};
    bool crossTraffic{false};           //!< C: one ns-3 TcpCubic bulk flow shares the path
    uint64_t transferBytes{10 << 20};   //!< the measured flow's bytes (G: 10 MiB, C: 25 MiB)
    DataRate rate{"10Mbps"};            //!< --bandwidth
    Time oneWayDelay{MilliSeconds(15)}; //!< --delay
    uint32_t queuePackets{25};          //!< --queue: the root queue disc's MaxSize, packets
    DataRate accessRate{"1Gbps"};       //!< each end's access link (the runner's Docker bridges)
    Time crossStart{0};                 //!< the TCP cross flow's start
    Time start{Seconds(2)};             //!< the measured flow's start
    Time startJitter{Seconds(1)};       //!< plus a uniform [0, startJitter) draw (RngRun)
    Time timeout{Seconds(180)};         //!< the run stops here at the latest (the runner's C)
    uint64_t maxDatagramSize{
        QuicCongestionController::kDefaultMaxDatagramSize}; //!< QUIC packet size, bytes
    uint32_t tcpSegmentSize{1448}; //!< TCP MSS (Linux over a 1500-byte MTU with timestamps off)
    uint32_t run{1};               //!< RngRun
    uint32_t seed{1};              //!< RngSeed
};

/// Outcome of one run; times in seconds of simulated time, rates in kbit/s as the runner reports.
struct QuicCcInteropResult
{
    bool completed{false};   //!< every byte of the measured flow arrived before the timeout
    double startSeconds{0};  //!< the measured flow's start (with its jitter)
    double firstSeconds{0};  //!< its first data at the receiver
    double lastSeconds{0};   //!< its last data at the receiver (valid if completed)
    double goodputKbps{0};   //!< 8 x transferBytes / (last - first), kbit/s
    uint64_t lostPackets{0}; //!< the measured flow's: declared lost (QUIC), retransmitted (TCP)
    uint64_t crossBytes{0};  //!< C: the TCP flow's bytes received from first to last
    double crossKbps{0};     //!< C: their rate, kbit/s
    uint64_t queueDrops{0};  //!< packets the data direction's queue disc dropped
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcInteropResult,
                                   completed,
                                   startSeconds,
                                   firstSeconds,
                                   lastSeconds,
                                   goodputKbps,
                                   lostPackets,
                                   crossBytes,
                                   crossKbps,
                                   queueDrops);

/// The stacks QuicCcInteropParams::stack takes, in the order of the study's rows.
const std::vector<std::string>& QuicCcInteropStacks();

/// The QUIC transport of stack \p stack, "<transport>-<controller>" ("quic-cc-reno": quic-cc's
/// Reno; "ngtcp2-bbr": the ngtcp2 library's BBR); "tcp-cubic" is not one (a fatal error).
QuicCcTransportSpec QuicCcInteropTransport(const std::string& stack);

/**
 * Run once (builds its own nodes; calls Simulator::Destroy at the end). Bad parameters are
 * fatal errors naming the value; an ngtcp2 stack in a build without it is a fatal error.
 */
QuicCcInteropResult QuicCcRunInterop(const QuicCcInteropParams& params);

} // namespace ns3

#endif // QUIC_CC_INTEROP_SCENARIO_H
