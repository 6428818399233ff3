/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_TRANSPORT_H
#define QUIC_CC_NGTCP2_TRANSPORT_H

#include "ns3/callback.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup quic-cc
 * The scenarios' access to the ngtcp2 transport (QuicCcNgtcp2SocketFactory), which is built only
 * when a libngtcp2 is (cmake/quic-cc-ngtcp2.cmake): without it QuicCcNgtcp2Version() is empty and
 * the other calls are fatal errors.
 */
struct QuicCcNgtcp2Options
{
    std::string controller{"cubic"};   //!< "cubic", "reno" or "bbr"
    uint64_t maxUdpPayloadBytes{1350}; //!< packet size from the first packet on (no shaping)
    Time maxAckDelay{MilliSeconds(25)};
    Time idleTimeout{Seconds(30)};
    std::string qlogDirectory; //!< "" = none
};

/// The linked ngtcp2's version ("1.24.0"); "" when the transport is not built.
std::string QuicCcNgtcp2Version();

/// Name of the socket factory TypeId to give applications ("ns3::QuicCcNgtcp2SocketFactory").
std::string QuicCcNgtcp2FactoryName();

/// Install the factory on \p nodes with \p options; random streams from \p stream on.
/// \return the number of streams used
int64_t QuicCcInstallNgtcp2(NodeContainer nodes,
                            const QuicCcNgtcp2Options& options,
                            int64_t stream);

/// Call \p onFirst with the first socket \p node's factory creates (before its first packet).
void QuicCcWatchFirstNgtcp2Socket(Ptr<Node> node, Callback<void, Ptr<Socket>> onFirst);

/// Packets ngtcp2 declared lost on \p socket (a QuicCcNgtcp2Socket) so far.
uint64_t QuicCcNgtcp2PacketsLost(Ptr<Socket> socket);

} // namespace ns3

#endif // QUIC_CC_NGTCP2_TRANSPORT_H
