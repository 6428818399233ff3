/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcSendStream: byte-exact frames out of the application's packets, lost ranges first,
 * the FIN, freeing the acknowledged prefix, and virtual packets that cost no memory.
 */
#include "ns3/packet.h"
#include "ns3/quic-cc-send-stream.h"

#include <fstream>
#include <gtest/gtest.h>
#include <numeric>
#include <unistd.h>

using namespace ns3;

namespace
{

/// A packet holding bytes first, first + 1, ... (mod 256).
Ptr<Packet>
Bytes(uint8_t first, uint32_t size)
{
    std::vector<uint8_t> data(size);
    std::iota(data.begin(), data.end(), first);
    return Create<Packet>(data.data(), size);
}

/// The bytes \p first .. \p first + size - 1 (mod 256).
std::vector<uint8_t>
Expected(uint8_t first, uint32_t size)
{
    std::vector<uint8_t> data(size);
    std::iota(data.begin(), data.end(), first);
    return data;
}

/// Resident set size of this process, bytes (Linux /proc/self/statm).
uint64_t
ResidentBytes()
{
    std::ifstream statm("/proc/self/statm");
    uint64_t size = 0;
    uint64_t resident = 0;
    statm >> size >> resident;
    return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

} // namespace

// Frames cut across the application's packet boundaries carry exactly the bytes handed over.
TEST(QuicCcSendStreamTest, FramesAcrossPacketBoundariesAreByteExact)
{
    QuicCcSendStream stream(1000);
    stream.Append(Bytes(0, 5));
    stream.Append(Bytes(5, 7));
    stream.Append(Bytes(12, 3));
    EXPECT_EQ(stream.GetEndOffset(), 15u);
    EXPECT_EQ(stream.GetTxAvailable(), 985u);

    QuicCcStreamFrame a = stream.TakeNewData(4);
    EXPECT_EQ(a.offset, 0u);
    EXPECT_EQ(a.Bytes(), Expected(0, 4));
    EXPECT_FALSE(a.fin);
    QuicCcStreamFrame b = stream.TakeNewData(6); // ends inside the second packet
    EXPECT_EQ(b.offset, 4u);
    EXPECT_EQ(b.Bytes(), Expected(4, 6));
    stream.Finish();
    QuicCcStreamFrame c = stream.TakeNewData(100); // the rest, with the FIN
    EXPECT_EQ(c.offset, 10u);
    EXPECT_EQ(c.Bytes(), Expected(10, 5));
    EXPECT_TRUE(c.fin);
    EXPECT_FALSE(stream.HasDataToSend());
    EXPECT_FALSE(stream.HasBareFin());
}

// Lost ranges go out again before new data, minus what was acknowledged meanwhile.
TEST(QuicCcSendStreamTest, LostRangesFirstWithoutAcknowledgedParts)
{
    QuicCcSendStream stream(1000);
    stream.Append(Bytes(0, 30));
    stream.TakeNewData(10);
    stream.OnAcked({2, 3, false});
    stream.OnLost({0, 10, false});
    ASSERT_TRUE(stream.HasRetransmission());
    EXPECT_EQ(stream.NextRetransmission(), std::make_pair(uint64_t{0}, uint64_t{2}));
    QuicCcStreamFrame first = stream.TakeRetransmission(100);
    EXPECT_EQ(first.offset, 0u);
    EXPECT_EQ(first.Bytes(), Expected(0, 2));
    QuicCcStreamFrame second = stream.TakeRetransmission(3); // cut to the room given
    EXPECT_EQ(second.offset, 5u);
    EXPECT_EQ(second.Bytes(), Expected(5, 3));
    EXPECT_EQ(stream.NextRetransmission(), std::make_pair(uint64_t{8}, uint64_t{10}));
    stream.OnAcked({8, 2, false}); // acknowledged after all: no longer waiting
    EXPECT_FALSE(stream.HasRetransmission());
    EXPECT_TRUE(stream.HasNewData());
    EXPECT_EQ(stream.GetNextOffset(), 10u);
}

// A lost FIN whose data was acknowledged goes out bare; its ACK completes the stream.
TEST(QuicCcSendStreamTest, LostFinIsResentBare)
{
    QuicCcSendStream stream(1000);
    stream.Append(Bytes(0, 10));
    stream.TakeNewData(10);
    stream.Finish();
    ASSERT_TRUE(stream.HasBareFin());
    QuicCcStreamFrame fin = stream.TakeBareFin();
    EXPECT_EQ(fin.offset, 10u);
    EXPECT_EQ(fin.Length(), 0u);
    EXPECT_TRUE(fin.fin);
    stream.OnAcked({0, 10, false});
    EXPECT_FALSE(stream.AllAcked());
    stream.OnLost({10, 0, true});
    ASSERT_TRUE(stream.HasBareFinRetransmission());
    QuicCcStreamFrame again = stream.TakeBareFinRetransmission();
    EXPECT_EQ(again.offset, 10u);
    EXPECT_TRUE(again.fin);
    EXPECT_FALSE(stream.HasDataToSend());
    stream.OnAcked({10, 0, true});
    EXPECT_TRUE(stream.IsFinAcked());
    EXPECT_TRUE(stream.AllAcked());
    EXPECT_EQ(stream.GetBytesAcked(), 10u);
}

// A lost range reaching the end carries the lost FIN with it.
TEST(QuicCcSendStreamTest, RetransmissionToTheEndCarriesTheLostFin)
{
    QuicCcSendStream stream(1000);
    stream.Append(Bytes(0, 10));
    stream.Finish();
    QuicCcStreamFrame all = stream.TakeNewData(100);
    EXPECT_TRUE(all.fin);
    stream.OnLost({0, 10, true});
    EXPECT_FALSE(stream.TakeRetransmission(4).fin);
    QuicCcStreamFrame last = stream.TakeRetransmission(100);
    EXPECT_EQ(last.offset, 4u);
    EXPECT_EQ(last.Bytes(), Expected(4, 6));
    EXPECT_TRUE(last.fin);
    EXPECT_FALSE(stream.HasBareFinRetransmission());
}

// The acknowledged prefix is freed (also inside a packet); later bytes stay readable.
TEST(QuicCcSendStreamTest, AcknowledgedPrefixIsFreed)
{
    QuicCcSendStream stream(300);
    for (uint8_t i = 0; i < 3; ++i)
    {
        stream.Append(Bytes(static_cast<uint8_t>(100 * i), 100));
    }
    EXPECT_EQ(stream.GetTxAvailable(), 0u);
    EXPECT_FALSE(stream.CanAppend(1));
    stream.TakeNewData(300);
    stream.OnAcked({0, 150, false});
    stream.OnAcked({200, 50, false}); // not in order: not freed
    stream.ReleaseAcked();
    EXPECT_EQ(stream.GetBufferedBytes(), 150u);
    EXPECT_EQ(stream.GetTxAvailable(), 150u);
    EXPECT_EQ(stream.GetBytesAcked(), 150u);
    stream.OnLost({100, 200, false});
    QuicCcStreamFrame frame = stream.TakeRetransmission(1000);
    EXPECT_EQ(frame.offset, 150u);
    EXPECT_EQ(frame.Bytes(), Expected(150, 50));
    frame = stream.TakeRetransmission(1000);
    EXPECT_EQ(frame.offset, 250u);
    EXPECT_EQ(frame.Bytes(), Expected(250, 50));
}

// The buffer and the stream offset space bound what the application may hand over.
TEST(QuicCcSendStreamTest, AppendIsBoundedByBufferAndOffsetSpace)
{
    QuicCcSendStream stream(10);
    EXPECT_TRUE(stream.CanAppend(10));
    EXPECT_FALSE(stream.CanAppend(11));
    stream.Append(Create<Packet>(0)); // an empty packet adds nothing
    EXPECT_EQ(stream.GetEndOffset(), 0u);
    EXPECT_FALSE(stream.HasDataToSend());
}

TEST(QuicCcSendStreamDeathTest, AppendBeyondTheBufferIsFatal)
{
    QuicCcSendStream stream(10);
    EXPECT_DEATH(stream.Append(Create<Packet>(11)), "11 bytes do not fit");
}

// Virtual packets (as BulkSendApplication hands over) are held as ns-3 Packets: 3.5 GB of them
// do not grow the process, and the frames carry their zero bytes.
TEST(QuicCcSendStreamTest, VirtualPacketsCostNoMemory)
{
    const uint64_t before = ResidentBytes();
    QuicCcSendStream stream(uint64_t{4} << 30);
    const uint32_t size = 3'500'000'000u;
    stream.Append(Create<Packet>(size));
    QuicCcStreamFrame first = stream.TakeNewData(1350);
    EXPECT_EQ(first.Bytes(), std::vector<uint8_t>(1350, 0));
    stream.OnAcked({0, 1350, false});
    stream.ReleaseAcked();
    stream.OnLost({3'000'000'000, 1000, false}); // a range deep inside the virtual packet
    QuicCcStreamFrame late = stream.TakeRetransmission(1000);
    EXPECT_EQ(late.offset, 3'000'000'000u);
    EXPECT_EQ(late.Bytes(), std::vector<uint8_t>(1000, 0));
    EXPECT_EQ(stream.GetBufferedBytes(), size - 1350u);
    EXPECT_LT(ResidentBytes() - std::min(before, ResidentBytes()), uint64_t{100} << 20);
}

// A frame of virtual packets is a fragment of them, across packet boundaries too: its zero
// bytes stay virtual (Packet::GetSerializedSize counts real bytes only).
TEST(QuicCcSendStreamTest, FramesOfVirtualPacketsStayVirtual)
{
    QuicCcSendStream stream(1 << 20);
    stream.Append(Create<Packet>(1000));
    stream.Append(Create<Packet>(1000));
    QuicCcStreamFrame within = stream.TakeNewData(600);
    QuicCcStreamFrame across = stream.TakeNewData(1300); // 400 + 900 bytes of the two packets
    for (const QuicCcStreamFrame* frame : {&within, &across})
    {
        ASSERT_TRUE(frame->payload);
        EXPECT_EQ(frame->Bytes(), std::vector<uint8_t>(frame->Length(), 0));
        EXPECT_LT(frame->payload->GetSerializedSize(), 100u);
    }
    EXPECT_EQ(within.Length(), 600u);
    EXPECT_EQ(across.Length(), 1300u);
}
