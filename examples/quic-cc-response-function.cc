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

#include "ns3/command-line.h"
#include "ns3/core-module.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One line on stderr naming the option and value, exit status 2.
[[noreturn]] void
BadArgument(const std::string& option, const std::string& value, const std::string& reason)
{
    std::cerr << "quic-cc-response-function: --" << option << "=" << value << ": " << reason
              << "\n";
    std::exit(2);
}

std::vector<std::string>
Split(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ','))
    {
        out.push_back(item);
    }
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string cc = "all";
    std::string pList = "1e-2,1e-3,1e-4,1e-5,1e-6,1e-7,1e-8";
    std::string rttList = "100ms,10ms";
    double c = 0.4;
    double maxWindow = 2000;
    uint32_t cycles = 10;
    uint32_t warmupCycles = 5;
    bool rfcModel = true;
    std::string csv;
    std::string qlog;
    bool dryRun = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "reno, cubic or all", cc);
    cmd.AddValue("p", "loss rates, comma-separated", pList);
    cmd.AddValue("rtt", "base RTTs, comma-separated (ns-3 times)", rttList);
    cmd.AddValue("C", "CUBIC constant C, segments/s^3", c);
    cmd.AddValue("maxWindow", "skip points whose RFC window exceeds this many packets", maxWindow);
    cmd.AddValue("cycles", "loss cycles in the mean", cycles);
    cmd.AddValue("warmupCycles", "loss cycles left out first", warmupCycles);
    cmd.AddValue("rfcModel",
                 "switch quiche's additions off (HyStart++, fast convergence, rollback)",
                 rfcModel);
    cmd.AddValue("csv", "also write the table as CSV here", csv);
    cmd.AddValue("qlog", "write qlog files of every run into this directory (created)", qlog);
    cmd.AddValue("dryRun", "check the arguments and exit", dryRun);
    cmd.Parse(argc, argv);

    if (cc != "reno" && cc != "cubic" && cc != "all")
    {
        BadArgument("cc", cc, "must be reno, cubic or all");
    }
    std::vector<double> ps;
    for (const std::string& s : Split(pList))
    {
        char* end = nullptr;
        const double p = std::strtod(s.c_str(), &end);
        if (s.empty() || *end != '\0' || !(p > 0 && p <= 0.5))
        {
            BadArgument("p", pList, "'" + s + "' is not a loss rate in (0, 0.5]");
        }
        ps.push_back(p);
    }
    std::vector<Time> rtts;
    for (const std::string& s : Split(rttList))
    {
        Time t;
        std::istringstream in(s);
        if (s.empty() || !(in >> t) || !t.IsStrictlyPositive())
        {
            BadArgument("rtt", rttList, "'" + s + "' is not a positive time like 100ms");
        }
        rtts.push_back(t);
    }
    if (!(c > 0 && std::isfinite(c)))
    {
        BadArgument("C", std::to_string(c), "must be > 0");
    }
    if (cycles == 0)
    {
        BadArgument("cycles", "0", "must be >= 1");
    }
    if (!csv.empty() && !std::ofstream(csv + ".tmp"))
    {
        BadArgument("csv", csv, "cannot write here");
    }
    if (!csv.empty())
    {
        std::remove((csv + ".tmp").c_str());
    }
    if (!qlog.empty())
    {
        std::error_code ec;
        std::filesystem::create_directories(qlog, ec);
        if (ec || !std::filesystem::is_directory(qlog))
        {
            BadArgument("qlog", qlog, "cannot create this directory");
        }
    }
    if (dryRun)
    {
        return 0;
    }
    if (!qlog.empty())
    {
        Config::SetDefault("ns3::QuicCcSocket::QlogDirectory", StringValue(qlog));
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
    std::ostringstream table;
    table << "cc,C,rtt_s,p,rfc_window,measured_window,error_pct,drops,lost,simulated_s\n";
    std::printf("%-6s %5s %6s %8s %10s %10s %8s %8s\n",
                "cc",
                "C",
                "RTT_s",
                "p",
                "RFC_W",
                "measured",
                "error",
                "drops");
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
                const double rfc = name == "reno" ? QuicCcRfc9438RenoWindow(p)
                                                  : QuicCcRfc9438CubicWindow(c, rtt, p);
                if (rfc < 4 || rfc > maxWindow)
                {
                    continue;
                }
                const QuicCcResponseFunctionResult r = QuicCcRunResponseFunction(params);
                std::printf("%-6s %5.2f %6.3f %8.0e %10.1f %10.1f %7.1f%% %8llu\n",
                            name.c_str(),
                            name == "cubic" ? c : 0.0,
                            rtt.GetSeconds(),
                            p,
                            r.rfcWindow,
                            r.measuredWindow,
                            100 * r.error,
                            static_cast<unsigned long long>(r.drops));
                std::fflush(stdout);
                table << name << "," << (name == "cubic" ? c : 0.0) << "," << rtt.GetSeconds()
                      << "," << p << "," << r.rfcWindow << "," << r.measuredWindow << ","
                      << 100 * r.error << "," << r.drops << "," << r.lostPackets << ","
                      << r.simulated.GetSeconds() << "\n";
            }
        }
    }
    if (!csv.empty())
    {
        const std::string tmp = csv + ".tmp";
        std::ofstream out(tmp);
        out << table.str();
        out.close();
        if (!out || std::rename(tmp.c_str(), csv.c_str()) != 0)
        {
            std::cerr << "quic-cc-response-function: --csv=" << csv << ": write failed\n";
            return 1;
        }
    }
    return 0;
}
