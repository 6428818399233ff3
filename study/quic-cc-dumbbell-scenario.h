/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DUMBBELL_SCENARIO_H
#define QUIC_CC_DUMBBELL_SCENARIO_H

#include "quic-cc-record.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * One group of identical flows of a dumbbell, as written on a command line:
 * `transport:controller[Name=Value|Name=Value]:count`, e.g. `quic:cubic:3`,
 * `quic:cubic[IdleRestart=LastSent|HyStart=false]:2`, `tcp:TcpCubic:2`.
 */
struct QuicCcFlowGroup
{
    std::string token;  //!< the group as written
    bool tcp{false};    //!< ns-3 TCP (true) or quic-cc (false)
    std::string typeId; //!< controller TypeId: ns3::QuicCubic, ns3::QuicReno, ns3::TcpCubic, ...
    std::vector<std::pair<std::string, std::string>>
        attributes;    //!< controller attributes, in order
    uint32_t count{1}; //!< flows in the group (>= 1)
};

/**
 * Parse a comma-separated list of flow groups (see QuicCcFlowGroup). Every controller, TypeId,
 * attribute name and value is checked against the TypeId system.
 * \param spec   e.g. "quic:cubic:3,quic:reno:1,tcp:TcpCubic:2"
 * \param groups the parsed groups (appended)
 * \return "" on success, else one line naming the bad token and why
 */
std::string QuicCcParseFlowSpec(const std::string& spec, std::vector<QuicCcFlowGroup>* groups);

/**
 * Parameters of a dumbbell: senders on the left leaves, receivers on the right leaves, one flow
 * per leaf pair, all data crossing one bottleneck link (ns-3 PointToPointDumbbellHelper).
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
    double lossRate{0};               //!< random loss per packet, forward direction, [0, 1)
    uint64_t lossPeriod{0};           //!< drop every n-th data packet, forward (0 = off)
    uint64_t lossFirstDrop{0};        //!< lossPeriod: count of the first drop (0 = lossPeriod)
    Time duration{Seconds(30)};       //!< simulated time (or until every transfer is done)
    Time warmup{Seconds(5)};          //!< start of the measurement window
    Time interval{MilliSeconds(500)}; //!< goodput-over-time bin
    uint32_t run{1};                  //!< RngRun
    uint32_t seed{1};                 //!< RngSeed
    uint32_t maxDatagramSize{1350};   //!< QUIC MaxDatagramSize, bytes
    /// TCP SegmentSize, bytes: 1350 minus 18 B of QUIC short header and STREAM frame, so a full
    /// packet carries the same payload in both transports
    uint32_t tcpSegmentSize{1332};
    std::string ackPolicy{"ReceiveBatch"}; //!< QuicCcSocket::AckPolicy
    std::string qlogDirectory;             //!< QuicCcHelper::EnableQlog directory ("" = no qlog)
};

/// Per-flow outcome.
struct QuicCcDumbbellFlowResult
{
    uint32_t index{0};           //!< flow number, 0-based
    std::string group;           //!< QuicCcFlowGroup::token
    std::string transport;       //!< "quic" or "tcp"
    std::string controller;      //!< controller TypeId
    Time rtt;                    //!< base RTT
    Time start;                  //!< application start
    uint64_t sinkBytes{0};       //!< bytes the PacketSink's Rx trace delivered (what is reported)
    uint64_t sinkTotalRx{0};     //!< PacketSink::GetTotalRx at the end, bytes (a cross-check)
    uint64_t windowBytes{0};     //!< bytes received in the measurement window
    double goodputMbps{0};       //!< windowBytes over the window, Mbit/s
    bool completed{false};       //!< fixed-size transfer fully received
    double completionSeconds{0}; //!< time the last byte arrived (valid if completed)
    /// QUIC: packets the sender declared lost; TCP: retransmitted segments
    uint64_t lostPackets{0};
    double meanCwndBytes{0}; //!< time-weighted mean cwnd over the window, bytes
    uint32_t mss{0};         //!< packet payload size the cwnd is counted in, bytes
    // FlowMonitor (IPv4 flow probe), data direction, whole run: wire bytes include IP/UDP/TCP
    // headers
    uint64_t wireTxPackets{0};      //!< packets the sender's IP layer sent
    uint64_t wireRxPackets{0};      //!< packets the receiver's IP layer received
    uint64_t wireTxBytes{0};        //!< bytes sent, IP headers included
    uint64_t wireRxBytes{0};        //!< bytes received, IP headers included
    std::vector<uint64_t> binBytes; //!< goodput bytes per interval bin, from time 0
};

/// The serialised form of QuicCcDumbbellFlowResult (QuicCcRecordToLine): every field, in this
/// order.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcDumbbellFlowResult,
                                   index,
                                   group,
                                   transport,
                                   controller,
                                   rtt,
                                   start,
                                   sinkBytes,
                                   sinkTotalRx,
                                   windowBytes,
                                   goodputMbps,
                                   completed,
                                   completionSeconds,
                                   lostPackets,
                                   meanCwndBytes,
                                   mss,
                                   wireTxPackets,
                                   wireRxPackets,
                                   wireTxBytes,
                                   wireRxBytes,
                                   binBytes);

/// Outcome of one run.
struct QuicCcDumbbellResult
{
    std::vector<QuicCcDumbbellFlowResult> flows; //!< in flow order
    Time windowStart;                            //!< measurement window [windowStart, windowEnd]
    Time windowEnd; //!< duration, or the first completion of a fixed-size transfer
    /// Jain's fairness index of the window goodputs; undefined (nullopt) when they are all 0
    std::optional<double> jainIndex;
    double totalGoodputMbps{0}; //!< sum of the window goodputs
    uint64_t periodicDrops{0};  //!< packets dropped by lossPeriod
    uint64_t events{0};         //!< simulator events executed
};

/// The serialised form of QuicCcDumbbellResult (QuicCcRecordToLine): every field, in this order.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcDumbbellResult,
                                   flows,
                                   windowStart,
                                   windowEnd,
                                   jainIndex,
                                   totalGoodputMbps,
                                   periodicDrops,
                                   events);

/// Jain's fairness index (sum x)^2 / (n sum x^2); undefined (nullopt) for an empty or all-zero
/// vector (0 / 0: no share to compare).
std::optional<double> QuicCcJainIndex(const std::vector<double>& x);

/**
 * Check \p params; "" when they are valid, else one line naming the bad value.
 */
std::string QuicCcCheckDumbbellParams(const QuicCcDumbbellParams& params);

/**
 * Run the dumbbell once (builds its own nodes; calls Simulator::Destroy at the end). Invalid
 * parameters are a fatal error naming the value (QuicCcCheckDumbbellParams).
 */
QuicCcDumbbellResult QuicCcRunDumbbell(const QuicCcDumbbellParams& params);

/// The attributes QuicCcRunDumbbell sets itself (full names, "ns3::QuicCcSocket::AckPolicy"):
/// their defaults have no effect on it (QuicCcCommandLine::AttributesSetByScenario).
std::vector<std::string> QuicCcDumbbellSetAttributes();

} // namespace ns3

#endif // QUIC_CC_DUMBBELL_SCENARIO_H
