/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-packet-builder.h"

#include "quic-cc-received-packet-manager.h"
#include "quic-cc-send-stream.h"

#include <algorithm>

namespace ns3
{

QuicCcPacketBuilder::QuicCcPacketBuilder(QuicCcSendStream& stream,
                                         QuicCcReceivedPacketManager& acks)
    : m_stream(stream),
      m_acks(acks)
{
}

uint64_t
QuicCcPacketBuilder::WindowBudget(uint64_t maxDatagramSize, uint64_t bytesAvailable)
{
    return std::min(maxDatagramSize, bytesAvailable);
}

uint64_t
QuicCcPacketBuilder::ProbeBudget(uint64_t maxDatagramSize)
{
    return maxDatagramSize;
}

bool
QuicCcPacketBuilder::FitsStreamData(const QuicCcPacket& packet,
                                    uint64_t nextOffset,
                                    uint64_t budget)
{
    return budget >= QuicCcHeaderSize(packet) + QuicCcStreamFrameOverhead(nextOffset, 1) + 1;
}

bool
QuicCcPacketBuilder::FitsFullOnly(const QuicCcPacket& packet,
                                  const QuicCcSendStream& stream,
                                  uint64_t maxDatagramSize,
                                  uint64_t budget)
{
    if (budget >= maxDatagramSize)
    {
        return true;
    }
    if (stream.HasRetransmission() || stream.HasBareFinRetransmission())
    {
        return false;
    }
    const uint64_t next = stream.GetNextOffset();
    const uint64_t remaining = stream.GetEndOffset() - next;
    return QuicCcHeaderSize(packet) + QuicCcStreamFrameOverhead(next, remaining) + remaining <=
           budget;
}

QuicCcPacket
QuicCcPacketBuilder::StartPacket(uint64_t connectionId,
                                 uint64_t packetNumber,
                                 const ControlFrames& owed,
                                 bool server)
{
    QuicCcPacket packet;
    packet.connectionId = connectionId;
    packet.packetNumber = packetNumber;
    packet.type = QuicCcPacketType::ONE_RTT;
    if (owed.initial)
    {
        packet.type = QuicCcPacketType::INITIAL;
    }
    else if (owed.handshakeDone && server)
    {
        packet.type = QuicCcPacketType::HANDSHAKE;
    }
    return packet;
}

bool
QuicCcPacketBuilder::AppendAck(QuicCcPacket& packet, uint64_t budget, Time now) const
{
    if (!m_acks.IsAckPending() || !m_acks.AnyReceived())
    {
        return false;
    }
    QuicCcAckFrame ack = m_acks.BuildAckFrame(now);
    const uint64_t room = std::max(budget, kMinAckRoom);
    // Trimmed only if it does not fit; when even the largest encoding of every field (8 bytes)
    // fits, the exact size need not be computed.
    const uint64_t used = QuicCcSerializedSize(packet);
    // largest, delay, count and first range, then a gap and a length per further range
    const uint64_t fields = 2 + 2 * ack.ranges.size();
    if (used + 1 + 8 * fields > room)
    {
        ack.ranges.resize(QuicCcAckRangesThatFit(ack, room > used ? room - used : 0));
    }
    packet.frames.emplace_back(std::move(ack));
    return true;
}

void
QuicCcPacketBuilder::AppendControlFrames(QuicCcPacket& packet,
                                         QuicCcSentFrames& frames,
                                         ControlFrames& owed,
                                         const Context& context) const
{
    const bool server = context.server;
    if (owed.initial)
    {
        packet.type = QuicCcPacketType::INITIAL;
        packet.frames.emplace_back(QuicCcPingFrame{});
        frames.initial = true;
        owed.initial = false;
    }
    if (owed.handshakeDone && server)
    {
        packet.frames.emplace_back(QuicCcHandshakeDoneFrame{});
        frames.handshakeDone = true;
        owed.handshakeDone = false;
    }
    if (owed.flowUpdate)
    {
        packet.frames.emplace_back(
            QuicCcFlowControlFrame{QuicCcFrameType::MAX_DATA, context.flow.maxData});
        packet.frames.emplace_back(
            QuicCcFlowControlFrame{QuicCcFrameType::MAX_STREAM_DATA, context.flow.maxStreamData});
        frames.flowUpdate = true;
        owed.flowUpdate = false;
    }
    if (owed.blocked)
    {
        // The binding limit: the connection's unless the stream's is tighter.
        const bool stream = context.flow.peerMaxStreamData < context.flow.peerMaxData;
        packet.frames.emplace_back(QuicCcFlowControlFrame{
            stream ? QuicCcFrameType::STREAM_DATA_BLOCKED : QuicCcFrameType::DATA_BLOCKED,
            context.flow.SendLimit()});
        frames.blocked = context.flow.SendLimit();
        owed.blocked = false;
    }
}

bool
QuicCcPacketBuilder::RepeatsBlocked(const QuicCcSentFrames& frames,
                                    const FlowLimits& flow,
                                    bool flowBlocked)
{
    return frames.blocked && flowBlocked && *frames.blocked == flow.SendLimit();
}

uint64_t
QuicCcPacketBuilder::FlowLimits::SendLimit() const
{
    return std::min(peerMaxData, peerMaxStreamData);
}

uint64_t
QuicCcPacketBuilder::Room(const QuicCcPacket& packet, uint64_t offset, uint64_t budget)
{
    const uint64_t used = QuicCcSerializedSize(packet);
    const uint64_t overhead = QuicCcStreamFrameOverhead(offset, budget);
    return used + overhead < budget ? budget - used - overhead : 0;
}

void
QuicCcPacketBuilder::AddStreamFrame(QuicCcPacket& packet,
                                    QuicCcSentFrames& frames,
                                    QuicCcStreamFrame frame)
{
    frames.chunks.push_back({frame.offset, frame.Length(), frame.fin});
    packet.frames.emplace_back(std::move(frame));
}

uint64_t
QuicCcPacketBuilder::AppendStreamFrames(QuicCcPacket& packet,
                                        QuicCcSentFrames& frames,
                                        uint64_t budget,
                                        uint64_t sendLimit)
{
    // Retransmissions first (oldest offset first), then new data, then a bare FIN.
    while (m_stream.HasRetransmission())
    {
        const uint64_t space = Room(packet, m_stream.NextRetransmission().first, budget);
        if (space == 0)
        {
            return 0;
        }
        AddStreamFrame(packet, frames, m_stream.TakeRetransmission(space));
    }
    const uint64_t end = m_stream.GetEndOffset();
    if (m_stream.HasBareFinRetransmission())
    {
        // The lost FIN travelled alone or with data acknowledged since: re-send it bare.
        const bool bareFinFits =
            QuicCcSerializedSize(packet) + QuicCcStreamFrameOverhead(end, 0) <= budget;
        if (Room(packet, end, budget) == 0 && !bareFinFits)
        {
            return 0;
        }
        AddStreamFrame(packet, frames, m_stream.TakeBareFinRetransmission());
    }
    if (m_stream.HasNewData())
    {
        // New data stops at the peer's flow-control limit (RFC 9000 Section 4.1).
        const uint64_t next = m_stream.GetNextOffset();
        const uint64_t space =
            std::min(Room(packet, next, budget), next < sendLimit ? sendLimit - next : 0);
        if (space == 0)
        {
            return 0;
        }
        QuicCcStreamFrame frame = m_stream.TakeNewData(space);
        const uint64_t length = frame.Length();
        AddStreamFrame(packet, frames, std::move(frame));
        return length;
    }
    if (m_stream.HasBareFin() &&
        QuicCcSerializedSize(packet) + QuicCcStreamFrameOverhead(end, 0) <= budget)
    {
        AddStreamFrame(packet, frames, m_stream.TakeBareFin());
    }
    return 0;
}

QuicCcPacketBuilder::Filled
QuicCcPacketBuilder::Fill(QuicCcPacket& packet,
                          uint64_t budget,
                          bool probe,
                          const QuicCcSentFrames* oldest,
                          ControlFrames& owed,
                          const Context& context)
{
    Filled filled;
    // ProbeContent=Ping: a probe carries no STREAM data (RFC 9002 Section 6.2.4 allows a PING).
    const bool streamData = context.established && !(probe && context.pingProbe);
    AppendAck(packet, budget, context.now);
    AppendControlFrames(packet, filled.frames, owed, context);
    if (streamData)
    {
        filled.newBytes +=
            AppendStreamFrames(packet, filled.frames, budget, context.flow.SendLimit());
    }
    if (probe && !packet.IsAckEliciting())
    {
        // A probe re-carries the oldest unacknowledged data, or is a PING (RFC 9002 Section 6.2.4).
        if (oldest)
        {
            for (const QuicCcStreamChunk& c : oldest->chunks)
            {
                if (streamData)
                {
                    m_stream.OnLost(c);
                }
            }
            ControlFrames again;
            again.initial = oldest->initial && context.clientHandshake;
            again.handshakeDone = oldest->handshakeDone && context.server;
            again.flowUpdate = oldest->flowUpdate;
            again.blocked = RepeatsBlocked(*oldest, context.flow, context.flowBlocked);
            AppendControlFrames(packet, filled.frames, again, context);
            if (streamData)
            {
                filled.newBytes +=
                    AppendStreamFrames(packet, filled.frames, budget, context.flow.SendLimit());
            }
        }
        if (!packet.IsAckEliciting())
        {
            packet.frames.emplace_back(QuicCcPingFrame{});
        }
    }
    if (packet.type == QuicCcPacketType::INITIAL)
    {
        const size_t size = QuicCcSerializedSize(packet);
        if (size < kMinInitialSize)
        {
            packet.frames.emplace_back(QuicCcPaddingFrame{kMinInitialSize - size});
        }
    }
    return filled;
}

bool
QuicCcPacketBuilder::IsWorthSending(const QuicCcPacket& packet, bool probe)
{
    return packet.IsAckEliciting() || probe;
}

} // namespace ns3
