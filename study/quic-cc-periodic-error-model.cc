/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-periodic-error-model.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcPeriodicErrorModel");
NS_OBJECT_ENSURE_REGISTERED(QuicCcPeriodicErrorModel);

TypeId
QuicCcPeriodicErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QuicCcPeriodicErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("QuicCc")
            .AddConstructor<QuicCcPeriodicErrorModel>()
            .AddAttribute("Period",
                          "Drop one in this many data packets, by count (1/p for a loss rate p; "
                          "RFC 9438 Section 5.1's deterministic loss model). Must be >= 1.",
                          UintegerValue(100),
                          MakeUintegerAccessor(&QuicCcPeriodicErrorModel::SetPeriod,
                                               &QuicCcPeriodicErrorModel::GetPeriod),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FirstDrop",
                          "Count of the first dropped data packet; later drops follow every "
                          "Period packets. 0 = Period. A first drop early in slow start starts the "
                          "loss cycles near their steady state.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&QuicCcPeriodicErrorModel::m_firstDrop),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MinSize",
                          "Smallest packet counted as a data packet, bytes as the device sees it; "
                          "smaller ones (ACKs, control) are never dropped.",
                          UintegerValue(200),
                          MakeUintegerAccessor(&QuicCcPeriodicErrorModel::m_minSize),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

QuicCcPeriodicErrorModel::QuicCcPeriodicErrorModel()
{
    NS_LOG_FUNCTION(this);
}

void
QuicCcPeriodicErrorModel::SetPeriod(uint64_t period)
{
    NS_ABORT_MSG_IF(period == 0, "QuicCcPeriodicErrorModel::Period must be >= 1, got 0");
    m_period = period;
}

uint64_t
QuicCcPeriodicErrorModel::GetPeriod() const
{
    return m_period;
}

uint64_t
QuicCcPeriodicErrorModel::GetDropped() const
{
    return m_dropped;
}

bool
QuicCcPeriodicErrorModel::DoCorrupt(Ptr<Packet> p)
{
    if (p->GetSize() < m_minSize)
    {
        return false;
    }
    ++m_counted;
    const uint64_t first = m_firstDrop > 0 ? m_firstDrop : m_period;
    if (m_counted < first || (m_counted - first) % m_period != 0)
    {
        return false;
    }
    ++m_dropped;
    NS_LOG_LOGIC("drop data packet " << m_counted << " (" << p->GetSize() << " B)");
    return true;
}

void
QuicCcPeriodicErrorModel::DoReset()
{
    m_counted = 0;
    m_dropped = 0;
}

Ptr<QuicCcPeriodicErrorModel>
QuicCcDropDataPackets(Ptr<NetDevice> device, uint64_t first, uint64_t period, uint64_t mss)
{
    Ptr<QuicCcPeriodicErrorModel> em = CreateObject<QuicCcPeriodicErrorModel>();
    em->SetAttribute("FirstDrop", UintegerValue(first));
    em->SetAttribute("Period",
                     UintegerValue(period > 0 ? period : std::numeric_limits<uint64_t>::max()));
    em->SetAttribute("MinSize", UintegerValue(std::min<uint64_t>(mss, 1250)));
    device->SetAttribute("ReceiveErrorModel", PointerValue(em));
    return em;
}

} // namespace ns3
