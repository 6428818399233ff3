/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-output-file.h"

#include "quic-cc-command-line.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

namespace
{

/// Directory part of \p path ("." for a bare file name).
std::string
DirectoryOf(const std::string& path)
{
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    return parent.empty() ? "." : parent.string();
}

/// Create a new temporary file next to \p path (mkstemp); returns its descriptor or -1, with
/// its name in \p tmp.
int
CreateTemporary(const std::string& path, std::string& tmp)
{
    const std::filesystem::path p(path);
    tmp = (std::filesystem::path(DirectoryOf(path)) / ("." + p.filename().string() + ".tmp-XXXXXX"))
              .string();
    return mkstemp(tmp.data());
}

/// Temporary files of uncommitted QuicCcOutputFile objects, removed on a fatal signal by the
/// process that created them (forked workers inherit the handler, not the files).
struct PendingFiles
{
    static constexpr size_t kMax = 16; //!< at most this many open at once
    char path[kMax][4096];             //!< NUL-terminated paths
    volatile sig_atomic_t used[kMax];  //!< slot in use
    pid_t owner[kMax];                 //!< creating process
};

PendingFiles g_pending{};

/// Remove this process's pending temporary files, then die of \p sig as without the handler.
void
RemovePendingAndReraise(int sig)
{
    for (size_t i = 0; i < PendingFiles::kMax; ++i)
    {
        if (g_pending.used[i] && g_pending.owner[i] == getpid())
        {
            unlink(g_pending.path[i]);
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/// Remove this process's pending temporary files (at exit: an error elsewhere ended the program).
void
RemovePendingAtExit()
{
    for (size_t i = 0; i < PendingFiles::kMax; ++i)
    {
        if (g_pending.used[i] && g_pending.owner[i] == getpid())
        {
            unlink(g_pending.path[i]);
            g_pending.used[i] = 0;
        }
    }
}

/// Register \p tmp for removal on SIGINT/SIGTERM/SIGHUP and at exit; the slot, or -1 if none is
/// free.
int
AddPending(const std::string& tmp)
{
    static bool installed = false;
    if (!installed)
    {
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
        // A file size limit (ulimit -f) then fails write() with EFBIG instead of killing us.
        signal(SIGXFSZ, SIG_IGN);
        std::atexit(&RemovePendingAtExit);
    }
    for (size_t i = 0; i < PendingFiles::kMax; ++i)
    {
        if (!g_pending.used[i] && tmp.size() < sizeof(g_pending.path[i]))
        {
            std::memcpy(g_pending.path[i], tmp.c_str(), tmp.size() + 1);
            g_pending.owner[i] = getpid();
            g_pending.used[i] = 1;
            return static_cast<int>(i);
        }
    }
    return -1;
}

/// Forget the pending temporary file \p tmp (committed, kept or removed).
void
RemovePendingEntry(const std::string& tmp)
{
    for (size_t i = 0; i < PendingFiles::kMax; ++i)
    {
        if (g_pending.used[i] && tmp == g_pending.path[i])
        {
            g_pending.used[i] = 0;
        }
    }
}

/// Write all of \p text to \p fd; 0 or the errno of the failure.
int
WriteAll(int fd, const std::string& text)
{
    size_t done = 0;
    while (done < text.size())
    {
        const ssize_t n = write(fd, text.data() + done, text.size() - done);
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

/// Make \p fd's file mode the usual 0666 less the umask (mkstemp creates 0600), flush it to
/// disk and close it; 0 or the errno of the failure.
int
FinishFile(int fd)
{
    const mode_t mask = umask(0);
    umask(mask);
    int err = 0;
    if (fchmod(fd, 0666 & ~mask) != 0 || fsync(fd) != 0)
    {
        err = errno;
    }
    if (close(fd) != 0 && err == 0)
    {
        err = errno;
    }
    return err;
}

} // namespace

QuicCcOutputFile::QuicCcOutputFile(const std::string& program,
                                   const std::string& path,
                                   const std::string& header)
    : m_program(program),
      m_path(path)
{
    m_fd = CreateTemporary(path, m_tmp);
    if (m_fd < 0)
    {
        Fail(errno);
    }
    AddPending(m_tmp);
    Write(header);
    m_headerBytes = m_written;
    m_lines = 0;
}

QuicCcOutputFile::~QuicCcOutputFile()
{
    if (!m_committed && m_fd >= 0)
    {
        close(m_fd);
        unlink(m_tmp.c_str());
        RemovePendingEntry(m_tmp);
    }
}

void
QuicCcOutputFile::Write(const std::string& text)
{
    if (const int err = WriteAll(m_fd, text); err != 0)
    {
        Fail(err);
    }
    m_written += text.size();
    m_lines += static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

void
QuicCcOutputFile::Commit()
{
    const int fd = m_fd;
    m_fd = -1;
    if (const int err = FinishFile(fd); err != 0)
    {
        Fail(err);
    }
    if (std::rename(m_tmp.c_str(), m_path.c_str()) != 0)
    {
        Fail(errno);
    }
    RemovePendingEntry(m_tmp);
    m_committed = true;
}

void
QuicCcOutputFile::Fail(int error)
{
    std::string kept;
    if (!m_tmp.empty() && access(m_tmp.c_str(), F_OK) == 0)
    {
        // Keep what was written completely, cut back to before the failed write.
        const std::string partial = m_path + ".partial";
        const bool keep = m_written > m_headerBytes && truncate(m_tmp.c_str(), m_written) == 0 &&
                          std::rename(m_tmp.c_str(), partial.c_str()) == 0;
        if (keep)
        {
            kept =
                "; the " + std::to_string(m_lines) + " row(s) written before it are in " + partial;
        }
        else
        {
            unlink(m_tmp.c_str());
        }
        RemovePendingEntry(m_tmp);
    }
    if (m_fd >= 0)
    {
        close(m_fd);
        m_fd = -1;
    }
    std::cout.flush();
    std::cerr << m_program << ": cannot write " << m_path << ": " << std::strerror(error) << kept
              << std::endl;
    std::exit(1);
}

void
QuicCcCheckOutputFile(const std::string& option, const std::string& path)
{
    QuicCcRequire(!path.empty() && path.back() != '/', option, path, "needs a file name");
    std::error_code ec;
    QuicCcRequire(!std::filesystem::is_directory(path, ec), option, path, "is a directory");
    const std::string dir = DirectoryOf(path);
    QuicCcRequire(std::filesystem::is_directory(dir, ec),
                  option,
                  path,
                  "directory " + dir + " does not exist");
    std::string tmp;
    const int fd = CreateTemporary(path, tmp);
    QuicCcRequire(fd >= 0,
                  option,
                  path,
                  "cannot create a file in " + dir + ": " + std::strerror(errno));
    close(fd);
    unlink(tmp.c_str());
}

void
QuicCcCheckOutputDirectory(const std::string& option, const std::string& path)
{
    QuicCcRequire(!path.empty(), option, path, "needs a directory name");
    std::error_code ec;
    if (std::filesystem::exists(path, ec))
    {
        QuicCcRequire(std::filesystem::is_directory(path, ec), option, path, "is not a directory");
        QuicCcRequire(access(path.c_str(), W_OK | X_OK) == 0,
                      option,
                      path,
                      std::string("directory is not writable: ") + std::strerror(errno));
        return;
    }
    std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (parent.empty())
    {
        parent = ".";
    }
    QuicCcRequire(std::filesystem::is_directory(parent, ec) &&
                      access(parent.c_str(), W_OK | X_OK) == 0,
                  option,
                  path,
                  "cannot be created: " + parent.string() + " is not a writable directory");
}

} // namespace ns3
