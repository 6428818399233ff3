/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-single-path.h"

#include "quic-cc-bulk-transfer.h"
#include "quic-cc-drop-tail-link.h"
#include "quic-cc-stop-at-bytes.h"

#include "ns3/ipv4-address-helper.h"
#include "ns3/rng-seed-manager.h"

namespace ns3
{

QuicCcSinglePath::QuicCcSinglePath(uint32_t seed,
                                   uint32_t run,
                                   DataRate rate,
                                   Time oneWayDelay,
                                   uint32_t bufferPackets)
{
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);
    nodes.Create(2);
    devices =
        QuicCcInstallDropTailLink(nodes.Get(0), nodes.Get(1), rate, oneWayDelay, bufferPackets);
}

void
QuicCcSinglePath::InstallInternet()
{
    internet.Install(nodes);
    Ipv4AddressHelper ipv4("10.1.1.0", "255.255.255.0");
    ifaces = QuicCcAssignWithoutQueueDisc(ipv4, devices);
}

void
QuicCcSinglePath::InstallDownload(const std::string& socketFactory,
                                  uint64_t bytes,
                                  QuicCcStopAtBytes& transfer) const
{
    transfer.Watch(QuicCcInstallBulkTransfer(socketFactory,
                                             nodes.Get(0),
                                             nodes.Get(1),
                                             ifaces.GetAddress(1),
                                             bytes)
                       .sink);
}

} // namespace ns3
