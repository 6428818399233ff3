/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ngtcp2-connection.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <ngtcp2/ngtcp2.h>

namespace ns3
{

namespace
{

/// The "keys": every context's native_handle points here (ngtcp2 requires non-null handles,
/// lib/ngtcp2_conn.c; nothing dereferences them but our callbacks, which ignore them).
uint8_t g_noKey = 0;
constexpr size_t kTagBytes = 16;     //!< AEAD overhead, as AES-128-GCM (RFC 9001 Section 5.3)
constexpr size_t kIvBytes = 12;      //!< AEAD nonce length
constexpr size_t kSecretBytes = 32;  //!< traffic secret length (SHA-256)
constexpr size_t kCidBytes = 8;      //!< our connection IDs (RFC 9000 Section 7.2: >= 8 bytes)
constexpr size_t kParamsBytes = 256; //!< room for the encoded transport parameters
constexpr size_t kMaxVectors = 8;    //!< stream chunks per writev_stream call

/// Datagrams ngtcp2 marks while testing a path for ECN (lib/ngtcp2_conn.h,
/// NGTCP2_ECN_MAX_NUM_VALIDATION_PKTS; RFC 9000 Section 13.4.2: ten).
constexpr uint64_t kEcnTestingDatagrams = 10;

const uint8_t g_zeroIv[kIvBytes] = {};
const uint8_t g_zeroSecret[kSecretBytes] = {};

ngtcp2_crypto_ctx
NoCryptoContext()
{
    ngtcp2_crypto_ctx ctx{};
    ctx.aead.native_handle = &g_noKey;
    ctx.aead.max_overhead = kTagBytes;
    ctx.md.native_handle = &g_noKey;
    ctx.hp.native_handle = &g_noKey;
    // No AEAD usage limit (RFC 9001 Section 6.6): nothing is encrypted.
    ctx.max_encryption = std::numeric_limits<uint64_t>::max();
    ctx.max_decryption_failure = std::numeric_limits<uint64_t>::max();
    return ctx;
}

ngtcp2_crypto_aead_ctx
NoAeadContext()
{
    ngtcp2_crypto_aead_ctx ctx{};
    ctx.native_handle = &g_noKey;
    return ctx;
}

ngtcp2_crypto_cipher_ctx
NoCipherContext()
{
    ngtcp2_crypto_cipher_ctx ctx{};
    ctx.native_handle = &g_noKey;
    return ctx;
}

ngtcp2_cc_algo
Algorithm(QuicCcNgtcp2Config::Controller controller)
{
    switch (controller)
    {
    case QuicCcNgtcp2Config::RENO:
        return NGTCP2_CC_ALGO_RENO;
    case QuicCcNgtcp2Config::BBR:
        return NGTCP2_CC_ALGO_BBR;
    case QuicCcNgtcp2Config::CUBIC:
        break;
    }
    return NGTCP2_CC_ALGO_CUBIC;
}

} // namespace

/// ngtcp2's callbacks, each forwarding to the connection (user_data).
struct QuicCcNgtcp2Connection::Callbacks
{
    /// What ngtcp2_conn_client_new and ngtcp2_conn_server_new take besides the connection IDs.
    struct NewConnection
    {
        ngtcp2_callbacks callbacks;     //!< Fill
        ngtcp2_settings settings;       //!< FillSettings
        ngtcp2_transport_params params; //!< FillParams
        ngtcp2_path path;               //!< the connection's FillPath
    };

    /// The callbacks, settings and transport parameters of a new client or \p server
    /// connection \p c, and its path; the connection's clock set to \p nowNs.
    static void FillNew(NewConnection& args,
                        bool server,
                        const QuicCcNgtcp2Config& config,
                        QuicCcNgtcp2Connection* c,
                        uint64_t nowNs);

    static QuicCcNgtcp2Connection* Self(void* userData)
    {
        return static_cast<QuicCcNgtcp2Connection*>(userData);
    }

    static int ClientInitial(ngtcp2_conn*, void* userData)
    {
        QuicCcNgtcp2Connection* self = Self(userData);
        if (self->InstallKeys(NGTCP2_ENCRYPTION_LEVEL_INITIAL) != 0)
        {
            return NGTCP2_ERR_CALLBACK_FAILURE;
        }
        return self->SubmitMessage(NGTCP2_ENCRYPTION_LEVEL_INITIAL,
                                   QuicCcNgtcp2Handshake::CLIENT_HELLO,
                                   self->m_config.clientHelloBytes);
    }

    static int RecvClientInitial(ngtcp2_conn*, const ngtcp2_cid*, void* userData)
    {
        return Self(userData)->InstallKeys(NGTCP2_ENCRYPTION_LEVEL_INITIAL) == 0
                   ? 0
                   : NGTCP2_ERR_CALLBACK_FAILURE;
    }

    static int RecvCryptoData(ngtcp2_conn*,
                              ngtcp2_encryption_level level,
                              uint64_t offset,
                              const uint8_t* data,
                              size_t length,
                              void* userData)
    {
        return Self(userData)->OnCryptoData(level, offset, data, length);
    }

    // AEAD: the plaintext and a zero tag (ngtcp2_crypto_encrypt's shape, no cipher).
    static int Encrypt(uint8_t* dest,
                       const ngtcp2_crypto_aead*,
                       const ngtcp2_crypto_aead_ctx*,
                       const uint8_t* plaintext,
                       size_t plaintextLength,
                       const uint8_t*,
                       size_t,
                       const uint8_t*,
                       size_t)
    {
        std::memmove(dest, plaintext, plaintextLength);
        std::memset(dest + plaintextLength, 0, kTagBytes);
        return 0;
    }

    // A tag that is not all zero fails, as a failed authentication would.
    static int Decrypt(uint8_t* dest,
                       const ngtcp2_crypto_aead*,
                       const ngtcp2_crypto_aead_ctx*,
                       const uint8_t* ciphertext,
                       size_t ciphertextLength,
                       const uint8_t*,
                       size_t,
                       const uint8_t*,
                       size_t)
    {
        if (ciphertextLength < kTagBytes)
        {
            return NGTCP2_ERR_DECRYPT;
        }
        const size_t length = ciphertextLength - kTagBytes;
        for (size_t i = 0; i < kTagBytes; ++i)
        {
            if (ciphertext[length + i] != 0)
            {
                return NGTCP2_ERR_DECRYPT;
            }
        }
        std::memmove(dest, ciphertext, length);
        return 0;
    }

    static int HpMask(uint8_t* dest,
                      const ngtcp2_crypto_cipher*,
                      const ngtcp2_crypto_cipher_ctx*,
                      const uint8_t*)
    {
        std::memset(dest, 0, NGTCP2_HP_MASKLEN);
        return 0;
    }

    static int RecvStreamData(ngtcp2_conn*,
                              uint32_t flags,
                              int64_t streamId,
                              uint64_t,
                              const uint8_t* data,
                              size_t length,
                              void* userData,
                              void*)
    {
        Self(userData)->OnStreamData(streamId, flags, data, length);
        return 0;
    }

    static int AckedStreamDataOffset(ngtcp2_conn*,
                                     int64_t streamId,
                                     uint64_t offset,
                                     uint64_t length,
                                     void* userData,
                                     void*)
    {
        QuicCcNgtcp2Connection* self = Self(userData);
        if (streamId == self->m_streamId)
        {
            self->OnAcked(offset, length);
        }
        return 0;
    }

    static int RecvRetry(ngtcp2_conn*, const ngtcp2_pkt_hd*, void*)
    {
        return NGTCP2_ERR_CALLBACK_FAILURE; // our servers never send Retry
    }

    static void Rand(uint8_t* dest, size_t length, const ngtcp2_rand_ctx* ctx)
    {
        Self(ctx->native_handle)->m_random(dest, length);
    }

    static int GetNewConnectionId(ngtcp2_conn*,
                                  ngtcp2_cid* cid,
                                  uint8_t* token,
                                  size_t cidLength,
                                  void* userData)
    {
        QuicCcNgtcp2Connection* self = Self(userData);
        cid->datalen = cidLength;
        self->m_random(cid->data, cidLength);
        self->m_random(token, NGTCP2_STATELESS_RESET_TOKENLEN);
        return 0;
    }

    static int UpdateKey(ngtcp2_conn*,
                         uint8_t* rxSecret,
                         uint8_t* txSecret,
                         ngtcp2_crypto_aead_ctx* rxAead,
                         uint8_t* rxIv,
                         ngtcp2_crypto_aead_ctx* txAead,
                         uint8_t* txIv,
                         const uint8_t*,
                         const uint8_t*,
                         size_t secretLength,
                         void*)
    {
        std::memset(rxSecret, 0, secretLength);
        std::memset(txSecret, 0, secretLength);
        *rxAead = NoAeadContext();
        *txAead = NoAeadContext();
        std::memset(rxIv, 0, kIvBytes);
        std::memset(txIv, 0, kIvBytes);
        return 0;
    }

    static void DeleteAeadContext(ngtcp2_conn*, ngtcp2_crypto_aead_ctx*, void*)
    {
    }

    static void DeleteCipherContext(ngtcp2_conn*, ngtcp2_crypto_cipher_ctx*, void*)
    {
    }

    static int GetPathChallengeData(ngtcp2_conn*, uint8_t* data, void* userData)
    {
        Self(userData)->m_random(data, NGTCP2_PATH_CHALLENGE_DATALEN);
        return 0;
    }

    static void Qlog(void* userData, uint32_t flags, const void* data, size_t length)
    {
        QuicCcNgtcp2Connection* self = Self(userData);
        if (self->m_config.qlog)
        {
            self->m_config.qlog(static_cast<const uint8_t*>(data),
                                length,
                                (flags & NGTCP2_QLOG_WRITE_FLAG_FIN) != 0);
        }
    }

#if NGTCP2_VERSION_NUM >= 0x011700
    static void Log(void* userData, char* msg, size_t length)
    {
        Self(userData)->OnLogLine(std::string(msg, length));
    }
#else
    static void Log(void* userData, const char* format, ...)
    {
        char line[1024];
        va_list args;
        va_start(args, format);
        const int n = std::vsnprintf(line, sizeof(line), format, args);
        va_end(args);
        std::string text(line, n < 0 ? 0 : std::min<size_t>(n, sizeof(line) - 1));
        while (!text.empty() && text.back() == '\n')
        {
            text.pop_back();
        }
        Self(userData)->OnLogLine(text);
    }
#endif

    static void Fill(ngtcp2_callbacks& cb, bool server)
    {
        cb = ngtcp2_callbacks{};
        if (server)
        {
            cb.recv_client_initial = RecvClientInitial;
        }
        else
        {
            cb.client_initial = ClientInitial;
            cb.recv_retry = RecvRetry;
        }
        cb.recv_crypto_data = RecvCryptoData;
        cb.encrypt = Encrypt;
        cb.decrypt = Decrypt;
        cb.hp_mask = HpMask;
        cb.recv_stream_data = RecvStreamData;
        cb.acked_stream_data_offset = AckedStreamDataOffset;
        cb.rand = Rand;
        cb.get_new_connection_id = GetNewConnectionId;
        cb.update_key = UpdateKey;
        cb.delete_crypto_aead_ctx = DeleteAeadContext;
        cb.delete_crypto_cipher_ctx = DeleteCipherContext;
        cb.get_path_challenge_data = GetPathChallengeData;
    }
};

namespace
{

void
FillSettings(ngtcp2_settings& settings,
             const QuicCcNgtcp2Config& config,
             void* self,
             ngtcp2_qlog_write qlog,
             uint64_t nowNs)
{
    ngtcp2_settings_default(&settings);
    settings.initial_ts = nowNs;
    settings.cc_algo = Algorithm(config.controller);
    settings.initial_rtt = static_cast<uint64_t>(config.initialRtt.GetNanoSeconds());
    settings.max_tx_udp_payload_size = config.maxUdpPayloadBytes;
    settings.no_pmtud = config.pmtud ? 0 : 1;
    settings.no_tx_udp_payload_size_shaping = config.payloadShaping ? 0 : 1;
    settings.ack_thresh = config.ackThresholdPackets;
    settings.rand_ctx.native_handle = self;
    settings.qlog_write = qlog;
}

/// ngtcp2_pkt_info.ecn of a codepoint (the same two bits: NGTCP2_ECN_ECT_0 is 0x2, ...).
uint8_t
PktInfoEcn(QuicCcEcnCodepoint ecn)
{
    return static_cast<uint8_t>(ecn) & NGTCP2_ECN_MASK;
}

void
FillParams(ngtcp2_transport_params& params, const QuicCcNgtcp2Config& config)
{
    ngtcp2_transport_params_default(&params);
    params.initial_max_stream_data_bidi_local = config.initialMaxStreamData;
    params.initial_max_stream_data_bidi_remote = config.initialMaxStreamData;
    params.initial_max_data = config.initialMaxData;
    params.initial_max_streams_bidi = 1;
    params.initial_max_streams_uni = 0;
    params.max_idle_timeout = static_cast<uint64_t>(config.idleTimeout.GetNanoSeconds());
    params.max_ack_delay = static_cast<uint64_t>(config.maxAckDelay.GetNanoSeconds());
}

} // namespace

void
QuicCcNgtcp2Connection::Callbacks::FillNew(NewConnection& args,
                                           bool server,
                                           const QuicCcNgtcp2Config& config,
                                           QuicCcNgtcp2Connection* c,
                                           uint64_t nowNs)
{
    Fill(args.callbacks, server);
    FillSettings(args.settings, config, c, config.qlog ? Qlog : nullptr, nowNs);
    if (config.ecn)
    {
        c->m_ecnState = QUIC_CC_ECN_TESTING; // conn_reset_ecn_validation_state at creation
    }
    if (config.log || config.ecn) // the ECN verdicts are only logged
    {
#if NGTCP2_VERSION_NUM >= 0x011700
        args.settings.log_write = Log;
#else
        args.settings.log_printf = Log;
#endif
    }
    FillParams(args.params, config);
    c->FillPath(&args.path);
    c->m_nowNs = nowNs;
}

QuicCcNgtcp2Connection::QuicCcNgtcp2Connection(const QuicCcNgtcp2Config& config,
                                               const Path& path,
                                               DatagramSink sink,
                                               RandomSource random)
    : m_config(config),
      m_path(path),
      m_sink(std::move(sink)),
      m_random(std::move(random))
{
}

QuicCcNgtcp2Connection::~QuicCcNgtcp2Connection()
{
    if (m_conn)
    {
        ngtcp2_conn_del(m_conn); // ngtcp2 writes the end of its qlog here
    }
}

bool
QuicCcNgtcp2Connection::IsAcceptableInitial(const uint8_t* data, size_t length)
{
    ngtcp2_pkt_hd hd;
    return ngtcp2_accept(&hd, data, length) == 0;
}

std::string
QuicCcNgtcp2Connection::LibraryVersion()
{
    // QUICCC_NGTCP2_VARIANT: the change the build applied to the release, if any
    // (cmake/quic-cc-ngtcp2-patch.cmake), e.g. "1.24.0+cubic-bytes-delivered".
    const std::string variant = QUICCC_NGTCP2_VARIANT;
    return ngtcp2_version(0)->version_str + (variant.empty() ? "" : "+" + variant);
}

void
QuicCcNgtcp2Connection::FillPath(void* out) const
{
    auto* path = static_cast<ngtcp2_path*>(out);
    *path = ngtcp2_path{};
    path->local.addr =
        reinterpret_cast<ngtcp2_sockaddr*>(const_cast<uint8_t*>(m_path.local.data()));
    path->local.addrlen = static_cast<ngtcp2_socklen>(m_path.local.size());
    path->remote.addr =
        reinterpret_cast<ngtcp2_sockaddr*>(const_cast<uint8_t*>(m_path.remote.data()));
    path->remote.addrlen = static_cast<ngtcp2_socklen>(m_path.remote.size());
}

std::unique_ptr<QuicCcNgtcp2Connection>
QuicCcNgtcp2Connection::CreateClient(const QuicCcNgtcp2Config& config,
                                     const Path& path,
                                     DatagramSink sink,
                                     RandomSource random,
                                     uint64_t nowNs)
{
    std::unique_ptr<QuicCcNgtcp2Connection> c(
        new QuicCcNgtcp2Connection(config, path, std::move(sink), std::move(random)));
    ngtcp2_cid dcid{};
    ngtcp2_cid scid{};
    dcid.datalen = kCidBytes;
    scid.datalen = kCidBytes;
    c->m_random(dcid.data, kCidBytes);
    c->m_random(scid.data, kCidBytes);
    Callbacks::NewConnection args;
    Callbacks::FillNew(args, false, config, c.get(), nowNs);
    const int rv = ngtcp2_conn_client_new(&c->m_conn,
                                          &dcid,
                                          &scid,
                                          &args.path,
                                          NGTCP2_PROTO_VER_V1,
                                          &args.callbacks,
                                          &args.settings,
                                          &args.params,
                                          nullptr,
                                          c.get());
    if (rv != 0)
    {
        c->m_conn = nullptr;
        c->Fail(rv);
    }
    return c;
}

std::unique_ptr<QuicCcNgtcp2Connection>
QuicCcNgtcp2Connection::CreateServer(const QuicCcNgtcp2Config& config,
                                     const Path& path,
                                     const uint8_t* data,
                                     size_t length,
                                     DatagramSink sink,
                                     RandomSource random,
                                     uint64_t nowNs)
{
    ngtcp2_pkt_hd hd;
    if (ngtcp2_accept(&hd, data, length) != 0)
    {
        return nullptr;
    }
    std::unique_ptr<QuicCcNgtcp2Connection> c(
        new QuicCcNgtcp2Connection(config, path, std::move(sink), std::move(random)));
    c->m_server = true;
    ngtcp2_cid scid{};
    scid.datalen = kCidBytes;
    c->m_random(scid.data, kCidBytes);
    Callbacks::NewConnection args;
    Callbacks::FillNew(args, true, config, c.get(), nowNs);
    args.params.original_dcid = hd.dcid; // RFC 9000 Section 7.3
    args.params.original_dcid_present = 1;
    const int rv = ngtcp2_conn_server_new(&c->m_conn,
                                          &hd.scid,
                                          &scid,
                                          &args.path,
                                          hd.version,
                                          &args.callbacks,
                                          &args.settings,
                                          &args.params,
                                          nullptr,
                                          c.get());
    if (rv != 0)
    {
        return nullptr;
    }
    return c;
}

int
QuicCcNgtcp2Connection::InstallKeys(int level)
{
    const ngtcp2_crypto_aead_ctx aead = NoAeadContext();
    const ngtcp2_crypto_cipher_ctx hp = NoCipherContext();
    const ngtcp2_crypto_ctx ctx = NoCryptoContext();
    switch (level)
    {
    case NGTCP2_ENCRYPTION_LEVEL_INITIAL:
        ngtcp2_conn_set_initial_crypto_ctx(m_conn, &ctx);
        return ngtcp2_conn_install_initial_key(m_conn,
                                               &aead,
                                               g_zeroIv,
                                               &hp,
                                               &aead,
                                               g_zeroIv,
                                               &hp,
                                               kIvBytes);
    case NGTCP2_ENCRYPTION_LEVEL_HANDSHAKE:
        ngtcp2_conn_set_crypto_ctx(m_conn, &ctx);
        if (int rv = ngtcp2_conn_install_rx_handshake_key(m_conn, &aead, g_zeroIv, kIvBytes, &hp))
        {
            return rv;
        }
        return ngtcp2_conn_install_tx_handshake_key(m_conn, &aead, g_zeroIv, kIvBytes, &hp);
    default:
        if (int rv = ngtcp2_conn_install_rx_key(m_conn,
                                                g_zeroSecret,
                                                kSecretBytes,
                                                &aead,
                                                g_zeroIv,
                                                kIvBytes,
                                                &hp))
        {
            return rv;
        }
        return ngtcp2_conn_install_tx_key(m_conn,
                                          g_zeroSecret,
                                          kSecretBytes,
                                          &aead,
                                          g_zeroIv,
                                          kIvBytes,
                                          &hp);
    }
}

int
QuicCcNgtcp2Connection::SubmitMessage(int level, QuicCcNgtcp2Handshake::Type type, uint64_t size)
{
    uint8_t params[kParamsBytes];
    ngtcp2_ssize paramsLength = 0;
    if (type == QuicCcNgtcp2Handshake::CLIENT_HELLO || type == QuicCcNgtcp2Handshake::SERVER_FLIGHT)
    {
        paramsLength = ngtcp2_conn_encode_local_transport_params(m_conn, params, sizeof(params));
        if (paramsLength < 0)
        {
            return NGTCP2_ERR_CALLBACK_FAILURE;
        }
    }
    const std::vector<uint8_t> message =
        QuicCcNgtcp2Handshake::Encode(type, params, static_cast<size_t>(paramsLength), size);
    return ngtcp2_conn_submit_crypto_data(m_conn,
                                          static_cast<ngtcp2_encryption_level>(level),
                                          message.data(),
                                          message.size()) == 0
               ? 0
               : NGTCP2_ERR_CALLBACK_FAILURE;
}

// The handshake's steps where a TLS 1.3 stack takes them (ngtcp2's crypto/shared.c:
// ngtcp2_crypto_derive_and_install_rx_key / _tx_key, ngtcp2_crypto_read_write_crypto_data).
int
QuicCcNgtcp2Connection::OnCryptoData(int level, uint64_t offset, const uint8_t* data, size_t length)
{
    if (level != NGTCP2_ENCRYPTION_LEVEL_INITIAL && level != NGTCP2_ENCRYPTION_LEVEL_HANDSHAKE)
    {
        return NGTCP2_ERR_CALLBACK_FAILURE; // no post-handshake messages in this model
    }
    const size_t index = level == NGTCP2_ENCRYPTION_LEVEL_INITIAL ? 0 : 1;
    std::vector<QuicCcNgtcp2Handshake::Message> messages;
    if (!m_handshake.Receive(index, offset, data, length, messages))
    {
        return NGTCP2_ERR_CALLBACK_FAILURE;
    }
    for (const auto& m : messages)
    {
        int rv = NGTCP2_ERR_CALLBACK_FAILURE;
        if (m_server && index == 0 && m.type == QuicCcNgtcp2Handshake::CLIENT_HELLO)
        {
            // Server: handshake keys; then the client's parameters and ours (after the
            // Handshake tx key, as ngtcp2_crypto_derive_and_install_tx_key); its flight; 1-RTT.
            rv = InstallKeys(NGTCP2_ENCRYPTION_LEVEL_HANDSHAKE);
            if (rv == 0)
            {
                rv = ngtcp2_conn_decode_and_set_remote_transport_params(m_conn,
                                                                        m.transportParams.data(),
                                                                        m.transportParams.size());
            }
            if (rv == 0)
            {
                rv = SubmitMessage(NGTCP2_ENCRYPTION_LEVEL_INITIAL,
                                   QuicCcNgtcp2Handshake::SERVER_HELLO,
                                   m_config.serverHelloBytes);
            }
            if (rv == 0)
            {
                rv = SubmitMessage(NGTCP2_ENCRYPTION_LEVEL_HANDSHAKE,
                                   QuicCcNgtcp2Handshake::SERVER_FLIGHT,
                                   m_config.serverFlightBytes);
            }
            if (rv == 0)
            {
                rv = InstallKeys(NGTCP2_ENCRYPTION_LEVEL_1RTT);
            }
        }
        else if (!m_server && index == 0 && m.type == QuicCcNgtcp2Handshake::SERVER_HELLO)
        {
            rv = InstallKeys(NGTCP2_ENCRYPTION_LEVEL_HANDSHAKE);
        }
        else if (!m_server && index == 1 && m.type == QuicCcNgtcp2Handshake::SERVER_FLIGHT)
        {
            // Client: the server's parameters before the 1-RTT rx key (as ngtcp2_crypto does),
            // then its Finished; the TLS handshake is over.
            rv = ngtcp2_conn_decode_and_set_remote_transport_params(m_conn,
                                                                    m.transportParams.data(),
                                                                    m.transportParams.size());
            if (rv == 0)
            {
                rv = InstallKeys(NGTCP2_ENCRYPTION_LEVEL_1RTT);
            }
            if (rv == 0)
            {
                rv = SubmitMessage(NGTCP2_ENCRYPTION_LEVEL_HANDSHAKE,
                                   QuicCcNgtcp2Handshake::FINISHED,
                                   m_config.clientFinishedBytes);
            }
            if (rv == 0)
            {
                ngtcp2_conn_tls_handshake_completed(m_conn);
            }
        }
        else if (m_server && index == 1 && m.type == QuicCcNgtcp2Handshake::FINISHED)
        {
            ngtcp2_conn_tls_handshake_completed(m_conn);
            rv = 0;
        }
        if (rv != 0)
        {
            return NGTCP2_ERR_CALLBACK_FAILURE; // out of order, duplicate or refused
        }
    }
    return 0;
}

QuicCcNgtcp2Connection::Status
QuicCcNgtcp2Connection::Fail(int error)
{
    if (m_error.empty())
    {
        m_error = ngtcp2_strerror(error);
    }
    const bool silent = error == NGTCP2_ERR_DRAINING || error == NGTCP2_ERR_IDLE_CLOSE ||
                        error == NGTCP2_ERR_DROP_CONN || error == NGTCP2_ERR_HANDSHAKE_TIMEOUT;
    if (m_conn && !m_closed && !silent)
    {
        WriteClose(error); // RFC 9000 Section 10.2: tell the peer why
    }
    m_closed = true;
    return FAILED;
}

QuicCcEcnState
QuicCcNgtcp2Connection::GetEcnState() const
{
    return m_ecnState;
}

void
QuicCcNgtcp2Connection::OnEcnSent(QuicCcEcnCodepoint ecn)
{
    if (m_ecnState == QUIC_CC_ECN_TESTING && ecn != QuicCcEcnCodepoint::NOT_ECT &&
        ++m_ecnTestingSent == kEcnTestingDatagrams)
    {
        m_ecnState = QUIC_CC_ECN_UNKNOWN; // conn_handle_tx_ecn: the last test datagram
    }
}

void
QuicCcNgtcp2Connection::OnLogLine(const std::string& line)
{
    // conn_verify_ecn (lib/ngtcp2_rtb.c) logs its two verdicts, and nothing else says them.
    if (m_config.ecn && line.find("path is not ECN capable") != std::string::npos)
    {
        m_ecnState = QUIC_CC_ECN_FAILED;
    }
    else if (m_config.ecn && line.find("path is ECN capable") != std::string::npos)
    {
        m_ecnState = QUIC_CC_ECN_CAPABLE;
    }
    if (m_config.log)
    {
        m_config.log(line);
    }
}

QuicCcNgtcp2Connection::Status
QuicCcNgtcp2Connection::Receive(const uint8_t* data,
                                size_t length,
                                QuicCcEcnCodepoint ecn,
                                uint64_t nowNs)
{
    m_nowNs = std::max(m_nowNs, nowNs);
    if (m_closed)
    {
        return m_error.empty() ? CLOSED : FAILED;
    }
    ngtcp2_path path;
    FillPath(&path);
    ngtcp2_pkt_info pi{};
    if (m_config.ecn)
    {
        pi.ecn = PktInfoEcn(ecn); // the library counts it and reports it in ACK_ECN
    }
    const int rv = ngtcp2_conn_read_pkt(m_conn, &path, &pi, data, length, nowNs);
    if (rv == NGTCP2_ERR_DRAINING)
    {
        m_closed = true; // the peer closed (RFC 9000 Section 10.2.2)
        return CLOSED;
    }
    if (rv != 0 && (ngtcp2_err_is_fatal(rv) || rv == NGTCP2_ERR_DROP_CONN))
    {
        return Fail(rv);
    }
    return OPEN; // a non-fatal error drops the datagram only
}

QuicCcNgtcp2Connection::Status
QuicCcNgtcp2Connection::HandleExpiry(uint64_t nowNs)
{
    m_nowNs = std::max(m_nowNs, nowNs);
    if (m_closed)
    {
        return m_error.empty() ? CLOSED : FAILED;
    }
    if (int rv = ngtcp2_conn_handle_expiry(m_conn, nowNs))
    {
        return Fail(rv);
    }
    return Write(nowNs);
}

uint64_t
QuicCcNgtcp2Connection::GetExpiry() const
{
    return m_closed ? std::numeric_limits<uint64_t>::max() : ngtcp2_conn_get_expiry(m_conn);
}

// The write loop of ngtcp2's examples (examples/client.cc, Client::write_streams): packets
// until ngtcp2 returns 0 (cwnd, pacing, nothing to send) or one send quantum is out, then
// ngtcp2_conn_update_pkt_tx_time for the pacer.
QuicCcNgtcp2Connection::Status
QuicCcNgtcp2Connection::Write(uint64_t nowNs)
{
    m_nowNs = std::max(m_nowNs, nowNs);
    if (m_closed)
    {
        return m_error.empty() ? CLOSED : FAILED;
    }
    if (!m_server && m_streamId < 0 && ngtcp2_conn_get_handshake_completed(m_conn))
    {
        int64_t id = -1;
        if (ngtcp2_conn_open_bidi_stream(m_conn, &id, nullptr) == 0)
        {
            m_streamId = id;
        }
    }
    ngtcp2_path_storage ps;
    ngtcp2_path_storage_zero(&ps);
    ngtcp2_pkt_info pi{};
    m_buffer.resize(m_config.maxUdpPayloadBytes);
    const size_t quantum = ngtcp2_conn_get_send_quantum(m_conn);
    size_t burst = 0;
    bool streamBlocked = false;
    for (;;)
    {
        ngtcp2_vec vec[kMaxVectors];
        size_t count = 0;
        uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_NONE;
        int64_t streamId = -1;
        uint64_t offered = 0;
        if (m_streamId >= 0 && !streamBlocked &&
            (m_written < m_given || (m_finPending && !m_finWritten)))
        {
            streamId = m_streamId;
            // Offered: everything given, or at least a datagram's worth: ngtcp2 then writes the
            // same STREAM frame as with more (ngtcp2_pkt_stream_max_datalen caps the length by
            // the room left, and the FIN goes only with the last byte).
            StoreUpTo(std::min(m_given, m_written + m_buffer.size()));
            uint64_t offset = m_written;
            while (offset < m_stored && count < kMaxVectors)
            {
                const uint64_t index = (offset - m_chunksBase) / kChunkBytes;
                std::vector<uint8_t>& chunk = m_chunks[index];
                const uint64_t start = offset - (m_chunksBase + index * kChunkBytes);
                vec[count].base = chunk.data() + start;
                vec[count].len = chunk.size() - start;
                offset += vec[count].len;
                ++count;
            }
            offered = offset - m_written;
            if (m_finPending && offset == m_given)
            {
                flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
            }
        }
        ngtcp2_ssize accepted = -1;
        const ngtcp2_ssize n = ngtcp2_conn_writev_stream(m_conn,
                                                         &ps.path,
                                                         &pi,
                                                         m_buffer.data(),
                                                         m_buffer.size(),
                                                         &accepted,
                                                         flags,
                                                         streamId,
                                                         vec,
                                                         count,
                                                         nowNs);
        if (n < 0)
        {
            if (streamId >= 0 &&
                (n == NGTCP2_ERR_STREAM_DATA_BLOCKED || n == NGTCP2_ERR_STREAM_SHUT_WR ||
                 n == NGTCP2_ERR_STREAM_NOT_FOUND))
            {
                streamBlocked = true; // flow control: ACKs and control frames still go
                continue;
            }
            return Fail(static_cast<int>(n));
        }
        if (accepted >= 0)
        {
            m_written += static_cast<uint64_t>(accepted);
            if ((flags & NGTCP2_WRITE_STREAM_FLAG_FIN) &&
                static_cast<uint64_t>(accepted) == offered)
            {
                m_finWritten = true;
            }
        }
        if (n == 0)
        {
            break;
        }
        // ngtcp2 sets pi.ecn per datagram (conn_handle_tx_ecn); without Ecn it is not used.
        const QuicCcEcnCodepoint ecn =
            m_config.ecn ? QuicCcEcnFromTos(pi.ecn) : QuicCcEcnCodepoint::NOT_ECT;
        OnEcnSent(ecn);
        m_sink(m_buffer.data(), static_cast<size_t>(n), ecn);
        burst += static_cast<size_t>(n);
        if (burst >= quantum)
        {
            break;
        }
    }
    ngtcp2_conn_update_pkt_tx_time(m_conn, nowNs);
    return OPEN;
}

void
QuicCcNgtcp2Connection::Close(uint64_t nowNs)
{
    m_nowNs = std::max(m_nowNs, nowNs);
    if (m_closed)
    {
        return;
    }
    WriteClose(0);
}

void
QuicCcNgtcp2Connection::WriteClose(int error)
{
    ngtcp2_ccerr ccerr;
    ngtcp2_ccerr_default(&ccerr);
    if (error != 0)
    {
        ngtcp2_ccerr_set_liberr(&ccerr, error, nullptr, 0);
    }
    ngtcp2_path_storage ps;
    ngtcp2_path_storage_zero(&ps);
    ngtcp2_pkt_info pi{};
    m_buffer.resize(m_config.maxUdpPayloadBytes);
    const ngtcp2_ssize n = ngtcp2_conn_write_connection_close(m_conn,
                                                              &ps.path,
                                                              &pi,
                                                              m_buffer.data(),
                                                              m_buffer.size(),
                                                              &ccerr,
                                                              m_nowNs);
    m_closed = true;
    if (n > 0)
    {
        m_closePacket.assign(m_buffer.begin(), m_buffer.begin() + n);
        m_closeEcn = m_config.ecn ? QuicCcEcnFromTos(pi.ecn) : QuicCcEcnCodepoint::NOT_ECT;
        RepeatClose();
    }
}

void
QuicCcNgtcp2Connection::RepeatClose()
{
    if (!m_closePacket.empty())
    {
        m_sink(m_closePacket.data(), m_closePacket.size(), m_closeEcn);
    }
}

uint64_t
QuicCcNgtcp2Connection::ClosingPeriodNs() const
{
    return 3 * ngtcp2_conn_get_pto(m_conn);
}

void
QuicCcNgtcp2Connection::SetStreamSource(StreamSource source)
{
    m_source = std::move(source);
}

void
QuicCcNgtcp2Connection::Send(uint64_t length)
{
    m_given += length;
}

void
QuicCcNgtcp2Connection::StoreUpTo(uint64_t end)
{
    while (m_stored < end)
    {
        if (m_chunks.empty() || m_chunks.back().size() == kChunkBytes)
        {
            m_chunks.emplace_back();
            m_chunks.back().reserve(kChunkBytes); // filled in place: never reallocated
        }
        std::vector<uint8_t>& chunk = m_chunks.back();
        const size_t n =
            static_cast<size_t>(std::min<uint64_t>(m_given - m_stored, kChunkBytes - chunk.size()));
        const size_t at = chunk.size();
        chunk.resize(at + n);
        m_source(chunk.data() + at, n);
        m_stored += n;
    }
}

void
QuicCcNgtcp2Connection::ShutdownWrite()
{
    m_finPending = true;
}

uint64_t
QuicCcNgtcp2Connection::GetUnacknowledged() const
{
    return m_given - m_acked;
}

uint64_t
QuicCcNgtcp2Connection::GetStoredBytes() const
{
    return m_stored - m_chunksBase;
}

bool
QuicCcNgtcp2Connection::AllAcknowledged() const
{
    return m_finWritten && m_acked == m_given;
}

void
QuicCcNgtcp2Connection::OnAcked(uint64_t offset, uint64_t length)
{
    m_acked = std::max(m_acked, offset + length);
    while (!m_chunks.empty() && m_chunks.front().size() == kChunkBytes &&
           m_chunksBase + kChunkBytes <= m_acked)
    {
        m_chunks.pop_front();
        m_chunksBase += kChunkBytes;
    }
}

void
QuicCcNgtcp2Connection::OnStreamData(int64_t streamId,
                                     uint32_t flags,
                                     const uint8_t* data,
                                     size_t length)
{
    if (m_streamId < 0)
    {
        m_streamId = streamId; // the server: the client's stream
    }
    if (streamId != m_streamId)
    {
        return; // one stream per connection in this transport
    }
    m_rx.insert(m_rx.end(), data, data + length);
    if (flags & NGTCP2_STREAM_DATA_FLAG_FIN)
    {
        m_peerFin = true;
    }
}

size_t
QuicCcNgtcp2Connection::GetRxAvailable() const
{
    return m_rx.size() - m_rxHead;
}

uint64_t
QuicCcNgtcp2Connection::GetPtoNs() const
{
#if NGTCP2_VERSION_NUM >= 0x011700
    return ngtcp2_conn_get_pto2(m_conn);
#else
    return ngtcp2_conn_get_pto(m_conn);
#endif
}

size_t
QuicCcNgtcp2Connection::Read(std::vector<uint8_t>& out, size_t maxBytes)
{
    const size_t n = std::min(maxBytes, GetRxAvailable());
    out.assign(m_rx.begin() + m_rxHead, m_rx.begin() + m_rxHead + n);
    m_rxHead += n;
    if (m_rxHead == m_rx.size())
    {
        m_rx.clear();
        m_rxHead = 0;
    }
    else if (m_rxHead > m_rx.size() / 2)
    {
        m_rx.erase(m_rx.begin(), m_rx.begin() + m_rxHead);
        m_rxHead = 0;
    }
    if (n > 0 && !m_closed)
    {
        // Consumed: open the windows again (RFC 9000 Section 4.2).
        ngtcp2_conn_extend_max_stream_offset(m_conn, m_streamId, n);
        ngtcp2_conn_extend_max_offset(m_conn, n);
    }
    return n;
}

bool
QuicCcNgtcp2Connection::PeerFinished() const
{
    return m_peerFin;
}

bool
QuicCcNgtcp2Connection::HandshakeCompleted() const
{
    return m_conn && ngtcp2_conn_get_handshake_completed(m_conn);
}

QuicCcNgtcp2Connection::Info
QuicCcNgtcp2Connection::GetInfo() const
{
    Info info;
    if (!m_conn)
    {
        return info;
    }
    ngtcp2_conn_info ci;
    ngtcp2_conn_get_conn_info(m_conn, &ci);
    info.cwnd = ci.cwnd;
    info.ssthresh = ci.ssthresh;
    info.bytesInFlight = ci.bytes_in_flight;
    info.latestRttNs = ci.latest_rtt;
    info.smoothedRttNs = ci.smoothed_rtt;
    info.minRttNs = ci.min_rtt;
#ifdef NGTCP2_CONN_INFO_V2
    info.packetsSent = ci.pkt_sent;
    info.packetsLost = ci.pkt_lost;
    info.bytesLost = ci.bytes_lost;
#endif
    return info;
}

std::string
QuicCcNgtcp2Connection::GetError() const
{
    return m_error;
}

} // namespace ns3
