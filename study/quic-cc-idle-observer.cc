/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-idle-observer.h"

#include "ns3/quic-cubic.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

double
QuicCcIdlePause::PeakRatio() const
{
    return before.cwnd == 0 ? 0 : static_cast<double>(peakCwnd3Rtt) / before.cwnd;
}

double
QuicCcIdlePause::IdleSeconds() const
{
    return resume - idleStart;
}

QuicCcIdleObserver::QuicCcIdleObserver(Time minPause, DataRate bottleneck, uint64_t mss)
    : m_minPause(minPause),
      m_backToBack(bottleneck.CalculateBytesTxTime(mss))
{
}

void
QuicCcIdleObserver::Observe(Ptr<Socket> socket)
{
    m_socket = DynamicCast<QuicCcSocket>(socket);
    if (!m_socket)
    {
        socket->TraceConnectWithoutContext("SlowStartThreshold64",
                                           MakeCallback(&QuicCcIdleObserver::OnSsthresh, this));
    }
    socket->TraceConnectWithoutContext("BytesInFlight64",
                                       MakeCallback(&QuicCcIdleObserver::OnBytesInFlight, this));
    socket->TraceConnectWithoutContext("PacketSent",
                                       MakeCallback(&QuicCcIdleObserver::OnPacketSent, this));
    socket->TraceConnectWithoutContext("PacketLost",
                                       MakeCallback(&QuicCcIdleObserver::OnPacketLost, this));
    socket->TraceConnectWithoutContext("CongestionWindow64",
                                       MakeCallback(&QuicCcIdleObserver::OnCwnd, this));
    socket->TraceConnectWithoutContext("Rtt", MakeCallback(&QuicCcIdleObserver::OnRtt, this));
}

const std::vector<QuicCcIdlePause>&
QuicCcIdleObserver::GetPauses() const
{
    return m_pauses;
}

uint64_t
QuicCcIdleObserver::GetLostPackets() const
{
    return m_lost;
}

QuicCcIdleSnapshot
QuicCcIdleObserver::Snapshot() const
{
    QuicCcIdleSnapshot s;
    if (!m_socket)
    {
        s.cwnd = m_cwnd;
        s.ssthresh = m_ssthresh;
        return s;
    }
    Ptr<QuicCongestionController> cc = m_socket->GetCongestionController();
    if (!cc)
    {
        return s;
    }
    s.cwnd = cc->GetCongestionWindow();
    s.ssthresh = cc->GetSlowStartThreshold();
    if (Ptr<QuicCubic> cubic = DynamicCast<QuicCubic>(cc))
    {
        s.wMax = cubic->GetWMax();
        s.k = cubic->GetK();
        const std::optional<Time> epoch = cubic->GetEpochStart();
        s.epoch = epoch ? epoch->GetSeconds() : -1;
    }
    return s;
}

void
QuicCcIdleObserver::MarkResumeNow()
{
    if (!m_pauses.empty() && Simulator::Now() < Seconds(m_pauses.back().resume) + 3 * m_srtt)
    {
        return;
    }
    QuicCcIdlePause p;
    p.idleStart = Simulator::Now().GetSeconds();
    p.resume = p.idleStart;
    p.srtt = m_srtt.GetSeconds();
    p.before = Snapshot();
    p.peakCwnd3Rtt = p.before.cwnd;
    m_pauses.push_back(p);
    m_idle = false;
    m_train = 0;
    Simulator::ScheduleNow(&QuicCcIdleObserver::SnapshotAfterResume, this, m_pauses.size() - 1);
}

void
QuicCcIdleObserver::OnBytesInFlight(uint64_t oldValue, uint64_t newValue)
{
    const Time now = Simulator::Now();
    if (newValue == 0 && oldValue > 0)
    {
        m_idle = true;
        m_idleStart = now;
        m_idleSnapshot = Snapshot();
        return;
    }
    if (oldValue != 0 || newValue == 0)
    {
        return;
    }
    // The first ack-eliciting packet into an empty pipe (loss detection counts it before the
    // socket's PacketSent trace fires, so OnPacketSent sees it inside the new pause's window).
    if (m_idle && now - m_idleStart >= m_minPause)
    {
        QuicCcIdlePause p;
        p.idleStart = m_idleStart.GetSeconds();
        p.resume = now.GetSeconds();
        p.srtt = m_srtt.GetSeconds();
        p.before = m_idleSnapshot;
        p.peakCwnd3Rtt = p.before.cwnd;
        m_pauses.push_back(p);
        m_train = 0;
        // After the whole send event: the controller's idle rule ran on this first send.
        Simulator::ScheduleNow(&QuicCcIdleObserver::SnapshotAfterResume, this, m_pauses.size() - 1);
    }
    m_idle = false;
}

void
QuicCcIdleObserver::SnapshotAfterResume(size_t pause)
{
    m_pauses[pause].after = Snapshot();
}

void
QuicCcIdleObserver::OnPacketSent(uint64_t, uint64_t bytes)
{
    if (m_pauses.empty())
    {
        return;
    }
    QuicCcIdlePause& p = m_pauses.back();
    const Time since = Simulator::Now() - Seconds(p.resume);
    if (since < MilliSeconds(1))
    {
        p.burst1ms += bytes;
    }
    if (since < Seconds(0.1 * p.srtt))
    {
        p.burstTenthRtt += bytes;
    }
    if (since < Seconds(p.srtt))
    {
        m_train = (m_train > 0 && Simulator::Now() - m_lastSend < m_backToBack) ? m_train + 1 : 1;
        p.longestTrain = std::max(p.longestTrain, m_train);
    }
    m_lastSend = Simulator::Now();
}

void
QuicCcIdleObserver::OnPacketLost(uint64_t, uint64_t, Time timeSent)
{
    ++m_lost;
    for (QuicCcIdlePause& p : m_pauses)
    {
        const double t = timeSent.GetSeconds();
        if (t >= p.resume && t < p.resume + p.srtt)
        {
            ++p.lostFirstRtt;
        }
        if (t >= p.resume && t < p.resume + 3 * p.srtt)
        {
            ++p.lostFirst3Rtt;
        }
    }
}

void
QuicCcIdleObserver::OnSsthresh(uint64_t, uint64_t newValue)
{
    m_ssthresh = newValue;
}

void
QuicCcIdleObserver::OnCwnd(uint64_t, uint64_t newValue)
{
    m_cwnd = newValue;
    if (m_pauses.empty())
    {
        return;
    }
    QuicCcIdlePause& p = m_pauses.back();
    if (Simulator::Now() < Seconds(p.resume + 3 * p.srtt))
    {
        p.peakCwnd3Rtt = std::max(p.peakCwnd3Rtt, newValue);
    }
}

void
QuicCcIdleObserver::OnRtt(Time, Time smoothed, Time)
{
    m_srtt = smoothed;
}

} // namespace ns3
