/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DUMBBELL_RESULT_H
#define QUIC_CC_DUMBBELL_RESULT_H

#include "quic-cc-record.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Per-flow outcome of a dumbbell run (QuicCcRunDumbbell).
 */
struct QuicCcDumbbellFlowResult
{
    uint32_t index{0};           //!< flow number, 0-based
    std::string group;           //!< QuicCcFlowGroup::token
    std::string transport;       //!< "quic", "tcp" or "ngtcp2"
    std::string controller;      //!< controller TypeId
    std::string libraryVersion;  //!< the QUIC library's version (ngtcp2 flows), else ""
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
    /// QUIC with ECN: window reductions ECN-CE marks started
    /// (QuicCcSocketBase::GetEcnCongestionEvents); 0 otherwise
    uint64_t ecnCongestionEvents{0};
    /// packets of the flow the bottleneck's queue disc dropped (FlowMonitor, DROP_QUEUE_DISC)
    uint64_t queueDiscDrops{0};
    /// QUIC: the sender's ECN validation state at the end (QuicCcEcnStateName); TCP: ""
    std::string ecnState;
};

/// The serialised form of QuicCcDumbbellFlowResult (QuicCcRecordToLine): every field, in this
/// order.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcDumbbellFlowResult,
                                   index,
                                   group,
                                   transport,
                                   controller,
                                   libraryVersion,
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
                                   binBytes,
                                   ecnCongestionEvents,
                                   queueDiscDrops,
                                   ecnState);

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
    // The bottleneck's queue disc (QueueDisc::GetStats and its SojournTime trace), whole run;
    // all 0 without a queue disc
    uint64_t queueDrops{0}; //!< packets it dropped (nTotalDroppedPackets)
    uint64_t queueMarks{0}; //!< packets it marked ECN-CE (nTotalMarkedPackets)
    double sojournP50Ms{0}; //!< median sojourn time of the packets it sent on, ms
    double sojournP99Ms{0}; //!< their 99th percentile, ms
};

/// The serialised form of QuicCcDumbbellResult (QuicCcRecordToLine): every field, in this order.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcDumbbellResult,
                                   flows,
                                   windowStart,
                                   windowEnd,
                                   jainIndex,
                                   totalGoodputMbps,
                                   periodicDrops,
                                   events,
                                   queueDrops,
                                   queueMarks,
                                   sojournP50Ms,
                                   sojournP99Ms);

} // namespace ns3

#endif // QUIC_CC_DUMBBELL_RESULT_H
