/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SLOW_READER_H
#define QUIC_CC_SLOW_READER_H

#include "quic-cc-server-application.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup quic-cc
 * A receiving application that reads at a set rate: it listens on \p local, accepts one
 * connection and every \p interval reads at most rate x interval bytes (carrying over what a
 * short read left), so the application, not the path, limits the transfer once the receive
 * buffer holds a backlog. Records the largest backlog (bytes received but not yet read,
 * Socket::GetRxAvailable) seen at a read, and stops the simulation when \p expected bytes were
 * read. Without receiver flow control the backlog grows without bound (the sender is not told
 * to slow down); with it, it stays below the advertised window.
 */
class QuicCcSlowReader : public QuicCcServerApplication
{
  public:
    static TypeId GetTypeId();

    void Setup(const std::string& socketFactory,
               const Address& local,
               DataRate rate,
               Time interval,
               uint64_t expected);

    uint64_t GetBytesRead() const;   //!< read so far
    uint64_t GetPeakBacklog() const; //!< largest unread backlog seen before a read, bytes
    double GetDoneSeconds() const;   //!< when the expected bytes were read (-1: not yet)

  private:
    void OnAccepted(Ptr<Socket> socket) override;
    void StopApplication() override;
    void Read();

    DataRate m_rate;
    Time m_interval;
    uint64_t m_expected{0};
    EventId m_next;
    double m_credit{0}; //!< bytes the reader may still read (rate x elapsed - read)
    uint64_t m_read{0};
    uint64_t m_peakBacklog{0};
    double m_done{-1};
};

} // namespace ns3

#endif // QUIC_CC_SLOW_READER_H
