/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-response-function.h"

#include "quic-cc-dumbbell-scenario.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

double
QuicCcRfc9438RenoWindow(double p)
{
    return 1.2 / std::sqrt(p);
}

double
QuicCcRfc9438CubicWindow(double c, Time rtt, double p)
{
    constexpr double kBeta = 0.7;
    const double cubic = std::pow(c * (3 + kBeta) / (4 * (1 - kBeta)), 0.25) *
                         std::pow(rtt.GetSeconds(), 0.75) / std::pow(p, 0.75);
    return std::max(cubic, QuicCcRfc9438RenoWindow(p));
}

QuicCcResponseFunctionResult
QuicCcRunResponseFunction(const QuicCcResponseFunctionParams& params)
{
    NS_ABORT_MSG_UNLESS(params.controller == "reno" || params.controller == "cubic",
                        "response function: controller must be reno or cubic, got '"
                            << params.controller << "'");
    NS_ABORT_MSG_UNLESS(params.lossRate > 0 && params.lossRate <= 0.5,
                        "response function: loss rate must be in (0, 0.5], got "
                            << params.lossRate);
    NS_ABORT_MSG_UNLESS(params.rtt.IsStrictlyPositive(),
                        "response function: RTT must be > 0, got " << params.rtt.As(Time::MS));
    NS_ABORT_MSG_IF(params.cycles == 0, "response function: cycles must be >= 1, got 0");

    QuicCcResponseFunctionResult result;
    result.rfcWindow = params.controller == "reno"
                           ? QuicCcRfc9438RenoWindow(params.lossRate)
                           : QuicCcRfc9438CubicWindow(params.c, params.rtt, params.lossRate);
    // One cycle carries 1/p packets at rfcWindow packets per RTT.
    result.cycleSeconds = params.rtt.GetSeconds() / (params.lossRate * result.rfcWindow);

    std::ostringstream spec;
    spec << "quic:" << params.controller << "[";
    if (params.controller == "cubic")
    {
        spec << "C=" << params.c << "|";
    }
    spec << "HyStart=" << (params.rfcModel ? "false" : "true");
    if (params.controller == "cubic" && params.rfcModel)
    {
        // RenoFriendly=Rfc9438: alpha becomes 1 at cwnd_prior (with fast convergence off, W_max
        // is cwnd_prior too, so quiche's rule gives the same run).
        spec << "|SpuriousLossRollback=false|FastConvergence=false|RenoFriendly=Rfc9438";
    }
    spec << "]:1";

    QuicCcDumbbellParams d;
    const std::string bad = QuicCcParseFlowSpec(spec.str(), &d.groups);
    NS_ABORT_MSG_UNLESS(bad.empty(), "response function: " << bad);
    d.rtts = {params.rtt};
    d.bottleneckDelay = params.rtt / 4;
    d.bottleneckRate = DataRate("10Gbps");
    d.accessRate = DataRate("10Gbps");
    d.queueSize = "1000000p";
    d.lossPeriod = static_cast<uint64_t>(std::llround(1.0 / params.lossRate));
    // The first loss where slow start's cwnd is about half the RFC window: detected a round later,
    // at about the RFC window, so the loss cycles start near their steady state instead of at
    // slow start's overshoot (without fast convergence, W_max would take tens of cycles to come
    // down from there).
    d.lossFirstDrop =
        std::min<uint64_t>(d.lossPeriod, std::max<uint64_t>(1, std::llround(result.rfcWindow)));
    d.ackPolicy = "Rfc9000";
    d.warmup = Seconds(result.cycleSeconds * params.warmupCycles);
    d.duration = Seconds(result.cycleSeconds * (params.warmupCycles + params.cycles));
    d.interval = d.duration;
    d.qlogDirectory = params.qlogDirectory;
    d.run = params.run;
    d.seed = params.seed;

    const QuicCcDumbbellResult r = QuicCcRunDumbbell(d);
    const QuicCcDumbbellFlowResult& f = r.flows.at(0);
    result.measuredWindow = f.meanCwndBytes / f.mss;
    result.error = result.measuredWindow / result.rfcWindow - 1;
    result.drops = r.periodicDrops;
    result.lostPackets = f.lostPackets;
    result.simulated = d.duration;
    return result;
}

} // namespace ns3
