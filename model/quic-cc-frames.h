/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_FRAMES_H
#define QUIC_CC_FRAMES_H

#include "quic-cc-ack-range.h"
#include "quic-cc-ecn.h"

#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

/**
 * \file
 * \ingroup quic-cc-transport
 * Wire codec of the quic-cc transport: a QUIC-like packet header and frames, encoded with QUIC
 * variable-length integers (RFC 9000 Section 16).
 *
 * Wire layout (quic-cc's own; not interoperable with real QUIC, which encrypts and has stream
 * ids). "varint" is a QUIC variable-length integer: 1, 2, 4 or 8 bytes, value 0 .. 2^62-1, the
 * two high bits of the first byte giving the length (00 = 1, 01 = 2, 10 = 4, 11 = 8 bytes), the
 * rest big-endian.
 *
 * \verbatim
 * Packet  = Header Frame+                          (at least one frame; frames run to the end)
 * Header  = type (1 byte: 1 INITIAL, 2 HANDSHAKE, 3 ONE_RTT)
 *           connection id (8 bytes, big-endian)
 *           packet number (varint)
 * Frame   = frame type (varint, shortest encoding) + fields:
 *   0x00 PADDING           no fields; a run of N consecutive 0x00 bytes is parsed as ONE
 *                          QuicCcPaddingFrame{N}, so two adjacent padding frames merge
 *   0x01 PING              no fields
 *   0x02 ACK               largest acknowledged (varint)
 *                          ack delay (varint, microseconds >> 3: ack_delay_exponent 3)
 *                          ACK range count (varint) = number of (gap, range length) pairs
 *                          first ACK range (varint) = largest - smallest of the first range
 *                          then per pair (RFC 9000 Section 19.3.1):
 *                            gap (varint)          = previous smallest - this largest - 2
 *                            range length (varint) = this largest - this smallest
 *   0x03 ACK_ECN           an ACK, then its ECN counts (RFC 9000 Section 19.3.2):
 *                          ECT(0) count, ECT(1) count, ECN-CE count (varints)
 *   0x08..0x0f STREAM      the single byte stream of the connection (no stream id field);
 *                          type bits: 0x04 OFF, 0x02 LEN, 0x01 FIN
 *                          offset (varint, only if OFF; otherwise 0)
 *                          length (varint, only if LEN; otherwise the data runs to the end)
 *                          data (length bytes)
 *                          QuicCcSerialize always sets OFF and LEN (type 0x0e or 0x0f).
 *   0x10 MAX_DATA          maximum data (varint): the connection's limit, bytes
 *   0x11 MAX_STREAM_DATA   maximum stream data (varint): the stream's limit (no stream id field)
 *   0x14 DATA_BLOCKED      the connection limit at which the sender is blocked (varint)
 *   0x15 STREAM_DATA_BLOCKED  the stream limit at which the sender is blocked (varint)
 *   0x1c CONNECTION_CLOSE  error code (varint), frame type (varint, sent as 0, ignored on
 *                          receipt), reason phrase length (varint), reason phrase (bytes)
 *   0x1e HANDSHAKE_DONE    no fields
 * \endverbatim
 *
 * Serialization trusts nothing either: a value that cannot be encoded (a varint field above
 * 2^62-1, bad ACK ranges, a negative ack delay, a zero-length padding frame, a packet without
 * frames) is a fatal error whose message names the value. Parsing treats the bytes as hostile:
 * it never crashes, never reads out of bounds, allocates at most in proportion to the input, and
 * reports the first problem with its byte offset.
 */

namespace ns3
{

/// Largest value a QUIC variable-length integer can carry, 2^62-1 (RFC 9000 Section 16).
constexpr uint64_t kQuicCcVarIntMax = (uint64_t{1} << 62) - 1;

/// ack_delay_exponent: the ACK delay field carries microseconds >> 3 (RFC 9000 Section 18.2
/// default), so a decoded ack delay is a multiple of 8 us, rounded down.
constexpr unsigned kQuicCcAckDelayExponent = 3;

/// Size of the fixed part of the header: type byte plus 8-byte connection id.
constexpr size_t kQuicCcFixedHeaderSize = 9;

/// Packet types of the 1-byte header field.
enum class QuicCcPacketType : uint8_t
{
    INITIAL = 1,
    HANDSHAKE = 2,
    ONE_RTT = 3
};

/// Frame type values on the wire (the STREAM range is 0x08..0x0f).
enum class QuicCcFrameType : uint8_t
{
    PADDING = 0x00,
    PING = 0x01,
    ACK = 0x02,
    ACK_ECN = 0x03,
    STREAM = 0x08, //!< base value; | 0x04 OFF, | 0x02 LEN, | 0x01 FIN
    MAX_DATA = 0x10,
    MAX_STREAM_DATA = 0x11,
    DATA_BLOCKED = 0x14,
    STREAM_DATA_BLOCKED = 0x15,
    CONNECTION_CLOSE = 0x1c,
    HANDSHAKE_DONE = 0x1e
};

/// ACK frame (RFC 9000 Section 19.3): type 0x02, or 0x03 with ECN counts.
struct QuicCcAckFrame
{
    /// Descending, disjoint and non-adjacent (ranges[i+1].largest + 2 <= ranges[i].smallest);
    /// ranges[0].largest is the largest acknowledged; at least one range.
    std::vector<QuicCcAckRange> ranges;
    /// Encoded as microseconds >> 3, so it decodes to a multiple of 8 us (rounded down); >= 0.
    Time ackDelay;
    /// The receiver's ECN counts: present in type 0x03 (ACK_ECN), absent in type 0x02; each
    /// count at most 2^62-1
    std::optional<QuicCcEcnCounts> ecn;
};

/**
 * STREAM frame of the connection's single byte stream. The bytes carried are \p payload, an
 * ns-3 packet: on the send path a fragment of the application's ns3::Packets held by the send
 * stream, so that virtual (zero-filled) application data stays virtual in the datagram (see
 * QuicCcSerializeToPacket); on the receive path a fragment of the received datagram (QuicCcParse
 * with a source packet; without one, a packet made of the bytes).
 */
struct QuicCcStreamFrame
{
    uint64_t offset;           //!< stream offset of the first byte; offset + Length() <= 2^62-1
    bool fin;                  //!< the stream ends after this frame's data
    Ptr<const Packet> payload; //!< the stream bytes carried (null: none)

    /// Bytes of stream data carried.
    uint64_t Length() const;
    /// A copy of the stream data carried (whichever representation holds it).
    std::vector<uint8_t> Bytes() const;
};

/// PING frame (RFC 9000 Section 19.2): ack-eliciting, no content.
struct QuicCcPingFrame
{
};

/// A run of PADDING bytes (RFC 9000 Section 19.1).
struct QuicCcPaddingFrame
{
    uint64_t length; //!< number of 0x00 bytes, >= 1
};

/// CONNECTION_CLOSE frame, transport variant 0x1c (RFC 9000 Section 19.19).
struct QuicCcConnectionCloseFrame
{
    uint64_t errorCode; //!< error code, <= 2^62-1
    std::string reason; //!< reason phrase, raw bytes (not checked for UTF-8)
};

/// HANDSHAKE_DONE frame (RFC 9000 Section 19.20).
struct QuicCcHandshakeDoneFrame
{
};

/**
 * A flow-control frame of RFC 9000 Section 4: MAX_DATA / MAX_STREAM_DATA (Sections 19.9, 19.10)
 * or DATA_BLOCKED / STREAM_DATA_BLOCKED (Sections 19.12, 19.13); the stream variants carry no
 * stream id (one stream per connection).
 */
struct QuicCcFlowControlFrame
{
    QuicCcFrameType type; //!< MAX_DATA, MAX_STREAM_DATA, DATA_BLOCKED or STREAM_DATA_BLOCKED
    uint64_t limit;       //!< the limit announced or blocked at, bytes, <= 2^62-1
};

/// Any frame quic-cc knows.
using QuicCcFrame = std::variant<QuicCcPaddingFrame,
                                 QuicCcPingFrame,
                                 QuicCcAckFrame,
                                 QuicCcStreamFrame,
                                 QuicCcConnectionCloseFrame,
                                 QuicCcHandshakeDoneFrame,
                                 QuicCcFlowControlFrame>;

/// A packet: header fields plus frames.
struct QuicCcPacket
{
    QuicCcPacketType type{QuicCcPacketType::ONE_RTT}; //!< packet type
    uint64_t connectionId{0};                         //!< any 64-bit value
    uint64_t packetNumber{0};                         //!< <= 2^62-1, sent as a full varint
    std::vector<QuicCcFrame> frames;                  //!< at least one to be sent

    /// RFC 9002 Section 2: true if any frame is other than ACK, PADDING or CONNECTION_CLOSE.
    bool IsAckEliciting() const;
};

/// \name Equality (field by field; ack delays compare as Time)
/// @{
/**
 * \param a  one value
 * \param b  the other
 * \return true if every field is equal
 */
bool operator==(const QuicCcAckRange& a, const QuicCcAckRange& b);
bool operator==(const QuicCcAckFrame& a, const QuicCcAckFrame& b);
bool operator==(const QuicCcStreamFrame& a, const QuicCcStreamFrame& b);
bool operator==(const QuicCcPingFrame& a, const QuicCcPingFrame& b);
bool operator==(const QuicCcPaddingFrame& a, const QuicCcPaddingFrame& b);
bool operator==(const QuicCcConnectionCloseFrame& a, const QuicCcConnectionCloseFrame& b);
bool operator==(const QuicCcHandshakeDoneFrame& a, const QuicCcHandshakeDoneFrame& b);
bool operator==(const QuicCcFlowControlFrame& a, const QuicCcFlowControlFrame& b);
bool operator==(const QuicCcPacket& a, const QuicCcPacket& b);
bool operator!=(const QuicCcPacket& a, const QuicCcPacket& b);
/// @}

/// Prints "INITIAL", "HANDSHAKE", "ONE_RTT" (or the number of an invalid value).
std::ostream& operator<<(std::ostream& os, QuicCcPacketType type);
/// One-line summary for logs and test failures, e.g. "ONE_RTT cid=0x1 pn=7 [PING, ACK{9-7,3-1}]".
std::ostream& operator<<(std::ostream& os, const QuicCcPacket& packet);

/**
 * Serialize a packet.
 * \param packet the packet; fatal error (naming the value) if any field cannot be encoded:
 *        no frames, a varint field above 2^62-1, ACK with no range / smallest > largest /
 *        ranges not descending, disjoint and non-adjacent / negative ack delay, STREAM with
 *        offset + length above 2^62-1, PADDING of length 0.
 * \return the bytes, exactly QuicCcSerializedSize(packet) of them (one allocation)
 */
std::vector<uint8_t> QuicCcSerialize(const QuicCcPacket& packet);

/**
 * Serialize a packet into an ns-3 Packet for the network: the same bytes as QuicCcSerialize.
 * If the last frame is a STREAM frame whose data is a \p payload packet, that packet is appended
 * as it is (Packet::AddAtEnd after the other bytes) instead of being copied, as ns-3 TCP builds
 * segments from its TcpTxBuffer: virtual application data stays virtual in the datagram.
 * \param packet as for QuicCcSerialize
 * \return the datagram, QuicCcSerializedSize(packet) bytes
 */
Ptr<Packet> QuicCcSerializeToPacket(const QuicCcPacket& packet);

/// Bytes of QuicCcSerialize(packet), computed without allocating. Fatal error on the same
/// unencodable values as QuicCcSerialize, except that a packet without frames is allowed here
/// (its size is the header size).
size_t QuicCcSerializedSize(const QuicCcPacket& packet);

/// Bytes before the first frame: 1 + 8 + varint size of the packet number.
size_t QuicCcHeaderSize(const QuicCcPacket& packet);

/// Bytes of a STREAM frame excluding its data, as QuicCcSerialize writes it (OFF and LEN set):
/// 1 + varint size of \p offset + varint size of \p length. Fatal error if either > 2^62-1.
size_t QuicCcStreamFrameOverhead(uint64_t offset, uint64_t length);

/// Bytes of an ACK frame, type byte included. Fatal error on bad ranges (see QuicCcSerialize).
size_t QuicCcAckFrameSize(const QuicCcAckFrame& ack);

/// How many of an ACK frame's ranges, from the first, fit in \p room bytes with the frame's other
/// fields: the largest count whose QuicCcAckFrameSize is <= \p room, at least 1 (the first range
/// is always sent). One pass over the ranges; fatal error on bad ranges, as QuicCcAckFrameSize.
size_t QuicCcAckRangesThatFit(const QuicCcAckFrame& ack, uint64_t room);

/// Bytes of any frame as QuicCcSerialize writes it (PADDING: its length).
size_t QuicCcFrameSize(const QuicCcFrame& frame);

/// Bytes of the varint encoding of \p v: 1 (< 2^6), 2 (< 2^14), 4 (< 2^30) or 8.
/// Fatal error naming \p v if it exceeds 2^62-1.
size_t QuicCcVarIntSize(uint64_t v);

/**
 * Write \p v as a varint of QuicCcVarIntSize(v) bytes (shortest encoding).
 * \param v value, <= 2^62-1 (fatal error otherwise)
 * \param out at least QuicCcVarIntSize(v) writable bytes
 * \return the number of bytes written
 */
size_t QuicCcWriteVarInt(uint64_t v, uint8_t* out);

/**
 * Read one varint (any of the four lengths; non-shortest encodings are accepted).
 * \param data bytes to read from
 * \param size bytes available at \p data
 * \param[out] value the decoded value, set only on success
 * \return bytes consumed (1, 2, 4 or 8), or 0 if \p size is too small (truncated varint)
 */
size_t QuicCcReadVarInt(const uint8_t* data, size_t size, uint64_t& value);

/// Outcome of QuicCcParse: exactly one of packet and error is set (error non-empty on failure).
struct QuicCcParseResult
{
    std::optional<QuicCcPacket> packet; //!< the packet, on success
    std::string error;                  //!< what is wrong and at which byte offset, on failure
};

/**
 * Parse received bytes. Never crashes, asserts or reads outside [data, data + size), whatever
 * the bytes; memory use is bounded by a small multiple of \p size. Rejects (with an error naming
 * the problem, the value and the byte offset): an empty or truncated header, an unknown packet
 * type, a truncated varint or field, an unknown or non-shortest-encoded frame type, an ACK whose
 * ranges go below packet number 0 or whose range count cannot fit in the remaining bytes, an ack
 * delay beyond the range of ns3::Time, a STREAM frame whose offset + length exceeds 2^62-1 or
 * whose length exceeds the remaining bytes, a reason phrase longer than the remaining bytes, and
 * a packet without frames.
 * \param data the datagram payload (may be nullptr if \p size is 0)
 * \param size its length in bytes
 * \param source null, or the ns-3 packet whose bytes \p data holds (its size must be \p size;
 *        a fatal error otherwise): STREAM data is then returned as fragments of it
 *        (QuicCcStreamFrame::payload) instead of packets made of copies
 * \return the packet or an error
 */
QuicCcParseResult QuicCcParse(const uint8_t* data, size_t size, Ptr<const Packet> source = nullptr);

/**
 * QuicCcParse into an existing packet, so that a caller parsing datagram after datagram reuses
 * the frame list's memory (the per-packet receive path).
 * \param data  as QuicCcParse
 * \param size  as QuicCcParse
 * \param source  as QuicCcParse
 * \param packet  replaced by the parsed packet on success (frames cleared first); unspecified on
 *        failure
 * \param error  set to QuicCcParse's error on failure, untouched on success
 * \return true on success
 */
bool QuicCcParseInto(const uint8_t* data,
                     size_t size,
                     const Ptr<const Packet>& source,
                     QuicCcPacket& packet,
                     std::string& error);

} // namespace ns3

#endif /* QUIC_CC_FRAMES_H */
