/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_BATCH_RUNNER_H
#define QUIC_CC_BATCH_RUNNER_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/// \ingroup quic-cc
/// How QuicCcRunBatch shows progress on stderr.
enum class QuicCcProgress
{
    NONE,     //!< nothing (--quiet)
    TERMINAL, //!< one line rewritten with '\r' as runs finish (stderr a terminal)
    LINES,    //!< a plain line at each tenth of the runs and every 30 s (stderr a log)
};

/**
 * \ingroup quic-cc
 * How QuicCcRunBatch speaks for the program: its name, progress, and what the runs are called.
 */
struct QuicCcBatchReport
{
    std::string program{"QuicCcRunBatch"};         //!< first word of its lines ("quic-cc-idle")
    QuicCcProgress progress{QuicCcProgress::NONE}; //!< see QuicCcRunBatch
    /// Task i as the user knows it ("cubic-Off, RngRun 3"), named in the failure line; empty
    /// function: the line names the run by its number only.
    std::function<std::string(size_t)> describe;
    /// LINES: the longest wall time between two lines
    std::chrono::milliseconds progressInterval{std::chrono::seconds(30)};
};

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
 * \param task      task(i) computes task i and returns its result as one line
 * \param report    the program's name, progress and the runs' names. Progress TERMINAL:
 *                  "done/count runs, elapsed s" on stderr, one line rewritten with '\r' as runs
 *                  finish; LINES: "<program>: done/count runs done, elapsed s elapsed" as a
 *                  line of its own (newline, no '\r') when the runs done reach another tenth
 *                  of \p count and every progressInterval (30 s) of wall time between, so that
 *                  a log shows the batch advancing
 * \param onResult  if set, called in the parent with (i, line) for i = 0, 1, 2, ... in order, as
 *                  soon as results 0..i have all arrived (e.g. to write each finished row of a
 *                  CSV at once, QuicCcOutputFile)
 * \return the result lines, element i from task(i)
 *
 * A run that fails ends the batch: the parent stops the other workers (SIGTERM: they remove
 * their temporary files) and exits with status 1 after ONE line on stderr,
 * "<program>: run <i + 1> of <count> (<describe(i)>): <reason>", keeping the finished rows of
 * every output file still open (QuicCcExitFailed). The reason is what the worker reported: the
 * message of an output it could not write (QuicCcOutputFailed: a full disk under its qlog), the
 * what() of an exception the task threw, a result that contains '\n'; or, for a worker that
 * died without a report, its exit status or signal (an ns-3 fatal error prints its own message
 * before). A malformed or duplicate result is the same line without a run; a failure of pipe()
 * or fork() is a fatal error.
 */
std::vector<std::string> QuicCcRunBatch(
    size_t count,
    uint32_t workers,
    const std::function<std::string(size_t)>& task,
    const QuicCcBatchReport& report = {},
    const std::function<void(size_t, const std::string&)>& onResult = nullptr);

} // namespace ns3

#endif // QUIC_CC_BATCH_RUNNER_H
