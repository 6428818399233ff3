/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-socket-writer.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuicCcSocketWriter");

QuicCcSocketWriter::~QuicCcSocketWriter()
{
    Stop();
}

void
QuicCcSocketWriter::Write(Ptr<Socket> socket, Ptr<Packet> p)
{
    NS_ABORT_MSG_IF(m_socket && m_socket != socket,
                    "QuicCcSocketWriter: one writer writes to one socket");
    m_socket = socket;
    if (m_waiting.empty() && p->GetSize() <= socket->GetTxAvailable())
    {
        Send(p);
        return;
    }
    NS_LOG_INFO(p->GetSize() << " bytes wait for send-buffer space (" << socket->GetTxAvailable()
                             << " bytes free, " << m_waitingBytes << " bytes already waiting)");
    m_waiting.push_back(p);
    m_waitingBytes += p->GetSize();
    if (!m_callbackSet)
    {
        socket->SetSendCallback(MakeCallback(&QuicCcSocketWriter::OnSendSpace, this));
        m_callbackSet = true;
    }
    Drain();
}

uint64_t
QuicCcSocketWriter::GetWaitingBytes() const
{
    return m_waitingBytes;
}

void
QuicCcSocketWriter::Stop()
{
    m_waiting.clear();
    m_waitingBytes = 0;
    if (m_callbackSet && m_socket)
    {
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    }
    m_callbackSet = false;
    m_socket = nullptr;
}

void
QuicCcSocketWriter::Drain()
{
    if (m_draining)
    {
        return; // the Send below freed space and called back: the loop goes on
    }
    m_draining = true;
    while (!m_waiting.empty())
    {
        const uint32_t free = m_socket->GetTxAvailable();
        if (free == 0)
        {
            break;
        }
        const Ptr<Packet> front = m_waiting.front();
        const uint32_t size = front->GetSize();
        if (size <= free)
        {
            m_waiting.pop_front();
            m_waitingBytes -= size;
            Send(front);
        }
        else
        {
            m_waiting.front() = front->CreateFragment(free, size - free);
            m_waitingBytes -= free;
            Send(front->CreateFragment(0, free));
        }
    }
    m_draining = false;
}

void
QuicCcSocketWriter::OnSendSpace(Ptr<Socket>, uint32_t)
{
    Drain();
}

void
QuicCcSocketWriter::Send(Ptr<Packet> p)
{
    const uint32_t free = m_socket->GetTxAvailable();
    const int sent = m_socket->Send(p);
    NS_ABORT_MSG_IF(sent < 0 || static_cast<uint32_t>(sent) != p->GetSize(),
                    "QuicCcSocketWriter: the socket refused a write of "
                        << p->GetSize() << " bytes although " << free
                        << " bytes of its send buffer were free (errno " << m_socket->GetErrno()
                        << ")");
}

} // namespace ns3
