/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DEATH_SPIRAL_REPORT_H
#define QUIC_CC_DEATH_SPIRAL_REPORT_H

#include "quic-cc-death-spiral-scenario.h"
#include "quic-cc-transport-spec.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/// \ingroup quic-cc
/// One configuration (row) of a death-spiral batch: its name and transport.
struct QuicCcDeathSpiralConfig
{
    std::string name;         //!< "cubic-LastSent", "reno", "ngtcp2-bbr", ...
    QuicCcTransportSpec quic; //!< its transport, controller and settings
};

/// \ingroup quic-cc
/// One finished run of a death-spiral batch.
struct QuicCcDeathSpiralRow
{
    size_t config{0};          //!< index of its configuration
    uint32_t run{0};           //!< RngRun
    QuicCcDeathSpiralResult r; //!< its outcome
};

/// The CSV header: the sample times are columns of their own, so the names do not depend on the
/// parameters; the ngtcp2 version is a column when an ngtcp2 row is in the batch.
std::string QuicCcDeathSpiralCsvHeader(const std::vector<QuicCcDeathSpiralConfig>& configs);

/// One CSV row: one run of \p base's scenario.
std::string QuicCcDeathSpiralCsvRow(const QuicCcDeathSpiralRow& row,
                                    const std::vector<QuicCcDeathSpiralConfig>& configs,
                                    const QuicCcDeathSpiralParams& base);

/**
 * The table: a header naming the scenario (\p rate and \p ackPolicy as given on the command
 * line, RngRun \p firstRun..firstRun+runs-1), one line per configuration (completed, fail %
 * with its Wilson interval, completion-time median and p90, the failing runs' medians), and
 * the legend.
 */
void QuicCcPrintDeathSpiralTable(std::ostream& os,
                                 const std::vector<QuicCcDeathSpiralRow>& rows,
                                 const std::vector<QuicCcDeathSpiralConfig>& configs,
                                 const QuicCcDeathSpiralParams& base,
                                 const std::string& rate,
                                 const std::string& ackPolicy,
                                 uint32_t firstRun,
                                 uint32_t runs);

/// The one line of a batch of one run of one configuration.
void QuicCcPrintDeathSpiralRun(std::ostream& os,
                               const QuicCcDeathSpiralRow& row,
                               const std::vector<QuicCcDeathSpiralConfig>& configs,
                               const QuicCcDeathSpiralParams& base);

} // namespace ns3

#endif // QUIC_CC_DEATH_SPIRAL_REPORT_H
