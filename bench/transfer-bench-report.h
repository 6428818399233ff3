/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * transfer-bench's report: the Markdown sections of bench/RESULTS.md, one function per part
 * (each runs its measurements and writes its tables and targets).
 */
#ifndef TRANSFER_BENCH_REPORT_H
#define TRANSFER_BENCH_REPORT_H

#include <cstdint>
#include <ostream>
#include <vector>

namespace transferbench
{

/// The machine and the method, with the idle worker's peak RSS \p baselineKb (kiB).
void WriteMethod(std::ostream& md, long baselineKb);

/**
 * Part "compare": the same 10 MB transfer with quic-cc and ns-3 TCP, \p reps runs per cell
 * (with \p callgrind also one run each under callgrind). Returns the largest quic-cc / TCP
 * peak RSS ratio.
 */
double WriteComparison(std::ostream& md, uint32_t reps, bool callgrind, long baselineKb);

/**
 * Part "conns": \p counts concurrent connections (ascending) on the dumbbell, \p scaleReps runs
 * each; \p connBytes per connection below 1000 connections, \p connBytes1000 from 1000 on.
 */
void WriteConnections(std::ostream& md,
                      const std::vector<uint32_t>& counts,
                      uint32_t scaleReps,
                      uint64_t connBytes,
                      uint64_t connBytes1000,
                      long baselineKb);

/// Part "sizes": 10 MB to 1 GB on one connection. Returns the 1 GB run's peak RSS, MiB.
double WriteSizes(std::ostream& md, uint32_t sizeReps, long baselineKb);

/**
 * Part "ngtcp2": the comparison's 10 MB transfer over the real ngtcp2 library (Reno, CUBIC, BBR)
 * and quic-cc (Reno, CUBIC), \p reps runs per cell, CPU ratios ngtcp2 / quic-cc from the same
 * run; a note instead when the build has no ngtcp2 transport. Returns false if a transfer did not
 * deliver all its bytes (its row is then not a measurement).
 */
bool WriteNgtcp2Comparison(std::ostream& md, uint32_t reps, long baselineKb);

/**
 * Target 2 (memory) from the largest RSS ratio of the comparison and the 1 GB run's RSS (MiB);
 * nothing if neither part ran (both negative).
 */
void WriteMemoryTarget(std::ostream& md, double maxRssRatio, double gbRssMb);

} // namespace transferbench

#endif // TRANSFER_BENCH_REPORT_H
