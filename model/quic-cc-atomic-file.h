/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_ATOMIC_FILE_H
#define QUIC_CC_ATOMIC_FILE_H

#include <cstddef>
#include <memory>
#include <string>

namespace ns3
{

struct QuicCcAtomicFilePending;

/**
 * \ingroup quic-cc-helper
 * A file written to a temporary file next to its path and renamed over the path when complete,
 * so that a reader sees either no file (or the old one) or the whole new one.
 *
 * Open() creates ".<name>.tmp-XXXXXX" in the path's directory (mkstemp); Commit() gives it the
 * usual mode (0666 less the umask), flushes it to disk, closes it and renames it over the path.
 * Until then the temporary file is removed when the object is destroyed, when the process exits
 * (std::exit, an error elsewhere) and on SIGINT, SIGTERM or SIGHUP (the handler is installed
 * where the signal's action is the default; it removes this process's temporary files and then
 * dies of the signal as without it). SIGXFSZ is ignored, so that a file size limit (ulimit -f) is
 * a failed write (EFBIG) instead of a kill. The functions return 0 or the errno of a failure and
 * leave the policy (a fatal error, one line and an exit status) to the caller.
 */
class QuicCcAtomicFile
{
  public:
    QuicCcAtomicFile();
    /// Removes the temporary file unless committed or kept.
    ~QuicCcAtomicFile();
    QuicCcAtomicFile(const QuicCcAtomicFile&) = delete;
    QuicCcAtomicFile& operator=(const QuicCcAtomicFile&) = delete;

    /// Create the temporary file for \p path; 0 or the errno of the failure.
    int Open(const std::string& path);
    /// Append all of \p text; 0 or the errno of the failure.
    int Write(const std::string& text);
    /// Mode, flush to disk, close and rename over the path; 0 or the errno of the failure.
    int Commit();
    /// Close and remove the temporary file (nothing is written to the path).
    void Discard();
    /**
     * Close the temporary file, cut it to its first \p bytes and rename it to \p path (what
     * was written before a failure); removed instead if that fails.
     * \return true if it was kept
     */
    bool KeepAs(const std::string& path, size_t bytes);

    /// \return true between Open and Commit/Discard/KeepAs
    bool IsOpen() const;

    /// Remove this process's temporary files not yet committed, kept or discarded (what exit
    /// and the signal handlers do; for a process about to end with _exit).
    static void RemoveAllPending();

  private:
    std::string m_path;                                 //!< final path
    std::string m_tmp;                                  //!< temporary file
    int m_fd{-1};                                       //!< descriptor of m_tmp, -1 once closed
    std::unique_ptr<QuicCcAtomicFilePending> m_pending; //!< the signal handler's entry for m_tmp
};

/**
 * \ingroup quic-cc-helper
 * What a model does when an output file it writes (a qlog file) cannot be created, written or
 * renamed: \p message says which and why ("cannot write q/x.sqlog: No space left on device").
 */
using QuicCcOutputFailureHandler = void (*)(const std::string& message);

/**
 * \ingroup quic-cc-helper
 * Install \p handler for QuicCcOutputFailed (nullptr: the default) and return the previous one.
 * The default prints "<program>: <message>" as one line on stderr and exits with status 1
 * (std::exit: the temporary files are removed, finished files stay). QuicCcRunBatch's workers
 * install one that reports the message and the run to the parent, which prints the one line.
 * A handler must not return; if it does, the default runs after it.
 */
QuicCcOutputFailureHandler QuicCcSetOutputFailureHandler(QuicCcOutputFailureHandler handler);

/**
 * \ingroup quic-cc-helper
 * An output file could not be written: the caller has discarded its temporary file; the
 * installed handler (QuicCcSetOutputFailureHandler) ends the run with \p message.
 */
[[noreturn]] void QuicCcOutputFailed(const std::string& message);

} // namespace ns3

#endif // QUIC_CC_ATOMIC_FILE_H
