/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_QLOG_PACKETS_H
#define QUIC_CC_NGTCP2_QLOG_PACKETS_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup quic-cc-ngtcp2
 * A 1-RTT packet sent or declared lost, the PTO count, or the ECN counts of a 1-RTT ACK frame
 * received, read from one record of ngtcp2's qlog stream (settings.qlog.write gets one JSON-SEQ
 * record per call: lib/ngtcp2_qlog.c, qlog_pkt_write_end for "transport:packet_sent" and
 * "transport:packet_received", write_ack_frame for an ACK frame's "ect1", "ect0" and "ce",
 * ngtcp2_qlog_pkt_lost for "recovery:packet_lost"). ngtcp2 1.x has no per-packet sent or lost
 * callback and does not expose the peer's ECN counts; its qlog is the only public place that
 * names them. Pure logic.
 */
struct QuicCcNgtcp2QlogPacket
{
    /// What the record is.
    enum Kind
    {
        OTHER,   //!< another event, a packet of another number space, or a record not understood
        SENT,    //!< transport:packet_sent of a 1RTT packet
        LOST,    //!< recovery:packet_lost of a 1RTT packet
        METRICS, //!< recovery:metrics_updated (ngtcp2_qlog_metrics_updated), with pto_count
        ACK_ECN, //!< transport:packet_received of a 1RTT packet whose ACK frame has ECN counts
    };

    Kind kind{OTHER};         //!< what the record is
    uint64_t packetNumber{0}; //!< header.packet_number
    uint64_t bytes{0};        //!< SENT: raw.length, the packet's size; LOST: 0 (not logged)
    uint64_t ptoCount{0};     //!< METRICS: pto_count, the consecutive PTOs (RFC 9002 A.3)
    uint64_t ect0{0};         //!< ACK_ECN: the ACK frame's ECT(0) count
    uint64_t ect1{0};         //!< ACK_ECN: its ECT(1) count
    uint64_t ce{0};           //!< ACK_ECN: its ECN-CE count

    /// Read one record (\p data, \p length as ngtcp2 passes them).
    static QuicCcNgtcp2QlogPacket Parse(const uint8_t* data, size_t length);
};

} // namespace ns3

#endif // QUIC_CC_NGTCP2_QLOG_PACKETS_H
