/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_CUBIC_GROWTH_REPORT_H
#define QUIC_CC_CUBIC_GROWTH_REPORT_H

#include "quic-cc-cubic-growth-scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// \ingroup quic-cc
/// The CUBIC growth study's batch: every part x stack x ACK ratio x run, and its table.
struct QuicCcCubicGrowthGrid
{
    /// The path and both parts' settings: dropDataPacket and duration are the one-loss part's,
    /// lossPeriod and measureFrom the periodic part's
    QuicCcCubicGrowthParams base;
    Time periodicDuration{Seconds(72)}; //!< the periodic part's simulated time
    std::vector<std::string> parts;     //!< "oneloss", "periodic"
    std::vector<std::string> stacks;    //!< QuicCcCubicGrowthStacks() names
    std::vector<uint32_t> ackRatios;    //!< the receiver's ACK every N packets
    uint32_t firstRun{1};               //!< first RngRun
    uint32_t runs{1};                   //!< runs per cell

    /// One run of the batch.
    struct Task
    {
        std::string part;               //!< "oneloss" or "periodic"
        QuicCcCubicGrowthParams params; //!< the run's parameters
    };

    /// \return every run, part by part, stack by stack, ACK ratio by ACK ratio
    std::vector<Task> Tasks() const;
    /// \return its name in a failure line: "oneloss quiche, ACK every 10"
    static std::string Describe(const Task& task);
};

/// Print the lines before the table: the ngtcp2 release of the ngtcp2 rows, RFC 9438's own row
/// at a W_max of 300 packets and Section 5.1's window, the column names.
void QuicCcPrintCubicGrowthHeader(const QuicCcCubicGrowthGrid& grid);

/// The CSV header.
std::string QuicCcCubicGrowthCsvHeader();

/// Print the table line of \p task with its result \p r, and \return its CSV row.
std::string QuicCcCubicGrowthRow(const QuicCcCubicGrowthGrid& grid,
                                 const QuicCcCubicGrowthGrid::Task& task,
                                 const QuicCcCubicGrowthResult& r);

} // namespace ns3

#endif // QUIC_CC_CUBIC_GROWTH_REPORT_H
