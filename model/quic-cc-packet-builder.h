/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_PACKET_BUILDER_H
#define QUIC_CC_PACKET_BUILDER_H

#include "quic-cc-frames.h"
#include "quic-cc-sent-frames.h"

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

class QuicCcReceivedPacketManager;
class QuicCcSendStream;

/**
 * \ingroup quic-cc-transport
 * \brief Fills one packet within a send budget: the owed ACK, the handshake's control frames,
 * STREAM data (lost ranges first, then new data, then a bare FIN), INITIAL padding, and the
 * contents of a PTO probe.
 *
 * Pure logic: it reads the send stream and the received-packet manager and takes what it puts
 * into the packet from them; the connection (QuicCcConnection) transmits the result. The budget is
 * computed by the named functions below, so that a different sizing policy replaces exactly one of
 * them.
 */
class QuicCcPacketBuilder
{
  public:
    /// RFC 9000 Section 14.1: a client's INITIAL datagram is padded to at least 1200 bytes.
    static constexpr uint64_t kMinInitialSize = 1200;
    /// An ACK frame is trimmed (highest ranges kept) to fit max(budget, this), bytes.
    static constexpr uint64_t kMinAckRoom = 200;

    /// Control frames the connection owes (they repeat until acknowledged).
    struct ControlFrames
    {
        bool initial{false};       //!< client: INITIAL (PING, padded)
        bool handshakeDone{false}; //!< server: HANDSHAKE_DONE
        bool flowUpdate{false};    //!< MAX_DATA and MAX_STREAM_DATA (Context's limits)
        bool blocked{false};       //!< DATA_BLOCKED or STREAM_DATA_BLOCKED (Context's limits)
    };

    /// Flow-control limits of RFC 9000 Section 4 (QuicCcSocket::FlowControl); without flow
    /// control the send limits are kQuicCcVarIntMax and no flow-control frame is owed.
    struct FlowLimits
    {
        uint64_t maxData{0};                          //!< our connection limit (MAX_DATA)
        uint64_t maxStreamData{0};                    //!< our stream limit (MAX_STREAM_DATA)
        uint64_t peerMaxData{kQuicCcVarIntMax};       //!< the peer's connection limit
        uint64_t peerMaxStreamData{kQuicCcVarIntMax}; //!< the peer's stream limit

        /// Highest stream offset new data may reach: the tighter of the peer's limits.
        uint64_t SendLimit() const;
    };

    /// Where the connection stands, as far as packet contents go.
    struct Context
    {
        bool server{false};          //!< the server end
        bool clientHandshake{false}; //!< client, handshake not complete
        bool established{false};     //!< STREAM data may flow
        Time now;                    //!< send time (ACK delay)
        bool pingProbe{false};   //!< a probe carries no STREAM data (QuicCcSocket::ProbeContent)
        FlowLimits flow;         //!< flow-control limits (new data stops at flow.SendLimit())
        bool flowBlocked{false}; //!< new data waits at flow.SendLimit()
    };

    /// What Fill() put into the packet.
    struct Filled
    {
        QuicCcSentFrames frames; //!< what must be repeated if the packet is lost
        uint64_t newBytes{0};    //!< never-sent stream bytes it carries
    };

    /**
     * A builder over the connection's parts it fills packets from.
     * \param stream  the send stream (STREAM data, lost ranges, FIN)
     * \param acks  the received-packet manager (the owed ACK frame)
     */
    QuicCcPacketBuilder(QuicCcSendStream& stream, QuicCcReceivedPacketManager& acks);

    /**
     * Send budget of a packet the congestion window governs: the max datagram size, cut to what
     * the controller allows (quiche fills at most cwnd - bytes in flight, plus PRR's allowance).
     */
    static uint64_t WindowBudget(uint64_t maxDatagramSize, uint64_t bytesAvailable);
    /// Send budget of a PTO probe: a probe ignores the congestion window (RFC 9002 Section 6.2.4).
    static uint64_t ProbeBudget(uint64_t maxDatagramSize);
    /**
     * True if \p budget holds \p packet's header plus a STREAM frame with one byte at
     * \p nextOffset: below that, data waits for the window.
     */
    static bool FitsStreamData(const QuicCcPacket& packet, uint64_t nextOffset, uint64_t budget);
    /**
     * PacketSizing=FullOnly: true if \p budget is a full datagram (\p maxDatagramSize), or if
     * nothing waits for retransmission and \p packet's header plus the stream's remaining new
     * bytes fit in \p budget. Otherwise data waits rather than leave in a sub-mss packet.
     */
    static bool FitsFullOnly(const QuicCcPacket& packet,
                             const QuicCcSendStream& stream,
                             uint64_t maxDatagramSize,
                             uint64_t budget);

    /// An empty packet of the right type: INITIAL while the INITIAL is owed, HANDSHAKE while a
    /// server owes HANDSHAKE_DONE, 1-RTT otherwise.
    static QuicCcPacket StartPacket(uint64_t connectionId,
                                    uint64_t packetNumber,
                                    const ControlFrames& owed,
                                    bool server);

    /**
     * Fill \p packet within \p budget: the owed ACK, owed control frames (cleared in \p owed),
     * STREAM frames; for a probe (\p oldest = what the oldest outstanding packet carried, or
     * null) its contents again or a PING. INITIAL packets are padded to kMinInitialSize.
     * \return what was added
     */
    Filled Fill(QuicCcPacket& packet,
                uint64_t budget,
                bool probe,
                const QuicCcSentFrames* oldest,
                ControlFrames& owed,
                const Context& context);

    /**
     * RFC 9000 Section 13.3: a DATA_BLOCKED or STREAM_DATA_BLOCKED that \p frames carried goes
     * out again only while the sender is still blocked (\p flowBlocked) at the limit it reported.
     */
    static bool RepeatsBlocked(const QuicCcSentFrames& frames,
                               const FlowLimits& flow,
                               bool flowBlocked);

    /// True if the packet is worth sending (ack-eliciting, or a probe).
    static bool IsWorthSending(const QuicCcPacket& packet, bool probe);

    /// Add the owed ACK frame, trimmed to fit max(\p budget, kMinAckRoom); false if none is owed.
    bool AppendAck(QuicCcPacket& packet, uint64_t budget, Time now) const;

  private:
    /// Add the owed control frames.
    void AppendControlFrames(QuicCcPacket& packet,
                             QuicCcSentFrames& frames,
                             ControlFrames& owed,
                             const Context& context) const;
    /// Add STREAM frames up to \p budget, new data up to stream offset \p sendLimit; returns
    /// the never-sent bytes added.
    uint64_t AppendStreamFrames(QuicCcPacket& packet,
                                QuicCcSentFrames& frames,
                                uint64_t budget,
                                uint64_t sendLimit);
    /// Add one STREAM frame and record it.
    static void AddStreamFrame(QuicCcPacket& packet,
                               QuicCcSentFrames& frames,
                               QuicCcStreamFrame frame);
    /// Data bytes a STREAM frame at \p offset may carry within \p budget (0: none fits).
    static uint64_t Room(const QuicCcPacket& packet, uint64_t offset, uint64_t budget);

    QuicCcSendStream& m_stream;
    QuicCcReceivedPacketManager& m_acks;
};

} // namespace ns3

#endif // QUIC_CC_PACKET_BUILDER_H
