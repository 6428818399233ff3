/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_SOCKET_H
#define QUIC_CC_NGTCP2_SOCKET_H

#include "quic-cc-ngtcp2-congestion-events.h"
#include "quic-cc-ngtcp2-connection.h"
#include "quic-cc-ngtcp2-qlog-map.h"

#include "ns3/event-id.h"
#include "ns3/quic-cc-qlog.h"
#include "ns3/quic-cc-socket-base.h"
#include "ns3/quic-congestion-controller.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class Node;

/**
 * \ingroup quic-cc-ngtcp2
 * A stream socket whose transport is the real ngtcp2 library (QuicCcNgtcp2Connection) over an
 * ns-3 UdpSocket, so stock BulkSend / PacketSink / OnOff run over ngtcp2's own Reno, CUBIC or
 * BBR by choosing "ns3::QuicCcNgtcp2SocketFactory".
 *
 * The ns3::Socket half (roles, error codes, the listener's connection table, when the
 * application is told, the shared trace sources) is the shell, QuicCcSocketBase; this class is
 * the ngtcp2 engine under it. An unknown address's first datagram opens a connection when
 * ngtcp2_accept takes it as a first Initial. Close() sends the FIN after the bytes given; once
 * all are acknowledged the connection sends CONNECTION_CLOSE, keeps its closing period (three
 * PTO) and ends.
 *
 * ngtcp2 hides its congestion events, so CongestionState and RecoveryStartTime are inferred
 * (QuicCcNgtcp2CongestionEvents) and RecoveryStartTime is the simulated time of the call in
 * which the event was seen.
 */
class QuicCcNgtcp2Socket : public QuicCcSocketBase
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    QuicCcNgtcp2Socket();
    ~QuicCcNgtcp2Socket() override;

    /// Signature of the LibraryLog trace: one line of ngtcp2's debug log.
    typedef void (*LibraryLogCallback)(const std::string& line);

    /// Fix the random stream (connection IDs, ngtcp2's rand); returns 1.
    int64_t AssignStreams(int64_t stream) override;

    /// ngtcp2's version as the linked library reports it (ngtcp2_version), e.g. "1.24.0", and
    /// "+<change>" for a build of a release with a change of ours applied
    /// ("1.24.0+cubic-bytes-delivered": cmake/quic-cc-ngtcp2-patch.cmake, NGTCP2_VARIANTS).
    static std::string GetLibraryVersion();
    /// The controller's name: "reno", "cubic" or "bbr".
    std::string GetControllerName() const;
    uint64_t GetCongestionWindow() const;     //!< bytes (0 before the connection exists)
    uint64_t GetPacketsLost() const override; //!< packets ngtcp2 declared lost so far
    uint64_t GetCongestionEvents() const;     //!< inferred congestion events so far
    /// Of those, inferred from a cut without a loss (Ecn on; QuicCcNgtcp2CongestionEvents).
    uint64_t GetEcnCongestionEvents() const override;
    /// The application's bytes held as real bytes for ngtcp2 (in flight, or next to send), bytes;
    /// the rest of the send buffer stays in the application's packets. 0 without a connection.
    uint64_t GetStreamBytesHeld() const;
    bool IsEstablished() const override; //!< handshake complete

    /// The member that stores the connection's settings (for their attribute accessors).
    static QuicCcNgtcp2Config QuicCcNgtcp2Socket::*ConfigMember()
    {
        return &QuicCcNgtcp2Socket::m_config;
    }

  protected:
    void DoDispose() override; //!< closes the connection and its qlog file, cancels the timer

  private:
    // QuicCcSocketBase: the engine
    void CheckConfig(bool ipv4) const override;
    void StartClient() override;
    QuicCcAdmission Admit(const std::vector<uint8_t>& datagram, Ptr<Packet> packet) const override;
    Ptr<QuicCcSocketBase> CreateAccepted(const QuicCcAdmission& admission) override;
    void StartAccepted(const QuicCcAdmission& admission,
                       const std::vector<uint8_t>& datagram) override;
    void Receive(const std::vector<uint8_t>& datagram,
                 Ptr<Packet> packet,
                 QuicCcEcnCodepoint ecn) override;
    void OnDropped(const std::string& reason) override;
    bool IsOpen() const override;
    uint32_t EngineTxAvailable() const override;
    bool EngineCanSend(uint32_t bytes) const override;
    void EngineSend(Ptr<Packet> p) override;
    uint64_t EngineRxAvailable() const override;
    Ptr<Packet> EngineRecv(uint32_t maxSize) override;
    void EngineClose() override;
    void EngineShutdownSend() override;

    QuicCcNgtcp2Config MakeConfig(bool server);
    QuicCcNgtcp2Connection::Path MakePath(const Address& peer) const;
    void SendDatagram(const uint8_t* data, size_t length, QuicCcEcnCodepoint ecn);
    void FillRandom(uint8_t* data, size_t length); //!< from this socket's random stream
    void OnTimer();
    void ScheduleWrite();
    void DoWrite();
    /// The connection's stream source: the next \p length bytes of m_sendQueue, consumed.
    void TakeSendBytes(uint8_t* data, size_t length);
    /// After every call into the connection: traces, application notifications, close steps,
    /// timer.
    void AfterCall(QuicCcNgtcp2Connection::Status status);
    /// The application reads nothing more (ShutdownRecv): consume what arrived.
    void DiscardReceived();
    void UpdateTraces();
    void StartClosing();
    void Finish();
    void OpenQlog(const std::string& role);

    // Attributes: the connection's settings (the only storage), and the socket's own
    QuicCcNgtcp2Config m_config;
    uint32_t m_sndBufSize{1 << 24};
    std::string m_qlogDirectory;
    bool m_packetTraces{false};

    std::unique_ptr<QuicCcNgtcp2Connection> m_conn;
    Ptr<UniformRandomVariable> m_rng;
    QuicCcNgtcp2CongestionEvents m_events;
    EventId m_timer;
    EventId m_writeEvent;
    EventId m_finishEvent;
    Time m_timerFiredAt{Time(-1)}; //!< when OnTimer last ran
    bool m_connectedNotified{false};
    std::vector<uint8_t> m_unread; //!< received, not yet read when the connection ended
    size_t m_unreadOffset{0};      //!< of m_unread, bytes the application has read
    bool m_closing{false}; //!< CONNECTION_CLOSE sent or received: only the closing period left
    uint64_t m_unackedSeen{0};
    /// The application's packets not yet read by the connection (ns-3 packets may be virtual,
    /// zero-filled: their bytes exist only once copied out).
    std::deque<Ptr<Packet>> m_sendQueue;
    uint32_t m_sendQueueOffset{0}; //!< bytes of m_sendQueue.front() already read
    /// QlogDirectory, QlogSchema V0_3: ngtcp2's own qlog of this connection, as it writes it
    std::unique_ptr<QuicCcQlogFile> m_qlog;
    /// QlogDirectory, QlogSchema MainSchema13: ngtcp2's qlog mapped to the main schema
    /// (m_qlogMap) with the shell's congestion state and pacing rate beside it
    Ptr<QuicCcQlogWriter> m_qlogWriter;
    QuicCcNgtcp2QlogMap m_qlogMap; //!< ngtcp2's records to main-schema events

    /// A 1-RTT packet ngtcp2 sent (PacketTraces): its size and time, until acknowledged or lost.
    struct SentPacket
    {
        uint64_t bytes;
        Time sent;
    };

    /// PacketTraces: one record of ngtcp2's qlog (QuicCcNgtcp2QlogPacket).
    void OnQlogRecord(const uint8_t* data, size_t length);
    std::map<uint64_t, SentPacket> m_sentPackets; //!< by packet number (not yet declared lost)
    std::vector<uint64_t> m_sentPending;          //!< sent in this call: traced after BytesInFlight
    std::vector<uint64_t> m_lostPending;          //!< lost in this call
    std::vector<uint32_t> m_ptoPending;           //!< PTO counts reached in this call
    std::vector<QuicCcEcnCounts> m_ecnPending;    //!< the peer's ECN counts, in this call
    QuicCcEcnCounts m_ecnCounts;                  //!< as last traced on EcnCounts
    uint64_t m_ptoCount{0};                       //!< the last pto_count ngtcp2 logged

    // Traces of this engine only (the shared ones are QuicCcSocketBase's)
    TracedValue<uint64_t> m_packetsLostTrace{0};
    TracedCallback<const std::string&> m_libraryLog; //!< LibraryLog
    uint64_t m_datagramsReceived{0};
    QuicCcNgtcp2Connection::Info m_lastInfo; //!< at the last call (RTT changes)
    uint64_t m_tracedCwnd{0};                //!< CongestionWindow as last traced
    uint64_t m_tracedSsthresh{UINT64_MAX};   //!< SlowStartThreshold as last traced
    uint64_t m_tracedBytesInFlight{0};       //!< BytesInFlight as last traced
};

/**
 * \ingroup quic-cc-ngtcp2
 * The pacing rate ngtcp2's Reno and CUBIC use, bits per second: lib/ngtcp2_cc.c
 * set_pacing_rate's interval per byte, ((smoothed_rtt << 10) x 100 / 125) / cwnd nanoseconds
 * / 1024 (at least 1), with 1 ms in place of smoothed_rtt before the first RTT sample
 * (init_pacing_rate likewise), turned into a rate: 8 x 1024 x 10^9 / interval.
 * \param cwnd  ngtcp2_conn_info.cwnd, bytes (> 0)
 * \param smoothedRttNs  ngtcp2_conn_info.smoothed_rtt
 * \param rttSampled  an RTT sample was taken (ngtcp2_conn_info.latest_rtt != 0)
 */
uint64_t QuicCcNgtcp2PacingRate(uint64_t cwnd, uint64_t smoothedRttNs, bool rttSampled);

} // namespace ns3

#endif // QUIC_CC_NGTCP2_SOCKET_H
