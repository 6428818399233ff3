/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-output-file.h"

#include "quic-cc-command-line.h"

#include "ns3/abort.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
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

} // namespace

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

void
QuicCcWriteFileAtomically(const std::string& path, const std::string& content)
{
    std::string tmp;
    const int fd = CreateTemporary(path, tmp);
    NS_ABORT_MSG_IF(fd < 0,
                    "cannot create a temporary file for " << path << ": " << std::strerror(errno));
    size_t done = 0;
    bool ok = true;
    while (ok && done < content.size())
    {
        const ssize_t n = write(fd, content.data() + done, content.size() - done);
        ok = n > 0;
        done += ok ? static_cast<size_t>(n) : 0;
    }
    const int err = ok ? 0 : errno;
    // mkstemp creates 0600; an output file gets the usual 0666 less the umask.
    const mode_t mask = umask(0);
    umask(mask);
    ok = ok && fchmod(fd, 0666 & ~mask) == 0 && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0)
    {
        const int reason = err ? err : errno;
        unlink(tmp.c_str());
        NS_FATAL_ERROR("cannot write " << path << ": " << std::strerror(reason));
    }
}

} // namespace ns3
