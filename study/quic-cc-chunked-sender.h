/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_CHUNKED_SENDER_H
#define QUIC_CC_CHUNKED_SENDER_H

#include "quic-cc-client-application.h"

#include "ns3/nstime.h"
#include "ns3/socket.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Chunked transfer (video segments): one connection; once it is established, \p chunks chunks
 * of \p chunkBytes, chunk i written to the socket in ONE Send at establishment + i x period. The
 * receiver is a PacketSink; a chunk's completion time is measured there (QuicCcDeliveryClock).
 * A chunk that does not fit the free send buffer (the previous ones not yet acknowledged) waits
 * for space and goes out as it frees (QuicCcSocketWriter); its write time is still when it was
 * due, so its completion time includes the wait.
 */
class QuicCcChunkedSender : public QuicCcClientApplication
{
  public:
    static TypeId GetTypeId();

    /// \param socketFactory e.g. "ns3::QuicCcSocketFactory"
    void Setup(const std::string& socketFactory,
               const Address& peer,
               uint64_t chunkBytes,
               Time period,
               uint32_t chunks);

    /// \return the times chunk 0, 1, ... was written, s
    const std::vector<double>& GetWriteTimes() const;

  private:
    void OnEstablished() override;
    void WriteChunk();

    uint64_t m_chunkBytes{0};
    Time m_period;
    uint32_t m_chunks{0};
    std::vector<double> m_writeTimes;
};

} // namespace ns3

#endif // QUIC_CC_CHUNKED_SENDER_H
