/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_FLOW_SPEC_H
#define QUIC_CC_FLOW_SPEC_H

#include "quic-cc-transport-spec.h"

#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * One group of identical flows of a dumbbell, as written on a command line:
 * `transport:controller[Name=Value|Name=Value]:count`, e.g. `quic:cubic:3`,
 * `quic:cubic[IdleRestart=LastSent|HyStart=false]:2`, `tcp:TcpCubic:2`, `ngtcp2:bbr:2` (ngtcp2's
 * own controller cubic, reno or bbr over QuicCcNgtcp2SocketFactory, in a build with it).
 */
struct QuicCcFlowGroup
{
    std::string token;     //!< the group as written
    std::string transport; //!< "quic" (quic-cc), "tcp" (ns-3 TCP) or "ngtcp2"
    /// controller TypeId: ns3::QuicCubic, ns3::QuicReno, ns3::TcpCubic, ...; ngtcp2: its
    /// controller's name (cubic, reno, bbr)
    std::string typeId;
    std::vector<std::pair<std::string, std::string>>
        attributes;           //!< controller attributes, in order
    uint32_t count{1};        //!< flows in the group (>= 1)
    std::string label;        //!< its controller in results: typeId; ngtcp2: "ngtcp2-bbr"
    QuicCcTransportSpec quic; //!< quic and ngtcp2: the transport with its controller
};

/**
 * Parse a comma-separated list of flow groups (see QuicCcFlowGroup). Every controller, TypeId,
 * attribute name and value is checked against the TypeId system.
 * \param spec   e.g. "quic:cubic:3,quic:reno:1,tcp:TcpCubic:2"
 * \param groups the parsed groups (appended)
 * \return "" on success, else one line naming the bad token and why
 */
std::string QuicCcParseFlowSpec(const std::string& spec, std::vector<QuicCcFlowGroup>* groups);

/// Resolve a TypeId by \p name, with or without the "ns3::" prefix; false if unknown.
bool QuicCcLookupTypeId(const std::string& name, TypeId* tid);

} // namespace ns3

#endif // QUIC_CC_FLOW_SPEC_H
