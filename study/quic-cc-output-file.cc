/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-output-file.h"

#include "quic-cc-command-line.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace ns3
{

namespace
{

/// The output files constructed and not yet committed or destroyed, oldest first.
std::vector<QuicCcOutputFile*>&
OpenOutputs()
{
    static std::vector<QuicCcOutputFile*> open;
    return open;
}

/// Take \p file off the open outputs.
void
Forget(QuicCcOutputFile* file)
{
    std::vector<QuicCcOutputFile*>& open = OpenOutputs();
    open.erase(std::remove(open.begin(), open.end(), file), open.end());
}

/// Directory part of \p path ("." for a bare file name).
std::string
DirectoryOf(const std::string& path)
{
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    return parent.empty() ? "." : parent.string();
}

} // namespace

QuicCcOutputFile::QuicCcOutputFile(const std::string& program,
                                   const std::string& path,
                                   const std::string& header)
    : m_program(program),
      m_path(path)
{
    if (const int err = m_file.Open(path); err != 0)
    {
        Fail(err);
    }
    OpenOutputs().push_back(this);
    Write(header);
    m_headerBytes = m_written;
    m_lines = 0;
}

QuicCcOutputFile::~QuicCcOutputFile()
{
    Forget(this);
}

void
QuicCcOutputFile::Write(const std::string& text)
{
    if (const int err = m_file.Write(text); err != 0)
    {
        Fail(err);
    }
    m_written += text.size();
    m_lines += static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

void
QuicCcOutputFile::Commit()
{
    if (const int err = m_file.Commit(); err != 0)
    {
        Fail(err);
    }
    Forget(this);
}

std::string
QuicCcOutputFile::KeepPartial()
{
    // What was written completely, cut back to before a failed write.
    const std::string partial = m_path + ".partial";
    std::string kept;
    if (m_written > m_headerBytes && m_file.KeepAs(partial, m_written))
    {
        kept = "; the " + std::to_string(m_lines) + " row(s) written before it are in " + partial;
    }
    m_file.Discard();
    Forget(this);
    return kept;
}

void
QuicCcOutputFile::Fail(int error)
{
    QuicCcExitFailed(m_program, "cannot write " + m_path + ": " + std::strerror(error));
}

void
QuicCcExitFailed(const std::string& program, const std::string& message)
{
    std::string kept;
    while (!OpenOutputs().empty())
    {
        kept += OpenOutputs().front()->KeepPartial();
    }
    std::cout.flush();
    std::cerr << program << ": " << message << kept << std::endl;
    std::exit(1);
}

void
QuicCcCheckOutputFile(const std::string& option, const std::string& path)
{
    QuicCcRequire(!path.empty() && path.back() != '/', option, path, "needs a file name");
    std::error_code ec;
    QuicCcRequire(!std::filesystem::is_directory(path, ec), option, path, "is a directory");
    const std::filesystem::file_status status = std::filesystem::symlink_status(path, ec);
    QuicCcRequire(!std::filesystem::exists(status) || std::filesystem::is_regular_file(status),
                  option,
                  path,
                  "exists and is not a regular file (a device, FIFO, socket or symbolic link); "
                  "the output replaces the file at this path");
    const std::string dir = DirectoryOf(path);
    QuicCcRequire(std::filesystem::is_directory(dir, ec),
                  option,
                  path,
                  "directory " + dir + " does not exist");
    QuicCcAtomicFile probe;
    const int err = probe.Open(path);
    QuicCcRequire(err == 0,
                  option,
                  path,
                  "cannot create a file in " + dir + ": " + std::strerror(err));
    probe.Discard();
}

void
QuicCcCheckOutputs(const std::vector<QuicCcOutputPath>& outputs)
{
    const auto resolved = [](const std::string& p) {
        std::error_code ec;
        const std::filesystem::path absolute = std::filesystem::absolute(p, ec);
        const std::filesystem::path c = std::filesystem::weakly_canonical(absolute, ec);
        return ec ? absolute.lexically_normal() : c;
    };
    std::vector<std::pair<const QuicCcOutputPath*, std::filesystem::path>> checked;
    for (const QuicCcOutputPath& output : outputs)
    {
        if (output.path.empty())
        {
            continue;
        }
        output.directory ? QuicCcCheckOutputDirectory(output.option, output.path)
                         : QuicCcCheckOutputFile(output.option, output.path);
        const std::filesystem::path mine = resolved(output.path);
        for (const auto& [earlier, theirs] : checked)
        {
            // A path inside (or equal to) a directory: the directory is a prefix of its parts.
            const auto within = [](const std::filesystem::path& p,
                                   const std::filesystem::path& dir) {
                auto [d, q] = std::mismatch(dir.begin(), dir.end(), p.begin(), p.end());
                return d == dir.end();
            };
            const bool collides = earlier->directory || output.directory
                                      ? within(mine, theirs) || within(theirs, mine)
                                      : mine == theirs;
            QuicCcRequire(!collides,
                          output.option,
                          output.path,
                          std::string(earlier->directory ? "is in or is the directory of --"
                                      : output.directory ? "holds the file of --"
                                                         : "is also the file of --") +
                              earlier->option);
        }
        checked.emplace_back(&output, mine);
    }
}

void
QuicCcCheckOutputDirectory(const std::string& option, const std::string& path)
{
    QuicCcRequire(!path.empty(), option, path, "needs a directory name");
    // Every check makes a directory and removes it again: the permission bits are not the whole
    // answer (root passes access() on /proc and /sys, where nothing can be created).
    const auto probe = [&option, &path](const std::filesystem::path& made,
                                        const std::string& what) {
        std::error_code ec;
        const bool created = std::filesystem::create_directory(made, ec);
        QuicCcRequire(created, option, path, what + ec.message());
        std::filesystem::remove(made, ec);
    };
    std::error_code ec;
    if (std::filesystem::exists(path, ec))
    {
        QuicCcRequire(std::filesystem::is_directory(path, ec), option, path, "is not a directory");
        probe(std::filesystem::path(path) / (".quic-cc-probe-" + std::to_string(getpid())),
              "directory is not writable: ");
        return;
    }
    std::filesystem::path directory(path);
    if (!directory.has_filename())
    {
        directory = directory.parent_path(); // "dir/": the parent of dir
    }
    std::filesystem::path parent = directory.parent_path();
    if (parent.empty())
    {
        parent = ".";
    }
    QuicCcRequire(std::filesystem::is_directory(parent, ec),
                  option,
                  path,
                  "cannot be created: " + parent.string() + " is not a directory");
    probe(path, "cannot be created: ");
}

} // namespace ns3
