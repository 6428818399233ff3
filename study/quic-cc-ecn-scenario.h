/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_ECN_SCENARIO_H
#define QUIC_CC_ECN_SCENARIO_H

#include "quic-cc-dumbbell-params.h"
#include "quic-cc-record.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * One cell of the ECN study: one fixed-size transfer over one bottleneck (QuicCcRunDumbbell with
 * one flow) whose queue disc marks or drops.
 *
 * Queues (each in front of a 1-packet device queue, limit \c buffer):
 *  - droptail: FifoQueueDisc (never marks; the control);
 *  - red: RedQueueDisc, UseEcn, MinTh max(5 packets, 5 ms of the rate), MaxTh 3 MinTh,
 *    LinkBandwidth the rate;
 *  - pie: PieQueueDisc, UseEcn, QueueDelayReference 15 ms, Tupdate 15 ms;
 *  - codel: CoDelQueueDisc, UseEcn (target 5 ms, interval 100 ms);
 *  - fqcodel: FqCoDelQueueDisc, UseEcn (target 5 ms, interval 100 ms);
 *  - fqcodel-step: FqCoDelQueueDisc, UseEcn, CeThreshold \c stepThreshold: every ECT packet
 *    whose sojourn exceeds it is marked (UseL4s would limit the step to ECT(1), which an
 *    RFC 9000 sender does not send).
 *
 * Beside the flow, light cross traffic (crossTraffic) crosses the same queue.
 *
 * Rows (the flow; "-ecn": ECN on both ends, QuicCcDumbbellParams::ecn): quic-reno,
 * quic-reno-ecn, quic-cubic, quic-cubic-ecn (quic-cc), ngtcp2-reno-ecn, ngtcp2-cubic-ecn,
 * ngtcp2-bbr-ecn (the ngtcp2 library's controllers), tcp-cubic, tcp-cubic-ecn (ns-3 TcpCubic,
 * TcpSocketBase::UseEcn).
 */
struct QuicCcEcnCell
{
    std::string queue{"fqcodel"};      //!< one of QuicCcEcnQueues()
    std::string row{"quic-cubic-ecn"}; //!< one of QuicCcEcnRows()
    DataRate rate{"10Mbps"};           //!< bottleneck rate
    Time rtt{MilliSeconds(20)};        //!< base RTT (bottleneck 5 ms one way; access 1 Gbit/s)
    uint64_t transferBytes{0}; //!< bytes of the transfer; 0 = 6.4 s of the rate (8 MB at 10 Mbit/s)
    /// queue disc limit, an ns-3 QueueSize ("50p", "12500B"); "" = 2 BDP, at least 50 packets
    /// of 1500 B
    std::string buffer;
    Time stepThreshold{MilliSeconds(1)}; //!< fqcodel-step's CeThreshold
    Time startJitter{MilliSeconds(500)}; //!< the transfer starts at a uniform [0, this) draw
    /// UDP on/off cross traffic (Not-ECT), its rate while on as a fraction of the rate, [0, 1)
    /// (QuicCcDumbbellParams::crossTrafficRate): what makes the runs of a cell differ
    double crossTraffic{0.1};
    uint32_t run{1};  //!< RngRun
    uint32_t seed{1}; //!< RngSeed
};

/// Outcome of one cell's run.
struct QuicCcEcnResult
{
    bool completed{false};       //!< every byte arrived before the 120 s limit
    double completionSeconds{0}; //!< from the transfer's start to its last byte
    double goodputMbps{0};       //!< transfer bytes over completionSeconds, Mbit/s
    uint64_t queueDrops{0};      //!< packets of the flow the queue disc dropped
    /// QUIC: packets the sender declared lost; TCP: segments it retransmitted
    uint64_t lostPackets{0};
    /// packets the queue disc marked ECN-CE (the flow's: the cross traffic is Not-ECT)
    uint64_t ceMarks{0};
    uint64_t ecnCongestionEvents{0}; //!< QUIC: window reductions the marks started
    double sojournP50Ms{0};          //!< queue disc sojourn time (every packet), median, ms
    double sojournP99Ms{0};          //!< its 99th percentile, ms
    std::string ecnState;            //!< QUIC: the sender's ECN state at the end; TCP: ""
};

/// The serialised form of QuicCcEcnResult (QuicCcRecordToLine): every field, in this order.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcEcnResult,
                                   completed,
                                   completionSeconds,
                                   goodputMbps,
                                   queueDrops,
                                   lostPackets,
                                   ceMarks,
                                   ecnCongestionEvents,
                                   sojournP50Ms,
                                   sojournP99Ms,
                                   ecnState);

/// The queue names, in table order.
std::vector<std::string> QuicCcEcnQueues();
/// The row names, in table order.
std::vector<std::string> QuicCcEcnRows();

/**
 * The dumbbell of \p cell (one flow; its queue disc and attributes, ECN switch, transfer).
 * \return "" and \p params set, or one line naming the bad value (unknown queue or row, a row
 * whose transport this build lacks, a bad buffer, a threshold <= 0, ...)
 */
std::string QuicCcEcnDumbbellParams(const QuicCcEcnCell& cell, QuicCcDumbbellParams* params);

/// Run \p cell once; invalid cells are a fatal error naming the value.
QuicCcEcnResult QuicCcRunEcnCell(const QuicCcEcnCell& cell);

} // namespace ns3

#endif // QUIC_CC_ECN_SCENARIO_H
