/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-satellite-report.h"

#include "quic-cc-transport-spec.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

/// The ngtcp2 release \p config runs, "" for quic-cc's.
std::string
Ngtcp2Version(const std::string& config)
{
    return QuicCcSatelliteTransport(config).GetLibraryVersion();
}

} // namespace

std::vector<QuicCcSatelliteParams>
QuicCcSatelliteGrid::Tasks() const
{
    std::vector<QuicCcSatelliteParams> tasks;
    for (uint64_t period : lossPeriods)
    {
        for (const std::string& config : configs)
        {
            for (uint32_t ratio : ackRatios)
            {
                for (const Time& delay : maxAckDelays)
                {
                    for (uint32_t run = firstRun; run < firstRun + runs; ++run)
                    {
                        QuicCcSatelliteParams p = base;
                        p.config = config;
                        p.ackRatio = ratio;
                        p.maxAckDelay = delay;
                        p.lossPeriod = period;
                        p.run = run;
                        tasks.push_back(p);
                    }
                }
            }
        }
    }
    return tasks;
}

std::string
QuicCcSatelliteGrid::Describe(const QuicCcSatelliteParams& task)
{
    std::ostringstream name;
    name << task.config << ", ACK every " << task.ackRatio << ", " << task.maxAckDelay.As(Time::MS)
         << ", loss period " << task.lossPeriod;
    return name.str();
}

void
QuicCcPrintSatelliteHeader(const QuicCcSatelliteGrid& grid)
{
    for (const std::string& config : grid.configs)
    {
        if (const std::string version = Ngtcp2Version(config); !version.empty())
        {
            std::cout << "ngtcp2-* rows: the real ngtcp2 " << version << "\n";
            break;
        }
    }
    std::printf("%-14s %3s %7s %5s %4s %10s %12s %9s %8s %8s %10s %10s\n",
                "config",
                "N",
                "ackdly",
                "loss",
                "run",
                "complete_s",
                "delivered_MB",
                "peak_MB",
                "lost",
                "ret_Mbps",
                "ret_drops",
                "ssthresh_s");
    std::fflush(stdout);
}

std::string
QuicCcSatelliteCsvHeader()
{
    return "config,ack_ratio,max_ack_delay_ms,loss_period,run,ngtcp2_version,completed,"
           "completion_s,bytes_received,handshake_s,peak_cwnd,ssthresh_s,first_event_s,lost,drops,"
           "forward_queue_drops,return_queue_drops,return_packets,return_mbps\n";
}

std::string
QuicCcSatelliteRow(const QuicCcSatelliteParams& p, const QuicCcSatelliteResult& r)
{
    const double returnMbps = r.returnBytesPerSecond * 8 / 1e6;
    std::printf("%-14s %3u %5.0fms %5llu %4u %10s %12.1f %9.2f %8llu %8.2f %10llu %10s\n",
                p.config.c_str(),
                p.ackRatio,
                p.maxAckDelay.GetSeconds() * 1e3,
                static_cast<unsigned long long>(p.lossPeriod),
                p.run,
                r.completed ? std::to_string(r.completionSeconds).substr(0, 6).c_str() : "-",
                r.bytesReceived / 1e6,
                r.peakCwnd / 1e6,
                static_cast<unsigned long long>(r.lostPackets),
                returnMbps,
                static_cast<unsigned long long>(r.returnQueueDrops),
                r.ssthreshSeconds ? std::to_string(*r.ssthreshSeconds).substr(0, 6).c_str() : "-");
    std::fflush(stdout);
    std::ostringstream row;
    row << p.config << "," << p.ackRatio << "," << p.maxAckDelay.GetSeconds() * 1e3 << ","
        << p.lossPeriod << "," << p.run << "," << Ngtcp2Version(p.config) << "," << r.completed
        << ",";
    if (r.completed)
    {
        row << r.completionSeconds;
    }
    row << "," << r.bytesReceived << "," << r.handshakeSeconds << "," << r.peakCwnd << ",";
    if (r.ssthreshSeconds)
    {
        row << *r.ssthreshSeconds;
    }
    row << ",";
    if (r.firstEventSeconds)
    {
        row << *r.firstEventSeconds;
    }
    row << "," << r.lostPackets << "," << r.drops << "," << r.forwardQueueDrops << ","
        << r.returnQueueDrops << "," << r.returnPackets << "," << returnMbps << "\n";
    return row.str();
}

} // namespace ns3
