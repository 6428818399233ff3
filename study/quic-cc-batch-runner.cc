/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-batch-runner.h"

#include "ns3/abort.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
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

/// Body of worker \p w: tasks w, w + workers, ...; each result as "<index> <line>\n".
[[noreturn]] void
RunWorker(int fd,
          size_t w,
          uint32_t workers,
          size_t count,
          const std::function<std::string(size_t)>& task)
{
    for (size_t i = w; i < count; i += workers)
    {
        const std::string line = task(i);
        NS_ABORT_MSG_IF(line.find('\n') != std::string::npos,
                        "QuicCcRunBatch: the result of task " << i << " contains a newline");
        NS_ABORT_MSG_UNLESS(WriteAll(fd, std::to_string(i) + ' ' + line + '\n'),
                            "QuicCcRunBatch: worker " << w << " could not write to the parent");
    }
    close(fd);
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(0); // no static destructors or atexit handlers of the parent's copy
}

/// Parse "<index> <line>" into \p results; false if malformed, out of range or a duplicate.
bool
Store(const std::string& record, std::vector<std::optional<std::string>>& results)
{
    const size_t space = record.find(' ');
    if (space == 0 || space == std::string::npos || record.find_first_not_of("0123456789") != space)
    {
        return false;
    }
    const size_t index = std::stoull(record.substr(0, space));
    if (index >= results.size() || results[index])
    {
        return false;
    }
    results[index] = record.substr(space + 1);
    return true;
}

} // namespace

std::vector<std::string>
QuicCcRunBatch(size_t count,
               uint32_t workers,
               const std::function<std::string(size_t)>& task,
               bool progress,
               const std::function<void(size_t, const std::string&)>& onResult)
{
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

    const auto start = std::chrono::steady_clock::now();
    std::vector<std::optional<std::string>> results(count);
    size_t received = 0;
    size_t delivered = 0; // results 0..delivered-1 were passed to onResult
    bool malformed = false;
    std::vector<std::string> partial(workers);
    std::vector<bool> open(workers, true);
    size_t openCount = workers;
    while (openCount > 0)
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
        if (poll(pfds.data(), pfds.size(), -1) < 0)
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
                continue;
            }
            partial[w].append(buf, static_cast<size_t>(n));
            size_t nl;
            while ((nl = partial[w].find('\n')) != std::string::npos)
            {
                if (Store(partial[w].substr(0, nl), results))
                {
                    ++received;
                }
                else
                {
                    malformed = true;
                }
                partial[w].erase(0, nl + 1);
            }
            for (; onResult && delivered < count && results[delivered]; ++delivered)
            {
                onResult(delivered, *results[delivered]);
            }
            if (progress)
            {
                const double elapsed =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                std::cerr << "\r" << received << "/" << count << " runs, "
                          << static_cast<long>(elapsed) << " s" << std::flush;
            }
        }
    }
    if (progress)
    {
        std::cerr << "\n";
    }

    int failedWorkers = 0;
    for (pid_t pid : pids)
    {
        int status = 0;
        waitpid(pid, &status, 0);
        failedWorkers += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    if (failedWorkers > 0 || malformed || received != count)
    {
        // The worker said why on stderr; this is the parent's one line (exit, not abort: no
        // core file, and QuicCcOutputFile's temporary files are removed at exit).
        std::cout.flush();
        std::cerr << "QuicCcRunBatch: " << failedWorkers << " of " << workers
                  << " worker process(es) failed; " << received << " of " << count
                  << " results arrived" << (malformed ? " (some malformed or duplicated)" : "")
                  << std::endl;
        std::exit(1);
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
