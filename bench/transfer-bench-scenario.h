/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * transfer-bench's workload: what one measurement simulates (a Spec) and what it reports (an
 * Outcome), on the two-node path or the dumbbell, with quic-cc, ns-3 TCP, the real ngtcp2
 * library or an idle UDP baseline.
 */
#ifndef TRANSFER_BENCH_SCENARIO_H
#define TRANSFER_BENCH_SCENARIO_H

#include "ns3/quic-congestion-controller.h"

#include <cstdint>
#include <string>

namespace transferbench
{

/// Path of every single-connection run: RTT 10 ms, 100 Mbps.
constexpr char kRate[] = "100Mbps";
constexpr int64_t kOneWayDelayUs = 5000;
/// Drop-tail queue of each device, packets (about one BDP: 100 Mbps x 10 ms / 1378 B = 91).
constexpr uint32_t kQueuePackets = 100;
/// quic-cc's datagram size (UDP payload), bytes.
constexpr uint64_t kDatagram = ns3::QuicCongestionController::kDefaultMaxDatagramSize;
/// Application write size of BulkSend, for both transports.
constexpr uint32_t kSendSize = 16384;

/**
 * STREAM payload of one full quic-cc datagram in the middle of a 10 MB transfer (the SegmentSize
 * ns-3 TCP gets), bytes.
 */
uint64_t QuicStreamPayloadPerDatagram();

/// What a child process runs.
struct Spec
{
    /// quic-reno, quic-cubic, tcp-reno, tcp-cubic, ngtcp2-reno, ngtcp2-cubic, ngtcp2-bbr
    std::string proto{"quic-cubic"};
    uint64_t bytes{10'000'000}; //!< per connection
    uint32_t conns{1};          //!< connections
    bool dumbbell{false};       //!< dumbbell topology (else the two-node path)
    bool loss{false};           //!< 30 % loss both ways for the first 2 s
    bool fullOnly{false}; //!< quic-cc: PacketSizing FullOnly (ns-3 TCP's rule), else FreeWindow
};

/// What a child process reports.
struct Outcome
{
    bool completed{false};
    double simSeconds{0}; //!< simulated time the last byte arrived (or the stop time)
    uint64_t events{0};   //!< Simulator::GetEventCount() after Run()
    double wallTotal{0};  //!< s: build topology + Run + Destroy
    double wallRun{0};    //!< s: Simulator::Run only
    double cpuTotal{0};   //!< s: process CPU time over the same span as wallTotal
    uint64_t received{0}; //!< bytes at the sinks
    long maxRssKb{0};     //!< peak resident set of the worker process, kiB (getrusage)
};

/// True for the ns-3 TCP protos (tcp-reno, tcp-cubic).
bool IsTcp(const std::string& proto);

/// True for the real ngtcp2 library's protos (ngtcp2-reno, ngtcp2-cubic, ngtcp2-bbr).
bool IsNgtcp2(const std::string& proto);

/// Dumbbell baseline: one idle ns-3 UDP socket per connection (nothing sent).
constexpr char kUdpSilent[] = "udp-silent";

/**
 * Why a child cannot run \p spec ("" if it can): every combination the benchmark does not
 * implement is refused, never replaced by another.
 * \param option  set to the command-line option at fault
 */
std::string Unsupported(const Spec& spec, std::string& option);

/**
 * Simulate \p spec in this process (two-node path or dumbbell; nothing for "idle") and measure
 * it: wall and CPU time from set-up to Simulator::Destroy, events, bytes received.
 */
Outcome RunSpec(const Spec& spec);

} // namespace transferbench

#endif // TRANSFER_BENCH_SCENARIO_H
