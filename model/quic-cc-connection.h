/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_CONNECTION_H
#define QUIC_CC_CONNECTION_H

#include "quic-cc-flow-control.h"
#include "quic-cc-pacer.h"
#include "quic-cc-packet-builder.h"
#include "quic-cc-received-packet-manager.h"
#include "quic-cc-recv-stream.h"
#include "quic-cc-send-stream.h"
#include "quic-congestion-controller.h"
#include "quic-loss-detection.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simple-ref-count.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup quic-cc-transport
 * \brief The transport engine of one QUIC-style connection: what happens between the datagrams
 * a QuicCcSocket receives and the datagrams it sends.
 *
 * - Receive path: parse a datagram (never trusted: anything malformed or inconsistent is
 *   dropped with a reason), the host processing-delay model for datagrams carrying ACKs, the
 *   frames (ACK -> QuicLossDetection -> congestion controller; STREAM -> QuicCcRecvStream;
 *   CONNECTION_CLOSE), and the receiver's ACK policy and ECN counts
 *   (QuicCcReceivedPacketManager).
 * - Send loop: the congestion window's budget, the RFC 9002 Section 7.7 pacer, the packet
 *   builder, PTO probes, and the hand-over of each serialized datagram to the owner.
 * - Timers: loss detection (RFC 9002 Section 6.2 / A.8), the ACK deadline, the idle timeout
 *   (RFC 9000 Section 10.1), the host send-delay model.
 *
 * The connection does not know sockets: it reports to an Owner (QuicCcSocket), which decides
 * what the application is told and when the connection ends (the state machine's decisions),
 * owns the UDP socket and the trace sources. The connection's own state only says which packets
 * may be sent and accepted (handshake, established, closed).
 */
class QuicCcConnection : public SimpleRefCount<QuicCcConnection>
{
  public:
    /// Transport state of the connection.
    enum State
    {
        STATE_IDLE,        //!< configured, no packet exchanged yet
        STATE_HANDSHAKE,   //!< client: INITIAL sent, nothing heard from the server yet
        STATE_ESTABLISHED, //!< STREAM data may flow
        STATE_CLOSED,      //!< over: every timer removed, nothing is sent or processed
    };

    /// Sender pacing (QuicCcSocket::Pacing).
    enum Pacing
    {
        PACING_OFF = 0,     //!< bursts as the window allows (quiche's Reno/CUBIC path)
        PACING_RFC9002 = 1, //!< RFC 9002 Section 7.7 pacer (QuicCcPacer)
    };

    /// How data packets are sized (QuicCcSocket::PacketSizing).
    enum PacketSizing
    {
        SIZING_FREE_WINDOW = 0, //!< fill whatever the window allows, sub-mss packets too (quiche)
        SIZING_FULL_ONLY = 1,   //!< only full datagrams, or the stream's shorter remainder
    };

    /// What a PTO probe carries on an established connection (QuicCcSocket::ProbeContent).
    enum ProbeContent
    {
        PROBE_DATA = 0, //!< lost or new STREAM data, else the oldest outstanding data (quiche)
        PROBE_PING = 1, //!< a PING (and an owed ACK) only
    };

    /**
     * The settings of a connection and of its socket: the only storage of QuicCcSocket's
     * attributes (each attribute is bound to one field here; its TypeId documents meaning, unit
     * and valid range, and takes its default from this struct). A new setting is a field here, its
     * attribute, and the one place that reads it.
     */
    struct Config
    {
        /// MaxDatagramSize, bytes
        uint64_t mss{QuicCongestionController::kDefaultMaxDatagramSize};
        /// InitialWindowPackets
        uint64_t initialWindowPackets{QuicCongestionController::kDefaultInitialWindowPackets};
        /// MinimumWindowPackets
        uint64_t minimumWindowPackets{QuicCongestionController::kDefaultMinimumWindowPackets};
        Time initialRtt{QuicRttStats().GetInitialRtt()}; //!< InitialRtt (RFC 9002 kInitialRtt)
        Time idleTimeout{Seconds(30)};                   //!< IdleTimeout
        /// AckPolicy, AckElicitingThreshold, MaxAckDelay, AckBatchWindow, MaxAckRanges
        QuicCcReceivedPacketManager::Config acks;
        uint32_t sndBufSize{128u << 20};               //!< SndBufSize, bytes
        uint32_t rcvBufSize{128u << 20};               //!< RcvBufSize, bytes
        Ptr<RandomVariableStream> sendDelay;           //!< SendDelay, seconds
        Ptr<RandomVariableStream> ackProcessingDelay;  //!< AckProcessingDelay, seconds
        bool persistentCongestion{false};              //!< PersistentCongestion
        Pacing pacing{PACING_OFF};                     //!< Pacing
        double pacingGain{1.25};                       //!< PacingGain
        uint32_t pacingBurstPackets{10};               //!< PacingBurstPackets
        bool appLimitedWhilePaced{true};               //!< AppLimitedWhilePaced
        PacketSizing packetSizing{SIZING_FREE_WINDOW}; //!< PacketSizing
        bool dontFragment{true};                       //!< DontFragment (read by the socket)
        ProbeContent probeContent{PROBE_DATA};         //!< ProbeContent
        TypeId congestionControl;                      //!< CongestionControl (read by the socket)
        bool flowControl{false};                       //!< FlowControl (RFC 9000 Section 4)
        uint64_t initialMaxData{10000000};             //!< InitialMaxData, bytes
        uint64_t initialMaxStreamData{1000000};        //!< InitialMaxStreamData, bytes
        /// ECN (RFC 9000 Section 13.4, RFC 9002 Section 7.1): the socket shell's Ecn attribute,
        /// copied here when the connection starts
        bool ecn{false};

        /**
         * Abort (naming the QuicCcSocket attribute and its value) on settings that do not fit
         * together: the message is GetError's.
         */
        void Validate() const;
        /**
         * \return "" if the settings fit together, else a message naming the QuicCcSocket
         * attributes and their values; each range of one setting is its attribute's checker,
         * and each owner (controller, received-packet manager) checks its own settings
         */
        std::string GetError() const;
        /// Abort if MaxDatagramSize exceeds the UDP payload an IPv4 datagram can carry.
        void CheckIpv4Size(bool ipv4) const;
        /// A copy for a new connection: its random variables are clones, so that each connection
        /// draws from its own streams.
        Config CloneForConnection() const;
    };

    /**
     * What the connection reports. The owner may end the connection (Close()) from any of these
     * calls; the connection checks its state after each.
     */
    class Owner
    {
      public:
        virtual ~Owner() = default;
        /// Hand a serialized datagram to the network (the only transmit point), its IP header's
        /// ECN field to be set to \p ecn.
        virtual void SendDatagram(Ptr<Packet> datagram, QuicCcEcnCodepoint ecn) = 0;
        /// A received datagram was dropped as malformed or inconsistent.
        virtual void OnDatagramDropped(const std::string& reason) = 0;
        /// Packet trace: a packet sent (packet number, UDP payload bytes).
        virtual void OnPacketSent(uint64_t packetNumber, uint64_t bytes) = 0;
        /// Packet trace: a valid packet received (packet number, UDP payload bytes).
        virtual void OnPacketReceived(uint64_t packetNumber, uint64_t bytes) = 0;
        /// A new RTT sample was taken.
        virtual void OnRttSample(const QuicRttStats& rtt) = 0;
        /// The probe timeout fired; \p ptoCount consecutive PTOs now (RFC 9002 Section 6.2.4).
        virtual void OnPtoExpired(uint32_t ptoCount) = 0;
        /// Client: the first packet of the server arrived; the handshake is complete.
        virtual void OnHandshakeComplete() = 0;
        /// \return whether received stream bytes are kept for the application (false: discard)
        virtual bool IsReceiving() const = 0;
        /// New stream bytes were delivered in order to the receive buffer.
        virtual void OnDataReceived() = 0;
        /// Never-sent stream bytes left in a packet.
        virtual void OnDataSent(uint64_t bytes) = 0;
        /// Acknowledgements freed send buffer space: \p available bytes may be written now.
        virtual void OnSendBufferFreed(uint32_t available) = 0;
        /// The peer sent CONNECTION_CLOSE.
        virtual void OnPeerClose(uint64_t errorCode, const std::string& reason) = 0;
        /// A valid packet was processed completely (a graceful close may now finish).
        virtual void OnPacketProcessed() = 0;
        /// No valid packet arrived for IdleTimeout.
        virtual void OnIdleTimeout(Time idle) = 0;
        /// The peer violated the protocol: the connection sent CONNECTION_CLOSE with
        /// \p errorCode (e.g. FLOW_CONTROL_ERROR) and is closed.
        virtual void OnTransportError(uint64_t errorCode, const std::string& reason) = 0;
    };

    /**
     * \param owner          reports go here; must outlive the connection or call Dispose()
     * \param config         validated configuration
     * \param cc             the controller (already a Fork() of the prototype)
     * \param server         the server end
     * \param connectionId   the connection ID
     */
    QuicCcConnection(Owner& owner,
                     const Config& config,
                     Ptr<QuicCongestionController> cc,
                     bool server,
                     uint64_t connectionId);
    ~QuicCcConnection();

    /// Arm the idle timer from now (the connection starts).
    void Start();
    /// Client: send the INITIAL (state HANDSHAKE).
    void StartClientHandshake();
    /// Server: the client's INITIAL arrived; data may flow at once (HANDSHAKE_DONE is owed).
    void AcceptClient();

    /**
     * A datagram for this connection arrived from the peer.
     * \param bytes  its bytes
     * \param source null, or the ns-3 packet that holds \p bytes: received stream data is then
     *        kept as fragments of it (see QuicCcParse)
     * \param ecn  the ECN codepoint of its IP header (Not-ECT when ECN is off)
     */
    void OnDatagram(const std::vector<uint8_t>& bytes,
                    Ptr<const Packet> source = nullptr,
                    QuicCcEcnCodepoint ecn = QuicCcEcnCodepoint::NOT_ECT);

    /// Queue application data for the stream and send soon.
    void Send(Ptr<Packet> data);
    /// No more application data: the FIN follows what is queued.
    void FinishStream();
    /**
     * The application reads up to \p maxSize in-order bytes from the receive stream. With
     * FlowControl, the bytes read are consumed: MAX_DATA / MAX_STREAM_DATA follow by
     * QuicCcFlowControl's rule.
     * \return the bytes (null if none are available)
     */
    Ptr<Packet> Read(uint32_t maxSize);
    /// RFC 9000 Section 20.1 FLOW_CONTROL_ERROR.
    static constexpr uint64_t kFlowControlError = 0x3;
    /// Send an immediate CONNECTION_CLOSE (RFC 9000 Section 19.19).
    void SendConnectionClose(uint64_t errorCode, const std::string& reason);
    /// Enter STATE_CLOSED and remove every timer.
    void Close();
    /// Close() and forget the owner (it is going away).
    void Dispose();

    State GetState() const;           //!< where the connection is in its life
    uint64_t GetConnectionId() const; //!< the connection ID (chosen by the client)
    /// Free send buffer, bytes (SndBufSize minus what is buffered).
    uint32_t GetTxAvailable() const;
    uint64_t GetBytesReceived() const; //!< stream bytes delivered in order
    /// Flow-control limits both ways (FlowControl; without it the peer's are kQuicCcVarIntMax).
    const QuicCcPacketBuilder::FlowLimits& GetFlowLimits() const;
    /// \name The parts the connection owns (for the socket's accessors and the tests)
    /// @{
    /// The connection's controller (a fork of the socket's prototype).
    Ptr<QuicCongestionController> GetCongestionController() const;
    /// Loss detection and the sent-packet record.
    QuicLossDetection& GetLossDetection();
    /// Loss detection and the sent-packet record.
    const QuicLossDetection& GetLossDetection() const;
    /// Pacing=Rfc9002: the rate the pacer sends at now, bytes per second (QuicCcPacer::Rate of
    /// cwnd and smoothed_rtt); Pacing=Off: nothing (no rate is applied).
    std::optional<double> GetPacingRate() const;
    QuicCcSendStream& GetSendStream();             //!< the outgoing stream
    const QuicCcSendStream& GetSendStream() const; //!< the outgoing stream
    QuicCcRecvStream& GetRecvStream();             //!< the incoming stream
    const QuicCcRecvStream& GetRecvStream() const; //!< the incoming stream
    /// The receiver's side: receive history, ACK deadline, ECN counts.
    const QuicCcReceivedPacketManager& GetAcks() const;

    /// @}

  private:
    /**
     * One timer of the connection: its event, whether it is pending and when it expires, known
     * without asking the simulator. EventId::IsPending (IsRunning before ns-3.42) and
     * EventId::Cancel each cost a virtual call into the simulator and an event look-up, on every
     * packet; here the pending state is a flag. It is exact because every schedule, cancel and
     * removal of the event goes through this class and each handler calls Expired() first (an
     * event that ran is no longer pending, also while it runs, as for EventId). Cancel and
     * Remove of a timer that is not pending do nothing, as for EventId. (Its methods are defined
     * in quic-cc-connection.cc, the one model file that calls the simulator.)
     */
    class Timer
    {
      public:
        /// Run \p handler at \p now + \p delay (an event of the simulator).
        void Arm(Time now,
                 Time delay,
                 void (QuicCcConnection::*handler)(),
                 QuicCcConnection* connection);
        /// Run \p handler after the current event, at \p now.
        void ArmNow(Time now, void (QuicCcConnection::*handler)(), QuicCcConnection* connection);
        /// Cancel the pending event (it stays in the event list, cancelled).
        void Cancel();
        /// Remove the pending event from the event list.
        void Remove();

        /// The scheduled handler runs: the timer is no longer pending.
        void Expired()
        {
            m_pending = false;
        }

        /// True from Arm until the event runs, is cancelled or removed.
        bool IsPending() const
        {
            return m_pending;
        }

        /// When the pending event runs (meaningful while IsPending()).
        Time GetExpiry() const
        {
            return m_expiry;
        }

      private:
        EventId m_event;
        Time m_expiry;
        bool m_pending{false};
    };

    // receive path
    void ProcessPacket(const QuicCcPacket& packet, size_t size, QuicCcEcnCodepoint ecn);
    bool CheckPacket(const QuicCcPacket& packet, std::string& reason) const;
    void OnAckFrame(const QuicCcAckFrame& ack, Time now);
    void OnStreamFrame(const QuicCcStreamFrame& frame);
    void OnFlowControlFrame(const QuicCcFlowControlFrame& frame);
    void ConsumeReceived(uint64_t bytes);
    void CloseWithError(uint64_t errorCode, const std::string& reason);
    void OnPacketsAcked(const std::vector<QuicCcSentFrames>& acked);
    void OnPacketsLost(const std::vector<QuicCcSentFrames>& lost);

    // send loop
    void ScheduleSendPending();
    void OnSendEvent(); //!< m_sendEvent's handler: SendPending()
    void SendPending();
    bool SendOnePacket(bool probe, Time now);
    /// SendOnePacket's work on \p packet (header set, no frames): fill, then transmit if worth it.
    bool FillAndTransmit(QuicCcPacket& packet, bool probe, Time now);
    bool HasDataToSend() const;
    bool IsFlowBlocked() const;
    void NoteFlowBlocked();
    void Transmit(const QuicCcPacket& packet, QuicCcSentFrames frames, Time now);
    void OnAckTimer(); //!< m_ackTimer's handler: SendAckNow()
    void SendAckNow();

    // timers
    void RearmLossTimer(Time now);
    void OnLossTimer();
    void RestartIdleTimer();
    void OnIdleTimer();

    Owner* m_owner; //!< null after Dispose()
    Config m_config;
    bool m_server;
    uint64_t m_connectionId;
    State m_state{STATE_IDLE};

    Ptr<QuicCongestionController> m_cc;
    std::unique_ptr<QuicLossDetection> m_lossDetection;
    QuicCcPacer m_pacer; //!< RFC 9002 Section 7.7 pacer (Pacing=Rfc9002)
    QuicCcSendStream m_sendStream;
    QuicCcRecvStream m_recvStream;
    QuicCcReceivedPacketManager m_acks;
    QuicCcPacketBuilder m_builder{m_sendStream, m_acks};
    QuicCcPacketBuilder::ControlFrames m_owed; //!< control frames to (re)send
    QuicCcFlowControl m_connectionFlow;        //!< our connection limit (FlowControl)
    QuicCcFlowControl m_streamFlow;            //!< our stream limit (FlowControl)
    QuicCcPacketBuilder::FlowLimits m_flow;    //!< limits both ways, as the builder sends them
    uint64_t m_blockedAt{kQuicCcVarIntMax};    //!< send limit of the last *_BLOCKED frame
    std::vector<QuicCcFrame> m_txFrames;       //!< frame list reused by the packets built
    std::vector<QuicCcFrame> m_rxFrames;       //!< frame list reused by the datagrams parsed
    uint64_t m_nextPacketNumber{0};
    uint64_t m_bytesReceived{0};

    Timer m_lossTimer;          //!< loss detection / PTO (OnLossTimer)
    Timer m_idleTimer;          //!< idle timeout (OnIdleTimer)
    Timer m_ackTimer;           //!< ACK deadline (OnAckTimer)
    Timer m_sendEvent;          //!< the next SendPending (OnSendEvent)
    Time m_lastActivity;        //!< last valid packet received (idle timer)
    Time m_lastDatagramProcess; //!< FIFO order of delayed ACK processing
};

} // namespace ns3

#endif // QUIC_CC_CONNECTION_H
