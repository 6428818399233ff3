/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcSocket::PacketSizing, driven as QuicCcConnection::SendOnePacket drives the packet builder:
 * FreeWindow (quiche: each packet sized to the free window) sends sub-mss packets whenever the
 * window has a little room; FullOnly sends a data packet only when a full datagram fits, or when
 * the stream's remaining bytes fit (its last packet).
 */
#include "ns3/packet.h"
#include "ns3/quic-cc-packet-builder.h"
#include "ns3/quic-cc-received-packet-manager.h"
#include "ns3/quic-cc-send-stream.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kMss = 1350;

/// Serialized sizes of the data packets a sender builds when the free window offers
/// \p budgets in turn (a budget with no packet leaves the data waiting, as in the socket).
struct Sizes
{
    std::vector<uint64_t> sizes; //!< bytes, one per packet sent
    bool lastCarriesFin{false};  //!< the last packet carries the stream's end
};

Sizes
Drive(uint64_t streamBytes, const std::vector<uint64_t>& budgets, bool fullOnly)
{
    QuicCcSendStream stream(1 << 20);
    QuicCcReceivedPacketManager acks;
    QuicCcPacketBuilder builder(stream, acks);
    QuicCcPacketBuilder::ControlFrames owed;
    stream.Append(Create<Packet>(static_cast<uint32_t>(streamBytes)));
    stream.Finish();
    QuicCcPacketBuilder::Context c;
    c.established = true;
    Sizes out;
    uint64_t pn = 0;
    for (uint64_t room : budgets)
    {
        QuicCcPacket p = QuicCcPacketBuilder::StartPacket(7, pn, owed, false);
        const uint64_t budget = QuicCcPacketBuilder::WindowBudget(kMss, room);
        if (!QuicCcPacketBuilder::FitsStreamData(p, stream.GetNextOffset(), budget) ||
            (fullOnly && !QuicCcPacketBuilder::FitsFullOnly(p, stream, kMss, budget)))
        {
            continue; // data waits for the window
        }
        const auto filled = builder.Fill(p, budget, false, nullptr, owed, c);
        if (!QuicCcPacketBuilder::IsWorthSending(p, false))
        {
            continue;
        }
        ++pn;
        out.sizes.push_back(QuicCcSerializedSize(p));
        out.lastCarriesFin = !filled.frames.chunks.empty() && filled.frames.chunks.back().fin;
    }
    return out;
}

/// Free-window room seen at successive send opportunities: full windows, fragments left by
/// x 0.7 reductions and CSS's mss / 4 growth, and the tail.
const std::vector<uint64_t> kRoom{1350, 700, 1350, 337, 1349, 1350, 90, 1350, 2000, 5000, 1350};

} // namespace

// FreeWindow: every room with space for one byte of data becomes a packet filled to the room,
// so the 700, 337, 1349 and 90-byte rooms give sub-mss packets in mid-stream; the 2000 and 5000
// rooms are cut to one datagram. Data per packet is its size - 15 B (the first: - 14 B), 7757 B
// in the first eight packets, so the last holds the remaining 243 B: 258 B with the FIN.
TEST(QuicCcPacketSizingTest, FreeWindowSendsSubMssPacketsMidStream)
{
    const Sizes s = Drive(8000, kRoom, false);
    EXPECT_EQ(s.sizes, (std::vector<uint64_t>{1350, 700, 1350, 337, 1349, 1350, 90, 1350, 258}));
    EXPECT_TRUE(s.lastCarriesFin);
}

// FullOnly: a room under one datagram sends nothing while more than it holds remains, so every
// packet but the stream's last is a full 1350 B. Each carries 1350 - 10 (short header: 1 + 8-byte
// connection ID + 1-byte packet number) - 5 (STREAM type, 2-byte offset, 2-byte length) = 1335 B
// (the first, at offset 0 with a 1-byte offset, 1336 B): 6676 B in five packets, so the 5000-byte
// room finds 1324 B left and sends them with the FIN in 1324 + 15 = 1339 B.
TEST(QuicCcPacketSizingTest, FullOnlySendsSubMssOnlyAsTheStreamsLastPacket)
{
    const Sizes s = Drive(8000, kRoom, true);
    EXPECT_EQ(s.sizes, (std::vector<uint64_t>{1350, 1350, 1350, 1350, 1350, 1339}));
    EXPECT_TRUE(s.lastCarriesFin);
}
