/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_OUTPUT_FILE_H
#define QUIC_CC_OUTPUT_FILE_H

#include "ns3/quic-cc-atomic-file.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Check, before any long work, that \p path can be written as an output file: its directory
 * exists and accepts a new file (tried by creating and removing a temporary file there) and
 * \p path is nothing but a regular file if it exists (the file is replaced by a rename, which
 * would replace a device, FIFO, socket or symbolic link too). Throws QuicCcUsageError naming
 * \p option and \p path otherwise.
 */
void QuicCcCheckOutputFile(const std::string& option, const std::string& path);

/// \ingroup quic-cc
/// One output of a program: its option, the path given ("" = not asked for), file or directory.
struct QuicCcOutputPath
{
    std::string option;    //!< "csv"
    std::string path;      //!< as given
    bool directory{false}; //!< a directory of files (qlog) rather than one file
};

/**
 * \ingroup quic-cc
 * Check every output of a program before the first run: each file as QuicCcCheckOutputFile, each
 * directory as QuicCcCheckOutputDirectory, and that no two collide: a file that is another
 * output's file (one would overwrite the other), or lies in (or is) an output directory.
 * Throws QuicCcUsageError naming the later of two colliding outputs, in the order of \p outputs.
 */
void QuicCcCheckOutputs(const std::vector<QuicCcOutputPath>& outputs);

/**
 * \ingroup quic-cc
 * Check that \p path is a writable directory, or can be created as one (its parent exists and
 * is writable). Throws QuicCcUsageError naming \p option and \p path otherwise. Creates nothing.
 */
void QuicCcCheckOutputDirectory(const std::string& option, const std::string& path);

/**
 * \ingroup quic-cc
 * An output file written while the work runs and put in place atomically when it is complete
 * (a QuicCcAtomicFile, with the examples' policy for a failure).
 *
 * Text goes to a new temporary file next to \p path (".<name>.tmp-XXXXXX") as it is produced, so
 * finished work is on disk at once; Commit() flushes it to disk and renames it over \p path, so a
 * reader sees either the old file or the whole new one. A write that fails (disk full, a file size
 * limit: SIGXFSZ is ignored so that it is an error, EFBIG) prints ONE line on stderr and exits
 * with status 1: "<program>: cannot write <path>: <reason>; the N lines written before it are in
 * <path>.partial" (the temporary file, cut back to its last complete write and renamed; removed
 * instead when nothing but \p header had been written; the other output files still open keep
 * their rows likewise, QuicCcExitFailed). An interrupted program (SIGINT, SIGTERM, SIGHUP) and a
 * destroyed uncommitted file leave no temporary file behind, and \p path untouched.
 *
 * \code
 *   QuicCcOutputFile csv(cmd.GetProgramName(), batch.csv, "run,goodput\n");
 *   for (...) { csv.Write(row); }   // e.g. from QuicCcRunBatch's onResult
 *   csv.Commit();
 * \endcode
 */
class QuicCcOutputFile
{
  public:
    /**
     * Create the temporary file (a failure exits as a failed write does) and write \p header.
     * \param program names the program in the error line
     * \param path    the output file, checked before with QuicCcCheckOutputFile
     * \param header  first text of the file ("" for none)
     */
    QuicCcOutputFile(const std::string& program,
                     const std::string& path,
                     const std::string& header = "");
    /// Removes the temporary file unless committed.
    ~QuicCcOutputFile();
    QuicCcOutputFile(const QuicCcOutputFile&) = delete;
    QuicCcOutputFile& operator=(const QuicCcOutputFile&) = delete;

    /// Append \p text (all of it or, on failure, exit as described above).
    void Write(const std::string& text);

    /// Flush to disk and rename over the path; a failure exits as a failed write does.
    void Commit();

    /**
     * Keep what was written completely in <path>.partial (the temporary file, renamed), or
     * remove it when nothing but the header was written.
     * \return "; the N row(s) written before it are in <path>.partial", or "" if none kept
     */
    std::string KeepPartial();

  private:
    /// The error line for \p error, the partial files kept or removed; exit status 1.
    [[noreturn]] void Fail(int error);

    std::string m_program;   //!< program name for the error line
    std::string m_path;      //!< final path
    QuicCcAtomicFile m_file; //!< the temporary file until Commit
    size_t m_headerBytes{0}; //!< bytes of the header
    size_t m_written{0};     //!< bytes written completely
    size_t m_lines{0};       //!< complete lines after the header
};

/**
 * \ingroup quic-cc
 * End the program after a failure during the run: print "<program>: <message>" as ONE line on
 * stderr and exit with status 1, keeping the finished rows of every output file still open
 * (QuicCcOutputFile::KeepPartial, said at the end of the line). Output files already committed
 * and finished qlog files stay as they are.
 */
[[noreturn]] void QuicCcExitFailed(const std::string& program, const std::string& message);

} // namespace ns3

#endif // QUIC_CC_OUTPUT_FILE_H
