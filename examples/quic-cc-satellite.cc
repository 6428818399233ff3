/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * picoquic's satellite case (private-octopus/picoquic, picoquictest/satellite_test.c): 100 MB
 * over 250 Mbit/s towards the receiver and 3 Mbit/s back, 300 ms one way, each direction's queue
 * capped at 600 ms of delay; the variant that drops one packet in 64 (both directions counted
 * together from the handshake's end). Configurations: quic-cc's Reno, CUBIC and CUBIC with
 * HyStart++, the linked ngtcp2 library's CUBIC and BBR; against the receiver's ACK policy (an
 * ACK every N ack-eliciting packets, max_ack_delay), which decides whether the ACKs fit the
 * 3 Mbit/s return link.
 *
 *   ./quic-cc-satellite                                  # every configuration, ACK every 2, 10
 *   ./quic-cc-satellite --ackRatios=1,2,4,10 --maxAckDelays=5ms,25ms --configs=cubic
 *   ./quic-cc-satellite --lossPeriods=64 --timeout=120s   # 1 packet in 64 lost
 *
 * Completion time counts from the connection's start (the client's first packet) to the last
 * byte at the receiver. Nothing here is random: every RngRun gives the same run.
 */

#include "quic-cc-batch-runner.h"
#include "quic-cc-command-line.h"
#include "quic-cc-ngtcp2-transport.h"
#include "quic-cc-output-file.h"
#include "quic-cc-satellite-scenario.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string configsText = "all";
    std::string ackRatiosText = "2,10";
    std::string maxAckDelaysText = "25ms";
    std::string lossPeriodsText = "0";
    std::string sizeText = "100MB";
    std::string forwardText = "250Mbps";
    std::string returnText = "3Mbps";
    std::string delayText = "300ms";
    std::string queueDelayText = "600ms";
    std::string timeoutText = "60s";
    std::string mssText = "1350";
    QuicCcBatchOptions batch(1);

    QuicCcCommandLine cmd(__FILE__);
    cmd.AddValues(
        {{"configs",
          "reno, cubic, cubic-hystart, ngtcp2-cubic, ngtcp2-bbr, comma-separated, or all (the "
          "ngtcp2 ones where built)",
          &configsText},
         {"ackRatios",
          "the receiver's ACK every N ack-eliciting packets, comma-separated",
          &ackRatiosText},
         {"maxAckDelays",
          "the receiver's max_ack_delay values, comma-separated",
          &maxAckDelaysText},
         {"lossPeriods",
          "one packet in N lost, both directions, from the handshake's end; 0 = none; "
          "comma-separated",
          &lossPeriodsText},
         {"size", "bytes transferred", &sizeText},
         {"forward", "data direction's rate", &forwardText},
         {"return", "ACK direction's rate", &returnText},
         {"delay", "one-way delay", &delayText},
         {"queueDelay", "each direction's queue holds this long of its rate", &queueDelayText},
         {"timeout", "a run stops here", &timeoutText},
         {"mss", "packet size, bytes (1200..1452)", &mssText}});
    batch.Add(cmd, "runs per cell (nothing is random: every run is the same)");
    cmd.AttributesSetBy(QuicCcTransportAttributesSetBy({{"AckElicitingThreshold", "ackRatios"},
                                                        {"MaxAckDelay", "maxAckDelays"},
                                                        {"MaxDatagramSize", "mss"}}));
    cmd.AttributesSetBy({{"ns3::QuicCcSocket::AckElicitingThreshold", "ackRatios"},
                         {"ns3::QuicCcSocket::MaxAckDelay", "maxAckDelays"},
                         {"ns3::QuicCcSocket::AckPolicy", ""},
                         {"ns3::QuicCcSocket::MaxDatagramSize", "mss"},
                         {"ns3::QuicCcSocket::IdleTimeout", "timeout"},
                         {"ns3::QuicCubic::HyStart", "configs"},
                         {"ns3::QuicReno::HyStart", "configs"},
                         {"ns3::QuicCubic::IdleRestart", ""},
                         {"ns3::QuicCubic::EpochSource", ""}});
    cmd.Parse(argc, argv);

    std::vector<std::string> configs;
    std::vector<uint32_t> ratios;
    std::vector<Time> delays;
    std::vector<uint64_t> periods;
    QuicCcSatelliteParams base;
    try
    {
        configs = QuicCcParseRows("configs",
                                  configsText,
                                  QuicCcSatelliteConfigs(),
                                  [](const std::string& c) { return c.rfind("ngtcp2-", 0) == 0; });
        for (const std::string& r : QuicCcSplitList("ackRatios", ackRatiosText))
        {
            ratios.push_back(QuicCcParseUnsigned("ackRatios", r, 1, 1000));
        }
        for (const std::string& d : QuicCcSplitList("maxAckDelays", maxAckDelaysText))
        {
            const Time delay = QuicCcParseTime("maxAckDelays", d);
            // RFC 9000 Section 18.2: max_ack_delay below 2^14 ms.
            QuicCcRequire(delay > Time(0) && delay < MilliSeconds(1 << 14),
                          "maxAckDelays",
                          d,
                          "must be > 0 and below 2^14 ms (RFC 9000 Section 18.2)");
            delays.push_back(delay);
        }
        for (const std::string& p : QuicCcSplitList("lossPeriods", lossPeriodsText))
        {
            const uint64_t period = QuicCcParseUnsigned("lossPeriods", p, 0, 1000000000);
            QuicCcRequire(period != 1, "lossPeriods", p, "must be 0 (none) or >= 2");
            periods.push_back(period);
        }
        base.transferBytes = QuicCcParseBytes("size", sizeText);
        base.forwardRate = QuicCcParseRate("forward", forwardText);
        base.returnRate = QuicCcParseRate("return", returnText);
        base.oneWayDelay = QuicCcParseTime("delay", delayText);
        QuicCcRequire(base.oneWayDelay.IsStrictlyPositive(), "delay", delayText, "must be > 0");
        base.maxQueueDelay = QuicCcParseTime("queueDelay", queueDelayText);
        QuicCcRequire(base.maxQueueDelay.IsStrictlyPositive(),
                      "queueDelay",
                      queueDelayText,
                      "must be > 0");
        base.timeout = QuicCcParseTime("timeout", timeoutText);
        QuicCcRequire(base.timeout.IsStrictlyPositive(), "timeout", timeoutText, "must be > 0");
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

    std::vector<QuicCcSatelliteParams> tasks;
    for (uint64_t period : periods)
    {
        for (const std::string& config : configs)
        {
            for (uint32_t ratio : ratios)
            {
                for (const Time& delay : delays)
                {
                    for (uint32_t run = batch.firstRun; run < batch.firstRun + batch.runs; ++run)
                    {
                        QuicCcSatelliteParams p = base;
                        p.config = config;
                        p.ackRatio = ratio;
                        p.maxAckDelay = delay;
                        p.lossPeriod = period;
                        p.run = run;
                        p.seed = batch.seed;
                        tasks.push_back(p);
                    }
                }
            }
        }
    }
    if (std::any_of(configs.begin(), configs.end(), [](const std::string& c) {
            return c.rfind("ngtcp2-", 0) == 0;
        }))
    {
        std::cout << "ngtcp2-* rows: the real ngtcp2 " << QuicCcNgtcp2Version() << "\n";
    }
    std::printf("%-14s %3s %7s %5s %4s %10s %12s %9s %8s %8s %10s %10s\n",
                "config",
                "N",
                "ackdly",
                "loss",
                "run",
                "complete_s",
                "delivered_MB",
                "peak_MB",
                "lost",
                "ret_Mbps",
                "ret_drops",
                "ssthresh_s");
    std::fflush(stdout);

    const std::unique_ptr<QuicCcOutputFile> table = batch.OpenCsv(
        cmd,
        "config,ack_ratio,max_ack_delay_ms,loss_period,run,ngtcp2_version,completed,completion_s,"
        "bytes_received,handshake_s,peak_cwnd,ssthresh_s,first_event_s,lost,drops,"
        "forward_queue_drops,return_queue_drops,return_packets,return_mbps\n");
    QuicCcRunBatch(
        tasks.size(),
        batch.jobs,
        [&](size_t i) { return QuicCcRecordToLine(QuicCcRunSatellite(tasks[i])); },
        batch.Report(cmd,
                     [&](size_t i) {
                         std::ostringstream name;
                         name << tasks[i].config << ", ACK every " << tasks[i].ackRatio << ", "
                              << tasks[i].maxAckDelay.As(Time::MS) << ", loss period "
                              << tasks[i].lossPeriod;
                         return name.str();
                     }),
        [&](size_t i, const std::string& line) {
            const QuicCcSatelliteParams& p = tasks[i];
            QuicCcSatelliteResult r;
            NS_ABORT_MSG_UNLESS(QuicCcRecordFromLine(line, r), "bad result line from a worker");
            const double returnMbps = r.returnBytesPerSecond * 8 / 1e6;
            std::printf(
                "%-14s %3u %5.0fms %5llu %4u %10s %12.1f %9.2f %8llu %8.2f %10llu %10s\n",
                p.config.c_str(),
                p.ackRatio,
                p.maxAckDelay.GetSeconds() * 1e3,
                static_cast<unsigned long long>(p.lossPeriod),
                p.run,
                r.completed ? std::to_string(r.completionSeconds).substr(0, 6).c_str() : "-",
                r.bytesReceived / 1e6,
                r.peakCwnd / 1e6,
                static_cast<unsigned long long>(r.lostPackets),
                returnMbps,
                static_cast<unsigned long long>(r.returnQueueDrops),
                r.ssthreshSeconds ? std::to_string(*r.ssthreshSeconds).substr(0, 6).c_str() : "-");
            std::fflush(stdout);
            if (table)
            {
                std::ostringstream row;
                row << p.config << "," << p.ackRatio << "," << p.maxAckDelay.GetSeconds() * 1e3
                    << "," << p.lossPeriod << "," << p.run << "," << r.ngtcp2Version << ","
                    << r.completed << ",";
                if (r.completed)
                {
                    row << r.completionSeconds;
                }
                row << "," << r.bytesReceived << "," << r.handshakeSeconds << "," << r.peakCwnd
                    << ",";
                if (r.ssthreshSeconds)
                {
                    row << *r.ssthreshSeconds;
                }
                row << ",";
                if (r.firstEventSeconds)
                {
                    row << *r.firstEventSeconds;
                }
                row << "," << r.lostPackets << "," << r.drops << "," << r.forwardQueueDrops << ","
                    << r.returnQueueDrops << "," << r.returnPackets << "," << returnMbps << "\n";
                table->Write(row.str());
            }
        });
    if (table)
    {
        table->Commit();
    }
    return 0;
}
