/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_QLOG_H
#define QUIC_CC_QLOG_H

#include "quic-cc-atomic-file.h"
#include "quic-cc-ecn.h"
#include "quic-congestion-controller.h"
#include "quic-loss-detection.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc-helper
 * \brief A qlog file written through a buffer and put in place atomically: QuicCcQlogWriter's
 * file, and the file of ngtcp2's own qlog (QuicCcNgtcp2Socket's QlogDirectory, QLOG_0_3).
 *
 * Text goes to a temporary file next to the path (QuicCcAtomicFile) in blocks of about 64 KiB;
 * Close() writes the rest and renames the file over the path. A program interrupted before
 * (SIGINT, SIGTERM) leaves no partial qlog. Failing to create, write or rename the file removes
 * the temporary file and ends the run through QuicCcOutputFailed ("cannot write <path>:
 * <reason>": exit status 1 with that line, or the batch worker's report).
 */
class QuicCcQlogFile
{
  public:
    /// Create the temporary file for \p path.
    explicit QuicCcQlogFile(const std::string& path);
    /// Close() unless closed.
    ~QuicCcQlogFile();
    QuicCcQlogFile(const QuicCcQlogFile&) = delete;
    QuicCcQlogFile& operator=(const QuicCcQlogFile&) = delete;

    /// Append \p bytes bytes at \p data (ignored once closed).
    void Append(const char* data, size_t bytes);
    /// Write what is buffered and rename the file over the path (once; later calls do nothing).
    void Close();
    /// True until Close().
    bool IsOpen() const;
    /// The file's path.
    const std::string& GetPath() const;

  private:
    void Flush();                      //!< write m_buffer to the file
    [[noreturn]] void Fail(int error); //!< remove the temporary file, QuicCcOutputFailed

    std::string m_path;      //!< the qlog file
    QuicCcAtomicFile m_file; //!< its temporary file until Close
    std::string m_buffer;    //!< text not yet written
};

/**
 * \ingroup quic-cc-helper
 * Create \p directory (and its parents) for qlog files unless it exists; a failure ends the run
 * through QuicCcOutputFailed ("cannot create qlog directory <directory>: <reason>").
 */
void QuicCcCreateQlogDirectory(const std::string& directory);

/**
 * \ingroup quic-cc-helper
 * The schema a qlog file is written in (the QlogSchema attribute of both transports' sockets).
 */
enum QuicCcQlogSchema
{
    /// The qlog main schema draft-ietf-quic-qlog-main-schema-13 (QlogFileSeq, Section 5;
    /// JSON-SEQ, Section 11.2) with the QUIC events of draft-ietf-quic-qlog-quic-events-12
    /// (event schema urn:ietf:params:qlog:events:quic-12), as quiche's qlog crate writes it.
    QLOG_MAIN_SCHEMA_13 = 0,
    /// qlog_version "0.3" with the draft-02 era event names (transport:packet_sent,
    /// recovery:metrics_updated, ...): the only layout qvis reads.
    QLOG_0_3 = 1,
};

/**
 * \ingroup quic-cc-helper
 * \brief Writes one connection's events as a qlog file in JSON-SEQ form (.sqlog, RFC 7464: each
 * record is RS (0x1E), one JSON object, LF).
 *
 * QLOG_MAIN_SCHEMA_13 (the default): the header is a QlogFileSeq
 * (draft-ietf-quic-qlog-main-schema-13 Section 5): file_schema
 * "urn:ietf:params:qlog:file:sequential", serialization_format "application/qlog+json-seq"
 * (Section 11.2), title, and a TraceSeq with common_fields (time_format "relative_to_epoch",
 * reference_time {clock_type "monotonic", epoch "unknown"}: Section 7.1), vantage_point
 * {name, type} and event_schemas ["urn:ietf:params:qlog:events:quic-12"]. Events
 * (draft-ietf-quic-qlog-quic-events-12):
 *  - quic:packet_sent, quic:packet_received (Sections 5.5, 5.6): header {packet_type "1RTT",
 *    packet_number}, raw {length};
 *  - quic:recovery_metrics_updated (Section 7.2): congestion_window, bytes_in_flight, ssthresh
 *    (bytes), latest_rtt, smoothed_rtt, min_rtt (ms), pacing_rate (bits per second); only the
 *    fields that changed, those changed at the same instant grouped in one event (a field
 *    already in the event starts a new one, so every traced value is kept);
 *  - quic:congestion_state_updated (Section 7.3): old, new ("slow_start",
 *    "conservative_slow_start", "congestion_avoidance", "recovery");
 *  - quic:packet_lost (Section 7.4): header, and trigger ("reordering_threshold",
 *    "time_threshold") where the transport reports it (PacketLostWithTrigger);
 *  - quic:timer_updated (Section 5.21): {timer_type "pto", event_type "expired"} when the
 *    probe timeout fires;
 *  - quic:ecn_state_updated (Section 7.6): {old, new} of "testing", "unknown", "failed",
 *    "capable" (the first, from ECN off, has no old); the peer's ECN counts (EcnCounts) go
 *    into the recovery_metrics_updated event of the same ACK frame as the extension fields
 *    ect0, ect1 and ce (the names of an AckFrame's counts): the frame that changes them also
 *    changes bytes_in_flight at that instant.
 * Times ("time") are simulation time in milliseconds, since the simulation started.
 *
 * QLOG_0_3: the header {qlog_version "0.3", qlog_format "JSON-SEQ", title, trace
 * {vantage_point, common_fields {time_format "relative", reference_time 0}}} and the events
 * transport:packet_sent, transport:packet_received, recovery:metrics_updated (one field group
 * per event), recovery:congestion_state_updated, recovery:packet_lost (no trigger): quic-cc's
 * qlog before the current schema, byte for byte; the sinks PacingRate, PtoExpired and the
 * trigger of PacketLostWithTrigger, EcnState and EcnCounts write nothing in it.
 *
 * The writer only listens to trace sources (its public sinks below take the signatures of the
 * sockets' sources; QuicCcHelper::EnableQlog and QuicCcNgtcp2Socket's QlogDirectory connect
 * them), so the qlog shows exactly what the traces report; Record() takes an event another
 * logger wrote (ngtcp2's, mapped to this schema). Every record is written whole and ends with
 * LF. The file is a QuicCcQlogFile: written atomically, renamed over the path by Close(), which
 * QuicCcHelper calls when the connection closes and when the simulation is destroyed, and which
 * the destructor calls; a program interrupted before (SIGINT, SIGTERM) leaves no partial qlog.
 * Failing to create, write or rename the file ends the run with one line naming the path
 * (QuicCcOutputFailed), the temporary file removed.
 */
class QuicCcQlogWriter : public SimpleRefCount<QuicCcQlogWriter>
{
  public:
    /**
     * Open \p path and write the qlog header.
     * \param path  the file (written to a temporary file next to it until Close())
     * \param vantagePoint "client" or "server"
     * \param title  free text for the file's title
     * \param schema  the schema of the file
     * \param vantageName  the vantage point's name (the logging implementation; main schema)
     */
    QuicCcQlogWriter(const std::string& path,
                     const std::string& vantagePoint,
                     const std::string& title,
                     QuicCcQlogSchema schema = QLOG_MAIN_SCHEMA_13,
                     const std::string& vantageName = "quic-cc");
    ~QuicCcQlogWriter(); //!< closes the file if still open

    /// Flush and close the file (later events are ignored).
    void Close();
    /// True until Close().
    bool IsOpen() const;
    /// The file's path.
    const std::string& GetPath() const;
    /// The file's schema.
    QuicCcQlogSchema GetSchema() const;

    /// \name Trace sinks, one per socket trace source it records (same signatures)
    /// @{
    /// PacketSent: packet_sent (packet number, UDP payload bytes).
    void PacketSent(uint64_t packetNumber, uint64_t bytes);
    /// PacketReceived: packet_received.
    void PacketReceived(uint64_t packetNumber, uint64_t bytes);
    /// packet_lost without a trigger (the shell's PacketLost).
    void PacketLost(uint64_t packetNumber, uint64_t bytes, Time timeSent);
    /// packet_lost with its trigger (QuicCcSocket's PacketLostTrigger).
    void PacketLostWithTrigger(uint64_t packetNumber, QuicLossTrigger trigger);
    /// CongestionWindow64: metrics with congestion_window.
    void Cwnd(uint64_t oldValue, uint64_t newValue);
    /// SlowStartThreshold64: metrics with ssthresh (the unset value not written).
    void Ssthresh(uint64_t oldValue, uint64_t newValue);
    /// BytesInFlight64: metrics with bytes_in_flight.
    void BytesInFlight(uint64_t oldValue, uint64_t newValue);
    /// Rtt: metrics with latest_rtt, smoothed_rtt and min_rtt (ms).
    void Rtt(Time latest, Time smoothed, Time min);
    /// CongestionState: congestion_state_updated (old, new).
    void State(QuicCongestionState oldValue, QuicCongestionState newValue);
    /// pacing_rate in bits per second (main schema only).
    void PacingRate(DataRate oldValue, DataRate newValue);
    /// quic:timer_updated {pto, expired} (main schema only).
    void PtoExpired(uint32_t ptoCount);
    /// quic:ecn_state_updated (main schema only).
    void EcnState(QuicCcEcnState oldValue, QuicCcEcnState newValue);
    /// The peer's ECN counts, written with the next metrics event (main schema only).
    void EcnCounts(uint64_t ect0, uint64_t ect1, uint64_t ce);

    /// @}

    /// One whole event record, a JSON object text in this file's schema (without RS and LF).
    void Record(const std::string& event);

  private:
    /// Write a pending metrics event, if any.
    void FlushMetrics();
    /// A metrics field (ms as double, else uint64_t): main schema grouped at one instant; 0.3
    /// one event each.
    void Metrics(const char* field, std::variant<uint64_t, double> value);
    void Emit(const std::string& record); //!< one JSON-SEQ record (a pending metrics event first)

    QuicCcQlogFile m_file;     //!< the file
    QuicCcQlogSchema m_schema; //!< its schema
    /// Main schema: the pending metrics event's fields (name, value), none if empty.
    std::vector<std::pair<std::string, std::variant<uint64_t, double>>> m_metrics;
    Time m_metricsTime; //!< its instant
    /// EcnCounts not yet written (with the next metrics event)
    std::optional<QuicCcEcnCounts> m_ecnCounts;
};

class QuicCcSocketBase;

/**
 * \ingroup quic-cc-helper
 * QuicCcSocketFactory's SocketCreated sink for EnableQlog: when \p socket (a QuicCcSocket)
 * starts its connection, a QuicCcQlogWriter in the socket's QlogSchema is opened at
 * \<directory\>/quic-cc-node\<node\>-\<client|server\>-\<connection id, hex\>.sqlog and connected
 * to its traces; it is closed when the connection closes and when the simulation is destroyed.
 */
void QuicCcAttachQlog(std::string directory, Ptr<QuicCcSocketBase> socket);

} // namespace ns3

#endif // QUIC_CC_QLOG_H
