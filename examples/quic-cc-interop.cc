/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The QUIC interop runner's two measurements (quic-interop/quic-interop-runner,
 * testcases_quic.py) on the path of its network simulator's scenario
 * `simple-p2p --delay=15ms --bandwidth=10Mbps --queue=25` (quic-interop/quic-network-simulator):
 * a 10 Mbit/s, 15 ms point-to-point link whose devices hold 1 packet under a 25-packet
 * PfifoFastQueueDisc, in both directions.
 *
 *   G  goodput: 10 MiB, 8 x size over the time from the first to the last data packet at the
 *      receiver (the runner: first to last 1-RTT packet of the server)
 *   C  cross traffic: 25 MiB while one ns-3 TcpCubic bulk flow (the runner's iperf, Linux CUBIC)
 *      shares the path from time 0; the measured flow starts at 2 s plus a uniform draw of up to
 *      1 s (RngRun); its goodput and the TCP flow's rate over the same time
 *
 * Rows: quic-cc's Reno and CUBIC, the linked ngtcp2 library's Reno, CUBIC and BBR, and ns-3's
 * TcpCubic (alone in G; against the other TcpCubic in C).
 *
 *   ./quic-cc-interop                               # G and C, every stack, 5 runs each
 *   ./quic-cc-interop --measurements=C --runs=20 --csv=c.csv
 *   ./quic-cc-interop --stacks=quic-cc-cubic,ngtcp2-bbr --delay=15ms --bandwidth=10Mbps --queue=25
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-command-line.h"
#include "quic-cc-interop-scenario.h"
#include "quic-cc-ngtcp2-transport.h"
#include "quic-cc-output-file.h"
#include "quic-cc-report.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string measurementsText = "G,C";
    std::string stacksText = "all";
    std::string delayText = "15ms";
    std::string bandwidthText = "10Mbps";
    std::string queueText = "25";
    std::string goodputSizeText = "10MiB";
    std::string crossSizeText = "25MiB";
    std::string mssText = "1350";
    QuicCcBatchOptions batch(5);

    QuicCcCommandLine cmd(__FILE__);
    cmd.AddValues(
        {{"measurements", "G (goodput), C (cross traffic), comma-separated", &measurementsText},
         {"stacks",
          "quic-cc-reno, quic-cc-cubic, ngtcp2-reno, ngtcp2-cubic, ngtcp2-bbr, tcp-cubic, "
          "comma-separated, or all (the ngtcp2 ones where built)",
          &stacksText},
         {"delay", "one-way delay of the link (simple-p2p --delay)", &delayText},
         {"bandwidth", "link rate (simple-p2p --bandwidth)", &bandwidthText},
         {"queue", "root queue disc size, packets (simple-p2p --queue)", &queueText},
         {"goodputSize", "G: bytes transferred", &goodputSizeText},
         {"crossSize", "C: bytes transferred", &crossSizeText},
         {"mss", "QUIC packet size, bytes (1200..1452)", &mssText}});
    batch.Add(cmd,
              "runs per row (the runner: 5 for G; only C varies from run to run, by the QUIC "
              "flow's start)");
    cmd.AttributesSetBy(QuicCcTransportAttributesSetBy({{"MaxDatagramSize", "mss"}}));
    cmd.AttributesSetBy({{"ns3::QuicCcSocket::MaxDatagramSize", "mss"},
                         {"ns3::QuicCcSocket::IdleTimeout", ""},
                         {"ns3::TcpSocket::SegmentSize", ""},
                         {"ns3::TcpSocket::SndBufSize", ""},
                         {"ns3::TcpSocket::RcvBufSize", ""},
                         {"ns3::TcpSocketBase::Sack", ""},
                         {"ns3::PfifoFastQueueDisc::MaxSize", "queue"}});
    cmd.Parse(argc, argv);

    std::vector<std::string> measurements;
    std::vector<std::string> stacks;
    QuicCcInteropParams base;
    uint64_t goodputSize = 0;
    uint64_t crossSize = 0;
    try
    {
        for (const std::string& m : QuicCcSplitList("measurements", measurementsText))
        {
            measurements.push_back(QuicCcParseChoice("measurements", m, {"G", "C"}));
        }
        stacks =
            QuicCcParseRows("stacks", stacksText, QuicCcInteropStacks(), [](const std::string& s) {
                return s.rfind("ngtcp2-", 0) == 0;
            });
        base.oneWayDelay = QuicCcParseTime("delay", delayText);
        QuicCcRequire(base.oneWayDelay.IsStrictlyPositive(), "delay", delayText, "must be > 0");
        base.rate = QuicCcParseRate("bandwidth", bandwidthText);
        base.queuePackets = QuicCcParseUnsigned("queue", queueText, 1, 1000000);
        goodputSize = QuicCcParseBytes("goodputSize", goodputSizeText);
        crossSize = QuicCcParseBytes("crossSize", crossSizeText);
        base.maxDatagramSize = QuicCcParseUnsigned("mss", mssText, 1200, 1452);
        batch.Parse();
        QuicCcCheckOutputs({{"csv", batch.csv}});
    }
    catch (const QuicCcUsageError& e)
    {
        cmd.Exit(e);
    }
    if (batch.dryRun)
    {
        return 0;
    }

    struct Task
    {
        std::string measurement;
        QuicCcInteropParams params;
    };

    std::vector<Task> tasks;
    for (const std::string& m : measurements)
    {
        for (const std::string& stack : stacks)
        {
            for (uint32_t run = batch.firstRun; run < batch.firstRun + batch.runs; ++run)
            {
                Task t{m, base};
                t.params.stack = stack;
                t.params.crossTraffic = m == "C";
                t.params.transferBytes = m == "C" ? crossSize : goodputSize;
                t.params.run = run;
                t.params.seed = batch.seed;
                tasks.push_back(t);
            }
        }
    }
    if (std::any_of(stacks.begin(), stacks.end(), [](const std::string& s) {
            return s.rfind("ngtcp2-", 0) == 0;
        }))
    {
        std::cout << "ngtcp2-* rows: the real ngtcp2 " << QuicCcNgtcp2Version() << "\n";
    }
    std::fflush(stdout);

    const std::unique_ptr<QuicCcOutputFile> table = batch.OpenCsv(
        cmd,
        "measurement,stack,run,ngtcp2_version,completed,start_s,first_s,last_s,goodput_kbps,"
        "cross_kbps,share_pct,lost,queue_drops\n");
    std::map<std::pair<std::string, std::string>, std::vector<QuicCcInteropResult>> cells;
    QuicCcRunBatch(
        tasks.size(),
        batch.jobs,
        [&](size_t i) { return QuicCcRecordToLine(QuicCcRunInterop(tasks[i].params)); },
        batch.Report(cmd,
                     [&](size_t i) {
                         return tasks[i].measurement + " " + tasks[i].params.stack + ", RngRun " +
                                std::to_string(tasks[i].params.run);
                     }),
        [&](size_t i, const std::string& line) {
            const Task& t = tasks[i];
            QuicCcInteropResult r;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            cells[{t.measurement, t.params.stack}].push_back(r);
            const double share = r.goodputKbps + r.crossKbps > 0
                                     ? 100 * r.goodputKbps / (r.goodputKbps + r.crossKbps)
                                     : 0;
            if (table)
            {
                std::ostringstream row;
                row << t.measurement << "," << t.params.stack << "," << t.params.run << ","
                    << r.ngtcp2Version << "," << r.completed << "," << r.startSeconds << ","
                    << r.firstSeconds << "," << r.lastSeconds << "," << r.goodputKbps << ",";
                if (t.params.crossTraffic)
                {
                    row << r.crossKbps << "," << share;
                }
                else
                {
                    row << ",";
                }
                row << "," << r.lostPackets << "," << r.queueDrops << "\n";
                table->Write(row.str());
            }
        });
    if (table)
    {
        table->Commit();
    }

    // Per row: median (and range) of the runs, kbit/s as the runner reports.
    std::printf("%-4s %-15s %5s %10s %21s %10s %8s %10s\n",
                "",
                "stack",
                "runs",
                "median",
                "[min, max] kbit/s",
                "TCP",
                "share %",
                "completed");
    for (const std::string& m : measurements)
    {
        for (const std::string& stack : stacks)
        {
            const std::vector<QuicCcInteropResult>& rs = cells[{m, stack}];
            std::vector<double> g;
            std::vector<double> c;
            std::vector<double> share;
            uint32_t completed = 0;
            for (const QuicCcInteropResult& r : rs)
            {
                if (r.completed)
                {
                    ++completed;
                    g.push_back(r.goodputKbps);
                    c.push_back(r.crossKbps);
                    share.push_back(100 * r.goodputKbps / (r.goodputKbps + r.crossKbps));
                }
            }
            if (g.empty())
            {
                std::printf("%-4s %-15s %5zu %10s\n", m.c_str(), stack.c_str(), rs.size(), "-");
                continue;
            }
            std::ostringstream range;
            range << "[" << static_cast<int>(*std::min_element(g.begin(), g.end())) << ", "
                  << static_cast<int>(*std::max_element(g.begin(), g.end())) << "]";
            std::printf("%-4s %-15s %5zu %10.0f %21s",
                        m.c_str(),
                        stack.c_str(),
                        rs.size(),
                        QuicCcQuantile(g, 0.5),
                        range.str().c_str());
            if (m == "C")
            {
                std::printf(" %10.0f %8.1f", QuicCcQuantile(c, 0.5), QuicCcQuantile(share, 0.5));
            }
            else
            {
                std::printf(" %10s %8s", "-", "-");
            }
            std::printf(" %6u/%zu\n", completed, rs.size());
        }
    }
    return 0;
}
