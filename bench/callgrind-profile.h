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
    /// quic-cc only: own plus the ns-3 header code compiled into libns3-quic-cc (see
    /// TransportOwnShare); equal to own for TCP
    uint64_t ownWithNs3Headers{0};
};

/**
 * Read a callgrind output file (format of valgrind's callgrind_annotate: ob/fl/fn name
 * compression, "calls=" lines followed by the call's inclusive cost). The transport's own code
 * is the self cost of the functions it defines plus the inclusive cost of their calls into the
 * C and C++ runtime (malloc, memcpy, containers' out-of-line code); everything else (ns-3's IP,
 * UDP, point-to-point, Packet, scheduler, applications) is the floor both transports share.
 * TCP's functions are those named ns3::Tcp*. quic-cc's are those of libns3-quic-cc except
 * ns-3's own inline and template code instantiated there (functions defined in an ns3/
 * header: the Packet destructor, Ptr, Time conversions, traced values), which is ns-3's code
 * as it is when TCP calls it; the dynamic linker may even bind ns-3's own calls to those
 * copies (QueueBase::WouldOverflow to libns3-quic-cc's TracedValue code). ownWithNs3Headers
 * counts that code too.
 */
Profile TransportOwnShare(const std::string& path, bool tcp);

} // namespace transferbench

#endif // CALLGRIND_PROFILE_H
