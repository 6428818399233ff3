/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: QuicLossDetection::OnAckReceived fed arbitrary ACK ranges and ack delays
 * against a live sent-packet record, interleaved with sends and timer expiries, driving a real
 * QuicCubic (HyStart++ on). The input is a little program: each step's first byte picks
 * send / ACK / timer / probe, the following bytes its arguments. ACK ranges are built the way
 * QuicCcParse delivers them (descending, disjoint), but otherwise arbitrary: packet numbers never
 * sent, far above the largest sent, repeated, below the record, any ack delay the parser accepts,
 * and (with ECN on, the input's first choice) no ECN counts or any counts a frame can carry.
 * Checked after every step: bytes in flight never exceed the bytes of the packets still
 * unacknowledged and unlost, newly acked / lost lists are ascending and never repeat a packet,
 * the timer deadline is not in the past, and the controller's cwnd stays >= its minimum window.
 */
#include "ns3/quic-cc-frames.h"
#include "ns3/quic-cubic.h"
#include "ns3/quic-loss-detection.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fuzzer/FuzzedDataProvider.h>
#include <map>
#include <optional>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kMss = 1200;

void
Fail(const char* what)
{
    std::fprintf(stderr, "fuzz-loss-detection: %s\n", what);
    std::abort();
}

/// Our own model of the record: packet number -> (bytes, state).
struct Shadow
{
    enum State
    {
        IN_FLIGHT,
        ACKED,
        LOST
    };

    std::map<uint64_t, std::pair<uint64_t, State>> packets;
    uint64_t inFlightBytes{0}; //!< sum of the sizes of the IN_FLIGHT packets

    void Sent(uint64_t pn, uint64_t bytes)
    {
        packets[pn] = {bytes, IN_FLIGHT};
        inFlightBytes += bytes;
    }

    /// Apply a list of packet numbers moving to \p to; every one must be known and ascending.
    void Move(const std::vector<uint64_t>& pns, State from, State to)
    {
        for (size_t i = 0; i < pns.size(); ++i)
        {
            if (i > 0 && pns[i] <= pns[i - 1])
            {
                Fail("packet list not strictly ascending");
            }
            auto it = packets.find(pns[i]);
            if (it == packets.end() || it->second.second != from)
            {
                Fail("packet reported in a state transition it cannot make");
            }
            it->second.second = to;
            inFlightBytes -= from == IN_FLIGHT ? it->second.first : 0;
        }
    }
};

} // namespace

extern "C" int
LLVMFuzzerInitialize(int*, char***)
{
    // Until the first Simulator::Run, ns-3 records every ns3::Time constructed (a std::set insert
    // and erase under a mutex per Time, so that Time::SetResolution can convert them; ns-3's
    // Time::Mark and Time::ClearMarkedTimes). This target never runs a simulation, so it paid
    // that on every Time of every input (about a tenth of its run time): one empty run ends the
    // bookkeeping for the process without changing what an input computes.
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzedDataProvider in(data, size);
    Ptr<QuicCubic> cubic = CreateObject<QuicCubic>();
    cubic->Configure(kMss, 10, 2);
    QuicLossDetection ld(
        cubic,
        QuicRttStats(MilliSeconds(in.ConsumeIntegralInRange<int64_t>(1, 1000)), Time(0)));
    ld.SetPeerMaxAckDelay(MilliSeconds(25));
    if (in.ConsumeBool())
    {
        ld.EnableEcn();
    }
    Shadow shadow;
    Time now = Seconds(1);
    uint64_t nextPn = 0;

    // A simulated run lasts less than ~3 years (RTT samples, and so the RTT estimator's
    // arithmetic, stay far from int64 nanosecond overflow); a timer due later never fires.
    const Time endOfTime = Seconds(1e8);
    while (in.remaining_bytes() > 0 && now < endOfTime)
    {
        // Time moves forward by 0 .. ~4 s (microsecond steps) before each step.
        now += MicroSeconds(in.ConsumeIntegralInRange<uint32_t>(0, 1u << 22));
        switch (in.ConsumeIntegralInRange<uint8_t>(0, 4))
        {
        case 0: { // send a burst of packets (packet numbers may skip, as after a probe)
            const uint32_t n = in.ConsumeIntegralInRange<uint32_t>(1, 64);
            nextPn += in.ConsumeIntegralInRange<uint32_t>(0, 3);
            for (uint32_t i = 0; i < n; ++i)
            {
                const bool ackEliciting = in.ConsumeIntegralInRange<uint8_t>(0, 7) != 0;
                const uint64_t bytes = in.ConsumeIntegralInRange<uint64_t>(1, kMss);
                ld.OnPacketSent(now, nextPn, bytes, ackEliciting);
                if (ackEliciting)
                {
                    shadow.Sent(nextPn, bytes);
                }
                ++nextPn;
            }
            break;
        }
        case 1:
        case 2: { // an ACK frame: arbitrary descending, disjoint ranges and ack delay
            std::vector<QuicCcAckRange> ranges;
            const uint32_t count = in.ConsumeIntegralInRange<uint32_t>(1, 40);
            // Largest acknowledged: near what was sent, or anything up to 2^62-1.
            uint64_t largest = in.ConsumeBool()
                                   ? in.ConsumeIntegralInRange<uint64_t>(0, nextPn + 4)
                                   : in.ConsumeIntegralInRange<uint64_t>(0, kQuicCcVarIntMax);
            for (uint32_t i = 0; i < count; ++i)
            {
                const uint64_t length =
                    in.ConsumeIntegralInRange<uint64_t>(0, std::min<uint64_t>(largest, 200));
                const uint64_t smallest = largest - length;
                ranges.push_back({smallest, largest});
                const uint64_t gap = in.ConsumeIntegralInRange<uint64_t>(0, 50);
                if (smallest < gap + 2)
                {
                    break;
                }
                largest = smallest - gap - 2;
            }
            // Any delay QuicCcParse accepts: 0 .. the largest whole microseconds of an ns3::Time.
            const int64_t maxDelayUs = Time::Max().GetMicroSeconds();
            const Time ackDelay = MicroSeconds(in.ConsumeIntegralInRange<int64_t>(0, maxDelayUs) >>
                                               (in.ConsumeBool() ? 40 : 0));
            std::optional<QuicCcEcnCounts> ecn;
            if (in.ConsumeBool())
            {
                // Near the packets sent, or anything a varint holds.
                const uint64_t top = in.ConsumeBool() ? nextPn + 4 : kQuicCcVarIntMax;
                ecn = QuicCcEcnCounts{in.ConsumeIntegralInRange<uint64_t>(0, top),
                                      in.ConsumeIntegralInRange<uint64_t>(0, top),
                                      in.ConsumeIntegralInRange<uint64_t>(0, top)};
            }
            const auto result = ld.OnAckReceived(now, ranges, ackDelay, ecn);
            // newlyAcked: packets in flight now acked; spurious: packets declared lost now acked.
            shadow.Move(result.newlyAcked, Shadow::IN_FLIGHT, Shadow::ACKED);
            shadow.Move(result.spurious, Shadow::LOST, Shadow::ACKED);
            shadow.Move(result.lost, Shadow::IN_FLIGHT, Shadow::LOST);
            break;
        }
        case 3: { // the timer fires (if armed), at its deadline or later
            const auto deadline = ld.GetTimerDeadline();
            if (deadline && *deadline < endOfTime)
            {
                now = std::max(now, *deadline);
                const auto result = ld.OnTimerExpired(now);
                shadow.Move(result.lost, Shadow::IN_FLIGHT, Shadow::LOST);
            }
            break;
        }
        default: // send owed probes
            while (ld.GetPendingProbes() > 0)
            {
                ld.OnPacketSent(now, nextPn, kMss, true);
                shadow.Sent(nextPn++, kMss);
                ld.OnProbeSent();
            }
            break;
        }
        if (ld.GetBytesInFlight() != shadow.inFlightBytes)
        {
            Fail("bytes in flight differ from the packets neither acked nor lost");
        }
        if (cubic->GetCongestionWindow() < 2 * kMss)
        {
            Fail("cwnd below the minimum window");
        }
        // Forget settled packets so the shadow stays proportional to what is in flight.
        for (auto it = shadow.packets.begin();
             it != shadow.packets.end() && it->second.second == Shadow::ACKED;)
        {
            it = shadow.packets.erase(it);
        }
    }
    return 0;
}
