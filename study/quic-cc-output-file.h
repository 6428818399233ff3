/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_OUTPUT_FILE_H
#define QUIC_CC_OUTPUT_FILE_H

#include <string>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Check, before any long work, that \p path can be written as an output file: its directory
 * exists and accepts a new file (tried by creating and removing a temporary file there) and
 * \p path is not a directory. Throws QuicCcUsageError naming \p option and \p path otherwise.
 */
void QuicCcCheckOutputFile(const std::string& option, const std::string& path);

/**
 * \ingroup quic-cc
 * Check that \p path is a writable directory, or can be created as one (its parent exists and
 * is writable). Throws QuicCcUsageError naming \p option and \p path otherwise. Creates nothing.
 */
void QuicCcCheckOutputDirectory(const std::string& option, const std::string& path);

/**
 * \ingroup quic-cc
 * Write \p content to \p path atomically: into a new temporary file in the same directory,
 * flushed to disk, then renamed over \p path, so that a reader (or an interrupted program)
 * sees either the old file or the whole new one. A failure is a fatal error naming the file and
 * the system's reason; the temporary file is removed.
 */
void QuicCcWriteFileAtomically(const std::string& path, const std::string& content);

} // namespace ns3

#endif // QUIC_CC_OUTPUT_FILE_H
