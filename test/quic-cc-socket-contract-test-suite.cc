/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ns3::Socket contract (quic-cc-socket-contract.h) on quic-cc's own transport; the ngtcp2
 * transport runs the same cases as quic-cc-ngtcp2-socket-contract.
 */
#include "quic-cc-socket-contract.h"

#include "ns3/quic-cc-socket-factory.h" // registers the TypeId the suite names

namespace ns3
{
namespace quiccc
{
namespace test
{

static SocketContractTestSuite g_quicCcSocketContractTestSuite("quic-cc-socket-contract",
                                                               {"quic-cc",
                                                                "ns3::QuicCcSocketFactory"});

} // namespace test
} // namespace quiccc
} // namespace ns3
