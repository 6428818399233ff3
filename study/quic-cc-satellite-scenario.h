/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SATELLITE_SCENARIO_H
#define QUIC_CC_SATELLITE_SCENARIO_H

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
 * One run of the long fat path of picoquic's satellite test (picoquictest/satellite_test.c,
 * satellite_test_one): a transfer from node 0 (the QUIC client) to node 1 over a point-to-point
 * link that carries forwardRate towards the receiver and returnRate back (the ACKs), the same
 * one-way delay each way, each direction's drop-tail queue holding maxQueueDelay of its rate in
 * bytes (picoquic drops a packet when the link's queue delay has reached queue_delay_max);
 * optionally one packet in lossPeriod dropped, counted over both directions together from the
 * handshake's completion (picoquic's shared 64-bit loss mask 0x10000000: the 29th packet, then
 * every 64th).
 */
struct QuicCcSatelliteParams
{
    /// "reno", "cubic" (quic-cc's, HyStart++ off), "cubic-hystart" (with HyStart++),
    /// "ngtcp2-cubic", "ngtcp2-bbr" (the linked ngtcp2 library's)
    std::string config{"cubic"};
    uint32_t ackRatio{2};                  //!< receiver's AckElicitingThreshold, >= 1
    Time maxAckDelay{MilliSeconds(25)};    //!< receiver's max_ack_delay
    uint32_t run{1};                       //!< RngRun
    uint32_t seed{1};                      //!< RngSeed
    DataRate forwardRate{"250Mbps"};       //!< data direction
    DataRate returnRate{"3Mbps"};          //!< ACK direction
    Time oneWayDelay{MilliSeconds(300)};   //!< each way
    Time maxQueueDelay{MilliSeconds(600)}; //!< each queue holds this long of its rate, in bytes
    uint64_t transferBytes{100'000'000};   //!< bytes
    uint64_t maxDatagramSize{
        QuicCongestionController::kDefaultMaxDatagramSize}; //!< packet size from the first packet
                                                            //!< on, bytes
    uint64_t lossPeriod{0};     //!< drop one packet in this many, both directions (0 = none)
    uint64_t lossFirstDrop{29}; //!< count of the first drop after the handshake
    Time timeout{Seconds(60)};  //!< the run stops here at the latest
};

/// Outcome of one run; times in seconds of simulated time from the connection's start.
struct QuicCcSatelliteResult
{
    bool completed{false};                   //!< all bytes arrived before the timeout
    double completionSeconds{0};             //!< when (valid if completed)
    uint64_t bytesReceived{0};               //!< at the receiver
    double handshakeSeconds{-1};             //!< sender's HandshakeCompleted
    uint64_t peakCwnd{0};                    //!< largest cwnd, bytes
    uint64_t lostPackets{0};                 //!< declared lost by the sender
    uint64_t drops{0};                       //!< dropped by the loss pattern (lossPeriod)
    uint64_t forwardQueueDrops{0};           //!< data-direction queue overflows
    uint64_t returnQueueDrops{0};            //!< ACK-direction queue overflows
    uint64_t returnPackets{0};               //!< packets the receiver sent (ACKs)
    double returnBytesPerSecond{0};          //!< their bytes on the wire over the transfer, B/s
    std::optional<double> firstEventSeconds; //!< first congestion event (slow start's end by loss)
    std::optional<double> ssthreshSeconds;   //!< ssthresh first set (by loss or HyStart++)
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcSatelliteResult,
                                   completed,
                                   completionSeconds,
                                   bytesReceived,
                                   handshakeSeconds,
                                   peakCwnd,
                                   lostPackets,
                                   drops,
                                   forwardQueueDrops,
                                   returnQueueDrops,
                                   returnPackets,
                                   returnBytesPerSecond,
                                   firstEventSeconds,
                                   ssthreshSeconds);

/// The configurations QuicCcSatelliteParams::config takes, in the order of the study's rows.
const std::vector<std::string>& QuicCcSatelliteConfigs();

/**
 * The transport of configuration \p config: quic-cc's Reno or CUBIC (LastActivity idle rule,
 * epoch shared with the recovery start) with HyStart++ off, or CUBIC with it ("cubic-hystart"),
 * or the ngtcp2 library's CUBIC or BBR. Another name is a fatal error naming it.
 */
QuicCcTransportSpec QuicCcSatelliteTransport(const std::string& config);

/**
 * Run once (builds its own nodes; calls Simulator::Destroy at the end). Bad parameters are
 * fatal errors naming the value; an ngtcp2 configuration in a build without it is a fatal error.
 */
QuicCcSatelliteResult QuicCcRunSatellite(const QuicCcSatelliteParams& params);

} // namespace ns3

#endif // QUIC_CC_SATELLITE_SCENARIO_H
