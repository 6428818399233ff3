/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SEND_BUFFER_H
#define QUIC_CC_SEND_BUFFER_H

#include <cstdint>
#include <string>

namespace ns3
{

/// \ingroup quic-cc
/// Bytes a study's bulk sender hands its socket per Send (BulkSendApplication's SendSize).
constexpr uint64_t kQuicCcBulkWriteBytes = 16384;

/// \ingroup quic-cc
/// The smallest send buffer (SndBufSize default, after any --ns3::...::SndBufSize=...) of the
/// QUIC sockets a run uses, and that attribute's full name ("ns3::QuicCcSocket::SndBufSize").
struct QuicCcSendBuffer
{
    uint64_t bytes{UINT64_MAX}; //!< UINT64_MAX when the run uses neither QUIC transport
    std::string attribute;      //!< empty likewise
};

/// The send buffer of the quic-cc socket (\p quicCc) and of the ngtcp2 socket (\p ngtcp2; only
/// asked in a build with it), whichever is smaller.
QuicCcSendBuffer QuicCcSmallestSendBuffer(bool quicCc, bool ngtcp2);

/**
 * A usage error (QuicCcUsageError naming the send-buffer attribute the user set) when one write
 * of \p writeBytes does not fit the send buffer of a socket the run uses: a socket refuses a Send
 * larger than its free buffer (as TcpSocketBase does), so such a run would send nothing at all.
 * \p what names the write ("the bulk sender's 16384-B writes").
 */
void QuicCcRequireWriteFits(bool quicCc, bool ngtcp2, uint64_t writeBytes, const std::string& what);

} // namespace ns3

#endif // QUIC_CC_SEND_BUFFER_H
