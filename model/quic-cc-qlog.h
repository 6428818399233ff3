/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_QLOG_H
#define QUIC_CC_QLOG_H

#include "quic-cc-atomic-file.h"
#include "quic-congestion-controller.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup quic-cc-helper
 * \brief A qlog file written through a buffer and put in place atomically: QuicCcQlogWriter's
 * file, and the file of ngtcp2's own qlog (QuicCcNgtcp2Socket's QlogDirectory).
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
 * \brief Writes one connection's events as a qlog file in JSON-SEQ form (.sqlog): the IETF qlog
 * main schema (draft-ietf-quic-qlog-main-schema) with the QUIC event definitions
 * (draft-ietf-quic-qlog-quic-events), qlog_version "0.3", loadable in qvis.
 *
 * Events: transport:packet_sent, transport:packet_received, recovery:metrics_updated (only the
 * fields that changed: cwnd, bytes_in_flight, ssthresh in bytes; latest/smoothed/min RTT in
 * milliseconds), recovery:congestion_state_updated ("slow_start", "conservative_slow_start",
 * "congestion_avoidance", "recovery") and recovery:packet_lost. Times are simulation time in
 * milliseconds (reference_time 0). Each record is RS (0x1E), one JSON object, LF (RFC 7464).
 *
 * The writer only listens to trace sources (its public sinks below take the signatures of
 * QuicCcSocket's sources; QuicCcHelper::EnableQlog connects them), so the qlog shows exactly
 * what the traces report. Every record is written whole and ends with LF. The file is a
 * QuicCcQlogFile: written atomically, renamed over the path by Close(), which QuicCcHelper calls
 * when the connection closes and when the simulation is destroyed, and which the destructor
 * calls; a program interrupted before (SIGINT, SIGTERM) leaves no partial qlog. Failing to
 * create, write or rename the file ends the run with one line naming the path
 * (QuicCcOutputFailed), the temporary file removed.
 */
class QuicCcQlogWriter : public SimpleRefCount<QuicCcQlogWriter>
{
  public:
    /**
     * Open \p path and write the qlog header.
     * \param path  the file (written to a temporary file next to it until Close())
     * \param vantagePoint "client" or "server"
     * \param title  free text for the trace title
     */
    QuicCcQlogWriter(const std::string& path,
                     const std::string& vantagePoint,
                     const std::string& title);
    ~QuicCcQlogWriter(); //!< closes the file if still open

    /// Flush and close the file (later events are ignored).
    void Close();
    /// True until Close().
    bool IsOpen() const;
    /// The file's path.
    const std::string& GetPath() const;

    /// \name Trace sinks, one per socket trace source it records (same signatures)
    /// @{
    /// PacketSent: a transport:packet_sent record (packet number, UDP payload bytes).
    void PacketSent(uint64_t packetNumber, uint64_t bytes);
    /// PacketReceived: a transport:packet_received record.
    void PacketReceived(uint64_t packetNumber, uint64_t bytes);
    /// PacketLost: a recovery:packet_lost record.
    void PacketLost(uint64_t packetNumber, uint64_t bytes, Time timeSent);
    /// CongestionWindow64: recovery:metrics_updated with congestion_window.
    void Cwnd(uint64_t oldValue, uint64_t newValue);
    /// SlowStartThreshold64: recovery:metrics_updated with ssthresh (the unset value not written).
    void Ssthresh(uint64_t oldValue, uint64_t newValue);
    /// BytesInFlight64: recovery:metrics_updated with bytes_in_flight.
    void BytesInFlight(uint64_t oldValue, uint64_t newValue);
    /// Rtt: recovery:metrics_updated with latest_rtt, smoothed_rtt and min_rtt (ms).
    void Rtt(Time latest, Time smoothed, Time min);
    /// CongestionState: recovery:congestion_state_updated (old, new).
    void State(QuicCongestionState oldValue, QuicCongestionState newValue);
    /// @}

  private:
    void Emit(const std::string& record); //!< one JSON-SEQ record

    QuicCcQlogFile m_file; //!< the file
};

class QuicCcSocketBase;

/**
 * \ingroup quic-cc-helper
 * QuicCcSocketFactory's SocketCreated sink for EnableQlog: when \p socket (a QuicCcSocket)
 * starts its connection, a QuicCcQlogWriter is opened at
 * \<directory\>/quic-cc-node\<node\>-\<client|server\>-\<connection id, hex\>.sqlog and connected
 * to its traces; it is closed when the connection closes and when the simulation is destroyed.
 */
void QuicCcAttachQlog(std::string directory, Ptr<QuicCcSocketBase> socket);

} // namespace ns3

#endif // QUIC_CC_QLOG_H
