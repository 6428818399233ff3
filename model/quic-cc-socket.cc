/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-socket.h"

#include "quic-cc-path-mtu.h"

#include "ns3/abort.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/udp-socket-factory.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcSocket");
NS_OBJECT_ENSURE_REGISTERED(QuicCcSocket);

namespace
{
/// Error code of a normal close (RFC 9000 Section 20.1 NO_ERROR).
constexpr uint64_t kNoError = 0;
} // namespace

QuicCcSocket::QuicCcSocket()
    : m_cidRng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

QuicCcSocket::~QuicCcSocket()
{
    NS_LOG_FUNCTION(this);
}

std::string
QuicCcSocket::GetConfigError() const
{
    return m_config.GetError();
}

void
QuicCcSocket::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_connection)
    {
        m_connection->Dispose(); // stops its timers and forgets this owner
        m_connection = nullptr;
    }
    m_dispatcher.Clear();
    m_listener = nullptr;
    m_udp = nullptr;
    m_node = nullptr;
    m_ccPrototype = nullptr;
    Socket::DoDispose();
}

// ---------------------------------------------------------------- set-up

int64_t
QuicCcSocket::AssignStreams(int64_t stream)
{
    m_cidRng->SetStream(stream);
    m_config.sendDelay->SetStream(stream + 1);
    m_config.ackProcessingDelay->SetStream(stream + 2);
    return 3;
}

void
QuicCcSocket::SetNode(Ptr<Node> node)
{
    m_node = node;
}

void
QuicCcSocket::SetCongestionController(Ptr<QuicCongestionController> cc)
{
    NS_ABORT_MSG_IF(!cc, "QuicCcSocket::SetCongestionController: null controller");
    m_ccPrototype = cc;
}

Ptr<QuicCongestionController>
QuicCcSocket::GetCongestionController() const
{
    return m_connection ? m_connection->GetCongestionController() : nullptr;
}

const QuicLossDetection*
QuicCcSocket::GetLossDetection() const
{
    return m_connection ? &m_connection->GetLossDetection() : nullptr;
}

void
QuicCcSocket::SetChildCreatedCallback(Callback<void, Ptr<QuicCcSocket>> cb)
{
    m_childCreated = cb;
}

void
QuicCcSocket::StartConnection(Role role)
{
    NS_LOG_FUNCTION(this << role);
    m_role = role;
    if (!m_ccPrototype)
    {
        ObjectFactory factory;
        factory.SetTypeId(m_config.congestionControl);
        m_ccPrototype = factory.Create<QuicCongestionController>();
    }
    if (role == Role::CLIENT)
    {
        m_connectionId =
            (uint64_t{m_cidRng->GetInteger(1, std::numeric_limits<uint32_t>::max())} << 32) |
            m_cidRng->GetInteger(0, std::numeric_limits<uint32_t>::max());
    }
    QuicCcConnection::Owner& owner = *this;
    m_connection = Create<QuicCcConnection>(owner,
                                            m_config,
                                            m_ccPrototype->Fork(),
                                            role == Role::ACCEPTED,
                                            m_connectionId);
    WireTraces();
    m_startedTrace(this);
    // Report the starting window so that a trace sink (and the qlog) sees it.
    TraceCwnd(0, m_connection->GetCongestionController()->GetCongestionWindow());
    m_connection->Start();
}

// ---------------------------------------------------------------- ns3::Socket

Socket::SocketErrno
QuicCcSocket::GetErrno() const
{
    return m_errno;
}

Socket::SocketType
QuicCcSocket::GetSocketType() const
{
    return NS3_SOCK_STREAM;
}

Ptr<Node>
QuicCcSocket::GetNode() const
{
    return m_node;
}

int
QuicCcSocket::BindUdp(const Address& local)
{
    NS_ABORT_MSG_IF(!m_node, "QuicCcSocket: no node (create sockets through QuicCcSocketFactory)");
    if (m_udp)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    m_udp = Socket::CreateSocket(m_node, UdpSocketFactory::GetTypeId());
    if (m_udp->Bind(local) != 0)
    {
        m_errno = m_udp->GetErrno();
        m_udp = nullptr;
        return -1;
    }
    m_udp->SetRecvCallback(MakeCallback(&QuicCcSocket::HandleUdpRead, this));
    return 0;
}

int
QuicCcSocket::Bind(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    if (!InetSocketAddress::IsMatchingType(address) && !Inet6SocketAddress::IsMatchingType(address))
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    return BindUdp(address);
}

int
QuicCcSocket::Bind()
{
    return BindUdp(InetSocketAddress(Ipv4Address::GetAny(), 0));
}

int
QuicCcSocket::Bind6()
{
    return BindUdp(Inet6SocketAddress(Ipv6Address::GetAny(), 0));
}

int
QuicCcSocket::Connect(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    if (m_role != Role::NONE)
    {
        m_errno = ERROR_ISCONN;
        return -1;
    }
    m_config.Validate();
    if (!m_udp)
    {
        const int rc = InetSocketAddress::IsMatchingType(address) ? Bind() : Bind6();
        if (rc != 0)
        {
            return rc;
        }
    }
    if (m_udp->Connect(address) != 0)
    {
        m_errno = m_udp->GetErrno();
        return -1;
    }
    m_config.CheckIpv4Size(InetSocketAddress::IsMatchingType(address));
    m_peer = address;
    StartConnection(Role::CLIENT);
    m_connection->StartClientHandshake();
    return 0;
}

int
QuicCcSocket::Listen()
{
    NS_LOG_FUNCTION(this);
    if (!m_udp || m_role != Role::NONE)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    m_config.Validate();
    Address local;
    m_udp->GetSockName(local);
    m_config.CheckIpv4Size(InetSocketAddress::IsMatchingType(local));
    m_role = Role::LISTENER;
    return 0;
}

int
QuicCcSocket::Close()
{
    NS_LOG_FUNCTION(this);
    switch (m_role)
    {
    case Role::NONE:
    case Role::LISTENER:
        // A listener stops accepting; connections already accepted keep using the UDP socket.
        m_listenerClosed = true;
        return 0;
    case Role::CLIENT:
    case Role::ACCEPTED:
        if (!IsOpen())
        {
            m_errno = ERROR_BADF;
            return -1;
        }
        // Graceful in every state: buffered data (even written during the handshake) and the FIN
        // are delivered before CONNECTION_CLOSE.
        m_closeRequested = true;
        m_connection->FinishStream();
        MaybeFinishClose();
        return 0;
    }
    return 0;
}

int
QuicCcSocket::ShutdownSend()
{
    // No more application data: the FIN follows what is buffered (the connection stays open).
    m_shutdownSend = true;
    if (m_connection)
    {
        m_connection->FinishStream();
    }
    return 0;
}

int
QuicCcSocket::ShutdownRecv()
{
    m_shutdownRecv = true;
    return 0;
}

uint32_t
QuicCcSocket::GetTxAvailable() const
{
    return m_connection ? m_connection->GetTxAvailable() : m_config.sndBufSize;
}

int
QuicCcSocket::Send(Ptr<Packet> p, uint32_t flags)
{
    NS_LOG_FUNCTION(this << p << flags);
    if (m_role != Role::CLIENT && m_role != Role::ACCEPTED)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    if (m_shutdownSend || m_closeRequested || !IsOpen())
    {
        m_errno = ERROR_SHUTDOWN;
        return -1;
    }
    if (!m_connection->GetSendStream().CanAppend(p->GetSize()))
    {
        m_errno = ERROR_MSGSIZE;
        return -1;
    }
    // Kept as the application's packet: virtual (zero-filled) packets cost no memory.
    m_connection->Send(p);
    return static_cast<int>(p->GetSize());
}

int
QuicCcSocket::SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress)
{
    return Send(p, flags);
}

uint32_t
QuicCcSocket::GetRxAvailable() const
{
    const uint64_t available = m_connection ? m_connection->GetRecvStream().Available() : 0;
    return static_cast<uint32_t>(
        std::min<uint64_t>(available, std::numeric_limits<uint32_t>::max()));
}

Ptr<Packet>
QuicCcSocket::Recv(uint32_t maxSize, uint32_t flags)
{
    if (GetRxAvailable() == 0 || maxSize == 0)
    {
        m_errno = maxSize == 0 ? ERROR_INVAL : ERROR_AGAIN;
        return nullptr;
    }
    return m_connection->Read(maxSize);
}

Ptr<Packet>
QuicCcSocket::RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress)
{
    Ptr<Packet> p = Recv(maxSize, flags);
    if (p)
    {
        fromAddress = m_peer;
    }
    return p;
}

int
QuicCcSocket::GetSockName(Address& address) const
{
    Ptr<Socket> udp = m_udp ? m_udp : (m_listener ? m_listener->m_udp : nullptr);
    if (!udp)
    {
        address = InetSocketAddress(Ipv4Address::GetZero(), 0);
        return 0;
    }
    return udp->GetSockName(address);
}

int
QuicCcSocket::GetPeerName(Address& address) const
{
    if (m_role != Role::CLIENT && m_role != Role::ACCEPTED)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    address = m_peer;
    return 0;
}

bool
QuicCcSocket::SetAllowBroadcast(bool allowBroadcast)
{
    return !allowBroadcast;
}

bool
QuicCcSocket::GetAllowBroadcast() const
{
    return false;
}

uint64_t
QuicCcSocket::GetBytesSent() const
{
    return m_connection ? m_connection->GetSendStream().GetEndOffset() : 0;
}

uint64_t
QuicCcSocket::GetBytesAcked() const
{
    return m_connection ? m_connection->GetSendStream().GetBytesAcked() : 0;
}

uint64_t
QuicCcSocket::GetBytesReceived() const
{
    return m_connection ? m_connection->GetBytesReceived() : 0;
}

uint64_t
QuicCcSocket::GetDroppedDatagrams() const
{
    return m_dropped;
}

bool
QuicCcSocket::IsEstablished() const
{
    return m_connection && m_connection->GetState() == QuicCcConnection::STATE_ESTABLISHED;
}

bool
QuicCcSocket::IsClient() const
{
    return m_role == Role::CLIENT;
}

uint64_t
QuicCcSocket::GetConnectionId() const
{
    return m_connectionId;
}

uint64_t
QuicCcSocket::GetSentPacketRecordPeak() const
{
    return m_connection ? m_connection->GetLossDetection().GetRecordPeak() : 0;
}

// ---------------------------------------------------------------- the state machine

bool
QuicCcSocket::IsOpen() const
{
    return m_connection && m_connection->GetState() != QuicCcConnection::STATE_CLOSED;
}

void
QuicCcSocket::HandleUdpRead(Ptr<Socket> udp)
{
    Address from;
    Ptr<Packet> p;
    while ((p = udp->RecvFrom(from)))
    {
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        if (m_role != Role::LISTENER)
        {
            if (m_connection)
            {
                m_connection->OnDatagram(bytes, p);
            }
            continue;
        }
        const QuicCcDispatcher::Route route =
            m_dispatcher.Dispatch(bytes.data(), bytes.size(), from, !m_listenerClosed, p);
        Ptr<QuicCcSocket> connection = route.connection;
        if (route.open)
        {
            connection = CreateServerChild(from, route.connectionId);
        }
        else if (!connection)
        {
            OnDatagramDropped(route.dropReason);
        }
        if (connection)
        {
            connection->m_connection->OnDatagram(bytes, p);
        }
    }
}

Ptr<QuicCcSocket>
QuicCcSocket::CreateServerChild(const Address& from, uint64_t connectionId)
{
    NS_LOG_FUNCTION(this << from << connectionId);
    if (!NotifyConnectionRequest(from))
    {
        return nullptr;
    }
    Ptr<QuicCcSocket> child = CreateObject<QuicCcSocket>();
    child->m_config = m_config.CloneForConnection();
    child->m_node = m_node;
    child->m_listener = this;
    child->m_peer = from;
    child->m_connectionId = connectionId;
    child->m_ccPrototype = m_ccPrototype;
    // Announce the socket before it starts, so that trace sinks and stream assignment see it all.
    if (!m_childCreated.IsNull())
    {
        m_childCreated(child);
    }
    child->StartConnection(Role::ACCEPTED);
    child->m_connection->AcceptClient();
    m_dispatcher.Add(from, child);
    NotifyNewConnectionCreated(child, from);
    return child;
}

void
QuicCcSocket::MaybeFinishClose()
{
    if (!m_closeRequested || !IsEstablished() || !m_connection->GetSendStream().AllAcked())
    {
        return;
    }
    // Wait for the peer's stream too, unless it never sent anything.
    const QuicCcRecvStream& recv = m_connection->GetRecvStream();
    if (!recv.NothingReceived() && !recv.Complete())
    {
        return;
    }
    Ptr<QuicCcSocket> self(this);
    m_connection->SendConnectionClose(kNoError, "done");
    EnterClosed();
    if (!m_closeNotified)
    {
        m_closeNotified = true;
        NotifyNormalClose();
    }
}

void
QuicCcSocket::EnterClosed()
{
    NS_LOG_FUNCTION(this);
    m_connection->Close();
    m_closedTrace(this);
    if (m_role == Role::CLIENT && m_udp)
    {
        m_udp->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_udp->Close();
    }
    if (m_role == Role::ACCEPTED && m_listener)
    {
        m_listener->m_dispatcher.OnClosed(m_peer, m_connectionId);
    }
}

// ---------------------------------------------------------------- QuicCcConnection::Owner

void
QuicCcSocket::SendDatagram(Ptr<Packet> datagram)
{
    if (m_config.dontFragment && QuicCcExceedsPathMtu(m_node, m_peer, datagram->GetSize()))
    {
        return; // not fragmented (RFC 9000 Section 14): never arrives, declared lost later
    }
    if (m_role == Role::ACCEPTED)
    {
        m_listener->m_udp->SendTo(datagram, 0, m_peer);
    }
    else
    {
        m_udp->Send(datagram);
    }
}

void
QuicCcSocket::OnDatagramDropped(const std::string& reason)
{
    ++m_dropped;
    NS_LOG_WARN("dropped datagram #" << m_dropped << ": " << reason);
    m_droppedTrace(m_dropped, reason);
}

void
QuicCcSocket::OnPacketSent(uint64_t packetNumber, uint64_t bytes)
{
    m_packetSentTrace(packetNumber, bytes);
}

void
QuicCcSocket::OnPacketReceived(uint64_t packetNumber, uint64_t bytes)
{
    m_packetReceivedTrace(packetNumber, bytes);
}

void
QuicCcSocket::OnRttSample(const QuicRttStats& rtt)
{
    m_rttTrace(rtt.GetLatestRtt(), rtt.GetSmoothedRtt(), rtt.GetMinRtt());
}

void
QuicCcSocket::OnHandshakeComplete()
{
    NotifyConnectionSucceeded();
}

bool
QuicCcSocket::IsReceiving() const
{
    return !m_shutdownRecv;
}

void
QuicCcSocket::OnDataReceived()
{
    NotifyDataRecv();
}

void
QuicCcSocket::OnDataSent(uint64_t bytes)
{
    NotifyDataSent(static_cast<uint32_t>(bytes));
}

void
QuicCcSocket::OnSendBufferFreed(uint32_t available)
{
    if (!m_closeRequested && !m_shutdownSend && IsEstablished())
    {
        NotifySend(available);
    }
}

void
QuicCcSocket::OnPeerClose(uint64_t errorCode, const std::string& reason)
{
    Ptr<QuicCcSocket> self(this);
    EnterClosed();
    if (errorCode == kNoError)
    {
        NotifyNormalClose();
        return;
    }
    m_errno = ERROR_SHUTDOWN;
    NotifyErrorClose();
}

void
QuicCcSocket::OnTransportError(uint64_t errorCode, const std::string& reason)
{
    // The connection closed itself; the application learns it as an error close.
    OnPeerClose(errorCode, reason);
}

void
QuicCcSocket::OnPacketProcessed()
{
    MaybeFinishClose();
}

void
QuicCcSocket::OnIdleTimeout(Time idle)
{
    Ptr<QuicCcSocket> self(this);
    const QuicCcConnection::State before = m_connection->GetState();
    EnterClosed();
    if (before == QuicCcConnection::STATE_HANDSHAKE)
    {
        m_errno = ERROR_NOTCONN;
        NotifyConnectionFailed();
        return;
    }
    const QuicCcSendStream& send = m_connection->GetSendStream();
    const bool ourStreamDone = send.GetEndOffset() == 0 || send.AllAcked();
    // Only a FIN proves the peer's stream is complete; silence is not completion.
    if (ourStreamDone && m_connection->GetRecvStream().Complete() && !m_closeNotified)
    {
        // Everything was delivered both ways; the peer's CONNECTION_CLOSE was lost: a silent close.
        m_closeNotified = true;
        NotifyNormalClose();
        return;
    }
    m_errno = ERROR_SHUTDOWN;
    NotifyErrorClose();
}

} // namespace ns3
