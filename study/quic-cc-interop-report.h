/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_INTEROP_REPORT_H
#define QUIC_CC_INTEROP_REPORT_H

#include "quic-cc-interop-scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// \ingroup quic-cc
/// The interop study's batch: every measurement x stack x run, and its table.
struct QuicCcInteropGrid
{
    QuicCcInteropParams base;              //!< the path and the other parameters
    std::vector<std::string> measurements; //!< "G", "C"
    std::vector<std::string> stacks;       //!< QuicCcInteropStacks() names
    uint64_t goodputSize{10 << 20};        //!< G's transfer, bytes
    uint64_t crossSize{25 << 20};          //!< C's transfer, bytes
    uint32_t firstRun{1};                  //!< first RngRun
    uint32_t runs{5};                      //!< runs per row

    /// One run of the batch.
    struct Task
    {
        std::string measurement;    //!< "G" or "C"
        QuicCcInteropParams params; //!< the run's parameters
    };

    /// \return every run, measurement by measurement, stack by stack
    std::vector<Task> Tasks() const;
    /// \return its name in a failure line: "C quic-cc-reno, RngRun 3"
    static std::string Describe(const Task& task);
};

/// Print the ngtcp2 release of the ngtcp2 rows, if any run.
void QuicCcPrintInteropHeader(const QuicCcInteropGrid& grid);

/// The CSV header.
std::string QuicCcInteropCsvHeader();

/// The CSV row of \p task with its result \p r.
std::string QuicCcInteropCsvRow(const QuicCcInteropGrid::Task& task, const QuicCcInteropResult& r);

/// The table: per measurement and stack, the median and range of the runs' goodput (and in C
/// the TCP flow's rate and the QUIC flow's share), kbit/s as the runner reports; \p results in
/// the order of grid.Tasks().
void QuicCcPrintInteropTable(const QuicCcInteropGrid& grid,
                             const std::vector<QuicCcInteropResult>& results);

} // namespace ns3

#endif // QUIC_CC_INTEROP_REPORT_H
