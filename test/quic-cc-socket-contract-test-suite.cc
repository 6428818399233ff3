/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ns3::Socket contract (quic-cc-socket-contract.h) on quic-cc's own transport; the ngtcp2
 * transport runs the same cases as quic-cc-ngtcp2-socket-contract.
 */
#include "quic-cc-socket-contract.h"

#include "ns3/quic-cc-helper.h"
#include "ns3/quic-cc-socket-factory.h"

namespace ns3
{
namespace quiccc
{
namespace test
{

namespace
{
Ptr<SocketFactory>
InstallQuicCc(Ptr<Node> node)
{
    QuicCcHelper quic;
    quic.Install(node);
    return node->GetObject<QuicCcSocketFactory>();
}
} // namespace

static SocketContractTestSuite g_quicCcSocketContractTestSuite("quic-cc-socket-contract",
                                                               {"quic-cc", &InstallQuicCc});

} // namespace test
} // namespace quiccc
} // namespace ns3
