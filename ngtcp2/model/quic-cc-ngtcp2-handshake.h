/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_HANDSHAKE_H
#define QUIC_CC_NGTCP2_HANDSHAKE_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc-ngtcp2
 * The handshake messages the ngtcp2 transport carries in CRYPTO frames instead of TLS 1.3: their
 * sizes and round trips are those of a TLS handshake, their cryptography is not modelled (no
 * keys are derived, packets are "protected" by a copy and a zero tag).
 *
 * Flights, as TLS 1.3 over QUIC (RFC 9001 Section 4.1): client Initial: ClientHello; server
 * Initial: ServerHello; server Handshake: the rest of the server flight (EncryptedExtensions,
 * Certificate, CertificateVerify, Finished in TLS) as one message; client Handshake: Finished.
 * ClientHello and the server flight carry the encoded QUIC transport parameters (RFC 9000
 * Section 18), as TLS's quic_transport_parameters extension does.
 *
 * Wire form of a message: type (1 byte), body length (3 bytes, big endian), then the body:
 * transport-parameter length (2 bytes), the parameters, zero padding up to the modelled size.
 * Pure logic: no ngtcp2 or simulator call.
 */
class QuicCcNgtcp2Handshake
{
  public:
    /// Message types (values of TLS 1.3's HandshakeType where one exists, RFC 8446 Section 4).
    enum Type : uint8_t
    {
        CLIENT_HELLO = 1,
        SERVER_HELLO = 2,
        SERVER_FLIGHT = 8, //!< EncryptedExtensions .. server Finished, as one message
        FINISHED = 20,     //!< the client's Finished
    };

    /// Header bytes in front of the body (type + length) and the parameter-length field.
    static constexpr size_t kHeaderBytes = 4;
    static constexpr size_t kParamsLengthBytes = 2; //!< the transport parameters' length field
    /// Largest message body accepted (TLS's 2^24-1 bytes, and no more than 64 KiB here).
    static constexpr size_t kMaxMessageBytes = 65536;

    /// One parsed message.
    struct Message
    {
        Type type;                            //!< which message
        std::vector<uint8_t> transportParams; //!< empty for ServerHello / Finished
    };

    /**
     * Encode a message of \p totalBytes on the wire (header included), carrying \p params.
     * The size grows to fit the header and the parameters when \p totalBytes is smaller.
     */
    static std::vector<uint8_t> Encode(Type type,
                                       const uint8_t* params,
                                       size_t paramsLength,
                                       size_t totalBytes);

    /// The smallest wire size of a message without transport parameters.
    static constexpr size_t MinimumBytes()
    {
        return kHeaderBytes + kParamsLengthBytes;
    }

    /// Number of encryption levels whose CRYPTO data is reassembled (Initial, Handshake).
    static constexpr size_t kLevels = 2;

    /**
     * Append CRYPTO data of \p level (0 Initial, 1 Handshake) received in order at \p offset;
     * complete messages go to \p out in order. Returns false on a gap, an unknown level or type,
     * or a length above kMaxMessageBytes (received bytes are not trusted).
     */
    bool Receive(size_t level,
                 uint64_t offset,
                 const uint8_t* data,
                 size_t length,
                 std::vector<Message>& out);

  private:
    std::array<std::vector<uint8_t>, kLevels> m_pending{}; //!< bytes of an unfinished message
    std::array<uint64_t, kLevels> m_nextOffset{};          //!< next in-order offset per level
};

} // namespace ns3

#endif // QUIC_CC_NGTCP2_HANDSHAKE_H
