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

namespace
{
Ptr<SocketFactory>
InstallNgtcp2(Ptr<Node> node)
{
    return QuicCcNgtcp2SocketFactory::Install(node);
}
} // namespace

static SocketContractTestSuite g_ngtcp2SocketContractTestSuite("quic-cc-ngtcp2-socket-contract",
                                                               {"ngtcp2", &InstallNgtcp2});

} // namespace test
} // namespace quiccc
} // namespace ns3
