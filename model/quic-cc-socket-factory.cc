/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-socket-factory.h"

#include "quic-cc-qlog.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcSocketFactory");
NS_OBJECT_ENSURE_REGISTERED(QuicCcSocketFactory);

TypeId
QuicCcSocketFactory::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuicCcSocketFactory")
                            .SetParent<QuicCcSocketFactoryBase>()
                            .SetGroupName("QuicCc")
                            .AddConstructor<QuicCcSocketFactory>();
    return tid;
}

QuicCcSocketFactory::QuicCcSocketFactory()
    : QuicCcSocketFactoryBase(QuicCcSocket::GetTypeId(), kStreamsPerSocket)
{
}

void
QuicCcSocketFactory::SetCongestionController(Ptr<QuicCongestionController> cc)
{
    m_cc = cc;
}

void
QuicCcSocketFactory::ConfigureSocket(Ptr<QuicCcSocketBase> socket)
{
    if (m_cc)
    {
        DynamicCast<QuicCcSocket>(socket)->SetCongestionController(m_cc);
    }
}

void
QuicCcSocketFactory::EnableQlog(const std::string& directory)
{
    TraceConnectWithoutContext("SocketCreated", MakeBoundCallback(&QuicCcAttachQlog, directory));
}

void
QuicCcSocketFactory::DoDispose()
{
    m_cc = nullptr;
    QuicCcSocketFactoryBase::DoDispose();
}

} // namespace ns3
