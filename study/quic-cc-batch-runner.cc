/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-batch-runner.h"

#include "quic-cc-output-file.h"

#include "ns3/abort.h"
#include "ns3/quic-cc-atomic-file.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <poll.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{

namespace
{

/// Write all of \p data to \p fd (retrying short writes); false on error.
bool
WriteAll(int fd, const std::string& data)
{
    size_t done = 0;
    while (done < data.size())
    {
        const ssize_t n = write(fd, data.data() + done, data.size() - done);
        if (n <= 0)
        {
            return false;
        }
        done += static_cast<size_t>(n);
    }
    return true;
}

/// The worker's pipe to the parent (-1 in the parent).
int g_reportFd = -1;
/// The task the worker is running.
size_t g_task = 0;

/// End the worker: report task g_task as failed for \p reason ("!<index> <reason>\n"), remove
/// its temporary files, exit with status 1.
[[noreturn]] void
ReportFailure(std::string reason)
{
    std::replace(reason.begin(), reason.end(), '\n', ' ');
    WriteAll(g_reportFd, "!" + std::to_string(g_task) + ' ' + reason + '\n');
    QuicCcAtomicFile::RemoveAllPending();
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(1); // no static destructors or atexit handlers of the parent's copy
}

/// QuicCcOutputFailed in a worker: the run fails with the message.
void
OnOutputFailed(const std::string& message)
{
    ReportFailure(message);
}

/// Body of worker \p w: tasks w, w + workers, ...; each result as "<index> <line>\n".
[[noreturn]] void
RunWorker(int fd,
          size_t w,
          uint32_t workers,
          size_t count,
          const std::function<std::string(size_t)>& task)
{
    g_reportFd = fd;
    QuicCcSetOutputFailureHandler(&OnOutputFailed);
    for (size_t i = w; i < count; i += workers)
    {
        g_task = i;
        std::string line;
        try
        {
            line = task(i);
        }
        catch (const std::exception& e)
        {
            ReportFailure(e.what());
        }
        catch (...)
        {
            ReportFailure("the task threw an exception that is not a std::exception");
        }
        if (line.find('\n') != std::string::npos)
        {
            ReportFailure("its result contains a newline");
        }
        if (!WriteAll(fd, std::to_string(i) + ' ' + line + '\n'))
        {
            QuicCcAtomicFile::RemoveAllPending();
            _exit(1); // the parent is gone
        }
    }
    close(fd);
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(0); // no static destructors or atexit handlers of the parent's copy
}

/// A record from a worker: a result, a failure it reported, or neither (malformed).
enum class Record
{
    RESULT,
    FAILURE,
    MALFORMED
};

/**
 * Parse "<index> <line>" into \p results or "!<index> <reason>" into \p failures; MALFORMED if
 * neither, out of range or a duplicate result.
 */
Record
Store(const std::string& record,
      std::vector<std::optional<std::string>>& results,
      std::map<size_t, std::string>& failures)
{
    const bool failure = !record.empty() && record[0] == '!';
    const std::string body = failure ? record.substr(1) : record;
    const size_t space = body.find(' ');
    if (space == 0 || space == std::string::npos || body.find_first_not_of("0123456789") != space)
    {
        return Record::MALFORMED;
    }
    const size_t index = std::stoull(body.substr(0, space));
    if (index >= results.size() || results[index])
    {
        return Record::MALFORMED;
    }
    if (failure)
    {
        failures.emplace(index, body.substr(space + 1));
        return Record::FAILURE;
    }
    results[index] = body.substr(space + 1);
    return Record::RESULT;
}

/// Progress as plain lines (QuicCcProgress::LINES): one when the runs done reach another tenth of
/// the batch, and one every interval of wall time in between.
class ProgressLines
{
  public:
    ProgressLines(const QuicCcBatchReport& report, size_t count)
        : m_program(report.program),
          m_count(count),
          m_on(report.progress == QuicCcProgress::LINES),
          m_interval(report.progressInterval),
          m_start(std::chrono::steady_clock::now()),
          m_last(m_start)
    {
    }

    /// Whole seconds since the batch started.
    long Seconds() const
    {
        return static_cast<long>(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count());
    }

    /// How long poll may wait before the next line is due (-1: no lines, wait for runs).
    int TimeoutMs() const
    {
        if (!m_on)
        {
            return -1;
        }
        const auto due = m_last + m_interval - std::chrono::steady_clock::now();
        return static_cast<int>(
            std::max<long>(0,
                           std::chrono::duration_cast<std::chrono::milliseconds>(due).count() + 1));
    }

    /// A line if \p done reached another tenth of the runs or the interval passed since the last.
    void Show(size_t done)
    {
        const size_t tenth = done * 10 / m_count;
        const auto now = std::chrono::steady_clock::now();
        if (!m_on || (tenth == m_tenth && now < m_last + m_interval))
        {
            return;
        }
        m_tenth = tenth;
        m_last = now;
        std::cerr << m_program << ": " << done << "/" << m_count << " runs done, " << Seconds()
                  << " s elapsed" << std::endl;
    }

  private:
    std::string m_program;                         //!< first word of the line
    size_t m_count;                                //!< runs in the batch
    bool m_on;                                     //!< LINES progress
    std::chrono::milliseconds m_interval;          //!< longest time between two lines
    std::chrono::steady_clock::time_point m_start; //!< when the batch started
    std::chrono::steady_clock::time_point m_last;  //!< when the last line was printed
    size_t m_tenth{0};                             //!< tenths of the runs done at the last line
};

/// Why a worker that sent no report ended as it did (its wait status \p status).
std::string
DeathReason(int status)
{
    if (WIFSIGNALED(status))
    {
        const int sig = WTERMSIG(status);
        return "the worker died of signal " + std::to_string(sig) + " (" + strsignal(sig) + ")" +
               (WCOREDUMP(status) ? ", core dumped" : "");
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    {
        return "the worker exited with status " + std::to_string(WEXITSTATUS(status));
    }
    return "the worker ended without its result";
}

} // namespace

std::vector<std::string>
QuicCcRunBatch(size_t count,
               uint32_t workers,
               const std::function<std::string(size_t)>& task,
               const QuicCcBatchReport& report,
               const std::function<void(size_t, const std::string&)>& onResult)
{
    const QuicCcProgress progress = report.progress;
    if (count == 0)
    {
        return {};
    }
    if (workers == 0)
    {
        workers = static_cast<uint32_t>(std::max<long>(1, sysconf(_SC_NPROCESSORS_ONLN)));
    }
    workers = static_cast<uint32_t>(std::min<size_t>(workers, count));

    // Flush before forking, so no buffered output is written twice.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);

    std::vector<int> fds;
    std::vector<pid_t> pids;
    [[maybe_unused]] const pid_t parent = getpid();
    for (uint32_t w = 0; w < workers; ++w)
    {
        int fd[2];
        NS_ABORT_MSG_IF(pipe(fd) != 0, "QuicCcRunBatch: pipe() failed");
        const pid_t pid = fork();
        NS_ABORT_MSG_IF(pid < 0, "QuicCcRunBatch: fork() failed");
        if (pid == 0)
        {
#ifdef __linux__
            // A parent that exits early (e.g. a failed CSV write, a SIGINT sent to it alone)
            // takes its workers with it; SIGTERM, so that each removes its temporary files
            // (QuicCcAtomicFile: a qlog being written) before it dies.
            prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (getppid() != parent)
            {
                _exit(1); // the parent is already gone
            }
#endif
            close(fd[0]);
            for (int other : fds)
            {
                close(other); // earlier workers' read ends: only the parent reads them
            }
            RunWorker(fd[1], w, workers, count, task);
        }
        close(fd[1]);
        fds.push_back(fd[0]);
        pids.push_back(pid);
    }

    ProgressLines shown(report, count);
    std::vector<std::optional<std::string>> results(count);
    std::map<size_t, std::string> failures; // run -> reason, from the workers' reports
    size_t received = 0;
    size_t delivered = 0; // results 0..delivered-1 were passed to onResult
    bool malformed = false;
    std::vector<std::string> partial(workers);
    std::vector<size_t> next(workers); // the task worker w runs now (its next result)
    for (size_t w = 0; w < workers; ++w)
    {
        next[w] = w;
    }
    std::vector<bool> open(workers, true);
    size_t openCount = workers;
    while (openCount > 0 && failures.empty() && !malformed)
    {
        std::vector<pollfd> pfds;
        std::vector<size_t> index;
        for (size_t w = 0; w < workers; ++w)
        {
            if (open[w])
            {
                pfds.push_back({fds[w], POLLIN, 0});
                index.push_back(w);
            }
        }
        if (poll(pfds.data(), pfds.size(), shown.TimeoutMs()) < 0)
        {
            continue; // interrupted by a signal: poll again
        }
        for (size_t k = 0; k < pfds.size(); ++k)
        {
            if (!(pfds[k].revents & (POLLIN | POLLHUP | POLLERR)))
            {
                continue;
            }
            const size_t w = index[k];
            char buf[4096];
            const ssize_t n = read(fds[w], buf, sizeof(buf));
            if (n <= 0)
            {
                open[w] = false;
                --openCount;
                close(fds[w]);
                int status = 0;
                waitpid(pids[w], &status, 0);
                pids[w] = -1;
                const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
                if (!clean || next[w] < count)
                {
                    failures.emplace(next[w], DeathReason(status)); // unless it reported why
                }
                continue;
            }
            partial[w].append(buf, static_cast<size_t>(n));
            size_t nl;
            while ((nl = partial[w].find('\n')) != std::string::npos)
            {
                switch (Store(partial[w].substr(0, nl), results, failures))
                {
                case Record::RESULT:
                    ++received;
                    next[w] += workers;
                    break;
                case Record::FAILURE:
                    break;
                case Record::MALFORMED:
                    malformed = true;
                    break;
                }
                partial[w].erase(0, nl + 1);
            }
            for (; onResult && delivered < count && results[delivered]; ++delivered)
            {
                onResult(delivered, *results[delivered]);
            }
            if (progress == QuicCcProgress::TERMINAL)
            {
                std::cerr << "\r" << received << "/" << count << " runs, " << shown.Seconds()
                          << " s" << std::flush;
            }
        }
        shown.Show(received);
    }
    if (progress == QuicCcProgress::TERMINAL)
    {
        std::cerr << "\n";
    }
    if (!failures.empty() || malformed)
    {
        // The other workers stop (SIGTERM: each removes its temporary files) and are reaped.
        for (size_t w = 0; w < workers; ++w)
        {
            if (open[w])
            {
                close(fds[w]);
            }
            if (pids[w] > 0)
            {
                kill(pids[w], SIGTERM);
                waitpid(pids[w], nullptr, 0);
            }
        }
        if (malformed)
        {
            QuicCcExitFailed(report.program, "a worker sent a malformed or duplicate result");
        }
        const auto& [run, reason] = *failures.begin(); // the first run that failed
        std::string name = "run " + std::to_string(run + 1) + " of " + std::to_string(count);
        if (report.describe && run < count)
        {
            name += " (" + report.describe(run) + ")";
        }
        QuicCcExitFailed(report.program, name + ": " + reason);
    }
    std::vector<std::string> lines;
    lines.reserve(count);
    for (auto& r : results)
    {
        lines.push_back(std::move(*r));
    }
    return lines;
}

} // namespace ns3
