/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SOCKET_BASE_H
#define QUIC_CC_SOCKET_BASE_H

#include "quic-cc-dispatcher.h"
#include "quic-cc-ecn.h"
#include "quic-cc-qlog.h"
#include "quic-congestion-controller.h"

#include "ns3/address.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class Node;
class Packet;

/**
 * \ingroup quic-cc-transport
 * What a QUIC socket of this module is: not yet connected or listening, the client end
 * (Connect), a listener (Listen), or a connection the listener accepted (the server end).
 */
enum class QuicCcSocketRole
{
    NONE,
    CLIENT,
    LISTENER,
    ACCEPTED,
};

/// The role's name, for logs (NONE, CLIENT, LISTENER, ACCEPTED).
std::ostream& operator<<(std::ostream& os, QuicCcSocketRole role);

/**
 * \ingroup quic-cc-transport
 * \brief The socket shell of both QUIC transports: everything an ns3::Socket user sees, written
 * once, with the transport engine (quic-cc's own QuicCcSocket, or QuicCcNgtcp2Socket over the
 * real ngtcp2 library) behind a small set of virtual functions.
 *
 * The shell owns:
 *  - the role and the UDP socket (a client and a listener bind their own; an accepted
 *    connection sends through its listener's), the peer address, errno;
 *  - the ns3::Socket calls and their error codes, as ns-3's own sockets answer them
 *    (TcpSocketBase, UdpSocketImpl): Send on a socket that is not connected is ERROR_NOTCONN,
 *    after ShutdownSend or Close ERROR_SHUTDOWN, larger than the free send buffer ERROR_MSGSIZE;
 *    Recv with nothing to read is a null packet with ERROR_AGAIN, Recv(0) a null packet;
 *    GetRxAvailable saturates at 2^32-1; Close is graceful and may be called again (0);
 *    ShutdownRecv stops data notifications (bytes that arrive are consumed, as TCP does);
 *    SetAllowBroadcast(false) is true, (true) false (no broadcast);
 *  - the listener's connection table: datagrams are routed by the sender's address; a datagram
 *    from a new address that the engine admits (a well-formed first packet) asks the
 *    application (NotifyConnectionRequest), creates the accepted socket with the listener's
 *    settings, announces it (child-created callback: the factory's SocketList and streams),
 *    starts it and hands it the datagram; connection IDs of ended connections are remembered so
 *    that a late first packet does not reopen them (RFC 9000 Section 10.2);
 *  - when the application is told: NotifyConnectionSucceeded (client) and
 *    NotifyNewConnectionCreated (listener, for an accepted connection) when the handshake
 *    completes, as TcpSocketBase announces a connection at the end of its three-way handshake;
 *  - the trace sources both transports have, with the same names, types and meaning (ns-3
 *    TCP's widths for CongestionWindow and SlowStartThreshold);
 *  - the attributes both transports have: Ecn. With it on, the UDP socket reads the ECN field
 *    of every datagram that arrives (SetIpRecvTos, SetIpv6RecvTclass: the codepoint reaches
 *    the engine with the datagram) and each datagram leaves with the codepoint the engine asks
 *    for (a per-packet SocketIpTosTag / SocketIpv6TclassTag, as TcpSocketBase marks ECT);
 *    with it off, nothing is read and every datagram leaves Not-ECT.
 *
 * An engine implements the pure virtual functions below: checking its settings, starting a
 * client or an accepted connection, taking the application's bytes, giving the received ones,
 * and the datagram path. It reports back by calling the protected Notify/Trace helpers.
 */
class QuicCcSocketBase : public Socket
{
  public:
    /// Rtt trace: latest_rtt, smoothed_rtt, min_rtt.
    typedef void (*RttTracedCallback)(Time latest, Time smoothed, Time min);
    /// PacketSent / PacketReceived traces: packet number (or datagram index), UDP payload bytes.
    typedef void (*PacketTracedCallback)(uint64_t packetNumber, uint64_t bytes);
    /// PtoExpired trace: the consecutive PTO count after the expiry (1 for the first).
    typedef void (*PtoExpiredTracedCallback)(uint32_t ptoCount);
    /// HandshakeCompleted trace: no arguments (the time is Simulator::Now()).
    typedef void (*HandshakeTracedCallback)();
    /// PacketAcked / PacketLost traces: packet number, bytes, time sent.
    typedef void (*PacketTimeTracedCallback)(uint64_t packetNumber, uint64_t bytes, Time timeSent);
    /// EcnCounts trace: the peer's ECT(0), ECT(1) and ECN-CE counts (RFC 9000 Section 19.3.2).
    typedef void (*EcnCountsTracedCallback)(uint64_t ect0, uint64_t ect1, uint64_t ce);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    QuicCcSocketBase();
    ~QuicCcSocketBase() override;

    /// Node this socket lives on (set by the factory).
    void SetNode(Ptr<Node> node);
    /// Called with every accepted connection this listener creates, before it starts (the
    /// factory keeps it in its SocketList and assigns its random streams).
    void SetChildCreatedCallback(Callback<void, Ptr<QuicCcSocketBase>> callback);
    /// Fix the random streams this socket uses; \return the number of streams used.
    virtual int64_t AssignStreams(int64_t stream) = 0;

    /// \return the role (NONE until Connect or Listen; ACCEPTED for a listener's connection)
    QuicCcSocketRole GetRole() const;
    /// \return true once the handshake completed (client and accepted connection)
    virtual bool IsEstablished() const = 0;
    /// \return the packets this connection's sender side declared lost so far (0 before it
    /// starts, and for a listener)
    virtual uint64_t GetPacketsLost() const = 0;
    /// \return the number of connections a listener has open now (0 for other roles)
    size_t GetConnectionCount() const;
    /// \return the QlogSchema attribute: the schema this socket's qlog file is written in
    QuicCcQlogSchema GetQlogSchema() const;
    /// \return the Ecn attribute
    bool IsEcnEnabled() const;
    /// \return the sender's ECN validation state as last traced on EcnState (Disabled with Ecn
    /// off or before the connection starts)
    QuicCcEcnState GetEcnState() const;
    /// \return the congestion events that the peer's ECN-CE marks started so far (window
    /// reductions; 0 with Ecn off)
    virtual uint64_t GetEcnCongestionEvents() const = 0;

    /// \name ns3::Socket, answered as ns-3's own sockets answer (doc/quic-cc-design.rst, "The
    /// socket shell and its two engines", has the table)
    /// @{
    SocketErrno GetErrno() const final;     //!< the error of the last call that failed
    SocketType GetSocketType() const final; //!< NS3_SOCK_STREAM
    Ptr<Node> GetNode() const final;        //!< the node the socket belongs to
    int Bind(const Address& address) final; //!< bind the UDP socket to an IPv4/IPv6 address
    int Bind() final;                       //!< bind to any IPv4 address, an ephemeral port
    int Bind6() final;                      //!< bind to any IPv6 address, an ephemeral port
    /// Deliver what is buffered and the FIN, then close when all is acknowledged; 0 again later.
    int Close() final;
    int ShutdownSend() final; //!< refuse further Send() calls (ERROR_SHUTDOWN)
    int ShutdownRecv() final; //!< no more NotifyDataRecv; what arrives is consumed
    /// Become the client: the engine starts the handshake.
    int Connect(const Address& address) final;
    /// Become a listener: one server socket per client, handed out through the accept callback.
    int Listen() final;
    uint32_t GetTxAvailable() const final; //!< free send-buffer space, bytes
    /// Append \p p to the stream: -1 with ERROR_NOTCONN / ERROR_SHUTDOWN / ERROR_MSGSIZE
    /// (not connected, shut down, larger than the free buffer); else the bytes taken.
    int Send(Ptr<Packet> p, uint32_t flags) final;
    /// As Send (the address is the connected peer's; one stream per connection).
    int SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress) final;
    uint32_t GetRxAvailable() const final; //!< in-order bytes to read, saturated at 2^32-1
    /// At most \p maxSize in-order bytes as one packet; null with ERROR_AGAIN if none.
    Ptr<Packet> Recv(uint32_t maxSize, uint32_t flags) final;
    /// As Recv, with the peer's address in \p fromAddress.
    Ptr<Packet> RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress) final;
    int GetSockName(Address& address) const final; //!< the bound local address
    int GetPeerName(Address& address) const final; //!< the peer's address (ERROR_NOTCONN before)
    bool SetAllowBroadcast(bool allowBroadcast) final; //!< true only for false: no broadcast
    bool GetAllowBroadcast() const final;              //!< false

    /// @}

  protected:
    void DoDispose() override; //!< the listener's table, the UDP socket and the callbacks go

    // ---- the engine
    /// Check that the settings fit together for a connection over IPv4 (else IPv6); a fatal
    /// error naming the attributes otherwise. Called by Connect and Listen.
    virtual void CheckConfig(bool ipv4) const = 0;
    /// Start the client connection (the UDP socket is bound and connected, the peer set).
    virtual void StartClient() = 0;
    /// Is \p datagram, the first from a new address, one that opens a connection?
    virtual QuicCcAdmission Admit(const std::vector<uint8_t>& datagram,
                                  Ptr<Packet> packet) const = 0;
    /// A new socket of this engine for an accepted connection, with this listener's settings.
    virtual Ptr<QuicCcSocketBase> CreateAccepted(const QuicCcAdmission& admission) = 0;
    /// Start the accepted connection with its first datagram (handed over next by Receive).
    virtual void StartAccepted(const QuicCcAdmission& admission,
                               const std::vector<uint8_t>& datagram) = 0;
    /// A datagram of this connection arrived, with the ECN codepoint of its IP header
    /// (Not-ECT with Ecn off).
    virtual void Receive(const std::vector<uint8_t>& datagram,
                         Ptr<Packet> packet,
                         QuicCcEcnCodepoint ecn) = 0;
    /// A datagram was dropped before reaching a connection (listener), \p reason.
    virtual void OnDropped(const std::string& reason) = 0;
    /// \return true while the connection is started and not over
    virtual bool IsOpen() const = 0;
    /// Free send-buffer bytes (before the connection starts: the buffer size).
    virtual uint32_t EngineTxAvailable() const = 0;
    /// \return true if \p bytes fit in the send buffer (and the stream) now
    virtual bool EngineCanSend(uint32_t bytes) const = 0;
    /// Take the application's bytes (the shell checked role, state and size).
    virtual void EngineSend(Ptr<Packet> p) = 0;
    /// Bytes the application can read now.
    virtual uint64_t EngineRxAvailable() const = 0;
    /// Up to \p maxSize (> 0) of the bytes available (> 0).
    virtual Ptr<Packet> EngineRecv(uint32_t maxSize) = 0;
    /// Close gracefully: the FIN after what was given (Close()).
    virtual void EngineClose() = 0;
    /// No more application bytes: the FIN after what was given (ShutdownSend()).
    virtual void EngineShutdownSend() = 0;

    // ---- for the engine
    /// The handshake completed: tell the application (once).
    void NotifyEstablished();
    /// An accepted connection ended: its listener forgets it (and its connection ID).
    void LeaveListener(std::optional<uint64_t> connectionId);
    /// Send a datagram to the peer (client: own UDP socket; accepted: the listener's), its IP
    /// header's ECN field set to \p ecn.
    void SendToPeer(Ptr<Packet> datagram, QuicCcEcnCodepoint ecn = QuicCcEcnCodepoint::NOT_ECT);
    /// Stop receiving on the own UDP socket and close it (a client whose connection ended).
    void CloseUdp();
    /// The peer address (client: Connect's; accepted: the sender of the first datagram).
    const Address& GetPeer() const;
    /// \return true after Close() (graceful close requested)
    bool IsCloseRequested() const;
    /// \return true after ShutdownSend()
    bool IsSendShutdown() const;
    /// \return true after ShutdownRecv()
    bool IsRecvShutdown() const;
    /// Set errno (an error close the application learns of).
    void SetErrno(SocketErrno error) const;

    /// CongestionWindow64 and CongestionWindow (saturated to TCP's uint32_t, silent when the
    /// saturated values are equal).
    void TraceCongestionWindow(uint64_t oldValue, uint64_t newValue);
    /// SlowStartThreshold64 and SlowStartThreshold, likewise.
    void TraceSlowStartThreshold(uint64_t oldValue, uint64_t newValue);
    /// BytesInFlight64 and BytesInFlight (TCP's uint32_t), likewise.
    void TraceBytesInFlight(uint64_t oldValue, uint64_t newValue);
    /// An RTT sample: Rtt (latest, smoothed, min) and, when the latest RTT changed, TCP's RTT.
    void TraceRttSample(Time latest, Time smoothed, Time min);
    /// The PTO period now (RFC 9002 Section 6.2.1, with its backoff): TCP's RTO, when it changed.
    void TracePto(Time pto);
    /// The ECN validation state is \p state now: EcnState, when it changed.
    void TraceEcnState(QuicCcEcnState state);
    /// The sender's pacing rate now: TCP's PacingRate (old, new), when it changed.
    void TracePacingRate(DataRate rate);

    TracedCallback<QuicCongestionState, QuicCongestionState> m_stateTrace; //!< CongestionState
    TracedCallback<Time> m_recoveryStartTrace;                             //!< RecoveryStartTime
    TracedCallback<uint64_t, uint64_t> m_packetSentTrace;                  //!< PacketSent
    TracedCallback<uint64_t, uint64_t> m_packetReceivedTrace;              //!< PacketReceived
    TracedCallback<uint64_t, uint64_t, Time> m_packetLostTrace;            //!< PacketLost
    TracedCallback<> m_handshakeCompletedTrace;                            //!< HandshakeCompleted
    TracedCallback<uint32_t> m_ptoExpiredTrace;                            //!< PtoExpired
    TracedCallback<uint64_t, uint64_t, uint64_t> m_ecnCountsTrace;         //!< EcnCounts

  private:
    int BindUdp(const Address& local);
    /// Ecn: have the UDP socket pass the ECN field of what arrives (IPv4 TOS, IPv6 Traffic Class).
    void ReadEcnOnUdp();
    void HandleUdpRead(Ptr<Socket> udp);
    /// Listener: route one datagram from \p from.
    void Dispatch(const std::vector<uint8_t>& datagram,
                  Ptr<Packet> packet,
                  const Address& from,
                  QuicCcEcnCodepoint ecn);

    Ptr<Node> m_node;
    QuicCcSocketRole m_role{QuicCcSocketRole::NONE};
    mutable SocketErrno m_errno{ERROR_NOTERROR};
    Ptr<Socket> m_udp;                //!< own UDP socket (client, listener)
    Ptr<QuicCcSocketBase> m_listener; //!< accepted connection: its listener
    Address m_peer;
    bool m_accepting{true}; //!< listener: new connections (until Close)
    bool m_shutdownSend{false};
    bool m_shutdownRecv{false};
    bool m_closeRequested{false};
    bool m_establishedNotified{false};
    bool m_ecn{false};                               //!< Ecn attribute
    QuicCcEcnState m_ecnState{QUIC_CC_ECN_DISABLED}; //!< as last traced on EcnState
    QuicCcDispatcher m_dispatcher;                   //!< listener: its connections
    Callback<void, Ptr<QuicCcSocketBase>> m_childCreated;
    std::vector<uint8_t> m_datagram; //!< HandleUdpRead's buffer, kept between datagrams

    TracedCallback<uint64_t, uint64_t> m_cwndTrace;            //!< CongestionWindow64
    TracedCallback<uint64_t, uint64_t> m_ssthreshTrace;        //!< SlowStartThreshold64
    TracedCallback<uint32_t, uint32_t> m_cwnd32Trace;          //!< CongestionWindow (TCP's width)
    TracedCallback<uint32_t, uint32_t> m_ssthresh32Trace;      //!< SlowStartThreshold (TCP's width)
    TracedCallback<uint64_t, uint64_t> m_bytesInFlightTrace;   //!< BytesInFlight64
    TracedCallback<uint32_t, uint32_t> m_bytesInFlight32Trace; //!< BytesInFlight (TCP's width)
    TracedCallback<Time, Time, Time> m_rttTrace;               //!< Rtt: latest, smoothed, min
    TracedCallback<Time, Time> m_lastRttTrace;                 //!< RTT (TCP's: the latest)
    TracedCallback<Time, Time> m_ptoTrace;                     //!< RTO (the PTO period)
    TracedCallback<DataRate, DataRate> m_pacingRateTrace;      //!< PacingRate (TCP's)
    TracedCallback<QuicCcEcnState, QuicCcEcnState> m_ecnStateTrace; //!< EcnState
    Time m_lastRtt;                                                 //!< as last traced on RTT
    Time m_pto;                                                     //!< as last traced on RTO
    DataRate m_pacingRate{0};                           //!< as last traced on PacingRate
    QuicCcQlogSchema m_qlogSchema{QLOG_MAIN_SCHEMA_13}; //!< QlogSchema
};

} // namespace ns3

#endif // QUIC_CC_SOCKET_BASE_H
