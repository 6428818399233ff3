/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_ECN_REPORT_H
#define QUIC_CC_ECN_REPORT_H

#include "quic-cc-ecn-scenario.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * The ECN study's outputs: one CSV row per run and cell, and at the end each cell's means over
 * its runs (completion time and goodput over the completed runs) and the senders' ECN states.
 */
class QuicCcEcnReport
{
  public:
    /// \param cells the batch's cells, in order
    explicit QuicCcEcnReport(const std::vector<QuicCcEcnCell>& cells);

    /// The CSV's header.
    static std::string CsvHeader();

    /// Add run \p run of cell \p cell (an index into the cells) with result \p r; \return its
    /// CSV row.
    std::string Add(size_t cell, uint64_t run, const QuicCcEcnResult& r);

    /// Each cell's means over its runs, on \p os.
    void PrintSummary(std::ostream& os) const;

  private:
    const std::vector<QuicCcEcnCell>& m_cells; //!< the batch's
    /// per cell: each column's values over the runs
    std::vector<std::map<std::string, std::vector<double>>> m_sample;
    std::vector<std::map<std::string, uint32_t>> m_states; //!< per cell: ECN state -> runs
};

} // namespace ns3

#endif // QUIC_CC_ECN_REPORT_H
