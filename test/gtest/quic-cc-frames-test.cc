/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the quic-cc wire codec (model/quic-cc-frames.{h,cc}).
 */
#include "ns3/packet.h"
#include "ns3/quic-cc-frames.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

/// Parses a copy of exactly \p size bytes (a heap block of that size, so a sanitizer catches any
/// read past the end), with the received packet holding them as the socket passes it.
QuicCcParseResult
ParseExact(const uint8_t* data, size_t size)
{
    Bytes copy(data, data + size);
    return QuicCcParse(copy.data(),
                       copy.size(),
                       Create<Packet>(copy.data(), static_cast<uint32_t>(copy.size())));
}

/// A STREAM frame carrying \p bytes (as a packet, as the send stream builds it; none if empty).
QuicCcStreamFrame
StreamFrame(uint64_t offset, bool fin, const Bytes& bytes)
{
    QuicCcStreamFrame f{offset, fin, nullptr};
    if (!bytes.empty())
    {
        f.payload = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    }
    return f;
}

QuicCcParseResult
ParseExact(const Bytes& bytes)
{
    return ParseExact(bytes.data(), bytes.size());
}

/// Serializes, checks QuicCcSerializedSize, parses and returns the parsed packet.
QuicCcPacket
RoundTrip(const QuicCcPacket& packet)
{
    const Bytes bytes = QuicCcSerialize(packet);
    EXPECT_EQ(bytes.size(), QuicCcSerializedSize(packet)) << packet;
    QuicCcParseResult result = ParseExact(bytes);
    EXPECT_TRUE(result.packet.has_value()) << result.error << " for " << packet;
    EXPECT_TRUE(result.error.empty());
    return result.packet.value_or(QuicCcPacket{});
}

QuicCcPacket
MakePacket(std::vector<QuicCcFrame> frames,
           uint64_t packetNumber = 7,
           QuicCcPacketType type = QuicCcPacketType::ONE_RTT)
{
    QuicCcPacket p;
    p.type = type;
    p.connectionId = 0x0102030405060708ULL;
    p.packetNumber = packetNumber;
    p.frames = std::move(frames);
    return p;
}

/// Header of a ONE_RTT packet, connection id 0x0102030405060708, packet number 7.
Bytes
Header()
{
    return {0x03, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x07};
}

Bytes
HeaderPlus(const Bytes& tail)
{
    const Bytes head = Header();
    Bytes b;
    b.reserve(head.size() + tail.size());
    for (const Bytes* part : {&head, &tail})
    {
        for (uint8_t x : *part)
        {
            b.push_back(x);
        }
    }
    return b; // (not vector::insert: GCC 12 gives a false -Warray-bounds on it)
}

/// Expects the parse to fail with an error containing every one of \p words.
void
ExpectRejected(const Bytes& bytes, const std::vector<std::string>& words)
{
    QuicCcParseResult r = ParseExact(bytes);
    ASSERT_FALSE(r.packet.has_value()) << "accepted: " << *r.packet;
    ASSERT_FALSE(r.error.empty());
    for (const auto& w : words)
    {
        EXPECT_NE(r.error.find(w), std::string::npos)
            << "error \"" << r.error << "\" lacks \"" << w << "\"";
    }
}

/// Values around every varint length boundary.
uint64_t
InterestingValue(std::mt19937_64& rng)
{
    static const uint64_t kEdges[] = {0,
                                      1,
                                      63,
                                      64,
                                      16383,
                                      16384,
                                      (uint64_t{1} << 30) - 1,
                                      uint64_t{1} << 30,
                                      kQuicCcVarIntMax - 1,
                                      kQuicCcVarIntMax};
    switch (rng() % 4)
    {
    case 0:
        return kEdges[rng() % (sizeof(kEdges) / sizeof(kEdges[0]))];
    case 1:
        return rng() % 100;
    case 2:
        return rng() % 100000;
    default:
        return rng() >> (2 + rng() % 62); // any magnitude, <= 2^62-1
    }
}

QuicCcAckFrame
RandomAck(std::mt19937_64& rng)
{
    QuicCcAckFrame ack;
    uint64_t largest = InterestingValue(rng);
    const size_t maxRanges = 1 + rng() % 8;
    uint64_t top = largest;
    for (size_t i = 0; i < maxRanges; ++i)
    {
        const uint64_t len = rng() % 4 == 0 ? InterestingValue(rng) % (top + 1) : rng() % 5;
        const uint64_t smallest = top - std::min(len, top);
        ack.ranges.push_back({smallest, top});
        const uint64_t gap = rng() % 3 == 0 ? InterestingValue(rng) : rng() % 4;
        if (smallest < 2 || gap > smallest - 2)
        {
            break;
        }
        top = smallest - 2 - gap;
    }
    // Multiples of 8 us survive the round trip exactly.
    ack.ackDelay = MicroSeconds(8 * (rng() % 10000));
    if (rng() % 2 == 0) // ACK_ECN
    {
        ack.ecn =
            QuicCcEcnCounts{InterestingValue(rng), InterestingValue(rng), InterestingValue(rng)};
    }
    return ack;
}

QuicCcFrame
RandomFrame(std::mt19937_64& rng)
{
    switch (rng() % 6)
    {
    case 0:
        return QuicCcPaddingFrame{1 + rng() % 40};
    case 1:
        return QuicCcPingFrame{};
    case 2:
        return RandomAck(rng);
    case 3: {
        Bytes data(rng() % 70);
        for (auto& b : data)
        {
            b = static_cast<uint8_t>(rng());
        }
        const bool fin = rng() % 2 == 0;
        return StreamFrame(InterestingValue(rng) % (kQuicCcVarIntMax - data.size() + 1), fin, data);
    }
    case 4: {
        QuicCcConnectionCloseFrame c{InterestingValue(rng), std::string(rng() % 30, 'x')};
        for (auto& ch : c.reason)
        {
            ch = static_cast<char>(rng());
        }
        return c;
    }
    default:
        return QuicCcHandshakeDoneFrame{};
    }
}

/// A valid packet whose parse gives it back unchanged (no two adjacent PADDING frames).
QuicCcPacket
RandomPacket(std::mt19937_64& rng)
{
    QuicCcPacket p;
    p.type = static_cast<QuicCcPacketType>(1 + rng() % 3);
    p.connectionId = rng();
    p.packetNumber = InterestingValue(rng);
    const size_t n = 1 + rng() % 6;
    while (p.frames.size() < n)
    {
        QuicCcFrame f = RandomFrame(rng);
        if (std::holds_alternative<QuicCcPaddingFrame>(f) && !p.frames.empty() &&
            std::holds_alternative<QuicCcPaddingFrame>(p.frames.back()))
        {
            continue;
        }
        p.frames.push_back(std::move(f));
    }
    return p;
}

/// The bytes of \p packet.
Bytes
PacketBytes(Ptr<const Packet> packet)
{
    Bytes out(packet->GetSize());
    packet->CopyData(out.data(), static_cast<uint32_t>(out.size()));
    return out;
}

/// A parse result must be exactly one of packet or error; a parsed packet must serialize to a
/// size QuicCcSerializedSize agrees with and parse back to itself.
void
CheckParseOutcome(const QuicCcParseResult& r)
{
    ASSERT_NE(r.packet.has_value(), !r.error.empty()) << r.error;
    if (r.packet)
    {
        const Bytes again = QuicCcSerialize(*r.packet);
        ASSERT_EQ(again.size(), QuicCcSerializedSize(*r.packet));
        QuicCcParseResult r2 = ParseExact(again);
        ASSERT_TRUE(r2.packet.has_value()) << r2.error;
        ASSERT_EQ(*r2.packet, *r.packet);
    }
}

// ---------------------------------------------------------------------------------------------
// Variable-length integers

struct VarIntCase
{
    uint64_t value;
    size_t size;
};

TEST(QuicCcVarIntTest, BoundariesHaveSizes1248AndRoundTrip)
{
    const VarIntCase cases[] = {{0, 1},
                                {63, 1},
                                {64, 2},
                                {16383, 2},
                                {16384, 4},
                                {(uint64_t{1} << 30) - 1, 4},
                                {uint64_t{1} << 30, 8},
                                {(uint64_t{1} << 62) - 1, 8}};
    for (const auto& c : cases)
    {
        EXPECT_EQ(QuicCcVarIntSize(c.value), c.size) << c.value;
        uint8_t buf[8] = {};
        ASSERT_EQ(QuicCcWriteVarInt(c.value, buf), c.size) << c.value;
        uint64_t back = 12345;
        EXPECT_EQ(QuicCcReadVarInt(buf, c.size, back), c.size);
        EXPECT_EQ(back, c.value);
        // One byte short is a truncated varint.
        back = 12345;
        EXPECT_EQ(QuicCcReadVarInt(buf, c.size - 1, back), 0u) << c.value;
        EXPECT_EQ(back, 12345u);
    }
}

TEST(QuicCcVarIntTest, ExactEncodingsFromRfc9000Appendix)
{
    // RFC 9000 Appendix A.1 sample encodings.
    struct Sample
    {
        Bytes bytes;
        uint64_t value;
    };

    const Sample samples[] = {
        {{0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c}, 151288809941952652ULL},
        {{0x9d, 0x7f, 0x3e, 0x7d}, 494878333},
        {{0x7b, 0xbd}, 15293},
        {{0x25}, 37}};
    for (const auto& s : samples)
    {
        uint8_t buf[8] = {};
        ASSERT_EQ(QuicCcWriteVarInt(s.value, buf), s.bytes.size());
        EXPECT_EQ(Bytes(buf, buf + s.bytes.size()), s.bytes) << s.value;
        uint64_t v = 0;
        EXPECT_EQ(QuicCcReadVarInt(s.bytes.data(), s.bytes.size(), v), s.bytes.size());
        EXPECT_EQ(v, s.value);
    }
    // Non-shortest encodings are readable ("0x4025" is 37 in 2 bytes, RFC 9000 A.1).
    const uint8_t twoByte37[] = {0x40, 0x25};
    uint64_t v = 0;
    EXPECT_EQ(QuicCcReadVarInt(twoByte37, 2, v), 2u);
    EXPECT_EQ(v, 37u);
    EXPECT_EQ(QuicCcReadVarInt(nullptr, 0, v), 0u);
}

TEST(QuicCcVarIntDeathTest, ValueAbove2To62Minus1IsFatalAndNamed)
{
    EXPECT_DEATH(QuicCcVarIntSize(uint64_t{1} << 62), "4611686018427387904");
}

// ---------------------------------------------------------------------------------------------
// Exact layout

TEST(QuicCcFramesTest, ExactByteLayoutOfASmallPacket)
{
    QuicCcAckFrame ack;
    ack.ranges = {{5, 7}, {1, 2}};
    ack.ackDelay = MicroSeconds(16);
    QuicCcPacket p = MakePacket({QuicCcPingFrame{},
                                 ack,
                                 StreamFrame(0, true, {'h', 'i'}),
                                 QuicCcHandshakeDoneFrame{},
                                 QuicCcConnectionCloseFrame{10, "ok"},
                                 QuicCcPaddingFrame{2}},
                                70);
    const Bytes expected = {
        0x03,                                           // ONE_RTT
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, // connection id, big-endian
        0x40, 0x46,                                     // packet number 70, 2-byte varint
        0x01,                                           // PING
        0x02, 0x07, 0x02, 0x01, 0x02,                   // ACK 7, delay 16us >> 3, 1 pair, 7-5
        0x01, 0x01,                                     // gap 5-2-2 = 1, length 2-1 = 1
        0x0f, 0x00, 0x02, 'h',  'i',                    // STREAM OFF|LEN|FIN, offset 0, length 2
        0x1e,                                           // HANDSHAKE_DONE
        0x1c, 0x0a, 0x00, 0x02, 'o',  'k',              // CONNECTION_CLOSE 10, frame type 0, "ok"
        0x00, 0x00,                                     // PADDING x2
    };
    EXPECT_EQ(QuicCcSerialize(p), expected);
    EXPECT_EQ(QuicCcSerializedSize(p), expected.size());
    EXPECT_EQ(QuicCcHeaderSize(p), 11u);
    EXPECT_EQ(QuicCcAckFrameSize(ack), 7u);
    EXPECT_EQ(QuicCcStreamFrameOverhead(0, 2), 3u);
    EXPECT_EQ(QuicCcFrameSize(QuicCcPaddingFrame{2}), 2u);

    QuicCcParseResult r = ParseExact(expected);
    ASSERT_TRUE(r.packet.has_value()) << r.error;
    EXPECT_EQ(*r.packet, p);
    EXPECT_EQ(QuicCcSerializeToPacket(p)->GetSize(), expected.size());
}

TEST(QuicCcFramesTest, AckEcnIsType3WithItsThreeCountsAfterTheRanges)
{
    // RFC 9000 Section 19.3.2: ECT(0), ECT(1), ECN-CE counts, varints, after the ACK ranges.
    QuicCcAckFrame ack;
    ack.ranges = {{5, 7}};
    ack.ackDelay = MicroSeconds(16);
    ack.ecn = QuicCcEcnCounts{70, 0, 1};
    const QuicCcPacket p = MakePacket({ack}, 1);
    const Bytes expected = {
        0x03,                                           // ONE_RTT
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, // connection id
        0x01,                                           // packet number 1
        0x03, 0x07, 0x02, 0x00, 0x02,                   // ACK_ECN 7, delay 16us >> 3, 0 pairs, 7-5
        0x40, 0x46, 0x00, 0x01,                         // ECT(0) 70, ECT(1) 0, ECN-CE 1
    };
    EXPECT_EQ(QuicCcSerialize(p), expected);
    EXPECT_EQ(QuicCcAckFrameSize(ack), 9u);
    QuicCcParseResult r = ParseExact(expected);
    ASSERT_TRUE(r.packet.has_value()) << r.error;
    EXPECT_EQ(*r.packet, p);
    const auto& parsed = std::get<QuicCcAckFrame>(r.packet->frames[0]);
    ASSERT_TRUE(parsed.ecn.has_value());
    EXPECT_EQ(*parsed.ecn, (QuicCcEcnCounts{70, 0, 1}));
    // The same ranges without counts: type 0x02, and not equal.
    QuicCcAckFrame plain = ack;
    plain.ecn.reset();
    EXPECT_FALSE(MakePacket({plain}, 1) == p);
    EXPECT_EQ(QuicCcSerialize(MakePacket({plain}, 1))[10], 0x02);
}

TEST(QuicCcFramesTest, AckEcnCountsRoundTripAtTheirLimitsAndTruncationsFail)
{
    QuicCcAckFrame ack;
    ack.ranges = {{90, 100}, {0, 5}};
    ack.ecn = QuicCcEcnCounts{kQuicCcVarIntMax, kQuicCcVarIntMax, kQuicCcVarIntMax};
    const QuicCcPacket p = MakePacket({ack}, 3);
    EXPECT_EQ(RoundTrip(p), p);
    // Every count is read or the frame is refused with the count it could not read.
    const Bytes bytes = QuicCcSerialize(p);
    for (size_t cut = 1; cut <= 24; ++cut)
    {
        const QuicCcParseResult r = ParseExact(bytes.data(), bytes.size() - cut);
        ASSERT_FALSE(r.packet.has_value()) << cut;
        EXPECT_NE(r.error.find(cut <= 8    ? "ECN-CE count"
                               : cut <= 16 ? "ECT(1) count"
                                           : "ECT(0)"),
                  std::string::npos)
            << cut << ": " << r.error;
    }
}

TEST(QuicCcFramesTest, ParsesStreamWithoutOffOrLenBits)
{
    // 0x09 = STREAM | FIN, no OFF (offset 0) and no LEN (data runs to the end).
    QuicCcParseResult r = ParseExact(HeaderPlus({0x01, 0x09, 'a', 'b', 'c'}));
    ASSERT_TRUE(r.packet.has_value()) << r.error;
    ASSERT_EQ(r.packet->frames.size(), 2u);
    EXPECT_EQ(std::get<QuicCcStreamFrame>(r.packet->frames[1]),
              StreamFrame(0, true, {'a', 'b', 'c'}));
    // 0x0c = STREAM | OFF: offset 64 (2-byte varint), data to the end.
    r = ParseExact(HeaderPlus({0x0c, 0x40, 0x40, 'z'}));
    ASSERT_TRUE(r.packet.has_value()) << r.error;
    EXPECT_EQ(std::get<QuicCcStreamFrame>(r.packet->frames[0]), StreamFrame(64, false, {'z'}));
}

TEST(QuicCcFramesTest, ConsecutivePaddingBytesCollapseIntoOneFrame)
{
    QuicCcPacket p = MakePacket({QuicCcPaddingFrame{3}, QuicCcPaddingFrame{4}, QuicCcPingFrame{}});
    QuicCcParseResult r = ParseExact(QuicCcSerialize(p));
    ASSERT_TRUE(r.packet.has_value()) << r.error;
    const std::vector<QuicCcFrame> expected = {QuicCcPaddingFrame{7}, QuicCcPingFrame{}};
    EXPECT_EQ(r.packet->frames, expected);
}

// ---------------------------------------------------------------------------------------------
// Round trips

TEST(QuicCcFramesTest, EveryFrameTypeRoundTripsInEveryPacketType)
{
    QuicCcAckFrame ack;
    ack.ranges = {{100, 120}, {90, 97}, {0, 0}};
    ack.ackDelay = MilliSeconds(3);
    const std::vector<QuicCcFrame> frames = {
        QuicCcPaddingFrame{1},
        QuicCcPaddingFrame{1200},
        QuicCcPingFrame{},
        ack,
        QuicCcAckFrame{{{0, 0}}, Time(0)},
        QuicCcAckFrame{{{0, kQuicCcVarIntMax}}, Time(0)},
        StreamFrame(0, false, {}),
        StreamFrame(0, true, {}),
        StreamFrame(123456789, false, Bytes(1350, 0xab)),
        StreamFrame(kQuicCcVarIntMax - 3, true, {1, 2, 3}),
        QuicCcConnectionCloseFrame{0, ""},
        QuicCcConnectionCloseFrame{kQuicCcVarIntMax, std::string("bye\0bye", 7)},
        QuicCcHandshakeDoneFrame{}};
    for (auto type :
         {QuicCcPacketType::INITIAL, QuicCcPacketType::HANDSHAKE, QuicCcPacketType::ONE_RTT})
    {
        for (const auto& f : frames)
        {
            QuicCcPacket p = MakePacket({f}, 12345, type);
            EXPECT_EQ(RoundTrip(p), p);
            // Frame size is the packet size minus the header.
            EXPECT_EQ(QuicCcFrameSize(f), QuicCcSerializedSize(p) - QuicCcHeaderSize(p));
        }
    }
}

TEST(QuicCcFramesTest, HeaderFieldsRoundTripAtTheirLimits)
{
    for (uint64_t cid : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}, uint64_t{0x8000000000000001}})
    {
        for (uint64_t pn : {uint64_t{0}, uint64_t{63}, uint64_t{64}, kQuicCcVarIntMax})
        {
            QuicCcPacket p = MakePacket({QuicCcPingFrame{}}, pn);
            p.connectionId = cid;
            EXPECT_EQ(RoundTrip(p), p);
            EXPECT_EQ(QuicCcHeaderSize(p), 9 + QuicCcVarIntSize(pn));
        }
    }
}

TEST(QuicCcFramesTest, MixedPacketsRoundTripAndSerializedSizeMatches)
{
    std::mt19937_64 rng(20240601);
    for (int i = 0; i < 5000; ++i)
    {
        const QuicCcPacket p = RandomPacket(rng);
        const Bytes bytes = QuicCcSerialize(p);
        ASSERT_EQ(bytes.size(), QuicCcSerializedSize(p)) << p;
        size_t frameBytes = 0;
        for (const auto& f : p.frames)
        {
            frameBytes += QuicCcFrameSize(f);
        }
        ASSERT_EQ(QuicCcHeaderSize(p) + frameBytes, bytes.size()) << p;
        QuicCcParseResult r = ParseExact(bytes);
        ASSERT_TRUE(r.packet.has_value()) << r.error << " for " << p;
        ASSERT_EQ(*r.packet, p);
    }
}

// QuicCcAckRangesThatFit is the count the one-range-at-a-time trimming reaches.
TEST(QuicCcFramesTest, AckRangesThatFitAgreeWithTrimmingOneByOne)
{
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 300; ++trial)
    {
        QuicCcAckFrame ack{{}, MicroSeconds(rng() % 100000)};
        uint64_t largest = (uint64_t{1} << (rng() % 40)) + 5000 * 200;
        const size_t count = 1 + rng() % 200;
        for (size_t i = 0; i < count && largest > 4; ++i)
        {
            const uint64_t length = rng() % (i % 7 == 0 ? 20000 : 30);
            const uint64_t smallest = largest > length ? largest - length : 0;
            ack.ranges.push_back({smallest, largest});
            const uint64_t gap = 2 + rng() % (i % 5 == 0 ? 100000 : 50);
            if (smallest < gap + 1)
            {
                break;
            }
            largest = smallest - gap;
        }
        if (trial % 3 == 0)
        {
            ack.ecn = QuicCcEcnCounts{rng() % 1000, 0, rng() % 100000};
        }
        const uint64_t room = rng() % (QuicCcAckFrameSize(ack) + 20);
        QuicCcAckFrame trimmed = ack;
        while (trimmed.ranges.size() > 1 && QuicCcAckFrameSize(trimmed) > room)
        {
            trimmed.ranges.pop_back();
        }
        EXPECT_EQ(QuicCcAckRangesThatFit(ack, room), trimmed.ranges.size()) << "trial " << trial;
    }
}

TEST(QuicCcFramesTest, StreamOverheadAndAckSizeMatchTheEncoding)
{
    const uint64_t offsets[] = {0, 63, 64, 16384, uint64_t{1} << 30};
    const size_t lengths[] = {0, 1, 63, 64, 1350, 16384};
    for (uint64_t offset : offsets)
    {
        for (size_t len : lengths)
        {
            QuicCcPacket p = MakePacket({StreamFrame(offset, false, Bytes(len, 1))});
            EXPECT_EQ(QuicCcSerialize(p).size() - QuicCcHeaderSize(p),
                      QuicCcStreamFrameOverhead(offset, len) + len);
        }
    }
    EXPECT_EQ(QuicCcStreamFrameOverhead(16384, 64), 1u + 4 + 2);
    QuicCcAckFrame ack{{{10, 20}}, MilliSeconds(25)}; // 1 + 1 + 2 (3125) + 1 + 1
    EXPECT_EQ(QuicCcAckFrameSize(ack), 6u);
}

// ---------------------------------------------------------------------------------------------
// Datagrams as ns-3 packets (QuicCcSerializeToPacket)

// Wherever the STREAM frame is, the datagram carries exactly the bytes of QuicCcSerialize.
TEST(QuicCcFramesTest, SerializeToPacketIsByteExact)
{
    std::mt19937_64 rng(13);
    for (int i = 0; i < 2000; ++i)
    {
        const QuicCcPacket p = RandomPacket(rng);
        const Bytes expected = QuicCcSerialize(p);
        EXPECT_EQ(QuicCcSerializedSize(p), expected.size()) << p;
        EXPECT_EQ(PacketBytes(QuicCcSerializeToPacket(p)), expected) << p;
    }
    // Beyond the 2048 bytes written on the stack: an ACK of 300 ranges (its upper bound is
    // about 4.8 kB, its size about 600 B) and 3000 real bytes before a virtual payload.
    QuicCcAckFrame many{{}, MicroSeconds(25)};
    for (uint64_t r = 300; r > 0; --r)
    {
        many.ranges.push_back({10 * r, 10 * r + 3});
    }
    const QuicCcStreamFrame real = StreamFrame(0, false, Bytes(3000, 7));
    const QuicCcStreamFrame virtualData{3000, true, Create<Packet>(1000)};
    for (const QuicCcPacket& p :
         {MakePacket({many}, 9), MakePacket({many, real}, 10), MakePacket({real, virtualData}, 11)})
    {
        EXPECT_EQ(PacketBytes(QuicCcSerializeToPacket(p)), QuicCcSerialize(p)) << p;
    }
}

// A virtual payload (zero-filled, as BulkSendApplication sends) at the end of the datagram stays
// virtual: only the bytes before it are real (Packet::GetSerializedSize counts a buffer's real
// bytes, not its zero area). Frames after it make the datagram real bytes, still exact.
TEST(QuicCcFramesTest, VirtualStreamPayloadStaysVirtual)
{
    const QuicCcAckFrame ack{{{3, 9}}, MicroSeconds(40)};
    const QuicCcStreamFrame virtualData{5000, true, Create<Packet>(1300)};
    const QuicCcStreamFrame zeros = StreamFrame(5000, true, Bytes(1300, 0));

    const QuicCcPacket p = MakePacket({ack, virtualData}, 70);
    Ptr<Packet> datagram = QuicCcSerializeToPacket(p);
    EXPECT_EQ(PacketBytes(datagram), QuicCcSerialize(MakePacket({ack, zeros}, 70)));
    EXPECT_LT(datagram->GetSerializedSize(), 100u);
    EXPECT_GT(QuicCcSerializeToPacket(MakePacket({ack, zeros}, 70))->GetSerializedSize(), 1300u);

    const QuicCcPacket padded = MakePacket({virtualData, QuicCcPaddingFrame{5}}, 70);
    EXPECT_EQ(PacketBytes(QuicCcSerializeToPacket(padded)),
              QuicCcSerialize(MakePacket({zeros, QuicCcPaddingFrame{5}}, 70)));
}

// Parsed with the packet it came in (the receive path), STREAM data is a fragment of that
// packet instead of a copy: the same frames, and virtual (zero-filled) data stays virtual.
TEST(QuicCcFramesTest, ParsingWithTheSourcePacketKeepsStreamDataAsFragments)
{
    std::mt19937_64 rng(17);
    int streamFrames = 0;
    for (int i = 0; i < 500; ++i)
    {
        const QuicCcPacket p = RandomPacket(rng);
        Ptr<Packet> datagram = QuicCcSerializeToPacket(p);
        const Bytes bytes = PacketBytes(datagram);
        const QuicCcParseResult plain = QuicCcParse(bytes.data(), bytes.size());
        const QuicCcParseResult fragments = QuicCcParse(bytes.data(), bytes.size(), datagram);
        ASSERT_TRUE(plain.packet && fragments.packet) << p;
        EXPECT_EQ(*fragments.packet, *plain.packet) << p;
        for (const auto& frame : fragments.packet->frames)
        {
            if (const auto* stream = std::get_if<QuicCcStreamFrame>(&frame))
            {
                ++streamFrames;
                ASSERT_TRUE(stream->payload);
                EXPECT_EQ(stream->payload->GetSize(), stream->Length());
            }
        }
    }
    EXPECT_GT(streamFrames, 100);

    const QuicCcStreamFrame virtualData{5000, true, Create<Packet>(1300)};
    Ptr<Packet> datagram = QuicCcSerializeToPacket(MakePacket({virtualData}, 70));
    const Bytes bytes = PacketBytes(datagram);
    const QuicCcParseResult parsed = QuicCcParse(bytes.data(), bytes.size(), datagram);
    ASSERT_TRUE(parsed.packet);
    const auto& stream = std::get<QuicCcStreamFrame>(parsed.packet->frames.front());
    EXPECT_EQ(stream.offset, 5000u);
    EXPECT_EQ(PacketBytes(stream.payload), Bytes(1300, 0));
    EXPECT_LT(stream.payload->GetSerializedSize(), 100u);
}

// ---------------------------------------------------------------------------------------------
// ACK delay

TEST(QuicCcFramesTest, AckDelayIsCarriedInUnitsOf8Microseconds)
{
    struct Case
    {
        Time sent;
        Time decoded;
    };

    const Case cases[] = {{MilliSeconds(25), MilliSeconds(25)}, // 25000 us = 3125 * 8 exactly
                          {MicroSeconds(13), MicroSeconds(8)},  // rounded down
                          {MicroSeconds(7), Time(0)},
                          {NanoSeconds(15999), MicroSeconds(8)}, // 15 us -> 8 us
                          {Time(0), Time(0)},
                          {Seconds(3600), Seconds(3600)}};
    for (const auto& c : cases)
    {
        QuicCcPacket p = MakePacket({QuicCcAckFrame{{{0, 9}}, c.sent}});
        QuicCcPacket back = RoundTrip(p);
        ASSERT_EQ(back.frames.size(), 1u);
        EXPECT_EQ(std::get<QuicCcAckFrame>(back.frames[0]).ackDelay, c.decoded) << c.sent;
    }
    // 25 ms is the field value 3125 (2-byte varint 0x4c35).
    const Bytes bytes = QuicCcSerialize(MakePacket({QuicCcAckFrame{{{0, 9}}, MilliSeconds(25)}}));
    EXPECT_EQ(Bytes(bytes.begin() + 10, bytes.end()), (Bytes{0x02, 0x09, 0x4c, 0x35, 0x00, 0x09}));
}

// ---------------------------------------------------------------------------------------------
// IsAckEliciting

TEST(QuicCcFramesTest, IsAckElicitingFollowsRfc9002Section2)
{
    const QuicCcAckFrame ack{{{0, 1}}, Time(0)};
    const QuicCcConnectionCloseFrame close{1, "x"};
    EXPECT_FALSE(MakePacket({}).IsAckEliciting());
    EXPECT_FALSE(MakePacket({ack}).IsAckEliciting());
    EXPECT_FALSE(MakePacket({QuicCcPaddingFrame{5}}).IsAckEliciting());
    EXPECT_FALSE(MakePacket({close}).IsAckEliciting());
    EXPECT_FALSE(MakePacket({ack, QuicCcPaddingFrame{5}, close}).IsAckEliciting());
    EXPECT_TRUE(MakePacket({QuicCcPingFrame{}}).IsAckEliciting());
    EXPECT_TRUE(MakePacket({QuicCcHandshakeDoneFrame{}}).IsAckEliciting());
    EXPECT_TRUE(MakePacket({StreamFrame(0, true, {})}).IsAckEliciting());
    EXPECT_TRUE(MakePacket({ack, StreamFrame(0, false, {1})}).IsAckEliciting());
    EXPECT_TRUE(MakePacket({QuicCcPaddingFrame{5}, QuicCcPingFrame{}}).IsAckEliciting());
}

// ---------------------------------------------------------------------------------------------
// Malformed input

TEST(QuicCcFramesTest, EveryTruncationFailsCleanlyOrParses)
{
    std::mt19937_64 rng(7);
    for (int k = 0; k < 200; ++k)
    {
        QuicCcPacket p = RandomPacket(rng);
        if (k == 0)
        {
            QuicCcAckFrame ack{{{50, 60}, {10, 20}, {1, 1}}, MilliSeconds(1)};
            p = MakePacket({QuicCcPingFrame{},
                            ack,
                            StreamFrame(1000, true, Bytes(300, 0x5a)),
                            QuicCcConnectionCloseFrame{3, "reason"},
                            QuicCcHandshakeDoneFrame{},
                            QuicCcPaddingFrame{20}},
                           100000);
        }
        const Bytes bytes = QuicCcSerialize(p);
        for (size_t len = 0; len < bytes.size(); ++len)
        {
            QuicCcParseResult r = ParseExact(bytes.data(), len);
            CheckParseOutcome(r);
            if (len <= QuicCcHeaderSize(p))
            {
                EXPECT_FALSE(r.packet.has_value()) << "prefix of " << len << " bytes accepted";
            }
        }
    }
}

TEST(QuicCcFramesTest, MalformedHeadersAreRejectedWithAReason)
{
    ExpectRejected({}, {"empty"});
    ExpectRejected({0x03, 0x01, 0x02}, {"truncated header", "3 byte"});
    ExpectRejected({0x07, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x01}, {"unknown packet type", "0x7"});
    ExpectRejected({0x00}, {"unknown packet type", "0x0"});
    ExpectRejected({0x03, 1, 2, 3, 4, 5, 6, 7, 8},
                   {"truncated varint", "packet number", "offset 9"});
    ExpectRejected({0x03, 1, 2, 3, 4, 5, 6, 7, 8, 0x80, 0x00},
                   {"truncated varint", "packet number"});
    ExpectRejected(Header(), {"no frames", "offset 10"});
}

TEST(QuicCcFramesTest, MalformedFramesAreRejectedWithAReason)
{
    // Frame types.
    ExpectRejected(HeaderPlus({0x01, 0x21}), {"unknown frame type", "0x21", "offset 11"});
    ExpectRejected(HeaderPlus({0x1d, 0x00, 0x00, 0x00}), {"unknown frame type", "0x1d"});
    ExpectRejected(HeaderPlus({0x40, 0x01}), {"frame type", "0x1", "shortest encoding"});
    ExpectRejected(HeaderPlus({0x80, 0x00, 0x00}), {"truncated varint", "frame type"});
    // ACK.
    ExpectRejected(HeaderPlus({0x02, 0x80}), {"truncated varint", "ACK largest acknowledged"});
    ExpectRejected(HeaderPlus({0x02, 0x05, 0x00}), {"truncated varint", "ACK range count"});
    ExpectRejected(HeaderPlus({0x02, 0x05, 0x00, 0x00, 0x06}),
                   {"ACK first range 6", "largest acknowledged 5", "underflow"});
    ExpectRejected(HeaderPlus({0x02, 0x05, 0x00, 0x01, 0x02, 0x02, 0x00}), // smallest 3, gap 2
                   {"ACK gap 2", "underflows", "previous smallest 3"});
    ExpectRejected(HeaderPlus({0x02, 0x05, 0x00, 0x01, 0x02, 0x00, 0x02}), // range 1..?, length 2
                   {"ACK range length 2", "underflows", "range largest 1"});
    ExpectRejected(HeaderPlus({0x02, 0x05, 0x00, 0x01, 0x02, 0x00}),
                   {"ACK range count 1", "remaining 1"});
    ExpectRejected(HeaderPlus({0x02, 0x05, 0x00, 0x01, 0x02, 0x00, 0x40}),
                   {"truncated varint", "ACK range length"});
    ExpectRejected(HeaderPlus({0x02, 0x40, 0x64, 0x00, 0x43, 0xe8, 0x00, 0x00, 0x00}), // count 1000
                   {"ACK range count 1000", "remaining 2 bytes"});
    ExpectRejected(HeaderPlus({0x02, 0x05, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0}),
                   {"ACK delay field 4611686018427387903", "too large"});
    {
        // A huge range count announced with a huge buffer behind it is bounded by the bytes.
        Bytes b = HeaderPlus({0x02, 0xbf, 0xff, 0xff, 0xff, 0x00, 0xbf, 0xff, 0xff, 0xff, 0x00});
        b.resize(b.size() + 64, 0x00);
        ExpectRejected(b, {"ACK range count 1073741823"});
    }
    // STREAM.
    ExpectRejected(HeaderPlus({0x0e, 0x00, 0x05, 'a'}),
                   {"STREAM length 5", "exceeds the 1 remaining"});
    ExpectRejected(HeaderPlus({0x0e, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 'x'}),
                   {"STREAM offset 4611686018427387903 + length 1", "2^62-1"});
    ExpectRejected(HeaderPlus({0x0c, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 'x', 'y'}),
                   {"STREAM offset 4611686018427387902 + length 2", "2^62-1"});
    ExpectRejected(HeaderPlus({0x0e, 0x00, 0x40}), {"truncated varint", "STREAM length"});
    ExpectRejected(HeaderPlus({0x0c, 0x80}), {"truncated varint", "STREAM offset"});
    // CONNECTION_CLOSE.
    ExpectRejected(HeaderPlus({0x1c, 0x00, 0x00, 0x05, 'a'}),
                   {"CONNECTION_CLOSE reason length 5", "1 remaining"});
    ExpectRejected(HeaderPlus({0x1c, 0x00}), {"truncated varint", "CONNECTION_CLOSE frame type"});
    ExpectRejected(HeaderPlus({0x1c, 0xc0, 0x00, 0x00, 0x00}), {"truncated varint", "error code"});
}

TEST(QuicCcFramesTest, DeterministicFuzzNeverCrashes)
{
    std::mt19937_64 rng(0x9e3779b97f4a7c15ULL);
    size_t accepted = 0;
    // Random buffers; half of them start with a valid packet type to get past the header.
    for (int i = 0; i < 200000; ++i)
    {
        Bytes b(rng() % 201);
        for (auto& x : b)
        {
            const uint64_t r = rng();
            // Bias towards small values and zeros so frames are found often.
            x = static_cast<uint8_t>(r % 3 == 0 ? (r >> 8) % 0x20 : r >> 16);
        }
        if (!b.empty() && i % 2 == 0)
        {
            b[0] = static_cast<uint8_t>(1 + rng() % 3);
        }
        QuicCcParseResult r = ParseExact(b);
        CheckParseOutcome(r);
        accepted += r.packet.has_value() ? 1 : 0;
    }
    // Bit flips of valid packets.
    for (int i = 0; i < 4000; ++i)
    {
        const Bytes valid = QuicCcSerialize(RandomPacket(rng));
        for (int j = 0; j < 25; ++j)
        {
            Bytes b = valid;
            const int flips = 1 + static_cast<int>(rng() % 3);
            for (int k = 0; k < flips; ++k)
            {
                b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
            }
            QuicCcParseResult r = ParseExact(b);
            CheckParseOutcome(r);
            accepted += r.packet.has_value() ? 1 : 0;
        }
    }
    EXPECT_GT(accepted, 0u); // the loop reached the frame parsers, not only the header checks
}

// ---------------------------------------------------------------------------------------------
// Unencodable values are fatal errors naming the value

TEST(QuicCcFramesDeathTest, UnencodableValuesAreFatal)
{
    const uint64_t tooBig = kQuicCcVarIntMax + 1; // 4611686018427387904
    const std::vector<std::pair<QuicCcPacket, std::string>> cases = {
        {MakePacket({QuicCcPingFrame{}}, tooBig), "packet number 4611686018427387904"},
        {MakePacket({}), "no frames"},
        {MakePacket({QuicCcPaddingFrame{0}}), "PADDING length"},
        {MakePacket({QuicCcAckFrame{{}, Time(0)}}), "no range"},
        {MakePacket({QuicCcAckFrame{{{5, 4}}, Time(0)}}), "range 0 has smallest 5 > largest 4"},
        {MakePacket({QuicCcAckFrame{{{20, 30}, {9, 8}}, Time(0)}}),
         "range 1 has smallest 9 > largest 8"},
        {MakePacket({QuicCcAckFrame{{{5, 9}, {1, 4}}, Time(0)}}),
         "largest 4.*smallest 5.*non-adjacent"},
        {MakePacket({QuicCcAckFrame{{{1, 3}, {5, 9}}, Time(0)}}), "descending"},
        // The error comes from the last range too (the writer checks ranges as it goes).
        {MakePacket({QuicCcAckFrame{{{50, 60}, {40, 45}, {30, 35}, {36, 38}}, Time(0)}}),
         "range 3 \\(largest 38\\) must be below range 2 \\(smallest 30\\)"},
        {MakePacket({QuicCcAckFrame{{{0, tooBig}}, Time(0)}}),
         "ACK largest acknowledged 4611686018427387904"},
        {MakePacket({QuicCcAckFrame{{{0, 1}}, Time(0) - MicroSeconds(8)}}),
         "ack delay must be >= 0"},
        {MakePacket({StreamFrame(kQuicCcVarIntMax, false, {1})}),
         "STREAM offset 4611686018427387903 \\+ length 1"},
        {MakePacket({QuicCcAckFrame{{{0, 1}}, Time(0), QuicCcEcnCounts{0, 0, tooBig}}}),
         "ACK ECN-CE count 4611686018427387904"},
        {MakePacket({QuicCcConnectionCloseFrame{tooBig, ""}}),
         "CONNECTION_CLOSE error code 4611686018427387904"},
    };
    // QuicCcSerialize sizes the packet first; QuicCcSerializeToPacket writes onto the stack
    // under an upper bound and checks the ACK ranges as it writes them: both refuse the same.
    for (const auto& [packet, error] : cases)
    {
        SCOPED_TRACE(error);
        EXPECT_DEATH(QuicCcSerialize(packet), error);
        EXPECT_DEATH(QuicCcSerializeToPacket(packet), error);
    }
    const Bytes twenty(20, 0);
    EXPECT_DEATH(QuicCcParse(twenty.data(), twenty.size(), Create<Packet>(19)),
                 "source packet has 19 bytes, the data 20");
}

} // namespace
