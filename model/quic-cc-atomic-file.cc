/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-atomic-file.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

/// A temporary file to remove on a fatal signal or at exit, by the process that created it
/// (forked workers inherit the list, not the files). The entries form a list that a signal
/// handler can walk while the program changes it: each change is one pointer store.
struct QuicCcAtomicFilePending
{
    std::string path;                                //!< the temporary file
    pid_t owner{0};                                  //!< creating process
    QuicCcAtomicFilePending* volatile next{nullptr}; //!< next entry
};

namespace
{

/// The pending temporary files of this process, newest first.
QuicCcAtomicFilePending* volatile g_pending = nullptr;

/// Remove this process's pending temporary files.
void
RemovePending()
{
    for (QuicCcAtomicFilePending* p = g_pending; p; p = p->next)
    {
        if (p->owner == getpid())
        {
            unlink(p->path.c_str()); // async-signal-safe, unlike std::remove
        }
    }
}

/// Remove the pending temporary files, then die of \p sig as without the handler.
void
RemovePendingAndReraise(int sig)
{
    RemovePending();
    signal(sig, SIG_DFL);
    raise(sig);
}

/// Install the handlers once: SIGINT, SIGTERM, SIGHUP where their action is the default, at
/// exit, and SIGXFSZ ignored.
void
InstallHandlers()
{
    static bool installed = false;
    if (installed)
    {
        return;
    }
    installed = true;
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
    {
        struct sigaction old
        {
        };

        sigaction(sig, nullptr, &old);
        if (old.sa_handler == SIG_DFL)
        {
            signal(sig, &RemovePendingAndReraise);
        }
    }
    signal(SIGXFSZ, SIG_IGN);
    std::atexit(&RemovePending);
}

/// The mkstemp pattern of the temporary file for \p path: ".<name>.tmp-XXXXXX" in its directory.
std::string
TemporaryPattern(const std::string& path)
{
    const std::filesystem::path p(path);
    const std::filesystem::path dir = p.parent_path().empty() ? "." : p.parent_path();
    return (dir / ("." + p.filename().string() + ".tmp-XXXXXX")).string();
}

/// Take \p entry off the pending list.
void
Unlink(QuicCcAtomicFilePending* entry)
{
    for (QuicCcAtomicFilePending* volatile* p = &g_pending; *p; p = &(*p)->next)
    {
        if (*p == entry)
        {
            *p = entry->next;
            return;
        }
    }
}

} // namespace

QuicCcAtomicFile::QuicCcAtomicFile() = default;

QuicCcAtomicFile::~QuicCcAtomicFile()
{
    Discard();
}

int
QuicCcAtomicFile::Open(const std::string& path)
{
    Discard();
    InstallHandlers();
    m_path = path;
    m_tmp = TemporaryPattern(path);
    m_fd = mkstemp(m_tmp.data());
    if (m_fd < 0)
    {
        const int err = errno;
        m_tmp.clear();
        return err;
    }
    m_pending = std::make_unique<QuicCcAtomicFilePending>();
    m_pending->path = m_tmp;
    m_pending->owner = getpid();
    m_pending->next = g_pending;
    g_pending = m_pending.get();
    return 0;
}

int
QuicCcAtomicFile::Write(const std::string& text)
{
    size_t done = 0;
    while (done < text.size())
    {
        const ssize_t n = write(m_fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
        {
            continue;
        }
        if (n <= 0)
        {
            return n < 0 ? errno : ENOSPC;
        }
        done += static_cast<size_t>(n);
    }
    return 0;
}

int
QuicCcAtomicFile::Commit()
{
    const mode_t mask = umask(0);
    umask(mask);
    int err = 0;
    if (fchmod(m_fd, 0666 & ~mask) != 0 || fsync(m_fd) != 0)
    {
        err = errno;
    }
    if (close(m_fd) != 0 && err == 0)
    {
        err = errno;
    }
    m_fd = -1;
    if (err == 0 && std::rename(m_tmp.c_str(), m_path.c_str()) != 0)
    {
        err = errno;
    }
    if (err != 0)
    {
        return err; // the temporary file stays pending: KeepAs or Discard decides
    }
    Unlink(m_pending.get());
    m_pending.reset();
    m_tmp.clear();
    return 0;
}

void
QuicCcAtomicFile::Discard()
{
    if (m_fd >= 0)
    {
        close(m_fd);
        m_fd = -1;
    }
    if (m_pending)
    {
        unlink(m_tmp.c_str());
        Unlink(m_pending.get());
        m_pending.reset();
    }
    m_tmp.clear();
}

bool
QuicCcAtomicFile::KeepAs(const std::string& path, size_t bytes)
{
    if (m_fd >= 0)
    {
        close(m_fd);
        m_fd = -1;
    }
    const bool kept = m_pending && truncate(m_tmp.c_str(), static_cast<off_t>(bytes)) == 0 &&
                      std::rename(m_tmp.c_str(), path.c_str()) == 0;
    if (kept)
    {
        Unlink(m_pending.get());
        m_pending.reset();
        m_tmp.clear();
    }
    Discard();
    return kept;
}

bool
QuicCcAtomicFile::IsOpen() const
{
    return m_fd >= 0;
}

void
QuicCcAtomicFile::RemoveAllPending()
{
    RemovePending();
}

namespace
{

/// The handler QuicCcOutputFailed calls (nullptr: the default).
QuicCcOutputFailureHandler g_outputFailureHandler = nullptr;

/// The program's name for the default handler's line.
const char*
ProgramName()
{
#ifdef __GLIBC__
    return program_invocation_short_name;
#else
    return "quic-cc";
#endif
}

} // namespace

QuicCcOutputFailureHandler
QuicCcSetOutputFailureHandler(QuicCcOutputFailureHandler handler)
{
    const QuicCcOutputFailureHandler previous = g_outputFailureHandler;
    g_outputFailureHandler = handler;
    return previous;
}

void
QuicCcOutputFailed(const std::string& message)
{
    if (g_outputFailureHandler)
    {
        g_outputFailureHandler(message);
    }
    std::cout.flush();
    std::cerr << ProgramName() << ": " << message << std::endl;
    std::exit(1);
}

} // namespace ns3
