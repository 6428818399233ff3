/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Repetitions of one transfer-bench measurement and their medians.
 */
#ifndef TRANSFER_BENCH_SERIES_H
#define TRANSFER_BENCH_SERIES_H

#include "transfer-bench-scenario.h"

#include <vector>

namespace transferbench
{

/// Repetitions of one spec, summarised.
struct Series
{
    Spec spec;
    std::vector<Outcome> runs;
    double wall{0};           //!< median wall total, s
    double wallRun{0};        //!< median wall of Run(), s
    double cpu{0};            //!< median CPU time over the wall-total span, s
    double rssMb{0};          //!< median peak RSS above the idle child's, MiB
    double spread{0};         //!< (max - min) / median of the CPU time
    bool deterministic{true}; //!< every repetition executed the same events and completed alike
};

/**
 * Run \p spec \p reps times, each in a worker process of its own (Spawn), summarise the
 * repetitions (medians, peak RSS above \p baselineKb) and print one progress line on stderr.
 */
Series Measure(const Spec& spec, uint32_t reps, long baselineKb);

} // namespace transferbench

#endif // TRANSFER_BENCH_SERIES_H
