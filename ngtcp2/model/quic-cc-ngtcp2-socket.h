/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_SOCKET_H
#define QUIC_CC_NGTCP2_SOCKET_H

#include "quic-cc-ngtcp2-congestion-events.h"
#include "quic-cc-ngtcp2-connection.h"

#include "ns3/event-id.h"
#include "ns3/quic-cc-socket-interface.h"
#include "ns3/quic-congestion-controller.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <fstream>
#include <map>
#include <memory>

namespace ns3
{

class Node;

/**
 * \ingroup quic-cc
 * A stream socket whose transport is the real ngtcp2 library (QuicCcNgtcp2Connection) over an
 * ns-3 UdpSocket, so stock BulkSend / PacketSink / OnOff run over ngtcp2's own Reno, CUBIC or
 * BBR by choosing "ns3::QuicCcNgtcp2SocketFactory".
 *
 * Roles: a client (Connect), a listener (Listen: one UDP socket; datagrams are handed to the
 * accepted connection of their source address, an unknown address's first Initial creates
 * one), and an accepted connection (created by its listener, reported to the application
 * through NotifyNewConnectionCreated when its handshake completes). Close() sends the FIN after
 * the bytes given; once all are acknowledged the connection sends CONNECTION_CLOSE, keeps its
 * closing period (three PTO) and ends.
 *
 * Traces follow QuicCcSocket's names and signatures; ngtcp2 hides its congestion events, so
 * CongestionState and RecoveryStartTime are inferred (QuicCcNgtcp2CongestionEvents) and
 * RecoveryStartTime is the simulated time of the call in which the event was seen.
 */
class QuicCcNgtcp2Socket : public Socket
{
  public:
    static TypeId GetTypeId();
    QuicCcNgtcp2Socket();
    ~QuicCcNgtcp2Socket() override;

    void SetNode(Ptr<Node> node);
    /// Fix the random stream (connection IDs, ngtcp2's rand); returns 1.
    int64_t AssignStreams(int64_t stream);
    /// Called with each accepted connection this listener creates (the factory's SocketList).
    void SetChildCreatedCallback(Callback<void, Ptr<QuicCcNgtcp2Socket>> callback);

    /// ngtcp2's version as the linked library reports it (ngtcp2_version), e.g. "1.24.0".
    static std::string GetLibraryVersion();
    /// The controller's name: "reno", "cubic" or "bbr".
    std::string GetControllerName() const;
    uint64_t GetCongestionWindow() const; //!< bytes (0 before the connection exists)
    uint64_t GetPacketsLost() const;      //!< packets ngtcp2 declared lost so far
    uint64_t GetCongestionEvents() const; //!< inferred congestion events so far
    bool IsHandshakeCompleted() const;

    QUICCC_SOCKET_OVERRIDES; // ns3::Socket

  protected:
    void DoDispose() override;

  private:
    using Role = QuicCcSocketRole;

    int BindUdp(const Address* address, bool ipv6);
    QuicCcNgtcp2Config MakeConfig(bool server);
    QuicCcNgtcp2Connection::Path MakePath(const Address& peer) const;
    void OnUdpRead(Ptr<Socket> udp);
    void Dispatch(const std::vector<uint8_t>& datagram, const Address& from);
    void Deliver(const std::vector<uint8_t>& datagram);
    void SendDatagram(const uint8_t* data, size_t length);
    void FillRandom(uint8_t* data, size_t length); //!< from this socket's random stream
    void OnTimer();
    void ScheduleWrite();
    void DoWrite();
    /// After every call into the connection: traces, application notifications, close steps,
    /// timer.
    void AfterCall(QuicCcNgtcp2Connection::Status status);
    void UpdateTraces();
    void StartClosing();
    void Finish();
    void OpenQlog(const std::string& role);

    // Attributes
    QuicCcNgtcp2Config::Controller m_controller{QuicCcNgtcp2Config::CUBIC};
    Time m_initialRtt;
    uint32_t m_maxUdpPayload{1452};
    bool m_pmtud{false};
    bool m_payloadShaping{true};
    uint32_t m_ackThreshold{2};
    Time m_maxAckDelay;
    Time m_idleTimeout;
    uint64_t m_flowControlWindow{1 << 24};
    uint32_t m_sndBufSize{1 << 24};
    uint32_t m_clientHelloBytes{300};
    uint32_t m_serverHelloBytes{100};
    uint32_t m_serverFlightBytes{2500};
    uint32_t m_clientFinishedBytes{60};
    std::string m_qlogDirectory;
    bool m_packetTraces{false};

    Ptr<Node> m_node;
    Role m_role{Role::NONE};
    Ptr<Socket> m_udp;                  //!< ours (client, listener) or the listener's
    Ptr<QuicCcNgtcp2Socket> m_listener; //!< accepted connection: its listener
    std::map<Address, Ptr<QuicCcNgtcp2Socket>> m_children; //!< listener: by peer address
    Callback<void, Ptr<QuicCcNgtcp2Socket>> m_childCreated;
    Address m_peer;
    std::unique_ptr<QuicCcNgtcp2Connection> m_conn;
    Ptr<UniformRandomVariable> m_rng;
    QuicCcNgtcp2CongestionEvents m_events;
    EventId m_timer;
    EventId m_writeEvent;
    EventId m_finishEvent;
    Time m_timerFiredAt{Time(-1)}; //!< when OnTimer last ran
    mutable SocketErrno m_errno{ERROR_NOTERROR};
    bool m_listening{false};
    bool m_connectedNotified{false};
    bool m_closeRequested{false};
    bool m_closing{false}; //!< CONNECTION_CLOSE sent or received: only the closing period left
    bool m_shutdownSend{false};
    uint64_t m_unackedSeen{0};
    std::ofstream m_qlog;
    std::string m_qlogPath;

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

    // Traces
    TracedValue<uint32_t> m_cwnd32Trace{0};
    TracedValue<uint32_t> m_ssthresh32Trace{UINT32_MAX};
    TracedValue<uint64_t> m_cwndTrace{0};
    TracedValue<uint64_t> m_ssthreshTrace{UINT64_MAX};
    TracedValue<uint64_t> m_bytesInFlightTrace{0};
    TracedValue<uint64_t> m_packetsLostTrace{0};
    TracedCallback<Time, Time, Time> m_rttTrace;
    TracedCallback<QuicCongestionState, QuicCongestionState> m_stateTrace;
    TracedCallback<Time> m_recoveryStartTrace;
    TracedCallback<uint64_t, uint64_t> m_datagramReceivedTrace;
    TracedCallback<uint64_t, uint64_t> m_packetSentTrace;       //!< PacketTraces
    TracedCallback<uint64_t, uint64_t, Time> m_packetLostTrace; //!< PacketTraces
    uint64_t m_datagramsReceived{0};
    QuicCcNgtcp2Connection::Info m_lastInfo;
};

} // namespace ns3

#endif // QUIC_CC_NGTCP2_SOCKET_H
