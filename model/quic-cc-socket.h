/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SOCKET_H
#define QUIC_CC_SOCKET_H

#include "quic-cc-connection.h"
#include "quic-cc-socket-base.h"
#include "quic-congestion-controller.h"
#include "quic-loss-detection.h"

#include "ns3/inet-socket-address.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <string>

namespace ns3
{

class Node;
class Packet;

/**
 * \ingroup quic-cc-transport
 * \brief A QUIC-style connection as an ns3::Socket: one reliable, ordered byte stream carried
 * over an ns-3 UdpSocket, with RFC 9002 loss detection and a pluggable congestion controller.
 *
 * Roles: a socket that calls Connect() is a client; one that calls Listen() is a listener that
 * creates one server socket per client address (handed out through the accept callback). Either
 * side may send. Handshake: the client's INITIAL (padded to 1200 bytes) is answered by the
 * server's HANDSHAKE packet (ACK + HANDSHAKE_DONE); the server may send data at once, the client
 * once any packet of the server arrives (one round trip). Close() sends what is buffered, waits
 * until every byte and the FIN are acknowledged, then sends CONNECTION_CLOSE.
 *
 * Endings the application sees: NotifyConnectionFailed if the handshake does not complete within
 * IdleTimeout; NotifyErrorClose when an established connection stays silent for IdleTimeout
 * while its stream is incomplete; NotifyNormalClose on CONNECTION_CLOSE from the peer, on our own
 * completed Close(), or on an idle timeout after both directions finished.
 *
 * Received datagrams are never trusted: a malformed, truncated or inconsistent datagram is
 * dropped and reported on the DroppedDatagram trace source with a reason.
 *
 * Layering: the ns3::Socket half (roles, the application's calls and their error codes, the
 * listener's connection table, the shared trace sources) is the shell, QuicCcSocketBase; this
 * class is quic-cc's engine under it: attributes, the connection's state machine (handshake
 * completion, graceful close, idle-timeout outcome) and a started connection's QuicCcConnection
 * (receive path, send loop, timers), which owns the byte streams, the
 * QuicCcReceivedPacketManager, the QuicCcPacketBuilder and the QuicLossDetection driving the
 * congestion controller (the one sent-packet record); it reports back through
 * QuicCcConnection::Owner, and every datagram it sends leaves through SendDatagram().
 * Observers (qlog, statistics) attach to trace sources.
 */
class QuicCcSocket : public QuicCcSocketBase,
                     private QuicCcConnection::Owner,
                     private QuicLossDetection::Listener
{
  public:
    /// DroppedDatagram trace: total dropped so far, reason.
    typedef void (*DroppedTracedCallback)(uint64_t total, const std::string& reason);
    /// PacketLostTrigger trace: packet number, the threshold that declared it lost.
    typedef void (*LossTriggerTracedCallback)(uint64_t packetNumber, QuicLossTrigger trigger);
    /// ConnectionStarted / ConnectionClosed traces: the socket.
    typedef void (*ConnectionTracedCallback)(Ptr<QuicCcSocket> socket);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    QuicCcSocket();
    ~QuicCcSocket() override;

    /// \return "" if the attributes fit together (Connect and Listen check it: fatal error
    /// otherwise), else the reason, naming the attributes and their values, e.g.
    /// "QuicCcSocket::RcvBufSize (1000) must hold at least one datagram (MaxDatagramSize 1350)"
    std::string GetConfigError() const;
    /// The congestion controller prototype; the socket uses a Fork() of it.
    void SetCongestionController(Ptr<QuicCongestionController> cc);
    /// The controller in use (null before the connection starts).
    Ptr<QuicCongestionController> GetCongestionController() const;
    /// Loss detection of the connection (null before the connection starts).
    const QuicLossDetection* GetLossDetection() const;

    /**
     * Fix the random streams this socket uses (connection IDs, host-delay models), so that a
     * run does not depend on what ran before it in the same process.
     * \return the number of streams used (3)
     */
    int64_t AssignStreams(int64_t stream) override;

    /**
     * Whether the first datagram from a new address opens a connection: a well-formed INITIAL
     * (its connection ID in the admission); otherwise the reason it is dropped.
     * \param datagram  the datagram's bytes
     * \param packet  null, or the ns-3 packet that holds \p datagram (as for QuicCcParse)
     */
    static QuicCcAdmission AdmitInitial(const std::vector<uint8_t>& datagram,
                                        Ptr<const Packet> packet = nullptr);

    uint64_t GetBytesAcked() const;       //!< stream bytes acknowledged in order
    uint64_t GetBytesReceived() const;    //!< stream bytes delivered in order to the receive buffer
    uint64_t GetDroppedDatagrams() const; //!< datagrams dropped as malformed or inconsistent
    uint64_t GetSentPacketRecordPeak() const; //!< peak number of packets in the sent-packet record
    bool IsEstablished() const override;      //!< handshake complete
    uint64_t GetPacketsLost() const override; //!< loss detection's lost packets
    uint64_t GetEcnCongestionEvents() const override; //!< window reductions ECN-CE started
    bool IsClient() const;                            //!< this end called Connect()
    uint64_t GetConnectionId() const;                 //!< the connection's ID (0 before it starts)

  protected:
    void DoDispose() override; //!< disposes the connection (timers cancelled, owner forgotten)

  private:
    using Role = QuicCcSocketRole;

    /**
     * The accessor of the attribute stored at m_config.*path (a chain of member pointers, e.g.
     * &Config::acks, &QuicCcReceivedPacketManager::Config::maxAckDelay), for value type \p V.
     */
    template <typename V, typename... Path>
    static Ptr<const AttributeAccessor> MakeConfigAccessor(Path... path);

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
    bool IsOpen() const override; //!< a started connection that is not closed
    uint32_t EngineTxAvailable() const override;
    bool EngineCanSend(uint32_t bytes) const override;
    void EngineSend(Ptr<Packet> p) override;
    uint64_t EngineRxAvailable() const override;
    Ptr<Packet> EngineRecv(uint32_t maxSize) override;
    void EngineClose() override;
    void EngineShutdownSend() override;

    // set-up
    void StartConnection();
    void SetCongestionControlTypeId(TypeId tid);
    TypeId GetCongestionControlTypeId() const;
    void WireTraces();
    // QuicLossDetection::Listener: its reports reach the trace sources
    void OnBytesInFlightTrace(uint64_t oldValue, uint64_t newValue) override;
    void OnPacketAckedTrace(uint64_t packetNumber, uint64_t bytes, Time sent) override;
    void OnPacketLostTriggerTrace(uint64_t packetNumber, QuicLossTrigger trigger) override;
    void OnPacketLostTrace(uint64_t packetNumber, uint64_t bytes, Time sent) override;
    void OnEcnStateTrace(QuicCcEcnState oldState, QuicCcEcnState newState) override;
    void OnEcnCountsTrace(uint64_t ect0, uint64_t ect1, uint64_t ce) override;
    /// The controller's cwnd changed: CongestionWindow, and PacingRate (the pacer's rate).
    void OnCongestionWindow(uint64_t oldValue, uint64_t newValue);
    /// Pacing=Rfc9002: PacingRate from the pacer's rate now (TracePacingRate).
    void UpdatePacingRate();

    // the state machine
    void MaybeFinishClose();
    void EnterClosed();

    // QuicCcConnection::Owner
    /// The transmit point: every datagram of this connection goes to the UDP socket here.
    void SendDatagram(Ptr<Packet> datagram, QuicCcEcnCodepoint ecn) override;
    void OnDatagramDropped(const std::string& reason) override;
    void OnPacketSent(uint64_t packetNumber, uint64_t bytes) override;
    void OnPacketReceived(uint64_t packetNumber, uint64_t bytes) override;
    void OnRttSample(const QuicRttStats& rtt) override;
    void OnPtoExpired(uint32_t ptoCount) override;
    void OnHandshakeComplete() override;
    bool IsReceiving() const override;
    void OnDataReceived() override;
    void OnDataSent(uint64_t bytes) override;
    void OnSendBufferFreed(uint32_t available) override;
    void OnPeerClose(uint64_t errorCode, const std::string& reason) override;
    void OnPacketProcessed() override;
    void OnIdleTimeout(Time idle) override;
    void OnTransportError(uint64_t errorCode, const std::string& reason) override;

    QuicCcConnection::Config m_config; //!< every attribute's value (the only storage)

    uint64_t m_connectionId{0}; //!< the connection's ID (0 before it starts)
    bool m_closeNotified{false};
    uint64_t m_dropped{0};

    Ptr<QuicCongestionController> m_ccPrototype;
    Ptr<QuicCcConnection> m_connection; //!< client, server: the transport (null before start)

    // traces of this engine only (the shared ones are QuicCcSocketBase's)
    TracedCallback<uint64_t, uint64_t, Time> m_packetAckedTrace;
    TracedCallback<uint64_t, QuicLossTrigger> m_packetLostTriggerTrace; //!< PacketLostTrigger
    TracedCallback<uint64_t, const std::string&> m_droppedTrace;        //!< total dropped, reason
    TracedCallback<Ptr<QuicCcSocket>> m_startedTrace;                   //!< ConnectionStarted
    TracedCallback<Ptr<QuicCcSocket>> m_closedTrace;                    //!< ConnectionClosed
    Ptr<UniformRandomVariable> m_cidRng;                                //!< connection IDs
};

} // namespace ns3

#endif // QUIC_CC_SOCKET_H
