/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SEND_BUFFER_H
#define QUIC_CC_SEND_BUFFER_H

#include <cstdint>
#include <string>
#include <vector>

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

/// The smallest send buffer of the sockets of \p transports ("quic-cc", "ngtcp2").
QuicCcSendBuffer QuicCcSmallestSendBuffer(const std::vector<std::string>& transports);

/**
 * A usage error (QuicCcUsageError naming the send-buffer attribute the user set) when one write
 * of \p writeBytes does not fit the send buffer of a socket the run uses: a socket refuses a Send
 * larger than its free buffer (as TcpSocketBase does), so such a run would send nothing at all.
 * \p what names the write ("the bulk sender's 16384-B writes").
 */
void QuicCcRequireWriteFits(const std::vector<std::string>& transports,
                            uint64_t writeBytes,
                            const std::string& what);

} // namespace ns3

#endif // QUIC_CC_SEND_BUFFER_H
