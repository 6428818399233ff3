/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_RATE_LIMITED_SENDER_H
#define QUIC_CC_RATE_LIMITED_SENDER_H

#include "quic-cc-client-application.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup quic-cc
 * An application-limited phase, then bulk: once the connection is established the application
 * writes writeBytes every writeBytes / \p rate seconds for \p limitedFor (the sender stays below
 * the path's capacity: app-limited congestion avoidance, RFC 9002 Section 7.8), then calls
 * \p onBulk and writes \p bulkBytes in one Send. A write that does not fit the free send buffer
 * (what was written before not yet acknowledged) waits for space (QuicCcSocketWriter).
 */
class QuicCcRateLimitedSender : public QuicCcClientApplication
{
  public:
    static TypeId GetTypeId();

    void Setup(const std::string& socketFactory,
               const Address& peer,
               DataRate rate,
               uint64_t writeBytes,
               Time limitedFor,
               uint64_t bulkBytes,
               Callback<void> onBulk);

    /// \return bytes the rate-limited phase writes: writeBytes x ceil(limitedFor / interval)
    uint64_t GetLimitedBytes() const;
    /// \return the time the bulk write happened, s (-1 before)
    double GetBulkTime() const;

  protected:
    void DoDispose() override;

  private:
    void OnEstablished() override;
    void Write();
    void WriteBulk();

    Time m_interval;
    uint64_t m_writeBytes{0};
    uint64_t m_writes{0}; //!< writes of the limited phase
    uint64_t m_written{0};
    uint64_t m_bulkBytes{0};
    Callback<void> m_onBulk;
    double m_bulkTime{-1};
};

} // namespace ns3

#endif // QUIC_CC_RATE_LIMITED_SENDER_H
