/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_CONNECTION_H
#define QUIC_CC_NGTCP2_CONNECTION_H

#include "quic-cc-ngtcp2-handshake.h"

#include "ns3/nstime.h"
#include "ns3/quic-cc-ecn.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

struct ngtcp2_conn; // ngtcp2's connection (lib/includes/ngtcp2/ngtcp2.h), opaque here

namespace ns3
{

/**
 * \ingroup quic-cc-ngtcp2
 * What a QuicCcNgtcp2Connection is configured with (units in the names), and the only storage
 * of the ngtcp2 socket's attributes that configure the connection (QuicCcMakeFieldAccessor).
 */
struct QuicCcNgtcp2Config
{
    /// ngtcp2's congestion controllers (ngtcp2_cc_algo: lib/ngtcp2_cc.c, lib/ngtcp2_bbr.c).
    enum Controller
    {
        RENO,
        CUBIC,
        BBR,
    };

    Controller controller{CUBIC};       //!< settings.cc_algo
    Time initialRtt{MilliSeconds(333)}; //!< settings.initial_rtt (ngtcp2's default)
    uint64_t maxUdpPayloadBytes{1452};  //!< settings.max_tx_udp_payload_size
    bool pmtud{false};                  //!< !settings.no_pmtud
    bool payloadShaping{true}; //!< !settings.no_tx_udp_payload_size_shaping (1200 B w/o PMTUD)
    uint64_t ackThresholdPackets{2};        //!< settings.ack_thresh
    Time maxAckDelay{MilliSeconds(25)};     //!< params.max_ack_delay
    Time idleTimeout{Seconds(30)};          //!< params.max_idle_timeout
    uint64_t initialMaxData{1 << 24};       //!< params.initial_max_data, bytes
    uint64_t initialMaxStreamData{1 << 24}; //!< params.initial_max_stream_data_bidi_*, bytes
    uint64_t clientHelloBytes{300};         //!< modelled ClientHello size
    uint64_t serverHelloBytes{100};         //!< modelled ServerHello size
    uint64_t serverFlightBytes{2500};       //!< modelled EncryptedExtensions .. Finished
    uint64_t clientFinishedBytes{60};       //!< modelled client Finished size
    /// The shell's Ecn: ECN codepoints pass both ways (ngtcp2_pkt_info.ecn) and the library's
    /// validation state is followed (from its log); off, they are zero both ways
    bool ecn{false};
    /// qlog text from ngtcp2 (settings.qlog_write); last == true on its final call.
    std::function<void(const uint8_t* data, size_t length, bool last)> qlog;
    /// ngtcp2's own debug log, one line per call without its line end (settings.log_write, or
    /// log_printf before ngtcp2 1.23); empty = the library logs nothing.
    std::function<void(const std::string& line)> log;
};

/**
 * \ingroup quic-cc-ngtcp2
 * One QUIC connection of the real ngtcp2 library (>= 1.0), driven without I/O or clock of its
 * own: the caller passes every datagram and the time (ns), sends the datagrams it is given and
 * calls HandleExpiry at GetExpiry(). One bidirectional stream (the client's stream 0) carries the
 * application's bytes.
 *
 * The handshake is QuicCcNgtcp2Handshake's (no TLS): keys are installed through ngtcp2's public
 * ngtcp2_conn_install_*_key calls at the points a TLS stack would (as ngtcp2's
 * crypto/shared.c ngtcp2_crypto_derive_and_install_{rx,tx}_key do), AEAD is a copy plus a
 * 16-byte zero tag, header protection a zero mask. The application's stream bytes are copied
 * in from the StreamSource only when a packet is about to carry them (one datagram's payload
 * plus one chunk ahead), and stay here until acknowledged (ngtcp2 keeps pointers to them for
 * retransmission): the bytes held are those in flight, not the send buffer.
 *
 * No simulator call: the ns-3 socket (QuicCcNgtcp2Socket) owns sockets and timers.
 */
class QuicCcNgtcp2Connection
{
  public:
    /// Sends one UDP payload, its IP header's ECN field set to the codepoint given.
    using DatagramSink =
        std::function<void(const uint8_t* data, size_t length, QuicCcEcnCodepoint ecn)>;
    /// Fills the buffer with random bytes (connection IDs, tokens, ngtcp2's rand callback).
    using RandomSource = std::function<void(uint8_t* data, size_t length)>;
    /// Writes the next \p length bytes of the stream (given by Send, in order) to \p data.
    using StreamSource = std::function<void(uint8_t* data, size_t length)>;

    /// The addresses of the path, as sockaddr bytes (sockaddr_in or sockaddr_in6).
    struct Path
    {
        std::vector<uint8_t> local;  //!< this end's address
        std::vector<uint8_t> remote; //!< the peer's address
    };

    /// State ngtcp2_conn_get_conn_info reports (bytes, ns, packets).
    struct Info
    {
        uint64_t cwnd{0};          //!< congestion window, bytes
        uint64_t ssthresh{0};      //!< UINT64_MAX until the first congestion event
        uint64_t bytesInFlight{0}; //!< bytes in flight
        uint64_t latestRttNs{0};   //!< latest_rtt, ns
        uint64_t smoothedRttNs{0}; //!< smoothed_rtt, ns
        uint64_t minRttNs{0};      //!< min_rtt, ns
        uint64_t packetsSent{0};   //!< packets sent (pkt_sent)
        uint64_t packetsLost{0};   //!< packets declared lost (pkt_lost)
        uint64_t bytesLost{0};     //!< bytes declared lost (bytes_lost)
    };

    /// How a call left the connection.
    enum Status
    {
        OPEN,
        CLOSED, //!< closed cleanly (our close sent, or the peer's received)
        FAILED, //!< a library error or an idle / handshake timeout
    };

    ~QuicCcNgtcp2Connection();
    QuicCcNgtcp2Connection(const QuicCcNgtcp2Connection&) = delete;
    QuicCcNgtcp2Connection& operator=(const QuicCcNgtcp2Connection&) = delete;

    /// A client connection; its first flight goes out at the first Write.
    static std::unique_ptr<QuicCcNgtcp2Connection> CreateClient(const QuicCcNgtcp2Config& config,
                                                                const Path& path,
                                                                DatagramSink sink,
                                                                RandomSource random,
                                                                uint64_t nowNs);
    /**
     * A server connection for the client Initial \p data (then given to Receive by the caller);
     * null when ngtcp2 refuses it (check IsAcceptableInitial first).
     */
    static std::unique_ptr<QuicCcNgtcp2Connection> CreateServer(const QuicCcNgtcp2Config& config,
                                                                const Path& path,
                                                                const uint8_t* data,
                                                                size_t length,
                                                                DatagramSink sink,
                                                                RandomSource random,
                                                                uint64_t nowNs);

    /// Whether \p data is a first client Initial a server accepts (ngtcp2_accept).
    static bool IsAcceptableInitial(const uint8_t* data, size_t length);

    /// ngtcp2's version string ("1.24.0"), from the library linked (ngtcp2_version), with the
    /// change the build applied to it, if any ("1.24.0+cubic-bytes-delivered").
    static std::string LibraryVersion();

    /// One datagram, with the ECN codepoint of its IP header (ignored without config.ecn).
    Status Receive(const uint8_t* data, size_t length, QuicCcEcnCodepoint ecn, uint64_t nowNs);
    Status HandleExpiry(uint64_t nowNs); //!< at GetExpiry(): ngtcp2_conn_handle_expiry + Write
    Status Write(uint64_t nowNs);        //!< send what ngtcp2 allows now (pacing, cwnd)
    uint64_t GetExpiry() const;          //!< next timer, ns; UINT64_MAX = none
    /// Close now: a CONNECTION_CLOSE (NO_ERROR) goes out; later calls send nothing more.
    void Close(uint64_t nowNs);
    /// After Close: send the CONNECTION_CLOSE again (a packet arrived in the closing period).
    void RepeatClose();
    /// Time to keep a closing connection, ns: three PTO (RFC 9000 Section 10.2).
    uint64_t ClosingPeriodNs() const;

    // ---- the stream
    /// Where Send's bytes are read from, when a packet carries them; set before the first Send.
    void SetStreamSource(StreamSource source);
    /// \p length more bytes to send, read from the stream source when a packet carries them.
    void Send(uint64_t length);
    void ShutdownWrite();               //!< FIN after the bytes given
    uint64_t GetUnacknowledged() const; //!< bytes given and not yet acknowledged
    bool AllAcknowledged() const;       //!< every byte and the FIN sent and acknowledged
    /// Stream bytes held in memory (read from the source, not yet freed on acknowledgement).
    uint64_t GetStoredBytes() const;
    size_t GetRxAvailable() const; //!< received in-order bytes not yet read
    /// The PTO period now, ns (ngtcp2_conn_get_pto2; ngtcp2_conn_get_pto before 1.23.0).
    uint64_t GetPtoNs() const;
    /// Move up to \p maxBytes received bytes to \p out; opens the flow-control window.
    size_t Read(std::vector<uint8_t>& out, size_t maxBytes);
    bool PeerFinished() const; //!< the peer's FIN arrived (all its bytes received)

    bool HandshakeCompleted() const; //!< ngtcp2_conn_get_handshake_completed
    Info GetInfo() const;            //!< ngtcp2_conn_get_conn_info and the loss counters
    /**
     * ngtcp2's ECN validation state (lib/ngtcp2_conn.c, conn->tx.ecn.state, not public), as it
     * shows (Disabled without config.ecn): Testing from the start; Unknown once the library has
     * marked the ten datagrams of its testing period (NGTCP2_ECN_MAX_NUM_VALIDATION_PKTS) with
     * no verdict; Capable and Failed when it logs them ("path is ECN capable", "path is not ECN
     * capable": conn_verify_ecn, lib/ngtcp2_rtb.c). Not visible: a testing period ended by its
     * three PTOs (seen as Testing until a verdict) and the failure when every ECT packet is lost
     * (seen as Unknown; the library marks nothing in either state).
     */
    QuicCcEcnState GetEcnState() const;
    std::string GetError() const; //!< why FAILED (ngtcp2_strerror), empty otherwise

  private:
    struct Callbacks; // the ngtcp2 callbacks (static functions, friends of this class)
    friend struct Callbacks;

    QuicCcNgtcp2Connection(const QuicCcNgtcp2Config& config,
                           const Path& path,
                           DatagramSink sink,
                           RandomSource random);
    Status Fail(int error);
    /// CONNECTION_CLOSE: NO_ERROR (\p error 0) or for an ngtcp2 error; sent and kept.
    void WriteClose(int error);
    int OnCryptoData(int level, uint64_t offset, const uint8_t* data, size_t length);
    int SubmitMessage(int level, QuicCcNgtcp2Handshake::Type type, uint64_t size);
    int InstallKeys(int level);
    void OnStreamData(int64_t streamId, uint32_t flags, const uint8_t* data, size_t length);
    void OnAcked(uint64_t offset, uint64_t length);
    /// Reads the given bytes from the stream source into chunks up to stream offset \p end
    /// (at least; whole chunks while bytes are given).
    void StoreUpTo(uint64_t end);
    void FillPath(void* ngtcp2Path) const;
    /// A datagram leaves with \p ecn (config.ecn): the end of the testing period.
    void OnEcnSent(QuicCcEcnCodepoint ecn);
    /// One line of ngtcp2's log (config.ecn): its ECN verdicts.
    void OnLogLine(const std::string& line);

    QuicCcNgtcp2Config m_config;
    Path m_path;
    DatagramSink m_sink;
    RandomSource m_random;
    ngtcp2_conn* m_conn{nullptr};
    bool m_server{false};
    QuicCcNgtcp2Handshake m_handshake;
    std::string m_error;
    std::vector<uint8_t> m_closePacket; //!< the CONNECTION_CLOSE datagram once closed
    QuicCcEcnCodepoint m_closeEcn{QuicCcEcnCodepoint::NOT_ECT}; //!< its ECN codepoint
    QuicCcEcnState m_ecnState{QUIC_CC_ECN_DISABLED};            //!< see GetEcnState
    uint64_t m_ecnTestingSent{0};                               //!< datagrams marked while Testing
    bool m_closed{false};

    // Send side: chunks of fixed capacity (never reallocated: ngtcp2 holds pointers into them)
    // holding stream offsets [m_chunksBase, m_stored).
    static constexpr size_t kChunkBytes = 4096; //!< small: the held bytes follow those in flight
    int64_t m_streamId{-1};                     //!< -1 until opened (client) or seen (server)
    StreamSource m_source;
    std::deque<std::vector<uint8_t>> m_chunks;
    uint64_t m_chunksBase{0}; //!< stream offset of m_chunks.front()
    uint64_t m_stored{0};     //!< stream offset after the last byte read from the source
    uint64_t m_given{0};      //!< bytes given by the application
    uint64_t m_written{0};    //!< bytes handed to ngtcp2 (first transmission)
    uint64_t m_acked{0};      //!< contiguous acknowledged bytes
    bool m_finPending{false}; //!< ShutdownWrite called
    bool m_finWritten{false};

    // Receive side.
    std::vector<uint8_t> m_rx;
    size_t m_rxHead{0};
    bool m_peerFin{false};

    std::vector<uint8_t> m_buffer; //!< one datagram being written
    uint64_t m_nowNs{0};           //!< time of the latest call (ngtcp2's timestamps never go back)
};

} // namespace ns3

#endif // QUIC_CC_NGTCP2_CONNECTION_H
