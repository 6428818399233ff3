/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-loss-detection.h"

#include "quic-rtt-stats.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicLossDetection");

const char*
QuicLossTriggerName(QuicLossTrigger trigger)
{
    return trigger == QuicLossTrigger::REORDERING_THRESHOLD ? "reordering_threshold"
                                                            : "time_threshold";
}

namespace
{
/// quiche: the time threshold after a spurious loss.
constexpr double kSpuriousTimeThreshold = 5.0 / 4;
} // namespace

QuicLossDetection::QuicLossDetection(Ptr<QuicCongestionController> cc, const QuicRttStats& rtt)
    : m_cc(cc),
      m_rtt(rtt)
{
    NS_ABORT_MSG_IF(!cc, "QuicLossDetection needs a congestion controller, got null");
}

size_t
QuicLossDetection::LowerBound(uint64_t pn) const
{
    if (m_sent.empty() || pn <= m_sent.front().packetNumber)
    {
        return 0;
    }
    // Packet numbers increase by at least 1 per entry, so the answer is at most
    // pn - front; it is exactly that when no packet between was left out of the record (the
    // common case: a sender's packets are nearly all ack-eliciting). Check that guess first,
    // then binary-search below it.
    const size_t guess =
        static_cast<size_t>(std::min<uint64_t>(pn - m_sent.front().packetNumber, m_sent.size()));
    if (guess == m_sent.size() ? m_sent.back().packetNumber < pn : m_sent[guess].packetNumber == pn)
    {
        return guess;
    }
    auto it = std::lower_bound(m_sent.begin(),
                               m_sent.begin() + static_cast<std::ptrdiff_t>(guess),
                               pn,
                               [](const SentPacket& p, uint64_t n) { return p.packetNumber < n; });
    return static_cast<size_t>(it - m_sent.begin());
}

size_t
QuicLossDetection::SkipAcked(size_t i)
{
    // Follow the skip links over acked entries, then point each entry passed at the result
    // (acked stays true, so a link never has to be undone).
    auto next = [this](size_t k) {
        return static_cast<size_t>(std::max<uint64_t>(m_sent[k].skipTo, m_popped + k + 1) -
                                   m_popped);
    };
    size_t end = i;
    while (end < m_sent.size() && m_sent[end].acked)
    {
        end = next(end);
    }
    while (i < end)
    {
        const size_t k = next(i);
        m_sent[i].skipTo = m_popped + end;
        i = k;
    }
    return end;
}

void
QuicLossDetection::SetBytesInFlight(uint64_t bytes)
{
    if (bytes != m_bytesInFlight)
    {
        const uint64_t old = m_bytesInFlight;
        m_bytesInFlight = bytes;
        if (m_listener)
        {
            m_listener->OnBytesInFlightTrace(old, bytes);
        }
        m_bytesInFlightTrace(old, bytes);
    }
}

QuicCcEcnCodepoint
QuicLossDetection::OnPacketSent(Time now,
                                uint64_t packetNumber,
                                uint64_t size,
                                bool ackEliciting,
                                QuicCcSentFrames frames)
{
    NS_LOG_FUNCTION(this << now << packetNumber << size << ackEliciting);
    const QuicCcEcnCodepoint ecn = m_ecn.OnPacketSent(now, PtoPeriod(), ackEliciting);
    if (!ackEliciting)
    {
        // Not ack-eliciting, so not in flight (RFC 9002 Section 2): quiche neither records it
        // for loss detection nor calls the controller.
        return ecn;
    }
    NS_ABORT_MSG_IF(!m_sent.empty() && packetNumber <= m_sent.back().packetNumber,
                    "QuicLossDetection: packet number "
                        << packetNumber << " does not increase (last " << m_sent.back().packetNumber
                        << ")");
    m_cc->OnPacketSent(now, packetNumber, size, m_bytesInFlight);
    SentPacket& record = m_sent.emplace_back();
    record.packetNumber = packetNumber;
    record.size = size;
    record.timeSent = now;
    record.ect = ecn != QuicCcEcnCodepoint::NOT_ECT;
    record.frames = std::move(frames);
    m_recordPeak = std::max(m_recordPeak, m_sent.size());
    SetBytesInFlight(m_bytesInFlight + size);
    ++m_ackElicitingInFlight;
    m_lastAckElicitingSent = now;
    return ecn;
}

const QuicLossDetection::AckResult&
QuicLossDetection::OnAckReceived(Time now,
                                 const std::vector<QuicCcAckRange>& ranges,
                                 Time ackDelay,
                                 const std::optional<QuicCcEcnCounts>& ecn)
{
    NS_LOG_FUNCTION(this << now << ranges.size() << ackDelay);
    AckResult& result = m_ackResult;
    result.newlyAcked.clear();
    result.ackedFrames.clear();
    result.lost.clear();
    result.lostFrames.clear();
    result.spurious.clear();
    result.rttSampled = false;
    if (ranges.empty())
    {
        return result;
    }
    const uint64_t frameLargest = ranges.front().largest;
    std::vector<QuicAckedPacket>& acked = m_acked;
    acked.clear();
    std::optional<uint64_t> lowestSpurious;
    bool spuriousInFlight = false;
    uint64_t ackedBytes = 0;
    uint64_t ectAcked = 0; // newly acknowledged packets sent with ECT(0)
    const SentPacket* largestNewlyAcked = nullptr;
    const bool largestIncreased = !m_largestAcked || frameLargest > *m_largestAcked;

    // Step 1: mark newly acked packets, oldest range first so the lists come out ascending.
    // Ranges entirely below the record's oldest packet (the receiver repeats old ranges until
    // an ACK of its ACK) are left out: the ranges descend, so they are a suffix.
    const auto live =
        m_sent.empty()
            ? ranges.begin()
            : std::partition_point(ranges.begin(),
                                   ranges.end(),
                                   [oldest = m_sent.front().packetNumber](const QuicCcAckRange& r) {
                                       return r.largest >= oldest;
                                   });
    for (auto r = std::make_reverse_iterator(live); r != ranges.rend(); ++r)
    {
        const uint64_t smallest = r->smallest;
        const uint64_t largest = r->largest;
        for (size_t i = SkipAcked(LowerBound(smallest));
             i < m_sent.size() && m_sent[i].packetNumber <= largest;
             i = SkipAcked(i + 1))
        {
            SentPacket& p = m_sent[i];
            if (p.acked)
            {
                continue;
            }
            p.acked = true;
            if (p.lost)
            {
                // An ACK for a packet declared lost: a spurious loss (RFC 9002 Section 6.1.2).
                result.spurious.push_back(p.packetNumber);
                lowestSpurious =
                    lowestSpurious ? std::min(*lowestSpurious, p.packetNumber) : p.packetNumber;
                spuriousInFlight = spuriousInFlight || p.size > 0;
                ++m_spuriousLosses;
                continue;
            }
            acked.push_back({p.packetNumber, p.size, p.timeSent});
            ackedBytes += p.size;
            ectAcked += p.ect ? 1 : 0;
            --m_ackElicitingInFlight;
            result.newlyAcked.push_back(p.packetNumber);
            result.ackedFrames.push_back(std::move(p.frames));
            if (m_listener)
            {
                m_listener->OnPacketAckedTrace(p.packetNumber, p.size, p.timeSent);
            }
            m_packetAckedTrace(p.packetNumber, p.size, p.timeSent);
            if (!largestNewlyAcked || p.packetNumber > largestNewlyAcked->packetNumber)
            {
                largestNewlyAcked = &p;
            }
        }
    }
    if (lowestSpurious)
    {
        // quiche: raise the packet threshold to the observed reordering, and use 5/4 for good.
        // The reordering is measured from the connection's largest acked, which may be above
        // this frame's own largest (quiche updates largest_acked before this step).
        const uint64_t largestAcked = std::max(m_largestAcked.value_or(0), frameLargest);
        const uint64_t reordering = largestAcked - *lowestSpurious + 1;
        m_packetThreshold = std::max(m_packetThreshold, std::min(reordering, kMaxPacketThreshold));
        m_timeThreshold = kSpuriousTimeThreshold;
        if (spuriousInFlight)
        {
            m_cc->Rollback();
        }
    }
    // Step 2: nothing newly acked -> no RTT sample, no loss pass, no controller call.
    if (acked.empty())
    {
        Prune(now);
        return result;
    }
    // Step 3: RTT sample when the largest newly acked packet is the new largest acknowledged.
    const bool newLargest = !m_largestAcked || largestNewlyAcked->packetNumber > *m_largestAcked;
    m_largestAcked = m_largestAcked ? std::max(*m_largestAcked, frameLargest) : frameLargest;
    if (newLargest)
    {
        result.rttSampled =
            m_rtt.Update(now - largestNewlyAcked->timeSent, ackDelay, now, m_handshakeConfirmed);
        if (result.rttSampled && !m_firstRttSample)
        {
            m_firstRttSample = now;
        }
    }
    // RFC 9002 Appendix A.7: the ECN counts after the RTT sample, before the loss pass.
    if (m_ecn.GetState() != QUIC_CC_ECN_DISABLED)
    {
        result.ceIncrease = m_ecn.OnAckReceived(largestIncreased, ecn, ectAcked).ceIncrease;
        if (result.ceIncrease > 0)
        {
            ProcessEcn(now, largestNewlyAcked->timeSent, m_bytesInFlight);
        }
    }
    // Step 4: loss pass; the congestion event sees bytes in flight before lost and acked bytes go.
    DetectLosses(now, m_bytesInFlight, result.lost, result.lostFrames);
    // Step 5: the controller sees bytes in flight after the lost bytes, before the acked bytes.
    m_cc->OnPacketsAcked(now, acked, m_bytesInFlight, m_rtt);
    // Step 6: the acked bytes leave bytes in flight.
    SetBytesInFlight(m_bytesInFlight - ackedBytes);
    m_ptoCount = 0;
    m_pendingProbes = 0;
    Prune(now);
    return result;
}

Time
QuicLossDetection::LossDelay() const
{
    // RFC 9002 Section 6.1.2: time_threshold * max(latest_rtt, smoothed_rtt), at least
    // kGranularity.
    const Time base = std::max(m_rtt.GetLatestRtt(), m_rtt.GetSmoothedRtt());
    const Time delay = NanoSeconds(
        static_cast<int64_t>(static_cast<double>(base.GetNanoSeconds()) * m_timeThreshold));
    return std::max(delay, QuicRttStats::kGranularity);
}

void
QuicLossDetection::DetectLosses(Time now,
                                uint64_t bytesInFlightForEvent,
                                std::vector<uint64_t>& lost,
                                std::vector<QuicCcSentFrames>& lostFrames)
{
    const size_t lostBefore = lost.size();
    m_lossTime.reset();
    if (!m_largestAcked)
    {
        return;
    }
    const uint64_t largestAcked = *m_largestAcked;
    const Time lossDelay = LossDelay();
    uint64_t lostBytes = 0;
    uint64_t ectLost = 0;
    const SentPacket* largestLost = nullptr;
    // Entries before the first one neither acked nor lost would only be skipped below (all have
    // packet numbers <= largestAcked): start after them.
    size_t start = static_cast<size_t>(std::max(m_lossScanFrom, m_popped) - m_popped);
    while (start < m_sent.size() && (m_sent[start].acked || m_sent[start].lost))
    {
        ++start;
    }
    m_lossScanFrom = m_popped + start;
    for (size_t i = start; i < m_sent.size(); ++i)
    {
        SentPacket& p = m_sent[i];
        if (p.packetNumber > largestAcked)
        {
            break;
        }
        if (p.acked || p.lost)
        {
            continue;
        }
        const bool byTime = p.timeSent <= now - lossDelay;
        const bool byCount = largestAcked >= p.packetNumber + m_packetThreshold;
        if (!byTime && !byCount)
        {
            // quiche stops at the first packet that is not lost and arms the loss timer for it.
            m_lossTime = p.timeSent + lossDelay;
            break;
        }
        p.lost = true;
        p.timeLost = now;
        lost.push_back(p.packetNumber);
        lostFrames.push_back(std::move(p.frames));
        lostBytes += p.size;
        ectLost += p.ect ? 1 : 0;
        --m_ackElicitingInFlight;
        if (p.size > 0)
        {
            largestLost = &p;
        }
        const QuicLossTrigger trigger =
            byCount ? QuicLossTrigger::REORDERING_THRESHOLD : QuicLossTrigger::TIME_THRESHOLD;
        if (m_listener)
        {
            m_listener->OnPacketLostTriggerTrace(p.packetNumber, trigger);
        }
        m_lostTriggerTrace(p.packetNumber, trigger);
        if (m_listener)
        {
            m_listener->OnPacketLostTrace(p.packetNumber, p.size, p.timeSent);
        }
        m_packetLostTrace(p.packetNumber, p.size, p.timeSent);
    }
    const size_t newlyLost = lost.size() - lostBefore;
    if (newlyLost == 0)
    {
        return;
    }
    m_lostPackets += newlyLost;
    m_ecn.OnEctPacketsLost(ectLost, now, PtoPeriod());
    if (largestLost)
    {
        // One congestion event per pass, carrying the largest lost in-flight packet; checkpoint
        // first unless that packet is already in recovery (quiche).
        if (!m_cc->InCongestionRecovery(largestLost->timeSent))
        {
            m_cc->Checkpoint();
        }
        m_cc->OnCongestionEvent(now, largestLost->timeSent, lostBytes, bytesInFlightForEvent);
        // RFC 9002 Section 7.6.2 pseudocode (OnPacketsLost): after the congestion event, so
        // the window is reduced once, then set to the minimum with R cleared.
        if (m_persistentCongestion && InPersistentCongestion(now))
        {
            ++m_persistentCongestionCount;
            m_cc->OnPersistentCongestion(now);
        }
    }
    SetBytesInFlight(m_bytesInFlight - lostBytes);
    m_cc->AddLostPackets(newlyLost);
}

bool
QuicLossDetection::InPersistentCongestion(Time now) const
{
    // RFC 9002 Section 7.6.2; like ngtcp2 (lib/ngtcp2_rtb.c, ngtcp2_rtb_detect_lost_pkt) the run
    // may include packets declared lost by earlier passes that are still in the record, and a
    // packet sent before the first RTT sample does not count. The run's FIRST lost packet opens
    // the span (counting from the second one would make the span one packet short).
    if (!m_firstRttSample)
    {
        return false;
    }
    const Time duration = GetPersistentCongestionDuration();
    std::optional<Time> runStart;
    bool runHasNewLoss = false;
    for (const SentPacket& p : m_sent)
    {
        if (m_largestAcked && p.packetNumber > *m_largestAcked)
        {
            break;
        }
        const bool countsAsLost = p.lost && !p.acked && p.timeSent >= *m_firstRttSample;
        if (!countsAsLost)
        {
            if (p.acked || p.timeSent >= *m_firstRttSample)
            {
                runStart.reset(); // an acknowledged (or not yet lost) packet ends the run
                runHasNewLoss = false;
            }
            continue;
        }
        if (!runStart)
        {
            runStart = p.timeSent;
        }
        runHasNewLoss = runHasNewLoss || p.timeLost == now;
        if (runHasNewLoss && p.timeSent - *runStart > duration)
        {
            return true;
        }
    }
    return false;
}

Time
QuicLossDetection::GetPersistentCongestionDuration() const
{
    // kPersistentCongestionThreshold = 3.
    return (m_rtt.GetPtoBase() + m_rtt.GetMaxAckDelay()) * 3;
}

void
QuicLossDetection::SetPersistentCongestion(bool enabled)
{
    m_persistentCongestion = enabled;
}

uint64_t
QuicLossDetection::GetPersistentCongestionCount() const
{
    return m_persistentCongestionCount;
}

void
QuicLossDetection::EnableEcn()
{
    m_ecn.Enable();
}

const QuicCcEcnValidation&
QuicLossDetection::GetEcnValidation() const
{
    return m_ecn;
}

uint64_t
QuicLossDetection::GetEcnCongestionEventCount() const
{
    return m_ecnCongestionEvents;
}

void
QuicLossDetection::ProcessEcn(Time now, Time largestAckedTimeSent, uint64_t bytesInFlight)
{
    // sent_packets[ack.largest_acked].time_sent in RFC 9002's pseudocode; quic-cc keeps no record
    // of packets that are not ack-eliciting, so the largest newly acknowledged one stands in.
    if (!m_cc->InCongestionRecovery(largestAckedTimeSent))
    {
        ++m_ecnCongestionEvents;
    }
    m_cc->OnCongestionExperienced(now, largestAckedTimeSent, bytesInFlight);
}

Time
QuicLossDetection::PtoPeriod() const
{
    // RFC 9002 Section 6.2.1, with max_ack_delay only once the handshake is confirmed.
    return m_handshakeConfirmed ? m_rtt.GetPtoBase() + m_rtt.GetMaxAckDelay() : m_rtt.GetPtoBase();
}

Time
QuicLossDetection::GetPtoDuration() const
{
    const Time pto = PtoPeriod();
    const uint32_t shift = std::min<uint32_t>(m_ptoCount, 30);
    // The backoff saturates at Time::Max() instead of overflowing int64 nanoseconds (after
    // dozens of PTOs without an ACK, when the idle timeout is set beyond years).
    if (pto.GetTimeStep() > (Time::Max().GetTimeStep() >> shift))
    {
        return Time::Max();
    }
    return pto * static_cast<int64_t>(uint64_t{1} << shift);
}

std::optional<Time>
QuicLossDetection::GetTimerDeadline() const
{
    if (m_lossTime)
    {
        return m_lossTime; // the loss timer takes priority over PTO
    }
    if (m_ackElicitingInFlight == 0 || !m_lastAckElicitingSent)
    {
        return std::nullopt;
    }
    const Time pto = GetPtoDuration();
    return pto > Time::Max() - *m_lastAckElicitingSent ? Time::Max()
                                                       : *m_lastAckElicitingSent + pto;
}

QuicLossDetection::TimerResult
QuicLossDetection::OnTimerExpired(Time now)
{
    NS_LOG_FUNCTION(this << now);
    TimerResult result;
    if (m_lossTime)
    {
        if (now >= *m_lossTime)
        {
            DetectLosses(now, m_bytesInFlight, result.lost, result.lostFrames);
        }
        return result;
    }
    const auto deadline = GetTimerDeadline();
    if (!deadline || now < *deadline)
    {
        return result;
    }
    // PTO (RFC 9002 Section 6.2.4): nothing is declared lost and the controller is untouched.
    ++m_ptoCount;
    m_pendingProbes = std::min<uint32_t>(m_ptoCount, 2);
    result.probes = m_pendingProbes;
    // The PTO period restarts from the expiry so that a lost probe re-arms the timer.
    m_lastAckElicitingSent = now;
    return result;
}

uint32_t
QuicLossDetection::GetPendingProbes() const
{
    return m_pendingProbes;
}

void
QuicLossDetection::OnProbeSent()
{
    if (m_pendingProbes > 0)
    {
        --m_pendingProbes;
    }
}

void
QuicLossDetection::Record::pop_front()
{
    ++m_head;
    if (m_head == m_entries.size())
    {
        m_entries.clear();
        m_head = 0;
    }
    else if (m_head >= 64 && m_head * 2 >= m_entries.size())
    {
        m_entries.erase(m_entries.begin(), m_entries.begin() + static_cast<std::ptrdiff_t>(m_head));
        m_head = 0;
    }
}

void
QuicLossDetection::Prune(Time now)
{
    const Time keepLost = m_rtt.GetSmoothedRtt();
    while (!m_sent.empty())
    {
        const SentPacket& p = m_sent.front();
        const bool done = p.acked || (p.lost && now - p.timeLost > keepLost);
        if (!done)
        {
            break;
        }
        m_sent.pop_front();
        ++m_popped;
    }
}

void
QuicLossDetection::SetHandshakeConfirmed(bool confirmed)
{
    m_handshakeConfirmed = confirmed;
}

void
QuicLossDetection::SetPeerMaxAckDelay(Time d)
{
    m_rtt.SetMaxAckDelay(d);
}

uint64_t
QuicLossDetection::GetBytesInFlight() const
{
    return m_bytesInFlight;
}

uint32_t
QuicLossDetection::GetPtoCount() const
{
    return m_ptoCount;
}

uint64_t
QuicLossDetection::GetPacketThreshold() const
{
    return m_packetThreshold;
}

double
QuicLossDetection::GetTimeThreshold() const
{
    return m_timeThreshold;
}

uint64_t
QuicLossDetection::GetLostPacketCount() const
{
    return m_lostPackets;
}

uint64_t
QuicLossDetection::GetSpuriousLossCount() const
{
    return m_spuriousLosses;
}

std::optional<uint64_t>
QuicLossDetection::GetLargestAcked() const
{
    return m_largestAcked;
}

const QuicRttStats&
QuicLossDetection::GetRttStats() const
{
    return m_rtt;
}

size_t
QuicLossDetection::GetRecordSize() const
{
    return m_sent.size();
}

size_t
QuicLossDetection::GetRecordPeak() const
{
    return m_recordPeak;
}

const QuicCcSentFrames*
QuicLossDetection::GetOldestOutstandingFrames() const
{
    // Probes are rare: a plain scan past acknowledged and lost entries is enough.
    for (const SentPacket& p : m_sent)
    {
        if (!p.acked && !p.lost)
        {
            return &p.frames;
        }
    }
    return nullptr;
}

void
QuicLossDetection::TraceConnectPacketLost(const PacketCallback& cb)
{
    m_packetLostTrace.ConnectWithoutContext(cb);
}

void
QuicLossDetection::TraceConnectPacketLostTrigger(
    const Callback<void, uint64_t, QuicLossTrigger>& cb)
{
    m_lostTriggerTrace.ConnectWithoutContext(cb);
}

void
QuicLossDetection::TraceConnectPacketAcked(const PacketCallback& cb)
{
    m_packetAckedTrace.ConnectWithoutContext(cb);
}

void
QuicLossDetection::SetListener(Listener* listener)
{
    m_listener = listener;
    m_ecn.SetListener(listener);
}

void
QuicLossDetection::TraceConnectBytesInFlight(const ValueCallback& cb)
{
    m_bytesInFlightTrace.ConnectWithoutContext(cb);
}

} // namespace ns3
