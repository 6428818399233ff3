/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_IDLE_REPORT_H
#define QUIC_CC_IDLE_REPORT_H

#include "quic-cc-idle-scenario.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/// \ingroup quic-cc
/// One finished run of an idle batch: a true-idle run, or a death-spiral run (falseIdle).
struct QuicCcIdleRow
{
    size_t config{0};        //!< index of its configuration
    uint32_t run{0};         //!< RngRun
    bool falseIdle{false};   //!< a death-spiral run of the same configuration
    QuicCcIdleResult r;      //!< the true-idle run's outcome
    bool dsCompleted{false}; //!< falseIdle: the death-spiral download completed
};

/// \p row as one line of text (every field, full precision), as a worker returns it.
std::string QuicCcIdleRowToLine(const QuicCcIdleRow& row);

/// Read a line of QuicCcIdleRowToLine into \p row; false if it is not one.
bool QuicCcIdleRowFromLine(const std::string& line, QuicCcIdleRow& row);

/// The --csv file: one row per true-idle run (its pauses summarised), configurations named by
/// \p names (the campaign tool's contract: key columns before "run", then "completed" and
/// "completion_s").
std::string QuicCcIdleRunsCsv(const std::vector<QuicCcIdleRow>& rows,
                              const std::vector<std::string>& names);

/// The --pauseCsv file: one row per pause.
std::string QuicCcIdlePausesCsv(const std::vector<QuicCcIdleRow>& rows,
                                const std::vector<std::string>& names);

/// The slow-reader table: no pauses; the transfer's completion and the receiver's backlog, with
/// or without receiver flow control (\p flowControl).
void QuicCcPrintIdleBacklogTable(std::ostream& os,
                                 const std::vector<QuicCcIdleRow>& rows,
                                 const std::vector<std::string>& names,
                                 bool flowControl);

/// The table of the other workloads: per configuration, the pauses' medians and shares, and the
/// false-idle fail share when \p falseIdleRuns > 0.
void QuicCcPrintIdleTable(std::ostream& os,
                          const std::vector<QuicCcIdleRow>& rows,
                          const std::vector<std::string>& names,
                          const std::string& workload,
                          uint32_t falseIdleRuns);

} // namespace ns3

#endif // QUIC_CC_IDLE_REPORT_H
