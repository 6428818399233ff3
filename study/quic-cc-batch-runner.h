/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_BATCH_RUNNER_H
#define QUIC_CC_BATCH_RUNNER_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Run \p count independent tasks in forked worker processes and collect one line of text from
 * each (POSIX only: fork, pipe, poll).
 *
 * Worker w runs tasks w, w + workers, w + 2 workers, ... in a copy of the calling process taken at
 * fork time, so a task may run a whole ns-3 simulation (including Simulator::Destroy) without
 * disturbing the others, and nothing a task changes reaches the parent or another worker. Each
 * result line travels back over a pipe. The caller must not have a simulation running.
 *
 * \code
 *   std::vector<std::string> lines = QuicCcRunBatch(work.size(), 0, [&](size_t i) {
 *       return Serialize(QuicCcRunHystartLab(params[i]));
 *   });
 * \endcode
 *
 * \param count     number of tasks (0: returns at once, forks nothing)
 * \param workers   worker processes; 0 = the number of online cores; never more than \p count
 * \param task      task(i) computes task i and returns its result as one line; a result that
 *                  contains '\n' is a fatal error in the worker
 * \param progress  while waiting, print "done/count runs, elapsed s" on stderr (one line,
 *                  rewritten with '\r')
 * \param onResult  if set, called in the parent with (i, line) for i = 0, 1, 2, ... in order, as
 *                  soon as results 0..i have all arrived (e.g. to write each finished row of a
 *                  CSV at once, QuicCcOutputFile)
 * \return the result lines, element i from task(i)
 *
 * A worker that fails (fatal error, crash, non-zero exit) or a missing, duplicate or malformed
 * result makes the parent print one line saying how many workers failed and how many results
 * arrived and exit with status 1 (the worker's own error is on stderr before it); a failure of
 * pipe() or fork() is a fatal error.
 */
std::vector<std::string> QuicCcRunBatch(
    size_t count,
    uint32_t workers,
    const std::function<std::string(size_t)>& task,
    bool progress = false,
    const std::function<void(size_t, const std::string&)>& onResult = nullptr);

} // namespace ns3

#endif // QUIC_CC_BATCH_RUNNER_H
