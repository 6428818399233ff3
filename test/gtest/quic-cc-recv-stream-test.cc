/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcRecvStream: reassembly of out-of-order, duplicate and overlapping STREAM frames into the
 * exact byte sequence, and the checks that reject hostile frames (RFC 9000 Section 4.5).
 */
#include "ns3/quic-cc-recv-stream.h"
#include "ns3/socket.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <numeric>

using namespace ns3;

namespace
{

std::vector<uint8_t>
Expected(uint64_t offset, uint64_t length)
{
    std::vector<uint8_t> bytes(length);
    std::iota(bytes.begin(), bytes.end(), static_cast<uint8_t>(offset));
    return bytes;
}

/// A frame carrying the pattern bytes of [offset, offset + length) as a packet of its own.
QuicCcStreamFrame
Frame(uint64_t offset, uint64_t length, bool fin = false)
{
    const std::vector<uint8_t> bytes = Expected(offset, length);
    return {offset, fin, Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()))};
}

/// The same frame with its data a fragment of a larger datagram (as QuicCcParse returns it on
/// the receive path, after a 20-byte header).
QuicCcStreamFrame
AsFragment(QuicCcStreamFrame f)
{
    Ptr<Packet> datagram = Create<Packet>(20);
    datagram->AddAtEnd(f.payload);
    f.payload = datagram->CreateFragment(20, f.payload->GetSize());
    return f;
}

/// Read() as bytes.
std::vector<uint8_t>
ReadBytes(QuicCcRecvStream& s, uint64_t maxBytes)
{
    Ptr<Packet> p = s.Read(maxBytes);
    std::vector<uint8_t> out(p->GetSize());
    p->CopyData(out.data(), out.size());
    return out;
}

} // namespace

TEST(QuicCcRecvStreamTest, OutOfOrderDuplicateAndOverlappingFramesReassembleExactly)
{
    QuicCcRecvStream s(1000);
    EXPECT_TRUE(s.NothingReceived());
    EXPECT_EQ(s.OnFrame(Frame(10, 10), true), 0u); // a gap before it
    EXPECT_FALSE(s.NothingReceived());
    EXPECT_EQ(s.Available(), 0u);
    EXPECT_EQ(s.OnFrame(Frame(5, 10), true), 0u); // overlaps the first, still a gap
    EXPECT_EQ(s.OnFrame(Frame(0, 5), true), 20u); // fills it: 0..20 in order
    EXPECT_EQ(s.OnFrame(Frame(3, 12), true), 0u); // all duplicate
    EXPECT_EQ(s.Delivered(), 20u);
    EXPECT_EQ(ReadBytes(s, 7), Expected(0, 7));
    EXPECT_EQ(ReadBytes(s, 100), Expected(7, 13));
    EXPECT_EQ(s.Available(), 0u);
    EXPECT_FALSE(s.Complete());
    EXPECT_EQ(s.OnFrame(Frame(20, 0, true), true), 0u);
    EXPECT_TRUE(s.Complete());
}

// Data held as packets (fragments of received datagrams): the same exact bytes, partial reads
// split a packet, and virtual (zero-filled) data is handed on without becoming real bytes.
TEST(QuicCcRecvStreamTest, PacketDataReassemblesExactlyAndVirtualDataStaysVirtual)
{
    QuicCcRecvStream s(1000);
    EXPECT_EQ(s.OnFrame(AsFragment(Frame(30, 20)), true), 0u);
    EXPECT_EQ(s.OnFrame(Frame(10, 25), true), 0u); // a packet of its own, overlapping the next
    EXPECT_EQ(s.OnFrame(AsFragment(Frame(0, 12)), true), 50u);
    EXPECT_EQ(s.Available(), 50u);
    EXPECT_EQ(ReadBytes(s, 5), Expected(0, 5));
    EXPECT_EQ(s.Available(), 45u);
    EXPECT_EQ(ReadBytes(s, 40), Expected(5, 40));
    EXPECT_EQ(ReadBytes(s, 40), Expected(45, 5));
    EXPECT_EQ(s.Read(10)->GetSize(), 0u);

    QuicCcStreamFrame zeros{50, true, Create<Packet>(3000)};
    EXPECT_EQ(s.OnFrame(zeros, true), 3000u);
    Ptr<Packet> out = s.Read(5000);
    EXPECT_EQ(out->GetSize(), 3000u);
    EXPECT_LT(out->GetSerializedSize(), 100u) << "virtual data became real bytes";
    EXPECT_TRUE(s.Complete());
}

// Many small pieces (joined into the packets before them) and large ones, read back across
// packet boundaries in reads of every kind: exactly the bytes, in order.
TEST(QuicCcRecvStreamTest, SmallAndLargePiecesReadBackExactly)
{
    QuicCcRecvStream s(1 << 20);
    uint64_t offset = 0;
    for (int i = 0; i < 3000; ++i)
    {
        const uint64_t length = i % 7 == 0 ? 1300 : 1 + i % 5;
        const QuicCcStreamFrame f = Frame(offset, length);
        EXPECT_EQ(s.OnFrame(i % 2 == 0 ? AsFragment(f) : f, true), length);
        offset += length;
    }
    EXPECT_EQ(s.Available(), offset);
    uint64_t read = 0;
    for (const uint64_t size : {1u, 3u, 700u, 1300u, 5000u, 100000u})
    {
        const uint64_t n = std::min(size, offset - read);
        EXPECT_EQ(ReadBytes(s, size), Expected(read, n)) << "read of " << size;
        read += n;
    }
    EXPECT_EQ(ReadBytes(s, offset), Expected(read, offset - read));
    EXPECT_EQ(s.Available(), 0u);
}

// The datagram's packet tags (here the sending UDP socket's) are not handed to the application.
TEST(QuicCcRecvStreamTest, ReadCarriesNoPacketTags)
{
    QuicCcRecvStream s(1000);
    for (uint64_t offset : {0u, 300u})
    {
        QuicCcStreamFrame f = AsFragment(Frame(offset, 300));
        Ptr<Packet> tagged = f.payload->Copy();
        tagged->AddPacketTag(SocketSetDontFragmentTag());
        f.payload = tagged;
        s.OnFrame(f, true);
    }
    SocketSetDontFragmentTag tag;
    EXPECT_FALSE(s.Read(300)->PeekPacketTag(tag)) << "one whole packet";
    EXPECT_FALSE(s.Read(100)->PeekPacketTag(tag)) << "part of a packet";
    EXPECT_FALSE(s.Read(1000)->PeekPacketTag(tag)) << "the rest";
}

TEST(QuicCcRecvStreamTest, ShutDownReceiverCountsButKeepsNothing)
{
    QuicCcRecvStream s(1000);
    EXPECT_EQ(s.OnFrame(Frame(0, 50, true), false), 50u);
    EXPECT_EQ(s.Available(), 0u);
    EXPECT_EQ(s.Delivered(), 50u);
    EXPECT_TRUE(s.Complete());
}

TEST(QuicCcRecvStreamTest, HostileFramesAreRejectedWithAReason)
{
    QuicCcRecvStream s(100);
    EXPECT_EQ(s.Check(Frame(0, 100)), "");
    EXPECT_EQ(s.Check(Frame(50, 51)),
              "STREAM data up to offset 101 beyond the receive window (next 0)");
    s.OnFrame(Frame(0, 40), true);
    EXPECT_EQ(s.Check(Frame(100, 40)), "") << "the window moves with the in-order data";
    s.OnFrame(Frame(60, 10), true);
    EXPECT_EQ(s.Check(Frame(0, 50, true)), "FIN at 50 below data already received up to 70");
    s.OnFrame(Frame(70, 10, true), true);
    EXPECT_EQ(s.Check(Frame(75, 10)), "STREAM data up to 85 past the final size 80");
    EXPECT_EQ(s.Check(Frame(0, 79, true)), "FIN changes the final size from 80 to 79");
    EXPECT_EQ(s.Check(Frame(40, 40, true)), "") << "the same final size again is fine";
}
