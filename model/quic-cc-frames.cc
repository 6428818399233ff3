/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-frames.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <cstring>
#include <memory>
#include <sstream>
#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcFrames");

namespace
{

/// STREAM type bits (RFC 9000 Section 19.8).
constexpr uint8_t kStreamBitOff = 0x04;
constexpr uint8_t kStreamBitLen = 0x02;
constexpr uint8_t kStreamBitFin = 0x01;

/// The name of a flow-control frame type, or null if \p type is none of them.
const char*
FlowControlTypeName(QuicCcFrameType type)
{
    switch (type)
    {
    case QuicCcFrameType::MAX_DATA:
        return "MAX_DATA";
    case QuicCcFrameType::MAX_STREAM_DATA:
        return "MAX_STREAM_DATA";
    case QuicCcFrameType::DATA_BLOCKED:
        return "DATA_BLOCKED";
    case QuicCcFrameType::STREAM_DATA_BLOCKED:
        return "STREAM_DATA_BLOCKED";
    default:
        return nullptr;
    }
}

/// Shortest varint size; the caller has checked v <= kQuicCcVarIntMax.
inline size_t
VarIntSizeUnchecked(uint64_t v)
{
    if (v < (uint64_t{1} << 6))
    {
        return 1;
    }
    if (v < (uint64_t{1} << 14))
    {
        return 2;
    }
    if (v < (uint64_t{1} << 30))
    {
        return 4;
    }
    return 8;
}

/// QuicCcReadVarInt, inline for the parser's loops.
inline size_t
ReadVarIntInline(const uint8_t* data, size_t size, uint64_t& value)
{
    if (size == 0)
    {
        return 0;
    }
    if (data[0] < 0x40)
    {
        value = data[0]; // one byte: most gaps, range lengths and frame types
        return 1;
    }
    const size_t n = size_t{1} << (data[0] >> 6);
    if (n > size)
    {
        return 0;
    }
    uint64_t v = data[0] & 0x3f;
    for (size_t i = 1; i < n; ++i)
    {
        v = (v << 8) | data[i];
    }
    value = v;
    return n;
}

/// Varint size of a field, with a fatal error naming the field if it cannot be encoded.
inline size_t
FieldSize(uint64_t v, const char* field)
{
    NS_ABORT_MSG_IF(v > kQuicCcVarIntMax,
                    "quic-cc frames: " << field << " " << v
                                       << " exceeds the varint maximum 2^62-1 = "
                                       << kQuicCcVarIntMax);
    return VarIntSizeUnchecked(v);
}

/// Ack delay field (microseconds >> 3) of a frame; fatal error if the delay is negative.
inline uint64_t
AckDelayField(const QuicCcAckFrame& ack)
{
    NS_ABORT_MSG_IF(ack.ackDelay.IsStrictlyNegative(),
                    "quic-cc frames: ACK ack delay must be >= 0, got " << ack.ackDelay);
    return static_cast<uint64_t>(ack.ackDelay.GetMicroSeconds()) >> kQuicCcAckDelayExponent;
}

/// The fatal error of CheckAckRange (out of line: the loops that check stay small).
[[noreturn, gnu::noinline]] void
AckRangeError(const QuicCcAckRange* ranges, size_t i)
{
    const QuicCcAckRange& prev = ranges[i - 1];
    const QuicCcAckRange& cur = ranges[i];
    NS_ABORT_MSG_IF(cur.smallest > cur.largest,
                    "quic-cc frames: ACK range " << i << " has smallest " << cur.smallest
                                                 << " > largest " << cur.largest);
    NS_FATAL_ERROR("quic-cc frames: ACK range " << i << " (largest " << cur.largest
                                                << ") must be below range " << i - 1
                                                << " (smallest " << prev.smallest
                                                << ") by at least 2: descending, disjoint and "
                                                   "non-adjacent");
}

/// Fatal error unless ACK range \p i of \p ranges (i >= 1) is ordered and lies below range i - 1
/// by at least 2.
inline void
CheckAckRange(const QuicCcAckRange* ranges, size_t i)
{
    const QuicCcAckRange& prev = ranges[i - 1];
    const QuicCcAckRange& cur = ranges[i];
    if (cur.smallest > cur.largest || cur.largest >= prev.smallest ||
        prev.smallest - cur.largest < 2)
    {
        AckRangeError(ranges, i);
    }
}

/// Writes into a buffer large enough for the packet (its size or an upper bound computed
/// beforehand, which validated every value but the ACK ranges after the first: the ACK writer
/// checks those as it writes them).
class Writer
{
  public:
    explicit Writer(uint8_t* out)
        : m_p(out)
    {
    }

    void Byte(uint8_t b)
    {
        *m_p++ = b;
    }

    void VarInt(uint64_t v)
    {
        if (v < (uint64_t{1} << 6))
        {
            *m_p++ = static_cast<uint8_t>(v); // one byte: most gaps and range lengths
            return;
        }
        const size_t n = VarIntSizeUnchecked(v);
        static constexpr uint8_t kPrefix[9] = {0, 0x00, 0x40, 0, 0x80, 0, 0, 0, 0xc0};
        for (size_t i = n; i > 0; --i)
        {
            m_p[i - 1] = static_cast<uint8_t>(v);
            v >>= 8;
        }
        m_p[0] |= kPrefix[n];
        m_p += n;
    }

    void BigEndian64(uint64_t v)
    {
        for (int i = 7; i >= 0; --i)
        {
            m_p[i] = static_cast<uint8_t>(v);
            v >>= 8;
        }
        m_p += 8;
    }

    void Bytes(const void* data, size_t n)
    {
        if (n > 0)
        {
            std::memcpy(m_p, data, n);
            m_p += n;
        }
    }

    /// Copy the bytes of \p packet.
    void Bytes(const Packet& packet)
    {
        const uint32_t n = packet.GetSize();
        packet.CopyData(m_p, n);
        m_p += n;
    }

    void Zeros(size_t n)
    {
        std::memset(m_p, 0, n);
        m_p += n;
    }

    uint8_t* Position() const
    {
        return m_p;
    }

  private:
    uint8_t* m_p; //!< next byte to write
};

size_t
PaddingSize(const QuicCcPaddingFrame& f)
{
    NS_ABORT_MSG_IF(f.length == 0, "quic-cc frames: PADDING length must be >= 1, got 0");
    NS_ABORT_MSG_IF(f.length > kQuicCcVarIntMax,
                    "quic-cc frames: PADDING length " << f.length << " exceeds 2^62-1");
    return static_cast<size_t>(f.length);
}

size_t
StreamSize(const QuicCcStreamFrame& f)
{
    const uint64_t length = f.Length();
    const size_t overhead = QuicCcStreamFrameOverhead(f.offset, length);
    NS_ABORT_MSG_IF(f.offset > kQuicCcVarIntMax - length,
                    "quic-cc frames: STREAM offset " << f.offset << " + length " << length
                                                     << " exceeds 2^62-1");
    return overhead + length;
}

size_t
CloseSize(const QuicCcConnectionCloseFrame& f)
{
    return 1 + FieldSize(f.errorCode, "CONNECTION_CLOSE error code") + 1 /* frame type 0 */ +
           FieldSize(f.reason.size(), "CONNECTION_CLOSE reason length") + f.reason.size();
}

/// Bytes of an ACK frame up to its first range (type, largest, delay, range count, first range),
/// validating them and range 0.
size_t
AckSizeBeforeRanges(const QuicCcAckFrame& ack)
{
    NS_ABORT_MSG_IF(ack.ranges.empty(), "quic-cc frames: ACK frame with no range");
    const QuicCcAckRange& first = ack.ranges.front();
    NS_ABORT_MSG_IF(first.smallest > first.largest,
                    "quic-cc frames: ACK range 0 has smallest " << first.smallest << " > largest "
                                                                << first.largest);
    return 1 + FieldSize(first.largest, "ACK largest acknowledged") +
           FieldSize(AckDelayField(ack), "ACK delay field") +
           FieldSize(ack.ranges.size() - 1, "ACK range count") +
           VarIntSizeUnchecked(first.largest - first.smallest);
}

/// Bytes of an ACK_ECN frame's three counts (0 for ACK), validating them.
size_t
AckEcnSize(const QuicCcAckFrame& ack)
{
    if (!ack.ecn)
    {
        return 0;
    }
    return FieldSize(ack.ecn->ect0, "ACK ECT(0) count") +
           FieldSize(ack.ecn->ect1, "ACK ECT(1) count") +
           FieldSize(ack.ecn->ce, "ACK ECN-CE count");
}

/// Size of every frame as written, validating its values.
struct FrameSizer
{
    size_t operator()(const QuicCcPaddingFrame& f) const
    {
        return PaddingSize(f);
    }

    size_t operator()(const QuicCcPingFrame&) const
    {
        return 1;
    }

    size_t operator()(const QuicCcAckFrame& f) const
    {
        return QuicCcAckFrameSize(f);
    }

    size_t operator()(const QuicCcStreamFrame& f) const
    {
        return StreamSize(f);
    }

    size_t operator()(const QuicCcConnectionCloseFrame& f) const
    {
        return CloseSize(f);
    }

    size_t operator()(const QuicCcHandshakeDoneFrame&) const
    {
        return 1;
    }

    size_t operator()(const QuicCcFlowControlFrame& f) const
    {
        NS_ABORT_MSG_UNLESS(FlowControlTypeName(f.type) != nullptr,
                            "flow-control frame of type "
                                << static_cast<unsigned>(f.type)
                                << ": not MAX_DATA, MAX_STREAM_DATA, DATA_BLOCKED or "
                                   "STREAM_DATA_BLOCKED");
        return 1 + FieldSize(f.limit, "flow-control frame limit");
    }
};

/// Writes each frame; values were validated by FrameSizer.
struct FrameWriter
{
    Writer& w;
    /// The STREAM frame whose payload is left out (appended as a packet by the caller), or null.
    const QuicCcStreamFrame* omitPayload{nullptr};

    void operator()(const QuicCcPaddingFrame& f) const
    {
        w.Zeros(static_cast<size_t>(f.length));
    }

    void operator()(const QuicCcPingFrame&) const
    {
        w.Byte(static_cast<uint8_t>(QuicCcFrameType::PING));
    }

    void operator()(const QuicCcAckFrame& f) const
    {
        w.Byte(static_cast<uint8_t>(f.ecn ? QuicCcFrameType::ACK_ECN : QuicCcFrameType::ACK));
        // A local writer and range pointer: the byte stores could otherwise alias them, and the
        // compiler would reload both after every byte.
        Writer out(w.Position());
        const QuicCcAckRange* ranges = f.ranges.data();
        const size_t count = f.ranges.size();
        out.VarInt(ranges[0].largest);
        out.VarInt(static_cast<uint64_t>(f.ackDelay.GetMicroSeconds()) >> kQuicCcAckDelayExponent);
        out.VarInt(count - 1);
        out.VarInt(ranges[0].largest - ranges[0].smallest);
        for (size_t i = 1; i < count; ++i)
        {
            CheckAckRange(ranges, i);
            const uint64_t previousSmallest = ranges[i - 1].smallest;
            const QuicCcAckRange range = ranges[i];
            out.VarInt(previousSmallest - range.largest - 2);
            out.VarInt(range.largest - range.smallest);
        }
        if (f.ecn)
        {
            out.VarInt(f.ecn->ect0);
            out.VarInt(f.ecn->ect1);
            out.VarInt(f.ecn->ce);
        }
        w = out;
    }

    void operator()(const QuicCcStreamFrame& f) const
    {
        w.Byte(static_cast<uint8_t>(QuicCcFrameType::STREAM) | kStreamBitOff | kStreamBitLen |
               (f.fin ? kStreamBitFin : 0));
        w.VarInt(f.offset);
        w.VarInt(f.Length());
        if (f.payload && &f != omitPayload)
        {
            w.Bytes(*f.payload);
        }
    }

    void operator()(const QuicCcConnectionCloseFrame& f) const
    {
        w.Byte(static_cast<uint8_t>(QuicCcFrameType::CONNECTION_CLOSE));
        w.VarInt(f.errorCode);
        w.Byte(0); // frame type: 0, not caused by a specific frame
        w.VarInt(f.reason.size());
        w.Bytes(f.reason.data(), f.reason.size());
    }

    void operator()(const QuicCcHandshakeDoneFrame&) const
    {
        w.Byte(static_cast<uint8_t>(QuicCcFrameType::HANDSHAKE_DONE));
    }

    void operator()(const QuicCcFlowControlFrame& f) const
    {
        w.Byte(static_cast<uint8_t>(f.type));
        w.VarInt(f.limit);
    }
};

/// Header bytes of a packet; fatal error on an invalid type or, with \p requireFrames, no frames.
size_t
CheckPacketType(const QuicCcPacket& packet, bool requireFrames)
{
    const uint8_t type = static_cast<uint8_t>(packet.type);
    NS_ABORT_MSG_IF(type < 1 || type > 3,
                    "quic-cc frames: invalid packet type " << static_cast<unsigned>(type));
    NS_ABORT_MSG_IF(requireFrames && packet.frames.empty(),
                    "quic-cc frames: packet number " << packet.packetNumber
                                                     << " has no frames; it cannot be sent");
    return QuicCcHeaderSize(packet);
}

/// Validating size of a packet; \p requireFrames makes an empty frame list fatal.
size_t
PacketSize(const QuicCcPacket& packet, bool requireFrames)
{
    size_t size = CheckPacketType(packet, requireFrames);
    for (const auto& frame : packet.frames)
    {
        size += std::visit(FrameSizer{}, frame);
    }
    return size;
}

/// An upper bound of a frame's bytes as written, validating it as FrameSizer does except for the
/// ACK ranges after the first (the ACK writer checks those); constant time per frame.
struct FrameBound
{
    /// The STREAM frame whose payload is left out, or null.
    const QuicCcStreamFrame* omitPayload{nullptr};

    size_t operator()(const QuicCcAckFrame& f) const
    {
        // The largest encoding, 8 bytes, for every gap and range length.
        return AckSizeBeforeRanges(f) + 16 * (f.ranges.size() - 1) + AckEcnSize(f);
    }

    size_t operator()(const QuicCcStreamFrame& f) const
    {
        const size_t size = StreamSize(f);
        return &f == omitPayload ? size - static_cast<size_t>(f.Length()) : size;
    }

    template <typename Frame>
    size_t operator()(const Frame& f) const
    {
        return FrameSizer{}(f);
    }
};

/// Upper bound of the bytes WritePacket writes (FrameBound), for a packet that is sent.
size_t
PacketBound(const QuicCcPacket& packet, const QuicCcStreamFrame* omitPayload)
{
    size_t size = CheckPacketType(packet, true);
    const FrameBound bound{omitPayload};
    for (const auto& frame : packet.frames)
    {
        size += std::visit(bound, frame);
    }
    return size;
}

/// Writes the packet; the payload of \p omitPayload (a STREAM frame of it, or null) is left out.
/// Returns the bytes written.
size_t
WritePacket(const QuicCcPacket& packet,
            uint8_t* out,
            const QuicCcStreamFrame* omitPayload = nullptr)
{
    Writer w(out);
    w.Byte(static_cast<uint8_t>(packet.type));
    w.BigEndian64(packet.connectionId);
    w.VarInt(packet.packetNumber);
    FrameWriter fw{w, omitPayload};
    for (const auto& frame : packet.frames)
    {
        std::visit(fw, frame);
    }
    return static_cast<size_t>(w.Position() - out);
}

/// Reads fields from untrusted bytes; on failure it records the first error and stays failed.
class Reader
{
  public:
    /// \p source: null, or the ns-3 packet whose bytes are [data, data + size)
    Reader(const uint8_t* data, size_t size, const Packet* source)
        : m_data(data),
          m_size(size),
          m_source(source)
    {
    }

    /// The ns-3 packet the bytes came from, or null.
    const Packet* Source() const
    {
        return m_source;
    }

    size_t Offset() const
    {
        return m_pos;
    }

    size_t Remaining() const
    {
        return m_size - m_pos;
    }

    bool AtEnd() const
    {
        return m_pos == m_size;
    }

    uint8_t Peek() const
    {
        return m_data[m_pos];
    }

    const uint8_t* Current() const
    {
        return m_data + m_pos;
    }

    void Skip(size_t n)
    {
        m_pos += n; // callers check n <= Remaining()
    }

    /// Reads a varint named \p what; on truncation sets the error and returns false.
    bool VarInt(uint64_t& value, const char* what, size_t* encodedLength = nullptr)
    {
        const size_t n = ReadVarIntInline(m_data + m_pos, Remaining(), value);
        if (n == 0)
        {
            return FailTruncated(what);
        }
        if (encodedLength != nullptr)
        {
            *encodedLength = n;
        }
        m_pos += n;
        return true;
    }

    /// The error of a truncated varint named \p what at the current offset (out of line: the
    /// parser's loops stay small).
    [[gnu::noinline]] bool FailTruncated(const char* what)
    {
        const size_t need = Remaining() == 0 ? 1 : size_t{1} << (Peek() >> 6);
        std::ostringstream oss;
        oss << "truncated varint (" << what << ") at offset " << m_pos << ": needs " << need
            << " byte(s), " << Remaining() << " left";
        return Fail(oss.str());
    }

    /// Memory for an ACK frame's ranges, from a packet parsed before (empty when none).
    std::vector<QuicCcAckRange> TakeSpareRanges()
    {
        std::vector<QuicCcAckRange> ranges = std::move(m_spareRanges);
        ranges.clear();
        return ranges;
    }

    /// Give TakeSpareRanges \p ranges' memory.
    void SetSpareRanges(std::vector<QuicCcAckRange> ranges)
    {
        m_spareRanges = std::move(ranges);
    }

    bool Fail(std::string error)
    {
        m_error = std::move(error);
        return false;
    }

    std::string TakeError()
    {
        return std::move(m_error);
    }

  private:
    const uint8_t* m_data;
    size_t m_size;
    const Packet* m_source; //!< the packet of the bytes, or null (the caller holds it)
    std::vector<QuicCcAckRange> m_spareRanges; //!< see TakeSpareRanges
    size_t m_pos{0};
    std::string m_error;
};

/// Formats "0x1f".
std::string
Hex(uint64_t v)
{
    std::ostringstream oss;
    oss << "0x" << std::hex << v;
    return oss.str();
}

bool
ParseAck(Reader& r, size_t frameStart, bool withEcn, std::vector<QuicCcFrame>& frames)
{
    uint64_t largest = 0;
    uint64_t delayField = 0;
    uint64_t count = 0;
    uint64_t firstRange = 0;
    if (!r.VarInt(largest, "ACK largest acknowledged") || !r.VarInt(delayField, "ACK delay"))
    {
        return false;
    }
    // The decoded delay, delayField << 3 microseconds, must fit in an ns3::Time (whose resolution
    // is fixed before the first Time exists).
    static const uint64_t maxDelayUs = static_cast<uint64_t>(Time::Max().GetMicroSeconds());
    if (delayField > (maxDelayUs >> kQuicCcAckDelayExponent))
    {
        std::ostringstream oss;
        oss << "ACK delay field " << delayField << " at offset " << frameStart
            << " is too large: (field << 3) us exceeds the range of ns3::Time";
        return r.Fail(oss.str());
    }
    const size_t countOffset = r.Offset();
    if (!r.VarInt(count, "ACK range count") || !r.VarInt(firstRange, "ACK first range"))
    {
        return false;
    }
    if (firstRange > largest)
    {
        std::ostringstream oss;
        oss << "ACK first range " << firstRange << " exceeds largest acknowledged " << largest
            << " (underflow below packet number 0) in the frame at offset " << frameStart;
        return r.Fail(oss.str());
    }
    // Each (gap, range length) pair takes at least 2 bytes.
    if (count > r.Remaining() / 2)
    {
        std::ostringstream oss;
        oss << "ACK range count " << count << " at offset " << countOffset
            << " exceeds what the remaining " << r.Remaining()
            << " bytes can hold (2 bytes per range at least)";
        return r.Fail(oss.str());
    }
    QuicCcAckFrame ack;
    ack.ackDelay = MicroSeconds(static_cast<uint64_t>(delayField << kQuicCcAckDelayExponent));
    ack.ranges = r.TakeSpareRanges();
    uint64_t smallest = largest - firstRange;
    // The ranges are read with a local position and written through a local pointer (the
    // reader's position is stored back at the end or at an error); through the members, every
    // store would make the compiler reload them.
    const uint8_t* const data = r.Current();
    const size_t available = r.Remaining();
    size_t pos = 0;
    ack.ranges.resize(static_cast<size_t>(count) + 1);
    QuicCcAckRange* range = ack.ranges.data();
    range[0] = {smallest, largest};
    for (uint64_t i = 0; i < count; ++i)
    {
        uint64_t gap = 0;
        uint64_t length = 0;
        const size_t gapPos = pos;
        size_t lengthPos = pos + 1;
        // Both one byte (small gaps and ranges): the common case, read at once.
        const bool oneByteEach = available - pos >= 2 && (data[pos] | data[pos + 1]) < 0x40;
        if (oneByteEach)
        {
            gap = data[pos];
            length = data[pos + 1];
            pos += 2;
        }
        else
        {
            const size_t n = ReadVarIntInline(data + pos, available - pos, gap);
            if (n == 0)
            {
                r.Skip(pos);
                return r.FailTruncated("ACK gap");
            }
            pos += n;
        }
        // gap <= 2^62-1, so gap + 2 cannot overflow.
        if (gap + 2 > smallest)
        {
            std::ostringstream oss;
            oss << "ACK gap " << gap << " at offset " << r.Offset() + gapPos
                << " underflows below packet number 0 (previous smallest " << smallest << ")";
            return r.Fail(oss.str());
        }
        const uint64_t rangeLargest = smallest - gap - 2;
        if (!oneByteEach)
        {
            lengthPos = pos;
            const size_t n = ReadVarIntInline(data + pos, available - pos, length);
            if (n == 0)
            {
                r.Skip(pos);
                return r.FailTruncated("ACK range length");
            }
            pos += n;
        }
        if (length > rangeLargest)
        {
            std::ostringstream oss;
            oss << "ACK range length " << length << " at offset " << r.Offset() + lengthPos
                << " underflows below packet number 0 (range largest " << rangeLargest << ")";
            return r.Fail(oss.str());
        }
        smallest = rangeLargest - length;
        range[i + 1] = {smallest, rangeLargest};
    }
    r.Skip(pos);
    if (withEcn)
    {
        // Any varint is a valid count here: the sender validates them (QuicCcEcnValidation).
        QuicCcEcnCounts counts;
        if (!r.VarInt(counts.ect0, "ACK ECT(0) count") ||
            !r.VarInt(counts.ect1, "ACK ECT(1) count") || !r.VarInt(counts.ce, "ACK ECN-CE count"))
        {
            return false;
        }
        ack.ecn = counts;
    }
    frames.emplace_back(std::move(ack));
    return true;
}

bool
ParseStream(Reader& r, uint64_t type, size_t frameStart, std::vector<QuicCcFrame>& frames)
{
    QuicCcStreamFrame stream{0, (type & kStreamBitFin) != 0, nullptr};
    if ((type & kStreamBitOff) != 0 && !r.VarInt(stream.offset, "STREAM offset"))
    {
        return false;
    }
    uint64_t length = r.Remaining(); // without LEN the data runs to the end of the packet
    if ((type & kStreamBitLen) != 0)
    {
        const size_t lengthOffset = r.Offset();
        if (!r.VarInt(length, "STREAM length"))
        {
            return false;
        }
        if (length > r.Remaining())
        {
            std::ostringstream oss;
            oss << "STREAM length " << length << " at offset " << lengthOffset << " exceeds the "
                << r.Remaining() << " remaining bytes (truncated data)";
            return r.Fail(oss.str());
        }
    }
    if (stream.offset > kQuicCcVarIntMax - length)
    {
        std::ostringstream oss;
        oss << "STREAM offset " << stream.offset << " + length " << length
            << " exceeds 2^62-1 in the frame at offset " << frameStart;
        return r.Fail(oss.str());
    }
    if (r.Source())
    {
        // As TcpRxBuffer keeps segments: the data stays in the received packet's buffer, and
        // virtual (zero-filled) data stays virtual.
        stream.payload = r.Source()->CreateFragment(static_cast<uint32_t>(r.Offset()),
                                                    static_cast<uint32_t>(length));
    }
    else
    {
        stream.payload = Create<Packet>(r.Current(), static_cast<uint32_t>(length));
    }
    r.Skip(static_cast<size_t>(length));
    frames.emplace_back(std::move(stream));
    return true;
}

bool
ParseConnectionClose(Reader& r, std::vector<QuicCcFrame>& frames)
{
    QuicCcConnectionCloseFrame close{0, {}};
    uint64_t frameType = 0; // informational only; ignored
    uint64_t reasonLength = 0;
    if (!r.VarInt(close.errorCode, "CONNECTION_CLOSE error code") ||
        !r.VarInt(frameType, "CONNECTION_CLOSE frame type"))
    {
        return false;
    }
    const size_t lengthOffset = r.Offset();
    if (!r.VarInt(reasonLength, "CONNECTION_CLOSE reason length"))
    {
        return false;
    }
    if (reasonLength > r.Remaining())
    {
        std::ostringstream oss;
        oss << "CONNECTION_CLOSE reason length " << reasonLength << " at offset " << lengthOffset
            << " exceeds the " << r.Remaining() << " remaining bytes";
        return r.Fail(oss.str());
    }
    close.reason.assign(reinterpret_cast<const char*>(r.Current()),
                        static_cast<size_t>(reasonLength));
    r.Skip(static_cast<size_t>(reasonLength));
    frames.emplace_back(std::move(close));
    return true;
}

/// Parses the whole packet into \p packet; false with the reader's error on failure.
bool
ParsePacket(Reader& r, QuicCcPacket& packet)
{
    if (r.AtEnd())
    {
        return r.Fail("empty packet: no header");
    }
    const uint8_t type = r.Peek();
    if (type < static_cast<uint8_t>(QuicCcPacketType::INITIAL) ||
        type > static_cast<uint8_t>(QuicCcPacketType::ONE_RTT))
    {
        return r.Fail("unknown packet type " + Hex(type) + " at offset 0");
    }
    if (r.Remaining() < kQuicCcFixedHeaderSize)
    {
        return r.Fail("truncated header: " + std::to_string(r.Remaining()) +
                      " byte(s), type and connection id need " +
                      std::to_string(kQuicCcFixedHeaderSize));
    }
    packet.type = static_cast<QuicCcPacketType>(type);
    // Big-endian, as written; a local accumulator keeps the loop in a register.
    uint64_t connectionId = 0;
    const uint8_t* idBytes = r.Current() + 1;
    for (size_t i = 0; i + 1 < kQuicCcFixedHeaderSize; ++i)
    {
        connectionId = (connectionId << 8) | idBytes[i];
    }
    packet.connectionId = connectionId;
    r.Skip(kQuicCcFixedHeaderSize);
    if (!r.VarInt(packet.packetNumber, "packet number"))
    {
        return false;
    }
    if (r.AtEnd())
    {
        return r.Fail("packet has no frames: the header ends at offset " +
                      std::to_string(r.Offset()) + " with nothing after it");
    }
    while (!r.AtEnd())
    {
        const size_t frameStart = r.Offset();
        if (r.Peek() == 0x00)
        {
            uint64_t run = 0;
            while (!r.AtEnd() && r.Peek() == 0x00)
            {
                r.Skip(1);
                ++run;
            }
            packet.frames.emplace_back(QuicCcPaddingFrame{run});
            continue;
        }
        uint64_t frameType = 0;
        size_t encodedLength = 0;
        if (!r.VarInt(frameType, "frame type", &encodedLength))
        {
            return false;
        }
        if (encodedLength != VarIntSizeUnchecked(frameType))
        {
            return r.Fail("frame type " + Hex(frameType) + " at offset " +
                          std::to_string(frameStart) + " is not in its shortest encoding (" +
                          std::to_string(encodedLength) + " bytes)");
        }
        bool ok = true;
        switch (frameType)
        {
        case static_cast<uint64_t>(QuicCcFrameType::PING):
            packet.frames.emplace_back(QuicCcPingFrame{});
            break;
        case static_cast<uint64_t>(QuicCcFrameType::ACK):
        case static_cast<uint64_t>(QuicCcFrameType::ACK_ECN):
            ok = ParseAck(r,
                          frameStart,
                          frameType == static_cast<uint64_t>(QuicCcFrameType::ACK_ECN),
                          packet.frames);
            break;
        case 0x08:
        case 0x09:
        case 0x0a:
        case 0x0b:
        case 0x0c:
        case 0x0d:
        case 0x0e:
        case 0x0f:
            ok = ParseStream(r, frameType, frameStart, packet.frames);
            break;
        case static_cast<uint64_t>(QuicCcFrameType::CONNECTION_CLOSE):
            ok = ParseConnectionClose(r, packet.frames);
            break;
        case static_cast<uint64_t>(QuicCcFrameType::HANDSHAKE_DONE):
            packet.frames.emplace_back(QuicCcHandshakeDoneFrame{});
            break;
        case static_cast<uint64_t>(QuicCcFrameType::MAX_DATA):
        case static_cast<uint64_t>(QuicCcFrameType::MAX_STREAM_DATA):
        case static_cast<uint64_t>(QuicCcFrameType::DATA_BLOCKED):
        case static_cast<uint64_t>(QuicCcFrameType::STREAM_DATA_BLOCKED): {
            QuicCcFlowControlFrame flow{static_cast<QuicCcFrameType>(frameType), 0};
            ok = r.VarInt(flow.limit, "flow-control frame limit");
            if (ok)
            {
                packet.frames.emplace_back(flow);
            }
            break;
        }
        default:
            return r.Fail("unknown frame type " + Hex(frameType) + " at offset " +
                          std::to_string(frameStart));
        }
        if (!ok)
        {
            return false;
        }
    }
    return true;
}

} // namespace

uint64_t
QuicCcStreamFrame::Length() const
{
    return payload ? payload->GetSize() : 0;
}

std::vector<uint8_t>
QuicCcStreamFrame::Bytes() const
{
    if (!payload)
    {
        return {};
    }
    std::vector<uint8_t> out(payload->GetSize());
    payload->CopyData(out.data(), out.size());
    return out;
}

bool
QuicCcPacket::IsAckEliciting() const
{
    for (const auto& frame : frames)
    {
        if (!std::holds_alternative<QuicCcAckFrame>(frame) &&
            !std::holds_alternative<QuicCcPaddingFrame>(frame) &&
            !std::holds_alternative<QuicCcConnectionCloseFrame>(frame))
        {
            return true;
        }
    }
    return false;
}

bool
operator==(const QuicCcAckRange& a, const QuicCcAckRange& b)
{
    return a.smallest == b.smallest && a.largest == b.largest;
}

bool
operator==(const QuicCcAckFrame& a, const QuicCcAckFrame& b)
{
    return a.ranges == b.ranges && a.ackDelay == b.ackDelay && a.ecn == b.ecn;
}

bool
operator==(const QuicCcStreamFrame& a, const QuicCcStreamFrame& b)
{
    if (a.offset != b.offset || a.fin != b.fin || a.Length() != b.Length())
    {
        return false;
    }
    return a.Bytes() == b.Bytes();
}

bool
operator==(const QuicCcPingFrame&, const QuicCcPingFrame&)
{
    return true;
}

bool
operator==(const QuicCcPaddingFrame& a, const QuicCcPaddingFrame& b)
{
    return a.length == b.length;
}

bool
operator==(const QuicCcConnectionCloseFrame& a, const QuicCcConnectionCloseFrame& b)
{
    return a.errorCode == b.errorCode && a.reason == b.reason;
}

bool
operator==(const QuicCcHandshakeDoneFrame&, const QuicCcHandshakeDoneFrame&)
{
    return true;
}

bool
operator==(const QuicCcFlowControlFrame& a, const QuicCcFlowControlFrame& b)
{
    return a.type == b.type && a.limit == b.limit;
}

bool
operator==(const QuicCcPacket& a, const QuicCcPacket& b)
{
    return a.type == b.type && a.connectionId == b.connectionId &&
           a.packetNumber == b.packetNumber && a.frames == b.frames;
}

bool
operator!=(const QuicCcPacket& a, const QuicCcPacket& b)
{
    return !(a == b);
}

std::ostream&
operator<<(std::ostream& os, QuicCcPacketType type)
{
    switch (type)
    {
    case QuicCcPacketType::INITIAL:
        return os << "INITIAL";
    case QuicCcPacketType::HANDSHAKE:
        return os << "HANDSHAKE";
    case QuicCcPacketType::ONE_RTT:
        return os << "ONE_RTT";
    }
    return os << "invalid(" << static_cast<unsigned>(type) << ")";
}

std::ostream&
operator<<(std::ostream& os, const QuicCcPacket& packet)
{
    os << packet.type << " cid=0x" << std::hex << packet.connectionId << std::dec
       << " pn=" << packet.packetNumber << " [";
    const char* sep = "";
    for (const auto& frame : packet.frames)
    {
        os << sep;
        sep = ", ";
        if (const auto* pad = std::get_if<QuicCcPaddingFrame>(&frame))
        {
            os << "PADDING(" << pad->length << ")";
        }
        else if (std::holds_alternative<QuicCcPingFrame>(frame))
        {
            os << "PING";
        }
        else if (const auto* ack = std::get_if<QuicCcAckFrame>(&frame))
        {
            os << "ACK{";
            const char* rsep = "";
            for (const auto& range : ack->ranges)
            {
                os << rsep << range.largest << "-" << range.smallest;
                rsep = ",";
            }
            os << " delay=" << ack->ackDelay.As(Time::US);
            if (ack->ecn)
            {
                os << " " << *ack->ecn;
            }
            os << "}";
        }
        else if (const auto* stream = std::get_if<QuicCcStreamFrame>(&frame))
        {
            os << "STREAM(off=" << stream->offset << " len=" << stream->Length()
               << (stream->fin ? " fin" : "") << ")";
        }
        else if (const auto* close = std::get_if<QuicCcConnectionCloseFrame>(&frame))
        {
            os << "CONNECTION_CLOSE(" << close->errorCode << " \"" << close->reason << "\")";
        }
        else if (const auto* flow = std::get_if<QuicCcFlowControlFrame>(&frame))
        {
            os << FlowControlTypeName(flow->type) << "(" << flow->limit << ")";
        }
        else
        {
            os << "HANDSHAKE_DONE";
        }
    }
    return os << "]";
}

size_t
QuicCcVarIntSize(uint64_t v)
{
    return FieldSize(v, "varint value");
}

size_t
QuicCcWriteVarInt(uint64_t v, uint8_t* out)
{
    const size_t n = FieldSize(v, "varint value");
    Writer(out).VarInt(v);
    return n;
}

size_t
QuicCcReadVarInt(const uint8_t* data, size_t size, uint64_t& value)
{
    return ReadVarIntInline(data, size, value);
}

size_t
QuicCcHeaderSize(const QuicCcPacket& packet)
{
    return kQuicCcFixedHeaderSize + FieldSize(packet.packetNumber, "packet number");
}

size_t
QuicCcStreamFrameOverhead(uint64_t offset, uint64_t length)
{
    return 1 + FieldSize(offset, "STREAM offset") + FieldSize(length, "STREAM length");
}

size_t
QuicCcAckFrameSize(const QuicCcAckFrame& ack)
{
    size_t size = AckSizeBeforeRanges(ack);
    const QuicCcAckRange* ranges = ack.ranges.data();
    for (size_t i = 1; i < ack.ranges.size(); ++i)
    {
        CheckAckRange(ranges, i);
        // All values are <= ranges[0].largest <= 2^62-1 here.
        size += VarIntSizeUnchecked(ranges[i - 1].smallest - ranges[i].largest - 2) +
                VarIntSizeUnchecked(ranges[i].largest - ranges[i].smallest);
    }
    return size + AckEcnSize(ack);
}

size_t
QuicCcAckRangesThatFit(const QuicCcAckFrame& ack, uint64_t room)
{
    // Everything but the range count and the ranges after the first.
    const size_t fixed =
        AckSizeBeforeRanges(ack) - VarIntSizeUnchecked(ack.ranges.size() - 1) + AckEcnSize(ack);
    const QuicCcAckRange* ranges = ack.ranges.data();
    size_t fit = 1;
    uint64_t more = 0; // bytes of ranges 1..k
    for (size_t k = 1; k < ack.ranges.size(); ++k)
    {
        CheckAckRange(ranges, k);
        more += VarIntSizeUnchecked(ranges[k - 1].smallest - ranges[k].largest - 2) +
                VarIntSizeUnchecked(ranges[k].largest - ranges[k].smallest);
        // The size grows with k (a range takes at least 2 bytes, the count never shrinks).
        if (fixed + VarIntSizeUnchecked(k) + more <= room)
        {
            fit = k + 1;
        }
    }
    return fit;
}

size_t
QuicCcFrameSize(const QuicCcFrame& frame)
{
    return std::visit(FrameSizer{}, frame);
}

size_t
QuicCcSerializedSize(const QuicCcPacket& packet)
{
    return PacketSize(packet, false);
}

std::vector<uint8_t>
QuicCcSerialize(const QuicCcPacket& packet)
{
    const size_t size = PacketSize(packet, true);
    // Value-initialised: the padding bytes are already zero, but a vector offers no cheaper
    // uninitialised resize and the memset is negligible next to the copy of the data.
    std::vector<uint8_t> out(size);
    WritePacket(packet, out.data());
    return out;
}

Ptr<Packet>
QuicCcSerializeToPacket(const QuicCcPacket& packet)
{
    const auto* last =
        packet.frames.empty() ? nullptr : std::get_if<QuicCcStreamFrame>(&packet.frames.back());
    const bool appendPayload = last != nullptr && last->payload && last->payload->GetSize() > 0;
    const QuicCcStreamFrame* omit = appendPayload ? last : nullptr;
    // Everything but the last frame's data as real bytes, then that data as the send stream's
    // packet fragment. ns-3 3.37's Buffer::AddAtEnd appends the zero area of a virtual packet to a
    // buffer without one as a zero area again (no bytes allocated), so a virtual payload stays
    // virtual, as the payload of a TCP segment does (TcpTxBuffer::GetPacketFromList).
    // The bytes are written on the stack when an upper bound of them fits (ACKs, headers,
    // INITIALs; the exact size is then what was written), else on the heap at their exact size.
    constexpr size_t kOnStack = 2048;
    uint8_t onStack[kOnStack];
    std::unique_ptr<uint8_t[]> onHeap;
    uint8_t* bytes = onStack;
    if (PacketBound(packet, omit) > kOnStack)
    {
        const size_t head = PacketSize(packet, true) - (omit ? last->payload->GetSize() : 0);
        onHeap.reset(new uint8_t[head]);
        bytes = onHeap.get();
    }
    const size_t head = WritePacket(packet, bytes, omit);
    Ptr<Packet> datagram = Create<Packet>(bytes, static_cast<uint32_t>(head));
    if (appendPayload)
    {
        datagram->AddAtEnd(last->payload);
    }
    return datagram;
}

bool
QuicCcParseInto(const uint8_t* data,
                size_t size,
                const Ptr<const Packet>& source,
                QuicCcPacket& packet,
                std::string& error)
{
    NS_ABORT_MSG_IF(source && source->GetSize() != size,
                    "QuicCcParse: the source packet has " << source->GetSize()
                                                          << " bytes, the data " << size);
    Reader reader(data, size, PeekPointer(source));
    // A packet parsed into again lends its ACK frame's memory to the new one.
    for (QuicCcFrame& frame : packet.frames)
    {
        if (auto* ack = std::get_if<QuicCcAckFrame>(&frame))
        {
            reader.SetSpareRanges(std::move(ack->ranges));
            break;
        }
    }
    packet.frames.clear();
    if (ParsePacket(reader, packet))
    {
        return true;
    }
    error = reader.TakeError();
    NS_LOG_DEBUG("rejected a " << size << "-byte packet: " << error);
    return false;
}

QuicCcParseResult
QuicCcParse(const uint8_t* data, size_t size, Ptr<const Packet> source)
{
    QuicCcParseResult result;
    QuicCcPacket packet;
    if (QuicCcParseInto(data, size, source, packet, result.error))
    {
        result.packet = std::move(packet);
    }
    return result;
}

} // namespace ns3
