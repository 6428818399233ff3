/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ns3::Socket contract (test/quic-cc-socket-contract.h) on the ngtcp2 transport: the same
 * cases as quic-cc-socket-contract runs on quic-cc's own.
 */
#include "quic-cc-socket-contract.h"

#include "ns3/quic-cc-ngtcp2-socket-factory.h"

namespace ns3
{
namespace quiccc
{
namespace test
{

static SocketContractTestSuite g_ngtcp2SocketContractTestSuite("quic-cc-ngtcp2-socket-contract",
                                                               {"ngtcp2",
                                                                "ns3::QuicCcNgtcp2SocketFactory"});

} // namespace test
} // namespace quiccc
} // namespace ns3
