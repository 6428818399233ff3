/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SINGLE_PATH_H
#define QUIC_CC_SINGLE_PATH_H

#include "ns3/data-rate.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

class QuicCcStopAtBytes;

/**
 * \ingroup quic-cc
 * The network of the single-connection studies (death spiral, idle, ngtcp2 diff): node 0 (the
 * QUIC client) and node 1 (the server) joined by one drop-tail link (QuicCcInstallDropTailLink).
 *
 * \code
 *   QuicCcSinglePath path(params); // seed, run, rate, oneWayDelay, bufferPackets
 *   ... // error models on path.devices
 *   path.InstallInternet();
 *   ... // transport, then path.InstallDownload(...)
 * \endcode
 */
struct QuicCcSinglePath
{
    /// Set RngSeedManager's seed and run, create the two nodes and the link between them (rate,
    /// one-way delay, a device queue of \p bufferPackets packets).
    QuicCcSinglePath(uint32_t seed,
                     uint32_t run,
                     DataRate rate,
                     Time oneWayDelay,
                     uint32_t bufferPackets);

    /// The path of a study's \p params: their members seed, run, rate, oneWayDelay and
    /// bufferPackets.
    template <class Params>
    explicit QuicCcSinglePath(const Params& params)
        : QuicCcSinglePath(params.seed,
                           params.run,
                           params.rate,
                           params.oneWayDelay,
                           params.bufferPackets)
    {
    }

    /// Install the Internet stack on both nodes and address the link 10.1.1.0/24 without a queue
    /// disc (QuicCcAssignWithoutQueueDisc): the drop-tail device queue is the buffer.
    void InstallInternet();

    /**
     * A download of \p bytes from node 0 to node 1 (QuicCcInstallBulkTransfer) over the sockets
     * of \p socketFactory (QuicCcHelper::GetSocketFactoryName), its sink watched by \p transfer.
     * After InstallInternet and the transport's installation.
     */
    void InstallDownload(const std::string& socketFactory,
                         uint64_t bytes,
                         QuicCcStopAtBytes& transfer) const;

    NodeContainer nodes;           //!< 0 = QUIC client, 1 = QUIC server
    NetDeviceContainer devices;    //!< the link's devices, node 0's first
    InternetStackHelper internet;  //!< the stack installed by InstallInternet (for its streams)
    Ipv4InterfaceContainer ifaces; //!< the addresses InstallInternet assigned
};

} // namespace ns3

#endif // QUIC_CC_SINGLE_PATH_H
