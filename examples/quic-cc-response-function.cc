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
#include "quic-cc-command-line.h"
#include "quic-cc-dumbbell-scenario.h"
#include "quic-cc-ngtcp2-transport.h"
#include "quic-cc-output-file.h"

#include "ns3/core-module.h"

#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string cc = "all";
    std::string pList = "1e-2,1e-3,1e-4,1e-5,1e-6,1e-7,1e-8";
    std::string rttList = "100ms,10ms";
    std::string cText = "0.4";
    std::string maxWindowText = "2000";
    std::string cyclesText = "10";
    std::string warmupCyclesText = "5";
    std::string rfcModelText = "true";
    QuicCcBatchOptions batch(1);
    std::string qlog;

    QuicCcCommandLine cmd(__FILE__);
    cmd.AddValues(
        {{"cc", "reno, cubic or all", &cc},
         {"p", "loss rates, comma-separated", &pList},
         {"rtt", "base RTTs, comma-separated (ns-3 times)", &rttList},
         {"C", "CUBIC constant C, segments/s^3", &cText},
         {"maxWindow", "skip points whose RFC window exceeds this many packets", &maxWindowText},
         {"cycles", "loss cycles in the mean", &cyclesText},
         {"warmupCycles", "loss cycles left out first", &warmupCyclesText}});
    cmd.AddFlag("rfcModel",
                "switch quiche's additions off (HyStart++, fast convergence, rollback)",
                rfcModelText);
    batch.Add(cmd,
              "runs per point: 1 (the periodic loss draws no random number, so every RngRun "
              "gives the same point); --csv: the table");
    cmd.AddValue("qlog",
                 "write qlog files of every run into this directory (created), one subdirectory "
                 "per point",
                 qlog);
    // Attributes the scenario sets: as attribute defaults they would have no effect.
    cmd.AttributesSetByScenario(QuicCcDumbbellSetAttributes()); // the scenario it runs
    cmd.AttributesSetBy({{"ns3::QuicCubic::C", "C"},
                         {"ns3::QuicCubic::HyStart", "rfcModel"},
                         {"ns3::QuicReno::HyStart", "rfcModel"},
                         {"ns3::QuicCubic::SpuriousLossRollback", "rfcModel"},
                         {"ns3::QuicCubic::FastConvergence", "rfcModel"},
                         {"ns3::QuicCubic::RenoFriendly", "rfcModel"}});
    // The transports' attributes the scenario sets on every socket: refused as defaults.
    cmd.AttributesSetBy(QuicCcTransportAttributesSetBy({}));
    cmd.Parse(argc, argv);

    std::vector<double> ps;
    std::vector<Time> rtts;
    double c = 0;
    double maxWindow = 0;
    uint32_t cycles = 0;
    uint32_t warmupCycles = 0;
    bool rfcModel = true;
    try
    {
        cc = QuicCcParseChoice("cc", cc, {"reno", "cubic", "all"});
        for (const std::string& item : QuicCcSplitList("p", pList))
        {
            const double p = QuicCcParseNonNegative("p", item);
            QuicCcRequire(p > 0 && p <= 0.5,
                          "p",
                          pList,
                          "'" + item + "' is not a loss rate in (0, 0.5]");
            ps.push_back(p);
        }
        for (const std::string& item : QuicCcSplitList("rtt", rttList))
        {
            const Time rtt = QuicCcParseTime("rtt", item);
            // The path's 10 Gbit/s links add about 3.4 us of serialisation to each round trip
            // of a full packet and its ACK: from 1 ms on, that is under 0.5 % of the RTT.
            QuicCcRequire(rtt >= MilliSeconds(1),
                          "rtt",
                          rttList,
                          "'" + item +
                              "' is shorter than 1ms, the shortest RTT this path models "
                              "(RFC 9438's tables use 10ms and 100ms)");
            rtts.push_back(rtt);
        }
        c = QuicCcParseNonNegative("C", cText);
        QuicCcRequire(c > 0, "C", cText, "must be > 0");
        maxWindow = QuicCcParseNonNegative("maxWindow", maxWindowText);
        QuicCcRequire(maxWindow >= 4,
                      "maxWindow",
                      maxWindowText,
                      "must be >= 4 (points whose RFC window is below 4 packets are skipped)");
        cycles = QuicCcParseUnsigned("cycles", cyclesText, 1, 1000000);
        warmupCycles = QuicCcParseUnsigned("warmupCycles", warmupCyclesText, 0, 1000000);
        rfcModel = QuicCcParseBool("rfcModel", rfcModelText);
        batch.Parse();
        QuicCcRequire(batch.runs == 1,
                      "runs",
                      batch.runsText,
                      "must be 1: the periodic loss draws no random number, so every run of a "
                      "point is the same");
        QuicCcCheckOutputs({{"csv", batch.csv}, {"qlog", qlog, true}});
    }
    catch (const QuicCcUsageError& e)
    {
        cmd.Exit(e);
    }

    std::vector<std::string> ccs;
    if (cc != "cubic")
    {
        ccs.push_back("reno");
    }
    if (cc != "reno")
    {
        ccs.push_back("cubic");
    }
    // The points whose RFC window is in [4, maxWindow], in the table's order.
    std::vector<QuicCcResponseFunctionParams> points;
    for (const std::string& name : ccs)
    {
        for (const Time& rtt : rtts)
        {
            for (double p : ps)
            {
                QuicCcResponseFunctionParams params;
                params.controller = name;
                params.c = c;
                params.lossRate = p;
                params.rtt = rtt;
                params.cycles = cycles;
                params.warmupCycles = warmupCycles;
                params.rfcModel = rfcModel;
                params.run = batch.firstRun;
                params.seed = batch.seed;
                if (!qlog.empty())
                {
                    std::ostringstream dir;
                    dir << qlog << "/" << name << "-rtt" << rtt.GetMilliSeconds() << "ms-p" << p;
                    params.qlogDirectory = dir.str();
                }
                const double rfc = name == "reno" ? QuicCcRfc9438RenoWindow(p)
                                                  : QuicCcRfc9438CubicWindow(c, rtt, p);
                if (rfc >= 4 && rfc <= maxWindow)
                {
                    points.push_back(params);
                }
            }
        }
    }
    if (points.empty())
    {
        cmd.Exit(QuicCcUsageError("p",
                                  pList,
                                  "no point has an RFC window of 4.." + maxWindowText +
                                      " packets (--maxWindow) at these loss rates and RTTs"));
    }
    if (batch.dryRun)
    {
        return 0;
    }

    const std::unique_ptr<QuicCcOutputFile> table =
        batch.OpenCsv(cmd,
                      "cc,C,rtt_s,p,rfc_window,measured_window,error_pct,drops,lost,simulated_s\n");
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
        points.size(),
        batch.jobs,
        [&](size_t i) { return QuicCcRecordToLine(QuicCcRunResponseFunction(points[i])); },
        batch.Report(cmd,
                     [&](size_t i) {
                         std::ostringstream name;
                         name << points[i].controller << ", RTT " << points[i].rtt.GetSeconds()
                              << " s, loss " << points[i].lossRate;
                         return name.str();
                     }),
        [&](size_t i, const std::string& line) {
            const QuicCcResponseFunctionParams& params = points[i];
            const std::string& name = params.controller;
            QuicCcResponseFunctionResult r;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            std::printf("%-6s %5.2f %6.3f %8.0e %10.1f %10.1f %7.1f%% %8llu\n",
                        name.c_str(),
                        name == "cubic" ? c : 0.0,
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
                row << name << "," << (name == "cubic" ? c : 0.0) << "," << params.rtt.GetSeconds()
                    << "," << params.lossRate << "," << r.rfcWindow << "," << r.measuredWindow
                    << "," << 100 * r.error << "," << r.drops << "," << r.lostPackets << ","
                    << r.simulated.GetSeconds() << "\n";
                table->Write(row.str());
            }
        });
    if (table)
    {
        table->Commit();
    }
    return 0;
}
