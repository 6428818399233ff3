/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_RESPONSE_FUNCTION_H
#define QUIC_CC_RESPONSE_FUNCTION_H

#include "quic-cc-record.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup quic-cc
 * RFC 9438 Section 5.1's response functions: the average window, in packets, of one flow that
 * loses one packet in every 1/p (deterministic loss), on a path without queueing.
 */
/// Reno (AIMD(1, 0.5)): 1.2 / sqrt(p), the "Reno" column of RFC 9438 Tables 1 and 2.
double QuicCcRfc9438RenoWindow(double p);

/**
 * CUBIC with constant \p c and beta_cubic 0.7: the larger of the Reno-friendly window (AIMD,
 * as the Reno column) and RFC 9438 Eq. 6, (C 3.7 / 1.2)^0.25 RTT^0.75 / p^0.75; the "CUBIC"
 * columns of RFC 9438 Tables 1 and 2.
 */
double QuicCcRfc9438CubicWindow(double c, Time rtt, double p);

/// One point of the response function.
struct QuicCcResponseFunctionParams
{
    std::string controller{"reno"}; //!< "reno" or "cubic"
    double c{0.4};                  //!< CUBIC C (cubic only)
    double lossRate{1e-3};          //!< p; one data packet in round(1/p) is dropped
    Time rtt{MilliSeconds(100)};    //!< base RTT
    uint32_t warmupCycles{5};       //!< loss cycles (of the RFC's model) left out of the mean
    uint32_t cycles{10};            //!< loss cycles the mean covers
    /// Follow the RFC's model: CUBIC without quiche's spurious-loss rollback heuristic, without
    /// fast convergence (the model keeps W_max from cycle to cycle), with RenoFriendly=Rfc9438;
    /// HyStart++ off for both controllers.
    bool rfcModel{true};
    std::string qlogDirectory; //!< qlog files of the run go here (created); "" = none
    uint32_t run{1};           //!< RngRun (the periodic loss draws nothing; the run is kept)
    uint32_t seed{1};          //!< RngSeed
};

/// Outcome of one point.
struct QuicCcResponseFunctionResult
{
    double rfcWindow{0};      //!< the RFC's average window, packets
    double measuredWindow{0}; //!< time-weighted mean cwnd over the measured cycles, packets
    double error{0};          //!< measured / rfc - 1
    double cycleSeconds{0};   //!< length of one loss cycle in the RFC's model, seconds
    uint64_t drops{0};        //!< packets the loss model dropped (whole run)
    uint64_t lostPackets{0};  //!< packets the sender declared lost (whole run)
    Time simulated;           //!< simulated time
};

/// The serialised form of QuicCcResponseFunctionResult (QuicCcRecordToLine): every field, in this
/// order.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QuicCcResponseFunctionResult,
                                   rfcWindow,
                                   measuredWindow,
                                   error,
                                   cycleSeconds,
                                   drops,
                                   lostPackets,
                                   simulated);

/// Run one point: the dumbbell scenario with one QUIC flow, 10 Gbit/s links, no queueing, an
/// RFC 9000 ACK policy and QuicCcPeriodicErrorModel.
QuicCcResponseFunctionResult QuicCcRunResponseFunction(const QuicCcResponseFunctionParams& params);

} // namespace ns3

#endif // QUIC_CC_RESPONSE_FUNCTION_H
