/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test-only building blocks shared by the quic-cc TestSuites: a two-node topology, applications
 * that send and check a known byte pattern, and an error model that reorders and duplicates.
 */
#ifndef QUIC_CC_TEST_TOPOLOGY_H
#define QUIC_CC_TEST_TOPOLOGY_H

#include "ns3/application.h"
#include "ns3/error-model.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/quic-cc-socket-factory.h"

#include <set>

namespace ns3
{
namespace quiccc
{
namespace test
{

/// Byte i of every test stream: a pattern that changes with position, so a shifted,
/// reordered or duplicated byte is detected.
inline uint8_t
PatternByte(uint64_t i)
{
    return static_cast<uint8_t>((i * 131 + (i >> 8) * 7 + (i >> 16)) & 0xff);
}

/// Writes \p total pattern bytes to a socket as fast as it accepts them, then closes it (or
/// shuts its sending down).
class PatternWriter
{
  public:
    /// What follows the last byte.
    enum End
    {
        CLOSE,
        SHUTDOWN_SEND,
    };

    /// Writes of at most \p writeBytes bytes each.
    PatternWriter(Ptr<Socket> socket, uint64_t total, End end = CLOSE, uint32_t writeBytes = 8192);
    void Start(); //!< begin writing (socket must be connected)
    /// A connect callback that starts \p writer.
    static void StartOnConnect(PatternWriter* writer, Ptr<Socket>);

    uint64_t Written() const
    {
        return m_written;
    }

    Ptr<Socket> GetSocket() const
    {
        return m_socket;
    }

    Address nameAtStart; //!< the socket's name at Start (a closed client's UDP has none)
    int afterEnd{0};     //!< Send's answer just after the end
    Socket::SocketErrno afterEndErrno{Socket::ERROR_NOTERROR}; //!< and its errno

  private:
    void Fill(Ptr<Socket>, uint32_t);
    Ptr<Socket> m_socket;
    uint64_t m_total;
    End m_end;
    uint32_t m_writeBytes;
    uint64_t m_written{0};
    bool m_closed{false};
};

/// Reads a socket and checks every byte against the pattern.
class PatternReader
{
  public:
    void Attach(Ptr<Socket> socket); //!< set the receive callback
    /// Read and check at most \p maxBytes now (a slow application polls with this instead of
    /// Attach()). \return bytes read
    uint64_t ReadUpTo(Ptr<Socket> socket, uint32_t maxBytes);

    uint64_t Received() const
    {
        return m_received;
    }

    uint64_t Mismatches() const
    {
        return m_mismatches;
    }

    Time LastByteTime() const
    {
        return m_lastByte;
    }

  private:
    void Read(Ptr<Socket> socket);
    uint64_t m_received{0};
    uint64_t m_mismatches{0};
    Time m_lastByte;
};

/// Reorders and duplicates packets on a point-to-point receiver: each packet is, with the given
/// probabilities, held back and delivered later (reordering) or delivered twice (duplication).
class ReorderDuplicateModel : public ErrorModel
{
  public:
    static TypeId GetTypeId();
    void Configure(Ptr<PointToPointNetDevice> device,
                   double reorderProbability,
                   double duplicateProbability,
                   Time maxExtraDelay);

    uint64_t Reordered() const
    {
        return m_reordered;
    }

    uint64_t Duplicated() const
    {
        return m_duplicated;
    }

  private:
    bool DoCorrupt(Ptr<Packet> p) override;

    void DoReset() override
    {
    }

    void Reinject(Ptr<Packet> p);

    Ptr<PointToPointNetDevice> m_device;
    Ptr<UniformRandomVariable> m_rng;
    double m_reorder{0};
    double m_duplicate{0};
    Time m_maxExtraDelay;
    std::set<uint64_t> m_reinjected; //!< uids passing through a second time
    uint64_t m_reordered{0};
    uint64_t m_duplicated{0};
};

/// Two nodes joined by one point-to-point link, Internet stack and quic-cc installed.
struct TwoNodes
{
    NodeContainer nodes;
    NetDeviceContainer devices;
    Ipv4InterfaceContainer interfaces;

    /// \param quic  helper already configured with controller and socket attributes
    TwoNodes(const QuicCcHelper& quic,
             const std::string& rate = "100Mbps",
             Time oneWayDelay = MilliSeconds(5),
             uint32_t bufferPackets = 1000);
    Ptr<Socket> CreateSocket(uint32_t node) const; //!< a QuicCcSocket on node 0 or 1
    /// Random packet loss on both receivers (ns-3 RateErrorModel, per packet).
    std::vector<Ptr<RateErrorModel>> AddLoss(double rate) const;
};

} // namespace test
} // namespace quiccc
} // namespace ns3

#endif // QUIC_CC_TEST_TOPOLOGY_H
