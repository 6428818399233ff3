/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_HYSTART_LAB_REPORT_H
#define QUIC_CC_HYSTART_LAB_REPORT_H

#include "quic-cc-hystart-lab-scenario.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/// \ingroup quic-cc
/// One bottleneck buffer of the lab.
struct QuicCcHystartLabBuffer
{
    std::string label;   //!< as given: "2" (BDP multiple) or "1000p" (packets)
    std::string text;    //!< for the tables: "2 BDP = 56 packets"
    uint32_t packets{0}; //!< drop-tail queue, packets
};

/// \ingroup quic-cc
/// The lab's grid: every buffer x loss point x run x configuration of one batch.
struct QuicCcHystartLabGrid
{
    QuicCcHystartLabParams base;                 //!< the scenario's other parameters
    std::vector<QuicCcHystartLabBuffer> buffers; //!< --buffer
    std::vector<double> losses;                  //!< --loss, fractions
    std::vector<std::string> configs;            //!< the configurations run
    std::string rate;                            //!< --rate as given, for the header
    std::string packetSizing{"FreeWindow"};      //!< the QUIC rows' PacketSizing, for the header
    uint32_t firstRun{1};                        //!< first RngRun
    uint32_t runs{1};                            //!< runs per point

    /// One simulation of the grid.
    struct Cell
    {
        size_t buffer{0}; //!< index into buffers
        size_t loss{0};   //!< index into losses
        size_t config{0}; //!< index into configs
        uint32_t run{0};  //!< RngRun
    };

    /// \return every simulation, buffer by buffer, loss point by loss point, run by run
    std::vector<Cell> Cells() const;
    /// \return the parameters of simulation \p cell
    QuicCcHystartLabParams Params(const Cell& cell) const;
    /// \return its name in a failure line: "cubic, buffer 2, loss 1 %, RngRun 3"
    std::string Describe(const Cell& cell) const;
    /// \return the linked ngtcp2's version when an ngtcp2 configuration is in the grid, else ""
    std::string Ngtcp2Version() const;
};

/// The CSV header (an ngtcp2_version column when an ngtcp2 configuration runs).
std::string QuicCcHystartLabCsvHeader(const QuicCcHystartLabGrid& grid);

/// One CSV row: simulation \p cell and its result \p r.
std::string QuicCcHystartLabCsvRow(const QuicCcHystartLabGrid& grid,
                                   const QuicCcHystartLabGrid::Cell& cell,
                                   const QuicCcHystartLabResult& r);

/// The tables: per buffer, the median download time per loss point and configuration, and at
/// 0 % loss the means of the packet counts; \p results in the order of grid.Cells().
void QuicCcPrintHystartLabTables(std::ostream& os,
                                 const QuicCcHystartLabGrid& grid,
                                 const std::vector<QuicCcHystartLabResult>& results);

} // namespace ns3

#endif // QUIC_CC_HYSTART_LAB_REPORT_H
