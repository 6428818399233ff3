/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_HYSTART_LAB_SCENARIO_H
#define QUIC_CC_HYSTART_LAB_SCENARIO_H

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
 * Parameters of one run of the HyStart++ lab (Cloudflare 2020, "CUBIC and HyStart++ support in
 * quiche"): two nodes over one point-to-point bottleneck, a
 * download from the server (node 0) to the client (node 1), random packet loss on the data
 * direction, a drop-tail bottleneck buffer.
 *
 *   server (sender) ========== bottleneck ========== client (receiver)
 *      BulkSend       5 Mbps each way, one-way 30 ms       PacketSink
 *                     drop-tail device queue of bufferPackets
 *                     (no queue disc), RateErrorModel on the
 *                     client's receive side (data direction)
 *
 * Configurations (QuicCcHystartLabConfigs()):
 * - "reno", "reno-hystart", "cubic", "cubic-hystart": quic-cc with ns3::QuicReno / ns3::QuicCubic,
 *   HyStart attribute false / true, every other controller attribute at its default;
 * - "tcp-cubic": ns-3's own ns3::TcpCubic (its default HyStart, as Linux CUBIC) over
 *   ns3::TcpSocketFactory, SegmentSize = QuicCcHystartLabTcpSegmentSize() so that a full TCP
 *   segment carries as many application bytes as a full QUIC packet's STREAM frame;
 * - "ngtcp2-cubic", "ngtcp2-reno", "ngtcp2-bbr" (QuicCcHystartLabNgtcp2Configs(), only when the
 *   ngtcp2 transport is built): the real ngtcp2 library over QuicCcNgtcp2SocketFactory with its
 *   own controller (its CUBIC and Reno run its own HyStart++), UDP payloads of maxDatagramSize
 *   from the first packet and ngtcp2's own ACK policy; quic-cc's settings in quic (ACK policy,
 *   packet sizing) and hyStartL do not apply.
 * The configuration chooses the transport, the controller and HyStart
 * (QuicCcHystartLabTransport); the other settings of the QUIC rows are those of quic.
 */
struct QuicCcHystartLabParams
{
    std::string config{"cubic-hystart"}; //!< one of QuicCcHystartLabConfigs()
    uint32_t run{1};                     //!< RngRun
    uint32_t seed{1};                    //!< RngSeed
    uint64_t transferBytes{8'000'000};   //!< download size, bytes (8 MB)
    DataRate rate{"5Mbps"};              //!< bottleneck rate, both directions
    Time oneWayDelay{MilliSeconds(30)};  //!< propagation delay each way (RTT 60 ms)
    uint32_t bufferPackets{56};          //!< drop-tail device queue, packets (56 = 2 BDP)
    /// Limit the queue in bytes instead, to bufferPackets full QUIC packets (bufferPackets x
    /// (maxDatagramSize + 30) bytes on the wire), so that sub-MSS packets take less room.
    bool bufferInBytes{false};
    double lossRate{0};         //!< random loss probability per data packet, [0, 1]
    bool ackLoss{false};        //!< also drop ACK-direction packets with lossRate
    Time timeout{Seconds(600)}; //!< a run not done by then is reported incomplete
    uint64_t maxDatagramSize{
        QuicCongestionController::kDefaultMaxDatagramSize}; //!< QUIC MaxDatagramSize (UDP payload),
                                                            //!< bytes
    /// The settings of the QUIC rows (AckPolicy, AckBatchWindow, PacketSizing, ...); their
    /// transport and controller come from config
    QuicCcTransportSpec quic;
    uint32_t hyStartL{0}; //!< QuicHyStartPlusPlus::L, packets per ACK frame (0 = no cap, quiche)
};

/// Outcome of one run.
struct QuicCcHystartLabResult
{
    bool completed{false};       //!< all bytes arrived before the timeout
    double completionSeconds{0}; //!< time the last byte arrived, from t = 0 (handshake included)
    uint64_t bytesReceived{0};   //!< at the client when the run ended
    /**
     * Lost packets as the sender sees them. QUIC: packets the sender's loss detection declared
     * lost (QuicLossDetection::GetLostPacketCount, spurious declarations included); ngtcp2: the
     * packets ngtcp2 declared lost (ngtcp2_conn_info.pkt_lost). TCP: data-
     * direction packets dropped in the network, queueDrops + errorDrops (ns-3 3.37's TCP has no
     * lost-segment counter).
     */
    uint64_t lostPackets{0};
    uint64_t spuriousLosses{0}; //!< QUIC: declared lost, later acknowledged (0 for TCP, ngtcp2)
    uint64_t sentPackets{0};    //!< packets offered to the data-direction bottleneck queue
    /// Of sentPackets, frames shorter than kSmallPacketBytes + 30 B (UDP 8, IPv4 20, PPP 2): for
    /// QUIC the packets under kSmallPacketBytes.
    uint64_t smallPackets{0};
    uint64_t queueDrops{0};    //!< data-direction bottleneck queue overflows, packets
    uint64_t errorDrops{0};    //!< data-direction packets the error model dropped
    uint64_t ackErrorDrops{0}; //!< ACK-direction packets the error model dropped (ackLoss)
    uint64_t peakCwnd{0};      //!< largest sender cwnd, bytes
    /// Time of the first data-direction drop, s; valid only if queueDrops + errorDrops > 0.
    double firstDropSeconds{0};
    uint64_t events{0}; //!< simulator events executed
};

/// The serialised form of QuicCcHystartLabResult (QuicCcRecordToLine): every field, in this order.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcHystartLabResult,
                                   completed,
                                   completionSeconds,
                                   bytesReceived,
                                   lostPackets,
                                   spuriousLosses,
                                   sentPackets,
                                   smallPackets,
                                   queueDrops,
                                   errorDrops,
                                   ackErrorDrops,
                                   peakCwnd,
                                   firstDropSeconds,
                                   events);

/// Packets whose UDP payload (a QUIC packet; for TCP the TCP segment) is shorter than this many
/// bytes count as small in QuicCcHystartLabResult::smallPackets.
constexpr uint64_t kSmallPacketBytes = 100;

/// The five configurations in the published order: "tcp-cubic", "reno", "reno-hystart",
/// "cubic", "cubic-hystart".
const std::vector<std::string>& QuicCcHystartLabConfigs();

/// The configurations over the real ngtcp2 library: "ngtcp2-cubic", "ngtcp2-reno", "ngtcp2-bbr".
const std::vector<std::string>& QuicCcHystartLabNgtcp2Configs();

/// The transport of QUIC configuration \p config (not "tcp-cubic": fatal) with the settings of
/// \p settings: quic-cc's Reno or CUBIC with HyStart off or on ("reno", "reno-hystart", ...), or
/// ngtcp2's controller ("ngtcp2-bbr").
QuicCcTransportSpec QuicCcHystartLabTransport(const std::string& config,
                                              QuicCcTransportSpec settings);

/**
 * Bandwidth-delay product of the lab path in packets of MaxDatagramSize:
 * rate x (2 x oneWayDelay) / (8 x maxDatagramSize). 27.8 for 5 Mbps, 60 ms, 1350 B.
 */
double QuicCcHystartLabBdpPackets(const QuicCcHystartLabParams& params);

/**
 * A bottleneck buffer of \p bdpMultiple times the BDP, packets: round(bdpMultiple x BDP), at least
 * 1 (0.5 -> 14, 1 -> 28, 2 -> 56 on the default path). \p bdpMultiple <= 0 is a fatal error.
 */
uint32_t QuicCcHystartLabBufferPackets(const QuicCcHystartLabParams& params, double bdpMultiple);

/**
 * TCP SegmentSize matching the QUIC payload: the STREAM data of a full QUIC packet of
 * MaxDatagramSize bytes (MaxDatagramSize minus the short header and STREAM frame overhead as
 * quic-cc encodes them for this transfer; 1332 B for 1350 B and 8 MB). The TCP packet on the wire
 * is then 6 B longer than the QUIC one (20 B TCP header + 12 B timestamp option vs 8 B UDP header
 * + 18 B of QUIC overhead).
 */
uint32_t QuicCcHystartLabTcpSegmentSize(const QuicCcHystartLabParams& params);

/**
 * Run the lab once (builds its own nodes; calls Simulator::Destroy at the end). ns-3 TCP defaults
 * it changes for "tcp-cubic" (SegmentSize, buffer sizes) are restored before it returns.
 * Bad parameters (unknown configuration, zero transfer or buffer, loss rate outside [0, 1]) are
 * fatal errors naming the value.
 */
QuicCcHystartLabResult QuicCcRunHystartLab(const QuicCcHystartLabParams& params);

} // namespace ns3

#endif // QUIC_CC_HYSTART_LAB_SCENARIO_H
