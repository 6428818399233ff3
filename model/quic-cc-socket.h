/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SOCKET_H
#define QUIC_CC_SOCKET_H

#include "quic-cc-frames.h"
#include "quic-cc-range-set.h"
#include "quic-cc-recv-stream.h"
#include "quic-congestion-controller.h"
#include "quic-loss-detection.h"

#include "ns3/event-id.h"
#include "ns3/inet-socket-address.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <set>

namespace ns3
{

class Node;
class Packet;
class QuicCcQlogWriter;

/**
 * \ingroup quic-cc
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
 */
class QuicCcSocket : public Socket
{
  public:
    /// Receiver ACK policy.
    enum AckPolicy
    {
        ACK_RFC9000 = 0,       //!< RFC 9000 Section 13.2: every 2nd ack-eliciting packet, max_ack_delay, immediate on a gap
        ACK_RECEIVE_BATCH = 1, //!< one ACK per receive batch (AckBatchWindow after the batch's first packet), as a quiche event loop
    };

    /// Rtt trace: latest_rtt, smoothed_rtt, min_rtt.
    typedef void (*RttTracedCallback)(Time latest, Time smoothed, Time min);
    /// PacketSent trace: packet number, UDP payload bytes.
    typedef void (*PacketTracedCallback)(uint64_t packetNumber, uint64_t bytes);
    /// PacketAcked / PacketLost traces: packet number, bytes, time sent.
    typedef void (*PacketTimeTracedCallback)(uint64_t packetNumber, uint64_t bytes, Time timeSent);
    /// DroppedDatagram trace: total dropped so far, reason.
    typedef void (*DroppedTracedCallback)(uint64_t total, const std::string& reason);

    static TypeId GetTypeId();
    QuicCcSocket();
    ~QuicCcSocket() override;

    /// Node this socket lives on (set by the factory).
    void SetNode(Ptr<Node> node);
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
    int64_t AssignStreams(int64_t stream);

    /// Called with every server socket a listener creates (the factory uses it for SocketList).
    void SetChildCreatedCallback(Callback<void, Ptr<QuicCcSocket>> cb);

    // ns3::Socket
    SocketErrno GetErrno() const override;
    SocketType GetSocketType() const override;
    Ptr<Node> GetNode() const override;
    int Bind(const Address& address) override;
    int Bind() override;
    int Bind6() override;
    int Close() override;
    int ShutdownSend() override;
    int ShutdownRecv() override;
    int Connect(const Address& address) override;
    int Listen() override;
    uint32_t GetTxAvailable() const override;
    int Send(Ptr<Packet> p, uint32_t flags) override;
    int SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress) override;
    uint32_t GetRxAvailable() const override;
    Ptr<Packet> Recv(uint32_t maxSize, uint32_t flags) override;
    Ptr<Packet> RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress) override;
    int GetSockName(Address& address) const override;
    int GetPeerName(Address& address) const override;
    bool SetAllowBroadcast(bool allowBroadcast) override;
    bool GetAllowBroadcast() const override;

    uint64_t GetBytesSent() const;      //!< stream bytes the application handed over
    uint64_t GetBytesAcked() const;     //!< stream bytes acknowledged in order
    uint64_t GetBytesReceived() const;  //!< stream bytes delivered in order to the receive buffer
    uint64_t GetDroppedDatagrams() const; //!< datagrams dropped as malformed or inconsistent
    uint64_t GetSentPacketRecordPeak() const; //!< peak number of packets in the sent-packet record
    bool IsEstablished() const;         //!< handshake complete

  protected:
    void DoDispose() override;

  private:
    enum Role
    {
        ROLE_NONE,
        ROLE_CLIENT,
        ROLE_LISTENER,
        ROLE_SERVER,
    };
    enum State
    {
        STATE_IDLE,        //!< not connected
        STATE_HANDSHAKE,   //!< client: INITIAL sent, nothing heard yet
        STATE_ESTABLISHED, //!< data may flow
        STATE_CLOSED,      //!< connection over; every timer cancelled
    };
    /// Stream bytes one packet carried.
    struct StreamChunk
    {
        uint64_t offset; //!< stream offset
        uint64_t length; //!< bytes
        bool fin;        //!< carries the FIN
    };
    /// What one sent packet carried, for retransmission.
    struct SentContent
    {
        std::vector<StreamChunk> chunks;
        bool initial{false};       //!< client INITIAL
        bool handshakeDone{false}; //!< server HANDSHAKE_DONE
    };

    // set-up
    void Validate() const;
    void StartConnection(Role role);
    int BindUdp(const Address& local);
    Ptr<QuicCcSocket> CreateServerChild(const Address& from, uint64_t connectionId);
    void StartQlog();
    void SetMaxDatagramSize(uint64_t bytes);
    void SetCongestionControlTypeId(TypeId tid);
    TypeId GetCongestionControlTypeId() const;
    uint64_t GetMaxDatagramSize() const;
    void SetMaxAckDelay(Time d);
    Time GetMaxAckDelay() const;
    void SetAckElicitingThreshold(uint32_t n);
    uint32_t GetAckElicitingThreshold() const;

    // receive path
    void HandleUdpRead(Ptr<Socket> udp);
    void OnDatagram(std::vector<uint8_t> bytes, const Address& from);
    void ProcessDatagram(std::vector<uint8_t> bytes, const Address& from);
    void ProcessPacket(const QuicCcPacket& packet, size_t size);
    bool CheckPacket(const QuicCcPacket& packet, std::string& reason) const;
    void OnAckFrame(const QuicCcAckFrame& ack);
    void OnStreamFrame(const QuicCcStreamFrame& frame);
    void Drop(const std::string& reason);
    void OnAckElicitingReceived(bool outOfOrder);

    // send path
    void SendPending();
    bool SendOnePacket(bool probe);
    bool HasDataToSend() const;
    void BuildStreamFrames(QuicCcPacket& packet, SentContent& content, uint64_t sizeLimit);
    bool AppendAck(QuicCcPacket& packet, uint64_t sizeLimit);
    void Transmit(QuicCcPacket& packet, const SentContent& content, bool probe);
    void SendAckNow();
    void SendConnectionClose(uint64_t errorCode, const std::string& reason);
    void ScheduleSendPending();

    // recovery glue
    void OnPacketsLost(const std::vector<uint64_t>& lost);
    void OnPacketsAcked(const std::vector<uint64_t>& acked);
    void RearmLossTimer();
    void OnLossTimer();
    void OnAckTimer();
    void RestartIdleTimer();
    void OnIdleTimeout();
    void MaybeFinishClose();
    void EnterClosed();
    void UpdateTxSpace();

    // trace forwarding
    void WireTraces();
    void TraceCwnd(uint64_t oldValue, uint64_t newValue);
    void TraceSsthresh(uint64_t oldValue, uint64_t newValue);
    void TraceState(QuicCongestionState oldValue, QuicCongestionState newValue);
    void TraceRecoveryStart(Time r);
    void TraceBytesInFlight(uint64_t oldValue, uint64_t newValue);
    void TracePacketLost(uint64_t pn, uint64_t bytes, Time sent);
    void TracePacketAcked(uint64_t pn, uint64_t bytes, Time sent);

    // attributes
    uint64_t m_mss{1350};                  //!< MaxDatagramSize, bytes
    uint64_t m_initialWindowPackets{10};   //!< packets
    uint64_t m_minimumWindowPackets{2};    //!< packets
    Time m_initialRtt;                     //!< kInitialRtt
    Time m_maxAckDelay;                    //!< our max_ack_delay (what we promise the peer)
    uint32_t m_ackElicitingThreshold{2};   //!< packets
    Time m_idleTimeout;                    //!< idle timeout
    AckPolicy m_ackPolicy{ACK_RECEIVE_BATCH};
    Time m_ackBatchWindow;                 //!< receive-batch window
    uint32_t m_maxAckRanges{32};           //!< ranges per ACK frame
    uint32_t m_sndBufSize{0};              //!< bytes
    uint32_t m_rcvBufSize{0};              //!< bytes
    Ptr<RandomVariableStream> m_sendDelay;        //!< host delay before each packet is sent
    Ptr<RandomVariableStream> m_ackProcessDelay;  //!< host delay before each ACK is processed
    TypeId m_ccTypeId;                     //!< CongestionControl attribute

    // identity
    Ptr<Node> m_node;
    Role m_role{ROLE_NONE};
    State m_state{STATE_IDLE};
    mutable SocketErrno m_errno{ERROR_NOTERROR};
    Ptr<Socket> m_udp;                     //!< own UDP socket (client, listener)
    Ptr<QuicCcSocket> m_listener;          //!< server child: the listener whose UDP socket it uses
    Address m_peer;                        //!< peer address
    uint64_t m_connectionId{0};
    std::map<Address, Ptr<QuicCcSocket>> m_children; //!< listener: one connection per peer address
    std::set<uint64_t> m_closedConnectionIds;        //!< listener: connections that ended (late INITIALs dropped)
    bool m_shutdownSend{false};
    bool m_shutdownRecv{false};
    bool m_closeRequested{false};
    bool m_closeNotified{false};

    // recovery
    Ptr<QuicCongestionController> m_ccPrototype;
    Ptr<QuicCongestionController> m_cc;
    std::unique_ptr<QuicLossDetection> m_lossDetection;
    uint64_t m_nextPacketNumber{0};
    std::map<uint64_t, SentContent> m_sentContent; //!< per ack-eliciting packet number, oldest first
    EventId m_lossTimer;
    EventId m_idleTimer;
    EventId m_sendEvent;
    bool m_pendingInitial{false};
    bool m_pendingHandshakeDone{false};

    // send stream
    std::deque<uint8_t> m_sendBuf;         //!< bytes from m_sendBufBase on
    uint64_t m_sendBufBase{0};             //!< stream offset of m_sendBuf.front()
    uint64_t m_sendNext{0};                //!< next never-sent offset
    uint64_t m_sendEnd{0};                 //!< offset after the last byte the app gave
    bool m_finQueued{false};               //!< the app closed: FIN at m_sendEnd
    bool m_finSent{false};
    bool m_finAcked{false};
    QuicCcRangeSet m_streamAcked;          //!< acknowledged stream offsets
    QuicCcRangeSet m_retransmit;           //!< lost stream offsets awaiting retransmission
    bool m_finRetransmit{false};           //!< the FIN must be re-sent

    // receive stream
    QuicCcRangeSet m_received;             //!< received packet numbers
    QuicCcRecvStream m_recvStream;         //!< reassembly and unread in-order bytes
    uint64_t m_bytesReceived{0};
    Time m_largestReceivedTime;            //!< arrival of the largest packet number
    uint64_t m_largestReceived{0};
    bool m_anyReceived{false};
    uint32_t m_ackElicitingSinceAck{0};
    bool m_ackPending{false};              //!< an ACK is owed
    EventId m_ackTimer;
    Time m_lastDatagramProcess;            //!< FIFO order of delayed ACK processing

    uint64_t m_dropped{0};
    uint64_t m_sentRecordPeak{0};          //!< packets, see GetSentPacketRecordPeak()

    // traces
    TracedCallback<uint64_t, uint64_t> m_cwndTrace;
    TracedCallback<uint64_t, uint64_t> m_ssthreshTrace;
    TracedCallback<QuicCongestionState, QuicCongestionState> m_stateTrace;
    TracedCallback<Time> m_recoveryStartTrace;
    TracedCallback<uint64_t, uint64_t> m_bytesInFlightTrace;
    TracedCallback<Time, Time, Time> m_rttTrace; //!< latest, smoothed, min
    TracedCallback<uint64_t, uint64_t> m_packetSentTrace;   //!< packet number, bytes
    TracedCallback<uint64_t, uint64_t> m_packetReceivedTrace; //!< packet number, bytes
    TracedCallback<uint64_t, uint64_t, Time> m_packetAckedTrace;
    TracedCallback<uint64_t, uint64_t, Time> m_packetLostTrace;
    TracedCallback<uint64_t, const std::string&> m_droppedTrace; //!< total dropped, reason
    std::string m_qlogDirectory;           //!< QlogDirectory attribute ("" = off)
    Ptr<QuicCcQlogWriter> m_qlog;          //!< this connection's qlog, if enabled
    Callback<void, Ptr<QuicCcSocket>> m_childCreated;
    Ptr<UniformRandomVariable> m_cidRng;  //!< connection IDs
    Time m_lastActivity;                   //!< last valid packet received (idle timer)
    Time m_lossTimerAt;                    //!< when m_lossTimer fires
};

} // namespace ns3

#endif // QUIC_CC_SOCKET_H
