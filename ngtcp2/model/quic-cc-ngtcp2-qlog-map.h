/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_QLOG_MAP_H
#define QUIC_CC_NGTCP2_QLOG_MAP_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc-ngtcp2
 * \brief Maps the records of ngtcp2's own qlog (qlog_version "0.3", lib/ngtcp2_qlog.c) to the
 * qlog main schema draft-ietf-quic-qlog-main-schema-13 with the QUIC events of
 * draft-ietf-quic-qlog-quic-events-12, the schema QuicCcQlogWriter writes (QLOG_MAIN_SCHEMA_13).
 *
 * One record in (settings.qlog_write gets one JSON-SEQ record per call), its events out, as
 * JSON object texts without RS and LF:
 *  - the header (ngtcp2_qlog_start) and the empty last write: nothing (the writer wrote the
 *    main-schema header);
 *  - transport:packet_sent / packet_received / parameters_set become quic:packet_sent /
 *    quic:packet_received / quic:parameters_set (Sections 5.5, 5.6, 5.3):
 *    parameters_set's owner becomes initiator, a stateless_reset_token {data} its hex string;
 *    a packet header's token {data} becomes {raw {data}} (Token, Section 8.9); a frame's
 *    length (stream, crypto, datagram, new_token) moves to raw.length (Section 8.13), a
 *    reset_stream / stop_sending error_code goes with error "unknown", connection_close's
 *    raw_error_code (ngtcp2 repeats error_code there) is dropped;
 *  - recovery:metrics_updated becomes quic:recovery_metrics_updated (Section 7.2), its fields as
 *    ngtcp2 wrote them (RTTs in whole milliseconds); a pto_count higher than the last one is a
 *    PTO expiry (ngtcp2_conn_on_loss_detection_timer counts it; an ACK resets it) and is logged
 *    first as quic:timer_updated {timer_type "pto", event_type "expired"} (Section 5.21);
 *  - recovery:packet_lost becomes quic:packet_lost (Section 7.4), without a trigger (ngtcp2
 *    does not log which threshold declared the loss).
 * "time" is \p nowMs, the simulation time of the library call that wrote the record (ngtcp2
 * writes whole milliseconds since the connection's initial timestamp). A record that is not
 * JSON or names an event this mapping does not know is a fatal error naming it: the file would
 * not be in the schema. Pure logic.
 */
class QuicCcNgtcp2QlogMap
{
  public:
    /// The events of one ngtcp2 qlog record (\p data, \p length as ngtcp2 passes them).
    std::vector<std::string> Map(const uint8_t* data, size_t length, double nowMs);

  private:
    uint64_t m_ptoCount{0}; //!< pto_count of the last metrics record
};

} // namespace ns3

#endif // QUIC_CC_NGTCP2_QLOG_MAP_H
