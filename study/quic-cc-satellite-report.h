/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_SATELLITE_REPORT_H
#define QUIC_CC_SATELLITE_REPORT_H

#include "quic-cc-satellite-scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// \ingroup quic-cc
/// The satellite study's batch: every loss pattern x configuration x ACK ratio x max ACK delay
/// x run, and its table.
struct QuicCcSatelliteGrid
{
    QuicCcSatelliteParams base;        //!< the path and the other parameters
    std::vector<std::string> configs;  //!< QuicCcSatelliteConfigs() names
    std::vector<uint32_t> ackRatios;   //!< the receiver's ACK every N packets
    std::vector<Time> maxAckDelays;    //!< the receiver's max_ack_delay values
    std::vector<uint64_t> lossPeriods; //!< one packet in N lost (0 = none)
    uint32_t firstRun{1};              //!< first RngRun
    uint32_t runs{1};                  //!< runs per cell

    /// \return every run's parameters, loss pattern by loss pattern, configuration by
    /// configuration, ACK ratio by ACK ratio, max ACK delay by max ACK delay
    std::vector<QuicCcSatelliteParams> Tasks() const;
    /// \return its name in a failure line: "cubic, ACK every 2, 25 ms, loss period 64"
    static std::string Describe(const QuicCcSatelliteParams& task);
};

/// Print the ngtcp2 release of the ngtcp2 rows (if any run) and the column names.
void QuicCcPrintSatelliteHeader(const QuicCcSatelliteGrid& grid);

/// The CSV header.
std::string QuicCcSatelliteCsvHeader();

/// Print the table line of \p task with its result \p r, and \return its CSV row.
std::string QuicCcSatelliteRow(const QuicCcSatelliteParams& task, const QuicCcSatelliteResult& r);

} // namespace ns3

#endif // QUIC_CC_SATELLITE_REPORT_H
