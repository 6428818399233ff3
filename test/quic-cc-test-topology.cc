/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-test-topology.h"

#include "quic-cc-drop-tail-link.h"

#include "ns3/double.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <limits>
#include <vector>

namespace ns3
{
namespace quiccc
{
namespace test
{

PatternWriter::PatternWriter(Ptr<Socket> socket, uint64_t total, End end, uint32_t writeBytes)
    : m_socket(socket),
      m_total(total),
      m_end(end),
      m_writeBytes(writeBytes)
{
}

void
PatternWriter::StartOnConnect(PatternWriter* writer, Ptr<Socket>)
{
    writer->Start();
}

void
PatternWriter::Start()
{
    m_socket->GetSockName(nameAtStart);
    m_socket->SetSendCallback(MakeCallback(&PatternWriter::Fill, this));
    Fill(m_socket, m_socket->GetTxAvailable());
}

void
PatternWriter::Fill(Ptr<Socket>, uint32_t)
{
    while (m_written < m_total)
    {
        const uint64_t n =
            std::min<uint64_t>({m_total - m_written, m_writeBytes, m_socket->GetTxAvailable()});
        if (n == 0)
        {
            return;
        }
        std::vector<uint8_t> buf(n);
        for (uint64_t i = 0; i < n; ++i)
        {
            buf[i] = PatternByte(m_written + i);
        }
        const int sent = m_socket->Send(Create<Packet>(buf.data(), static_cast<uint32_t>(n)));
        if (sent <= 0)
        {
            return;
        }
        m_written += static_cast<uint64_t>(sent);
    }
    if (!m_closed)
    {
        m_closed = true;
        if (m_end == CLOSE)
        {
            m_socket->Close();
        }
        else
        {
            m_socket->ShutdownSend();
        }
        afterEnd = m_socket->Send(Create<Packet>(10));
        afterEndErrno = m_socket->GetErrno();
    }
}

void
PatternReader::Attach(Ptr<Socket> socket)
{
    socket->SetRecvCallback(MakeCallback(&PatternReader::Read, this));
}

void
PatternReader::Read(Ptr<Socket> socket)
{
    while (ReadUpTo(socket, std::numeric_limits<uint32_t>::max()) > 0)
    {
    }
}

uint64_t
PatternReader::ReadUpTo(Ptr<Socket> socket, uint32_t maxBytes)
{
    Ptr<Packet> p = socket->Recv(maxBytes, 0);
    if (!p || p->GetSize() == 0)
    {
        return 0;
    }
    std::vector<uint8_t> buf(p->GetSize());
    p->CopyData(buf.data(), buf.size());
    for (size_t i = 0; i < buf.size(); ++i)
    {
        m_mismatches += buf[i] != PatternByte(m_received + i) ? 1 : 0;
    }
    m_received += buf.size();
    m_lastByte = Simulator::Now();
    return buf.size();
}

TypeId
ReorderDuplicateModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::quiccc::test::ReorderDuplicateModel")
                            .SetParent<ErrorModel>()
                            .SetGroupName("QuicCc")
                            .AddConstructor<ReorderDuplicateModel>();
    return tid;
}

void
ReorderDuplicateModel::Configure(Ptr<PointToPointNetDevice> device,
                                 double reorderProbability,
                                 double duplicateProbability,
                                 Time maxExtraDelay)
{
    m_device = device;
    m_rng = CreateObject<UniformRandomVariable>();
    m_reorder = reorderProbability;
    m_duplicate = duplicateProbability;
    m_maxExtraDelay = maxExtraDelay;
}

bool
ReorderDuplicateModel::DoCorrupt(Ptr<Packet> p)
{
    if (m_reinjected.erase(p->GetUid()) > 0)
    {
        return false; // our own copy coming back
    }
    const double u = m_rng->GetValue();
    if (u < m_reorder)
    {
        // Hold this packet back: "drop" it now and deliver a copy later.
        ++m_reordered;
        Simulator::Schedule(Seconds(m_rng->GetValue(0, m_maxExtraDelay.GetSeconds())),
                            &ReorderDuplicateModel::Reinject,
                            this,
                            p->Copy());
        return true;
    }
    if (u < m_reorder + m_duplicate)
    {
        ++m_duplicated;
        Simulator::Schedule(Seconds(m_rng->GetValue(0, m_maxExtraDelay.GetSeconds())),
                            &ReorderDuplicateModel::Reinject,
                            this,
                            p->Copy());
    }
    return false;
}

void
ReorderDuplicateModel::Reinject(Ptr<Packet> p)
{
    m_reinjected.insert(p->GetUid());
    m_device->Receive(p);
}

TwoNodes::TwoNodes(const QuicCcHelper& quic,
                   const std::string& rate,
                   Time oneWayDelay,
                   uint32_t bufferPackets)
{
    nodes.Create(2);
    devices = QuicCcInstallDropTailLink(nodes.Get(0),
                                        nodes.Get(1),
                                        DataRate(rate),
                                        oneWayDelay,
                                        bufferPackets);
    InternetStackHelper internet;
    internet.Install(nodes);
    Ipv4AddressHelper ipv4("10.9.0.0", "255.255.255.0");
    // The bottleneck is the drop-tail device queue, not ns-3's default FqCoDel root queue disc.
    interfaces = QuicCcAssignWithoutQueueDisc(ipv4, devices);
    quic.Install(nodes);
}

Ptr<Socket>
TwoNodes::CreateSocket(uint32_t node) const
{
    return Socket::CreateSocket(nodes.Get(node), QuicCcSocketFactory::GetTypeId());
}

std::vector<Ptr<RateErrorModel>>
TwoNodes::AddLoss(double rate) const
{
    std::vector<Ptr<RateErrorModel>> models;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(rate);
        devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        models.push_back(em);
    }
    return models;
}

} // namespace test
} // namespace quiccc
} // namespace ns3
