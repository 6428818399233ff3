/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DUMBBELL_REPORT_H
#define QUIC_CC_DUMBBELL_REPORT_H

#include "quic-cc-dumbbell-params.h"
#include "quic-cc-dumbbell-result.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * The dumbbell's outputs, run by run: each run's per-flow table on a stream, its rows of the
 * per-flow CSV and of the goodput time series, and at the end the summary over the runs (the
 * per-flow goodput by group and Jain's index, mean [min, max]).
 */
class QuicCcDumbbellReport
{
  public:
    /// \param params the batch's parameters; \param os where the tables go; \param quiet only
    /// the summary (no per-run table)
    QuicCcDumbbellReport(const QuicCcDumbbellParams& params, std::ostream& os, bool quiet);

    /// The per-flow CSV's header (every run has the same columns; a campaign merges them).
    static std::string CsvHeader();
    /// The goodput time series' header.
    static std::string TimeseriesHeader();

    /// "ngtcp2 flows: ngtcp2 <version>" when a group runs over the ngtcp2 library.
    void PrintHeader() const;

    /// Add run \p run's result \p r: print its table, append its CSV rows to \p csv and its time
    /// series to \p timeseries.
    void Add(uint64_t run,
             const QuicCcDumbbellResult& r,
             std::string& csv,
             std::string& timeseries);

    /// The summary over \p runs runs.
    void PrintSummary(uint32_t runs) const;

  private:
    const QuicCcDumbbellParams& m_params;                      //!< the batch's
    std::ostream& m_os;                                        //!< the tables' stream
    bool m_quiet;                                              //!< no per-run table
    std::string m_ngtcp2Version;                               //!< "" without ngtcp2 flows
    std::vector<double> m_jains;                               //!< of the runs where defined
    std::map<std::string, std::vector<double>> m_groupGoodput; //!< per-run mean of each group
};

} // namespace ns3

#endif // QUIC_CC_DUMBBELL_REPORT_H
