/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "transfer-bench-series.h"

#include "quic-cc-report.h"
#include "transfer-bench-harness.h"

#include <algorithm>
#include <iomanip>
#include <iostream>

using ns3::QuicCcMedian;

namespace transferbench
{

Series
Measure(const Spec& spec, uint32_t reps, long baselineKb)
{
    Series s;
    s.spec = spec;
    std::vector<double> wall;
    std::vector<double> run;
    std::vector<double> rss;
    std::vector<double> cpu;
    for (uint32_t i = 0; i < reps; ++i)
    {
        Outcome o = Spawn(spec);
        s.runs.push_back(o);
        wall.push_back(o.wallTotal);
        run.push_back(o.wallRun);
        cpu.push_back(o.cpuTotal);
        rss.push_back(static_cast<double>(o.maxRssKb - baselineKb) / 1024.0);
        s.deterministic = s.deterministic && o.events == s.runs.front().events &&
                          o.completed == s.runs.front().completed &&
                          o.simSeconds == s.runs.front().simSeconds;
    }
    s.wall = QuicCcMedian(wall);
    s.wallRun = QuicCcMedian(run);
    s.cpu = QuicCcMedian(cpu);
    s.rssMb = QuicCcMedian(rss);
    s.spread =
        (*std::max_element(cpu.begin(), cpu.end()) - *std::min_element(cpu.begin(), cpu.end())) /
        s.cpu;
    std::cerr << "  " << std::left << std::setw(11) << spec.proto << std::right << std::setw(11)
              << spec.bytes << " B x" << std::setw(5) << spec.conns
              << (spec.loss ? " loss" : "     ") << "  wall " << std::fixed << std::setprecision(3)
              << s.wall << " s  cpu " << s.cpu << " s  events " << s.runs.front().events
              << "  rss +" << std::setprecision(1) << s.rssMb << " MiB"
              << (s.runs.front().completed ? "" : "  NOT COMPLETED") << std::defaultfloat << "\n";
    return s;
}

} // namespace transferbench
