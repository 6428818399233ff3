/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * transfer-bench's process harness: every measurement in a worker process of its own, its
 * outcome passed back as one RESULT line; runs under valgrind's callgrind as child processes.
 */
#ifndef TRANSFER_BENCH_HARNESS_H
#define TRANSFER_BENCH_HARNESS_H

#include "callgrind-profile.h"
#include "transfer-bench-scenario.h"

namespace transferbench
{

/// Remember the path of this executable (/proc/self/exe), which ProfileRun starts; call first.
void SetSelfPath();

/**
 * Run \p spec in a worker process of its own (QuicCcRunBatch with one task and one worker: a
 * fork of this process, which never simulates) and collect its outcome, including the
 * worker's peak resident set (getrusage in the worker). An "idle" proto simulates nothing: the
 * baseline every peak RSS is reported above.
 */
Outcome Spawn(const Spec& spec);

/// --child: one measurement in this process (for perf, valgrind and by-hand runs).
int ChildMain(const Spec& spec);

/// One run of \p spec under valgrind's callgrind (a child process); its instruction counts.
Profile ProfileRun(const Spec& spec);

} // namespace transferbench

#endif // TRANSFER_BENCH_HARNESS_H
