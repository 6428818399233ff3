/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Reading valgrind callgrind output: the transport's own instructions and the ns-3 floor.
 */
#ifndef CALLGRIND_PROFILE_H
#define CALLGRIND_PROFILE_H

#include <cstdint>
#include <string>

namespace transferbench
{

/// Instructions of one simulation under callgrind.
struct Profile
{
    uint64_t total{0}; //!< every instruction of the run
    uint64_t own{0};   //!< the transport's own code (see TransportOwnShare)
};

/**
 * Read a callgrind output file (format of valgrind's callgrind_annotate: ob/fn name
 * compression, "calls=" lines followed by the call's inclusive cost). The transport's own code
 * is the self cost of its functions (quic-cc: everything in libns3-quic-cc; TCP: functions
 * named ns3::Tcp*) plus the inclusive cost of their calls into the C and C++ runtime (malloc,
 * memcpy, containers' out-of-line code); everything else (ns-3's IP, UDP, point-to-point,
 * Packet, scheduler, applications) is the floor both transports share.
 */
Profile TransportOwnShare(const std::string& path, bool tcp);

} // namespace transferbench

#endif // CALLGRIND_PROFILE_H
