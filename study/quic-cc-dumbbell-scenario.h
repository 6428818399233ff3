/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DUMBBELL_SCENARIO_H
#define QUIC_CC_DUMBBELL_SCENARIO_H

#include "quic-cc-dumbbell-params.h"
#include "quic-cc-dumbbell-result.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Run the dumbbell once (builds its own nodes; calls Simulator::Destroy at the end). Invalid
 * parameters are a fatal error naming the value (QuicCcCheckDumbbellParams).
 */
QuicCcDumbbellResult QuicCcRunDumbbell(const QuicCcDumbbellParams& params);

/// The attributes QuicCcRunDumbbell sets itself (full names, "ns3::QuicCcSocket::AckPolicy"):
/// their defaults have no effect on it (QuicCcOptions::SetByScenario).
std::vector<std::string> QuicCcDumbbellSetAttributes();

} // namespace ns3

#endif // QUIC_CC_DUMBBELL_SCENARIO_H
