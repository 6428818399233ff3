/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Micro benchmarks, Google Benchmark: the controllers and QuicLossDetection driven
 * directly, no simulator, the clock a field (as test/gtest/cc-test-driver.h drives them).
 *
 *  - OnPacketSent/<path>: ns per call.
 *  - OnPacketsAcked/<path>: ns per acknowledged packet, ACK frames of 2 packets (every 2nd
 *    packet, RFC 9000). Each iteration first sends a batch of 1024 packets with the timer paused,
 *    then acknowledges them in 512 timed frames.
 *  - LossDetectionAck/<pattern>/<packets in flight>: ns per ACK frame through
 *    QuicLossDetection::OnAckReceived (RTT sample, loss pass, controller call, pruning), plus the
 *    one OnPacketSent that keeps the number of packets in flight constant.
 *
 * Paths: reno-ss / cubic-ss (slow start, HyStart++ off), reno-ca / cubic-ca (congestion
 * avoidance after one congestion event), hystart-ss (CUBIC in slow start with HyStart++ on:
 * round tracking and RTT sampling), hystart-css (CUBIC in HyStart++'s Conservative Slow Start).
 * Every benchmark checks at the end that the controller is still on the path it names.
 *
 *   controller-bench [Google Benchmark flags] [--markdown=FILE]
 */
#include "quic-cc-command-line.h"
#include "quic-cc-output-file.h"

#include "ns3/boolean.h"
#include "ns3/quic-congestion-controller.h"
#include "ns3/quic-cubic.h"
#include "ns3/quic-hystart-plus-plus.h"
#include "ns3/quic-loss-detection.h"
#include "ns3/quic-reno.h"
#include "ns3/quic-rtt-stats.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kMss =
    QuicCongestionController::kDefaultMaxDatagramSize; //!< bytes, quic-cc's default datagram
constexpr size_t kBatch = 1024; //!< packets sent (untimed) per OnPacketsAcked iteration
constexpr size_t kPerFrame = 2; //!< packets per ACK frame

enum class Path
{
    RENO_SS,
    RENO_CA,
    CUBIC_SS,
    CUBIC_CA,
    HYSTART_SS,
    HYSTART_CSS,
};

const std::vector<std::pair<Path, std::string>> kPaths{
    {Path::RENO_SS, "reno-ss"},
    {Path::RENO_CA, "reno-ca"},
    {Path::CUBIC_SS, "cubic-ss"},
    {Path::CUBIC_CA, "cubic-ca"},
    {Path::HYSTART_SS, "hystart-ss"},
    {Path::HYSTART_CSS, "hystart-css"},
};

/// A controller on one path, with its clock, packet numbers and RTT estimator.
struct Rig
{
    Path path;
    Ptr<QuicCongestionController> cc;
    QuicRttStats rtt{MilliSeconds(333), Time(0)};
    Time now{Seconds(1)};
    uint64_t nextPn{0};

    /// One in-flight send; bytes in flight before it = cwnd, so the sender is never app-limited.
    void Send(std::vector<QuicAckedPacket>* record = nullptr)
    {
        now += MicroSeconds(1);
        cc->OnPacketSent(now, nextPn, kMss, cc->GetCongestionWindow());
        if (record)
        {
            record->push_back({nextPn, kMss, now});
        }
        ++nextPn;
    }

    void Rtt(Time sample)
    {
        rtt.Update(sample, Time(0), now, true);
    }

    /// Send \p n packets and acknowledge them in frames of kPerFrame, untimed.
    void Round(size_t n)
    {
        std::vector<QuicAckedPacket> sent;
        for (size_t i = 0; i < n; ++i)
        {
            Send(&sent);
        }
        for (size_t i = 0; i < sent.size(); i += kPerFrame)
        {
            now += MicroSeconds(1);
            std::vector<QuicAckedPacket> frame(sent.begin() + i,
                                               sent.begin() + std::min(i + kPerFrame, sent.size()));
            cc->OnPacketsAcked(now, frame, cc->GetCongestionWindow(), rtt);
        }
    }

    /// The state the path's name promises (checked before and after the timed loop).
    QuicCongestionState Expected() const
    {
        switch (path)
        {
        case Path::RENO_CA:
        case Path::CUBIC_CA:
            return QUIC_CC_CONGESTION_AVOIDANCE;
        case Path::HYSTART_CSS:
            return QUIC_CC_CONSERVATIVE_SLOW_START;
        default:
            return QUIC_CC_SLOW_START;
        }
    }

    bool OnPath() const
    {
        return cc->GetCongestionState(now) == Expected();
    }
};

Rig
MakeRig(Path path)
{
    Rig rig;
    rig.path = path;
    const bool cubic = path != Path::RENO_SS && path != Path::RENO_CA;
    if (cubic)
    {
        rig.cc = CreateObject<QuicCubic>();
    }
    else
    {
        rig.cc = CreateObject<QuicReno>();
    }
    const bool hyStart = path == Path::HYSTART_SS || path == Path::HYSTART_CSS;
    rig.cc->SetAttribute("HyStart", BooleanValue(hyStart));
    if (path == Path::HYSTART_CSS)
    {
        // Stay in CSS for the whole benchmark instead of leaving after 5 rounds.
        rig.cc->GetHyStart()->SetAttribute("CssRounds", UintegerValue(1u << 30));
    }
    rig.cc->Configure(kMss);
    rig.Rtt(MilliSeconds(50));
    if (path == Path::RENO_CA || path == Path::CUBIC_CA)
    {
        // One congestion event: R = now, ssthresh = reduced cwnd; later packets are past R.
        rig.Round(20);
        rig.Send();
        rig.now += MilliSeconds(50);
        rig.cc->Checkpoint();
        rig.cc->OnCongestionEvent(rig.now,
                                  rig.now - MilliSeconds(50),
                                  kMss,
                                  rig.cc->GetCongestionWindow());
        rig.cc->AddLostPackets(1);
        rig.now += MilliSeconds(1);
        rig.Round(kBatch);
    }
    else if (path == Path::HYSTART_CSS)
    {
        // RFC 9406 entry: a round at 50 ms, then a round whose 8 samples are >= 50 + 6.25 ms.
        rig.Round(16);
        rig.Rtt(MilliSeconds(100));
        rig.Round(16);
        rig.Round(kBatch);
    }
    else
    {
        rig.Round(kBatch);
    }
    return rig;
}

void
BM_OnPacketSent(benchmark::State& state, Path path)
{
    Rig rig = MakeRig(path);
    if (!rig.OnPath())
    {
        state.SkipWithError("controller not on the named path after setup");
        return;
    }
    Ptr<QuicCongestionController> cc = rig.cc;
    for (auto _ : state)
    {
        rig.now += MicroSeconds(1);
        cc->OnPacketSent(rig.now, rig.nextPn++, kMss, cc->GetCongestionWindow());
    }
    if (!rig.OnPath())
    {
        state.SkipWithError("controller left the named path during the benchmark");
    }
    state.counters["per_iter"] = 1;
    state.SetItemsProcessed(state.iterations());
}

void
BM_OnPacketsAcked(benchmark::State& state, Path path)
{
    Rig rig = MakeRig(path);
    if (!rig.OnPath())
    {
        state.SkipWithError("controller not on the named path after setup");
        return;
    }
    Ptr<QuicCongestionController> cc = rig.cc;
    std::vector<QuicAckedPacket> sent;
    sent.reserve(kBatch);
    std::vector<std::vector<QuicAckedPacket>> frames(kBatch / kPerFrame);
    for (auto _ : state)
    {
        state.PauseTiming();
        sent.clear();
        for (size_t i = 0; i < kBatch; ++i)
        {
            rig.Send(&sent);
        }
        for (size_t f = 0; f < frames.size(); ++f)
        {
            frames[f].assign(sent.begin() + f * kPerFrame, sent.begin() + (f + 1) * kPerFrame);
        }
        const uint64_t inFlight = cc->GetCongestionWindow();
        state.ResumeTiming();
        for (const auto& frame : frames)
        {
            rig.now += NanoSeconds(10);
            cc->OnPacketsAcked(rig.now, frame, inFlight, rig.rtt);
        }
    }
    if (!rig.OnPath())
    {
        state.SkipWithError("controller left the named path during the benchmark");
    }
    state.counters["per_iter"] = kBatch;
    state.SetItemsProcessed(state.iterations() * kBatch);
}

/**
 * QuicLossDetection with \p inFlight packets in flight (QuicCubic, defaults). Each iteration
 * sends one packet and receives one ACK frame whose largest is the packet sent inFlight packets
 * earlier, 10 ms ago (the clock advances 10 ms / inFlight per iteration: the RTT stays 10 ms).
 * With \p lossEveryWindow, every inFlight-th packet is never acknowledged: the receiver's
 * ranges leave it out (up to 3 ranges, as a real ACK frame's highest ones), the packet
 * threshold declares it lost, and it stays in the record for one smoothed RTT: about one
 * window of acknowledged packets sits behind it.
 */
void
BM_LossDetectionAck(benchmark::State& state, bool lossEveryWindow)
{
    const uint64_t inFlight = static_cast<uint64_t>(state.range(0));
    Ptr<QuicCubic> cc = CreateObject<QuicCubic>();
    cc->Configure(kMss);
    QuicLossDetection ld(cc, QuicRttStats(MilliSeconds(333), Time(0)));
    ld.SetHandshakeConfirmed(true);
    const Time step = NanoSeconds(10'000'000 / static_cast<int64_t>(inFlight));
    Time now = Seconds(1);
    uint64_t nextPn = 0;
    auto isHole = [&](uint64_t pn) { return lossEveryWindow && pn > 0 && pn % inFlight == 0; };
    std::vector<QuicCcAckRange> ranges;
    auto buildRanges = [&](uint64_t largest) {
        // Highest ranges first: holes are the multiples of inFlight at or below largest.
        ranges.clear();
        uint64_t hi = largest;
        while (ranges.size() < 3)
        {
            uint64_t hole = lossEveryWindow ? hi / inFlight * inFlight : 0;
            if (!lossEveryWindow || hole == 0)
            {
                ranges.push_back({0, hi});
                break;
            }
            if (hole == hi)
            {
                --hi; // largest itself is never a hole (the benchmark skips holes as ack targets)
                continue;
            }
            ranges.push_back({hole + 1, hi});
            if (hole < 2)
            {
                break;
            }
            hi = hole - 1;
        }
    };
    auto step1 = [&]() {
        now += step;
        ld.OnPacketSent(now, nextPn, kMss, true);
        // The ACK that arrives now covers the packet sent inFlight packets ago; when that one is
        // a hole, the frame repeats the previous largest (it newly acknowledges nothing).
        const uint64_t target = nextPn - inFlight;
        buildRanges(isHole(target) ? target - 1 : target);
        ld.OnAckReceived(now, ranges, Time(0));
        ++nextPn;
    };
    for (uint64_t i = 0; i < inFlight; ++i)
    {
        now += step;
        ld.OnPacketSent(now, nextPn++, kMss, true);
    }
    // Warm up for three windows: steady state (RTT 10 ms, losses and their retention).
    for (uint64_t i = 0; i < 3 * inFlight + 100; ++i)
    {
        step1();
    }
    size_t recordMax = 0;
    for (auto _ : state)
    {
        step1();
        recordMax = std::max(recordMax, ld.GetRecordSize());
    }
    state.counters["per_iter"] = 1;
    state.counters["record_max"] = static_cast<double>(recordMax);
    state.counters["lost"] = static_cast<double>(ld.GetLostPacketCount());
    state.SetItemsProcessed(state.iterations());
}

// ------------------------------------------------------------------------------ Markdown out

/// Console output as usual, and every run kept for the Markdown table.
class CollectingReporter : public benchmark::ConsoleReporter
{
  public:
    void ReportRuns(const std::vector<Run>& reports) override
    {
        ConsoleReporter::ReportRuns(reports);
        for (const Run& r : reports)
        {
            if (!r.error_occurred &&
                (r.run_type == Run::RT_Iteration || r.aggregate_name == "median"))
            {
                // With repetitions the median aggregate overwrites the single runs.
                const std::string name = r.run_name.str();
                const bool isMedian = r.run_type == Run::RT_Aggregate;
                if (isMedian || m_perUnit.find(name) == m_perUnit.end() || !m_fromMedian[name])
                {
                    const auto per = r.counters.find("per_iter");
                    const double perIter = per == r.counters.end() ? 1.0 : per->second.value;
                    // CPU time: robust when other processes share the machine.
                    m_perUnit[name] = r.GetAdjustedCPUTime() / perIter;
                    m_fromMedian[name] = isMedian;
                    const auto rec = r.counters.find("record_max");
                    if (rec != r.counters.end())
                    {
                        m_recordMax[name] = rec->second.value;
                    }
                    if (std::find(m_order.begin(), m_order.end(), name) == m_order.end())
                    {
                        m_order.push_back(name);
                    }
                }
            }
            else if (r.error_occurred)
            {
                m_errors.push_back(r.run_name.str() + ": " + r.error_message);
            }
        }
    }

    std::string Markdown() const
    {
        std::ostringstream md;
        auto ns = [&](const std::string& name) {
            const auto it = m_perUnit.find(name);
            return it == m_perUnit.end() ? -1.0 : it->second;
        };
        auto fmt = [](double v) {
            std::ostringstream os;
            if (v < 0)
            {
                os << "n/a";
            }
            else
            {
                os << std::fixed << std::setprecision(1) << v;
            }
            return os.str();
        };
        md << "### Controller calls (ns per packet)\n\n"
           << "Controllers driven directly (no simulator), mss 1350 B. OnPacketsAcked: frames of "
           << kPerFrame
           << " packets, ns per acknowledged packet. CPU time, median of the repetitions. Target: "
           << "under 100 ns per packet.\n\n"
           << "| path | OnPacketSent (ns/call) | OnPacketsAcked (ns/packet) | target met |\n"
           << "|---|---|---|---|\n";
        bool allMet = true;
        double slowest = 0;
        std::string slowestName;
        for (const auto& [path, name] : kPaths)
        {
            const double sent = ns("OnPacketSent/" + name);
            const double acked = ns("OnPacketsAcked/" + name);
            const bool met = sent >= 0 && acked >= 0 && sent < 100 && acked < 100;
            allMet = allMet && met;
            for (const auto& [v, what] :
                 {std::make_pair(sent, "OnPacketSent/"), std::make_pair(acked, "OnPacketsAcked/")})
            {
                if (v > slowest)
                {
                    slowest = v;
                    slowestName = what + name;
                }
            }
            md << "| " << name << " | " << fmt(sent) << " | " << fmt(acked) << " | "
               << (met ? "yes" : "**no**") << " |\n";
        }
        md << "\nTarget 4 (keep): controller calls under 100 ns per packet: "
           << (allMet ? "met" : "**not met**") << " (slowest: " << slowestName << ", "
           << fmt(slowest) << " ns).\n";
        md << "\n### QuicLossDetection, ns per ACK frame vs packets in flight\n\n"
           << "One OnAckReceived (RTT sample, loss pass, QuicCubic call, pruning) plus the one "
              "OnPacketSent that keeps the number in flight constant; RTT 10 ms. no-loss: every "
              "ACK covers the oldest packet. loss-per-window: every N-th packet is never "
              "acknowledged, is declared lost by the packet threshold and stays in the record "
              "for one smoothed RTT, with about a window of acknowledged packets behind it (what "
              "follows any loss in a real transfer). CPU time, median of the repetitions. Target: "
              "independent of packets in flight.\n\n"
           << "| pattern | 10 in flight | 1000 in flight | 100000 in flight | 100000 / 10 | "
              "largest record (entries, at 100000) | target met |\n"
           << "|---|---|---|---|---|---|---|\n";
        bool ldMet = true;
        double worstRatio = 0;
        for (const std::string pattern : {"no-loss", "loss-per-window"})
        {
            const std::string base = "LossDetectionAck/" + pattern + "/";
            const double a = ns(base + "10");
            const double b = ns(base + "1000");
            const double c = ns(base + "100000");
            const double ratio = a > 0 && c > 0 ? c / a : -1;
            const auto rec = m_recordMax.find(base + "100000");
            // "Independent": the 10^4-fold larger flight costs less than 3x (cache effects).
            const bool met = ratio > 0 && ratio < 3;
            ldMet = ldMet && met;
            worstRatio = std::max(worstRatio, ratio);
            md << "| " << pattern << " | " << fmt(a) << " | " << fmt(b) << " | " << fmt(c) << " | "
               << (ratio > 0 ? fmt(ratio) + "x" : "n/a") << " | "
               << (rec == m_recordMax.end() ? "n/a"
                                            : std::to_string(static_cast<uint64_t>(rec->second)))
               << " | " << (met ? "yes" : "**no**") << " |\n";
        }
        md << "\nTarget 4 (keep): loss detection cost per ACK independent of packets in flight: "
           << (ldMet ? "met" : "**not met**") << " (100000 vs 10 in flight: at most "
           << fmt(worstRatio)
           << "x; \"independent\" here means under 3x for 10^4 times more "
              "packets, cache misses included).\n";
        if (!m_errors.empty())
        {
            md << "\nErrors:\n\n";
            for (const auto& e : m_errors)
            {
                md << "- " << e << "\n";
            }
        }
        md << "\n";
        return md.str();
    }

  private:
    std::map<std::string, double> m_perUnit;
    std::map<std::string, bool> m_fromMedian;
    std::map<std::string, double> m_recordMax;
    std::vector<std::string> m_order;
    std::vector<std::string> m_errors;
};

} // namespace

int
main(int argc, char** argv)
{
    // Until the first Simulator::Run(), ns-3 records every Time object's address in a global
    // std::set under a mutex (Time::Mark, so that a later SetResolution can convert it), which
    // costs ~400 ns per Time temporary. A real simulation never pays this inside Run(); an empty
    // Run() ends the marking here too, so the numbers below are what a simulation sees.
    Simulator::Run();
    Simulator::Destroy();
    for (const auto& [path, name] : kPaths)
    {
        benchmark::RegisterBenchmark(("OnPacketSent/" + name).c_str(), BM_OnPacketSent, path);
        benchmark::RegisterBenchmark(("OnPacketsAcked/" + name).c_str(), BM_OnPacketsAcked, path);
    }
    for (bool loss : {false, true})
    {
        benchmark::RegisterBenchmark(loss ? "LossDetectionAck/loss-per-window"
                                          : "LossDetectionAck/no-loss",
                                     BM_LossDetectionAck,
                                     loss)
            ->Arg(10)
            ->Arg(1000)
            ->Arg(100000);
    }
    benchmark::Initialize(&argc, argv); // takes Google Benchmark's options (--benchmark_*)
    std::string markdown;
    QuicCcCommandLine cmd(__FILE__);
    cmd.AddValue("markdown", "also write the results as Markdown to this file", markdown);
    cmd.Parse(argc, argv);
    try
    {
        if (!markdown.empty())
        {
            QuicCcCheckOutputFile("markdown", markdown);
        }
    }
    catch (const QuicCcUsageError& e)
    {
        cmd.Exit(e);
    }
    CollectingReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    if (!markdown.empty())
    {
        QuicCcOutputFile out(cmd.GetProgramName(), markdown);
        out.Write(reporter.Markdown());
        out.Commit();
    }
    return 0;
}
