/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-interop-report.h"

#include "quic-cc-report.h"
#include "quic-cc-transport-spec.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>

namespace ns3
{

namespace
{

/// The ngtcp2 release \p stack runs, "" for quic-cc's and TCP's.
std::string
Ngtcp2Version(const std::string& stack)
{
    return stack == "tcp-cubic" ? "" : QuicCcInteropTransport(stack).GetLibraryVersion();
}

} // namespace

std::vector<QuicCcInteropGrid::Task>
QuicCcInteropGrid::Tasks() const
{
    std::vector<Task> tasks;
    for (const std::string& m : measurements)
    {
        for (const std::string& stack : stacks)
        {
            for (uint32_t run = firstRun; run < firstRun + runs; ++run)
            {
                Task t{m, base};
                t.params.stack = stack;
                t.params.crossTraffic = m == "C";
                t.params.transferBytes = m == "C" ? crossSize : goodputSize;
                t.params.run = run;
                tasks.push_back(t);
            }
        }
    }
    return tasks;
}

std::string
QuicCcInteropGrid::Describe(const Task& task)
{
    return task.measurement + " " + task.params.stack + ", RngRun " +
           std::to_string(task.params.run);
}

void
QuicCcPrintInteropHeader(const QuicCcInteropGrid& grid)
{
    for (const std::string& stack : grid.stacks)
    {
        if (const std::string version = Ngtcp2Version(stack); !version.empty())
        {
            std::cout << "ngtcp2-* rows: the real ngtcp2 " << version << "\n";
            break;
        }
    }
    std::fflush(stdout);
}

std::string
QuicCcInteropCsvHeader()
{
    return "measurement,stack,run,ngtcp2_version,completed,start_s,first_s,last_s,goodput_kbps,"
           "cross_kbps,share_pct,lost,queue_drops\n";
}

std::string
QuicCcInteropCsvRow(const QuicCcInteropGrid::Task& t, const QuicCcInteropResult& r)
{
    const double share =
        r.goodputKbps + r.crossKbps > 0 ? 100 * r.goodputKbps / (r.goodputKbps + r.crossKbps) : 0;
    std::ostringstream row;
    row << t.measurement << "," << t.params.stack << "," << t.params.run << ","
        << Ngtcp2Version(t.params.stack) << "," << r.completed << "," << r.startSeconds << ","
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
    return row.str();
}

void
QuicCcPrintInteropTable(const QuicCcInteropGrid& grid,
                        const std::vector<QuicCcInteropResult>& results)
{
    const std::vector<QuicCcInteropGrid::Task> tasks = grid.Tasks();
    std::map<std::pair<std::string, std::string>, std::vector<QuicCcInteropResult>> cells;
    for (size_t i = 0; i < tasks.size() && i < results.size(); ++i)
    {
        cells[{tasks[i].measurement, tasks[i].params.stack}].push_back(results[i]);
    }
    std::printf("%-4s %-15s %5s %10s %21s %10s %8s %10s\n",
                "",
                "stack",
                "runs",
                "median",
                "[min, max] kbit/s",
                "TCP",
                "share %",
                "completed");
    for (const std::string& m : grid.measurements)
    {
        for (const std::string& stack : grid.stacks)
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
}

} // namespace ns3
