/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RFC 9438 Section 5.1's response functions, measured: one QUIC flow on a 10 Gbit/s path
 * without queueing loses one data packet in every 1/p, counted (the RFC's deterministic loss
 * model); the time-weighted mean cwnd over 10 loss cycles in steady state is compared with the
 * average window of RFC 9438 Tables 1 and 2 (Reno, and CUBIC with C = 0.4 or 0.04).
 *
 *   ./quic-cc-response-function                       # Reno and CUBIC C=0.4, RTT 0.1/0.01 s,
 *                                                     # every p whose window is 4..2000 packets
 *   ./quic-cc-response-function --cc=cubic --C=0.04 --p=1e-3,1e-4 --rtt=100ms
 *   ./quic-cc-response-function --maxWindow=40000     # larger windows too (minutes)
 *
 * By default the run follows the RFC's model: HyStart++, fast convergence and CUBIC's
 * spurious-loss rollback are off (--rfcModel=false keeps quiche's defaults).
 */

#include "quic-cc-response-function.h"

#include "quic-cc-batch-runner.h"
#include "quic-cc-dumbbell-scenario.h"
#include "quic-cc-options.h"
#include "quic-cc-output-file.h"
#include "quic-cc-send-buffer.h"

#include "ns3/core-module.h"

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The sweep: the options' values and the points they select.
struct Sweep
{
    std::string cc{"all"};                                   //!< --cc
    std::string pList{"1e-2,1e-3,1e-4,1e-5,1e-6,1e-7,1e-8"}; //!< --p
    std::string rttList{"100ms,10ms"};                       //!< --rtt
    std::vector<double> ps;                                  //!< --p, parsed
    std::vector<Time> rtts;                                  //!< --rtt, parsed
    double c{0.4};                                           //!< --C
    double maxWindow{2000};                                  //!< --maxWindow
    uint32_t cycles{10};                                     //!< --cycles
    uint32_t warmupCycles{5};                                //!< --warmupCycles
    bool rfcModel{true};                                     //!< --rfcModel
    std::string qlog;                                        //!< --qlog
    std::vector<QuicCcResponseFunctionParams> points; //!< whose RFC window is in [4, maxWindow]
};

/// The option table: each option once, into \p s (whose values are the defaults).
void
Declare(QuicCcOptions& options, Sweep& s)
{
    options.Choice("cc", "reno, cubic or all", s.cc, {"reno", "cubic", "all"});
    options.Text("p", "loss rates, comma-separated", s.pList).Then([&s](const std::string& text) {
        for (const std::string& item : QuicCcSplitList("p", text))
        {
            const double p = QuicCcParseNonNegative("p", item);
            QuicCcRequire(p > 0 && p <= 0.5,
                          "p",
                          text,
                          "'" + item + "' is not a loss rate in (0, 0.5]");
            s.ps.push_back(p);
        }
    });
    options.Text("rtt", "base RTTs, comma-separated (ns-3 times)", s.rttList)
        .Then([&s](const std::string& text) {
            for (const std::string& item : QuicCcSplitList("rtt", text))
            {
                const Time rtt = QuicCcParseTime("rtt", item);
                // The path's 10 Gbit/s links add about 3.4 us of serialisation to each round
                // trip of a full packet and its ACK: from 1 ms on, that is under 0.5 % of the RTT.
                QuicCcRequire(rtt >= MilliSeconds(1),
                              "rtt",
                              text,
                              "'" + item +
                                  "' is shorter than 1ms, the shortest RTT this path models "
                                  "(RFC 9438's tables use 10ms and 100ms)");
                s.rtts.push_back(rtt);
            }
        });
    options.Number("C", "CUBIC constant C, segments/s^3", s.c)
        .Positive()
        .Attribute("ns3::QuicCubic::C");
    options.Number("maxWindow",
                   "skip points whose RFC window exceeds this many packets",
                   s.maxWindow);
    options.Count("cycles", "loss cycles in the mean", s.cycles, 1, 1000000);
    options.Count("warmupCycles", "loss cycles left out first", s.warmupCycles, 0, 1000000);
    options
        .Flag("rfcModel",
              "switch quiche's additions off (HyStart++, fast convergence, rollback)",
              s.rfcModel)
        .Attribute("ns3::QuicCubic::HyStart")
        .Attribute("ns3::QuicReno::HyStart")
        .Attribute("ns3::QuicCubic::SpuriousLossRollback")
        .Attribute("ns3::QuicCubic::FastConvergence")
        .Attribute("ns3::QuicCubic::RenoFriendly");
    options.Batch(1,
                  "runs per point: 1 (the periodic loss draws no random number, so every RngRun "
                  "gives the same point); --csv: the table");
    options.Qlog("qlog",
                 "write qlog files of every run into this directory (created), one subdirectory "
                 "per point",
                 s.qlog);
    // Attributes the scenario sets: as attribute defaults they would have no effect.
    options.SetByScenario(QuicCcDumbbellSetAttributes()); // the scenario it runs
}

/// The points whose RFC window is in [4, maxWindow], in the table's order (none is an error).
void
SelectPoints(const QuicCcOptions& options, Sweep& s)
{
    QuicCcRequire(s.maxWindow >= 4,
                  "maxWindow",
                  options.GetText("maxWindow"),
                  "must be >= 4 (points whose RFC window is below 4 packets are skipped)");
    const QuicCcBatchOptions& batch = options.GetBatch();
    QuicCcRequire(batch.runs == 1,
                  "runs",
                  batch.runsText,
                  "must be 1: the periodic loss draws no random number, so every run of a "
                  "point is the same");
    std::vector<std::string> ccs;
    if (s.cc != "cubic")
    {
        ccs.push_back("reno");
    }
    if (s.cc != "reno")
    {
        ccs.push_back("cubic");
    }
    // The points whose RFC window is in [4, maxWindow], in the table's order.
    for (const std::string& name : ccs)
    {
        for (const Time& rtt : s.rtts)
        {
            for (double p : s.ps)
            {
                QuicCcResponseFunctionParams params;
                params.controller = name;
                params.c = s.c;
                params.lossRate = p;
                params.rtt = rtt;
                params.cycles = s.cycles;
                params.warmupCycles = s.warmupCycles;
                params.rfcModel = s.rfcModel;
                params.run = batch.firstRun;
                params.seed = batch.seed;
                if (!s.qlog.empty())
                {
                    std::ostringstream dir;
                    dir << s.qlog << "/" << name << "-rtt" << rtt.GetMilliSeconds() << "ms-p" << p;
                    params.qlogDirectory = dir.str();
                }
                const double rfc = name == "reno" ? QuicCcRfc9438RenoWindow(p)
                                                  : QuicCcRfc9438CubicWindow(s.c, rtt, p);
                if (rfc >= 4 && rfc <= s.maxWindow)
                {
                    s.points.push_back(params);
                }
            }
        }
    }
    QuicCcRequireWriteFits({"quic-cc"}, kQuicCcBulkWriteBytes, "the bulk sender's writes");
    QuicCcRequire(!s.points.empty(),
                  "p",
                  s.pList,
                  "no point has an RFC window of 4.." + options.GetText("maxWindow") +
                      " packets (--maxWindow) at these loss rates and RTTs");
}

} // namespace

int
main(int argc, char* argv[])
{
    Sweep s;
    QuicCcOptions options(__FILE__);
    Declare(options, s);
    options.Parse(argc, argv, [&] { SelectPoints(options, s); });
    const QuicCcBatchOptions& batch = options.GetBatch();

    const std::unique_ptr<QuicCcOutputFile> table =
        batch.OpenCsv("cc,C,rtt_s,p,rfc_window,measured_window,error_pct,drops,lost,simulated_s\n");
    std::printf("%-6s %5s %6s %8s %10s %10s %8s %8s\n",
                "cc",
                "C",
                "RTT_s",
                "p",
                "RFC_W",
                "measured",
                "error",
                "drops");
    QuicCcRunBatch(
        s.points.size(),
        batch.jobs,
        [&](size_t i) { return QuicCcRecordToLine(QuicCcRunResponseFunction(s.points[i])); },
        batch.Report([&](size_t i) {
            std::ostringstream name;
            name << s.points[i].controller << ", RTT " << s.points[i].rtt.GetSeconds()
                 << " s, loss " << s.points[i].lossRate;
            return name.str();
        }),
        [&](size_t i, const std::string& line) {
            const QuicCcResponseFunctionParams& params = s.points[i];
            const std::string& name = params.controller;
            QuicCcResponseFunctionResult r;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            std::printf("%-6s %5.2f %6.3f %8.0e %10.1f %10.1f %7.1f%% %8llu\n",
                        name.c_str(),
                        name == "cubic" ? s.c : 0.0,
                        params.rtt.GetSeconds(),
                        params.lossRate,
                        r.rfcWindow,
                        r.measuredWindow,
                        100 * r.error,
                        static_cast<unsigned long long>(r.drops));
            std::fflush(stdout);
            if (table)
            {
                std::ostringstream row;
                row << name << "," << (name == "cubic" ? s.c : 0.0) << ","
                    << params.rtt.GetSeconds() << "," << params.lossRate << "," << r.rfcWindow
                    << "," << r.measuredWindow << "," << 100 * r.error << "," << r.drops << ","
                    << r.lostPackets << "," << r.simulated.GetSeconds() << "\n";
                table->Write(row.str());
            }
        });
    if (table)
    {
        table->Commit();
    }
    return 0;
}
