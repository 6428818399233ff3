/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DUMBBELL_PARAMS_H
#define QUIC_CC_DUMBBELL_PARAMS_H

#include "quic-cc-flow-spec.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/quic-congestion-controller.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Parameters of a dumbbell: senders on the left leaves, receivers on the right leaves, one flow
 * per leaf pair, all data crossing one bottleneck link (QuicCcBuildDumbbell).
 *
 *   sender i --access_i--+                          +--access_i-- receiver i
 *                        left router ==bottleneck== right router
 *   sender j --access_j--+   (queue, loss: forward) +--access_j-- receiver j
 *
 * Flow i's base RTT is rtts[i % rtts.size()] = 2 (2 access_i + bottleneck delay).
 */
struct QuicCcDumbbellParams
{
    std::vector<QuicCcFlowGroup> groups;      //!< flows, in order (QuicCcParseFlowSpec)
    std::vector<Time> rtts{MilliSeconds(40)}; //!< base RTT of each flow, cycled over the flows
    Time stagger{0};                          //!< flow i starts at i * stagger (plus the jitter)
    /// each flow's start is delayed by a uniform [0, startJitter) draw (RngRun decides; 0 =
    /// none): without it and without random loss every run of a configuration is the same
    Time startJitter{0};
    uint64_t transferBytes{0};             //!< bytes per flow; 0 = bulk until the end
    DataRate bottleneckRate{"10Mbps"};     //!< bottleneck link rate
    Time bottleneckDelay{MilliSeconds(5)}; //!< bottleneck one-way propagation delay
    DataRate accessRate{"1Gbps"};          //!< every access link's rate
    std::string queueSize{"100p"}; //!< bottleneck buffer: ns-3 QueueSize ("100p", "150000B")
    /// "" = drop-tail device queue of queueSize; else a QueueDisc TypeId (e.g.
    /// ns3::FqCoDelQueueDisc) at the bottleneck with its default attributes, in front of a
    /// 1-packet device queue
    std::string queueDisc;
    /// queueDisc's attributes other than their defaults, in order (e.g. {"MaxSize", "25p"})
    std::vector<std::pair<std::string, std::string>> queueDiscAttributes;
    /// the queue disc (and the 1-packet device queue) in both directions of the bottleneck, not
    /// only in the data direction
    bool queueDiscBothWays{false};
    /// ECN on every flow's sockets, both ends: QuicCcSocketBase::Ecn (quic-cc and ngtcp2) and
    /// TcpSocketBase::UseEcn On (ns-3 TCP); false: both off
    bool ecn{false};
    /// UDP on/off cross traffic from sender 0 to receiver 0 (Not-ECT, 1200 B packets) at this
    /// rate while on, on and off times exponential of mean 1 s; 0 = none
    DataRate crossTrafficRate{0};
    double lossRate{0};               //!< random loss per packet, forward direction, [0, 1)
    uint64_t lossPeriod{0};           //!< drop every n-th data packet, forward (0 = off)
    uint64_t lossFirstDrop{0};        //!< lossPeriod: count of the first drop (0 = lossPeriod)
    Time duration{Seconds(30)};       //!< simulated time (or until every transfer is done)
    Time warmup{Seconds(5)};          //!< start of the measurement window
    Time interval{MilliSeconds(500)}; //!< goodput-over-time bin
    uint32_t run{1};                  //!< RngRun
    uint32_t seed{1};                 //!< RngSeed
    uint32_t maxDatagramSize{
        QuicCongestionController::kDefaultMaxDatagramSize}; //!< QUIC MaxDatagramSize, bytes
    /// TCP SegmentSize, bytes: 1350 minus 18 B of QUIC short header and STREAM frame, so a full
    /// packet carries the same payload in both transports
    uint32_t tcpSegmentSize{1332};
    std::string ackPolicy{"ReceiveBatch"}; //!< QuicCcSocket::AckPolicy
    std::string qlogDirectory;             //!< QuicCcHelper::EnableQlog directory ("" = no qlog)
};

/// \ingroup quic-cc
/// The most goodput-over-time bins (--duration / --interval) a run keeps per flow.
constexpr int64_t kQuicCcDumbbellMaxBins = 1000000;

/**
 * Check \p params; "" when they are valid, else one line naming the bad value.
 */
std::string QuicCcCheckDumbbellParams(const QuicCcDumbbellParams& params);

/**
 * Check that valid \p params (QuicCcCheckDumbbellParams) can measure a goodput: the measurement
 * window and the last flow's start leave at least two base RTTs (of the longest) for a
 * handshake and a first round of data. "" if so, else one line naming the value.
 */
std::string QuicCcCheckDumbbellGoodputWindow(const QuicCcDumbbellParams& params);

} // namespace ns3

#endif // QUIC_CC_DUMBBELL_PARAMS_H
