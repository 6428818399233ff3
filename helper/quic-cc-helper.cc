/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-helper.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/names.h"
#include "ns3/node.h"
#include "ns3/quic-cc-qlog.h"
#include "ns3/quic-cc-socket-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/udp-socket-factory.h"

#include <filesystem>
#include <set>
#include <sstream>

namespace ns3
{

QuicCcHelper::QuicCcHelper() = default;

namespace
{
/// Whether all of \p text reads as one \p T through operator>>, as ns-3's
/// ATTRIBUTE_VALUE_IMPLEMENT DeserializeFromString reads it (which aborts unless the stream
/// reaches its end: "abc" for a DoubleValue is an abort there, a failure here).
template <typename T>
bool
ReadsWhole(const std::string& text)
{
    std::istringstream is(text);
    T v{};
    is >> v;
    return !is.fail() && is.eof();
}

/**
 * Whether \p text can be handed to the DeserializeFromString of a \p valueType (the checker's
 * GetValueTypeName) without an abort inside ns-3: numbers must read whole, a Time must be a
 * number with one of Time(std::string)'s units or none (any other suffix aborts there), and a
 * value of any other non-string type must be one word (operator>> reads one, and ns-3 aborts
 * when text is left over).
 */
bool
SafeToDeserialize(const std::string& valueType, const std::string& text)
{
    if (valueType == "ns3::StringValue")
    {
        return true;
    }
    if (text.empty() || text.find_first_of(" \t\n\r\f\v") != std::string::npos)
    {
        return false;
    }
    if (valueType == "ns3::DoubleValue")
    {
        return ReadsWhole<double>(text);
    }
    if (valueType == "ns3::UintegerValue")
    {
        return text.front() != '-' && ReadsWhole<uint64_t>(text);
    }
    if (valueType == "ns3::IntegerValue")
    {
        return ReadsWhole<int64_t>(text);
    }
    if (valueType == "ns3::TimeValue")
    {
        const size_t unit = text.find_first_not_of("+-0123456789.eE");
        static const std::set<std::string>
            kUnits{"s", "ms", "us", "ns", "ps", "fs", "min", "h", "d", "y"};
        return ReadsWhole<double>(text.substr(0, unit)) &&
               (unit == std::string::npos || kUnits.count(text.substr(unit)) > 0);
    }
    return true;
}
} // namespace

void
QuicCcHelper::CheckControllerName(const std::string& tid) const
{
    // TypeId::LookupByName only asserts (compiled out of release ns-3), so check by hand.
    TypeId id;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(tid, &id),
                        "QuicCcHelper: unknown congestion controller TypeId '" << tid << "'");
    NS_ABORT_MSG_UNLESS(id.IsChildOf(QuicCongestionController::GetTypeId()),
                        "QuicCcHelper: '" << tid << "' is not a QuicCongestionController");
}

std::string
QuicCcHelper::CheckAttributeValue(TypeId tid, const std::string& name, const AttributeValue& value)
{
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        return tid.GetName() + " has no attribute '" + name + "'";
    }
    if (!(info.flags & TypeId::ATTR_CONSTRUCT))
    {
        return tid.GetName() + "::" + name + " cannot be set at construction";
    }
    return CheckValue(info.checker, value, " for attribute " + name + " of " + tid.GetName());
}

std::string
QuicCcHelper::CheckValue(Ptr<const AttributeChecker> checker,
                         const AttributeValue& value,
                         const std::string& subject)
{
    const auto* text = dynamic_cast<const StringValue*>(&value);
    const std::string invalid =
        "invalid value '" + (text ? text->Get() : value.SerializeToString(checker)) + "'" + subject;
    const std::string range = checker->HasUnderlyingTypeInformation()
                                  ? " (" + checker->GetUnderlyingTypeInformation() + ")"
                                  : "";
    // An enum attribute: EnumChecker's value type is "ns3::EnumValue" up to 3.40 and
    // "ns3::EnumValue<E>" from 3.41 (a class template then, with no common base to cast to).
    if (text && checker->GetValueTypeName().rfind("ns3::EnumValue", 0) == 0)
    {
        std::istringstream names(checker->GetUnderlyingTypeInformation());
        std::string candidate;
        bool known = false;
        while (std::getline(names, candidate, '|'))
        {
            known = known || candidate == text->Get();
        }
        if (!known)
        {
            return invalid + " (one of " + checker->GetUnderlyingTypeInformation() + ")";
        }
    }
    if ((text && !SafeToDeserialize(checker->GetValueTypeName(), text->Get())) ||
        !checker->CreateValidValue(value))
    {
        return invalid + range;
    }
    return "";
}

namespace
{
/// Abort unless \p tid has attribute \p name and \p value is valid for it, naming all three.
void
CheckAttribute(TypeId tid, const std::string& name, const AttributeValue& value)
{
    const std::string reason = QuicCcHelper::CheckAttributeValue(tid, name, value);
    NS_ABORT_MSG_UNLESS(reason.empty(), "QuicCcHelper: " << reason);
}

/// The connection closed: nothing more is traced.
void
CloseQlog(Ptr<QuicCcQlogWriter> writer, Ptr<QuicCcSocket>)
{
    writer->Close();
}

/// A connection started: open its qlog file and connect the writer to the socket's traces.
void
StartQlog(std::string directory, Ptr<QuicCcSocket> socket)
{
    const bool client = socket->IsClient();
    std::ostringstream path;
    path << directory << "/quic-cc-node" << (socket->GetNode() ? socket->GetNode()->GetId() : 0)
         << "-" << (client ? "client" : "server") << "-" << std::hex << socket->GetConnectionId()
         << ".sqlog";
    std::ostringstream title;
    title << "quic-cc " << socket->GetCongestionController()->GetName() << " connection "
          << std::hex << socket->GetConnectionId();
    Ptr<QuicCcQlogWriter> w =
        Create<QuicCcQlogWriter>(path.str(), client ? "client" : "server", title.str());
    socket->TraceConnectWithoutContext("PacketSent",
                                       MakeCallback(&QuicCcQlogWriter::PacketSent, w));
    socket->TraceConnectWithoutContext("PacketReceived",
                                       MakeCallback(&QuicCcQlogWriter::PacketReceived, w));
    socket->TraceConnectWithoutContext("PacketLost",
                                       MakeCallback(&QuicCcQlogWriter::PacketLost, w));
    socket->TraceConnectWithoutContext("CongestionWindow64",
                                       MakeCallback(&QuicCcQlogWriter::Cwnd, w));
    socket->TraceConnectWithoutContext("SlowStartThreshold64",
                                       MakeCallback(&QuicCcQlogWriter::Ssthresh, w));
    socket->TraceConnectWithoutContext("BytesInFlight",
                                       MakeCallback(&QuicCcQlogWriter::BytesInFlight, w));
    socket->TraceConnectWithoutContext("Rtt", MakeCallback(&QuicCcQlogWriter::Rtt, w));
    socket->TraceConnectWithoutContext("CongestionState",
                                       MakeCallback(&QuicCcQlogWriter::State, w));
    socket->TraceConnectWithoutContext("ConnectionClosed", MakeBoundCallback(&CloseQlog, w));
    // Flushed and closed at Simulator::Destroy too, whatever state the connection is in.
    Simulator::ScheduleDestroy(&QuicCcQlogWriter::Close, w);
}

/// A socket was created: open its qlog when its connection starts.
void
AttachQlog(std::string directory, Ptr<QuicCcSocket> socket)
{
    socket->TraceConnectWithoutContext("ConnectionStarted",
                                       MakeBoundCallback(&StartQlog, directory));
}
} // namespace

void
QuicCcHelper::SetControllerAttribute(const std::string& name, const AttributeValue& value)
{
    NS_ABORT_MSG_UNLESS(m_ccConfigured,
                        "QuicCcHelper::SetControllerAttribute('"
                            << name << "'): call SetCongestionControl first");
    CheckAttribute(m_ccFactory.GetTypeId(), name, value);
    m_ccFactory.Set(name, value);
}

void
QuicCcHelper::SetSocketAttribute(const std::string& name, const AttributeValue& value)
{
    CheckAttribute(QuicCcSocket::GetTypeId(), name, value);
    m_socketAttributes.emplace_back(name, value.Copy());
}

void
QuicCcHelper::EnableQlog(const std::string& directory)
{
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    NS_ABORT_MSG_IF(ec || !std::filesystem::is_directory(directory),
                    "QuicCcHelper::EnableQlog: cannot create directory '" << directory
                                                                          << "': " << ec.message());
    m_qlogDirectory = directory;
}

void
QuicCcHelper::Install(Ptr<Node> node) const
{
    NS_ABORT_MSG_IF(!node->GetObject<UdpSocketFactory>(),
                    "QuicCcHelper: node " << node->GetId()
                                          << " has no UDP; install the Internet stack first");
    NS_ABORT_MSG_IF(node->GetObject<QuicCcSocketFactory>(),
                    "QuicCcHelper: quic-cc is already installed on node " << node->GetId());
    Ptr<QuicCcSocketFactory> factory = CreateObject<QuicCcSocketFactory>();
    for (const auto& [name, value] : m_socketAttributes)
    {
        factory->SetSocketAttribute(name, *value);
    }
    if (m_ccConfigured)
    {
        factory->SetCongestionController(m_ccFactory.Create<QuicCongestionController>());
    }
    if (!m_qlogDirectory.empty())
    {
        factory->TraceConnectWithoutContext("SocketCreated",
                                            MakeBoundCallback(&AttachQlog, m_qlogDirectory));
    }
    node->AggregateObject(factory);
}

int64_t
QuicCcHelper::AssignStreams(NodeContainer nodes, int64_t stream) const
{
    int64_t used = 0;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<QuicCcSocketFactory> factory = (*it)->GetObject<QuicCcSocketFactory>();
        NS_ABORT_MSG_IF(!factory,
                        "QuicCcHelper::AssignStreams: quic-cc is not installed on node "
                            << (*it)->GetId());
        used += factory->AssignStreams(stream + used);
    }
    return used;
}

void
QuicCcHelper::ConnectSocketTraceWithoutContext(NodeContainer nodes,
                                               const std::string& traceSource,
                                               const CallbackBase& cb) const
{
    ConnectOnSocketCreated(nodes, traceSource, cb, false);
}

void
QuicCcHelper::ConnectSocketTrace(NodeContainer nodes,
                                 const std::string& traceSource,
                                 const CallbackBase& cb) const
{
    ConnectOnSocketCreated(nodes, traceSource, cb, true);
}

void
QuicCcHelper::ConnectOnSocketCreated(NodeContainer nodes,
                                     const std::string& traceSource,
                                     const CallbackBase& cb,
                                     bool withContext) const
{
    NS_ABORT_MSG_IF(!cb.GetImpl(),
                    "QuicCcHelper::ConnectSocketTrace: null callback for '" << traceSource << "'");
    NS_ABORT_MSG_UNLESS(QuicCcSocket::GetTypeId().LookupTraceSourceByName(traceSource),
                        "QuicCcHelper::ConnectSocketTrace: ns3::QuicCcSocket has no trace source '"
                            << traceSource << "'");
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<QuicCcSocketFactory> factory = (*it)->GetObject<QuicCcSocketFactory>();
        NS_ABORT_MSG_IF(!factory,
                        "QuicCcHelper::ConnectSocketTrace: quic-cc is not installed on node "
                            << (*it)->GetId());
        // The factory owns this callback: capture a plain pointer to it, not a Ptr (no cycle).
        const QuicCcSocketFactory* owner = PeekPointer(factory);
        const uint32_t nodeId = (*it)->GetId();
        factory->TraceConnectWithoutContext(
            "SocketCreated",
            Callback<void, Ptr<QuicCcSocket>>([=](Ptr<QuicCcSocket> socket) {
                if (!withContext)
                {
                    socket->TraceConnectWithoutContext(traceSource, cb);
                    return;
                }
                // SocketCreated fires right after the socket joined SocketList: it is the last one.
                std::ostringstream path;
                path << "/NodeList/" << nodeId << "/$ns3::QuicCcSocketFactory/SocketList/"
                     << owner->GetSockets().size() - 1 << "/" << traceSource;
                socket->TraceConnect(traceSource, path.str(), cb);
            }));
    }
}

void
QuicCcHelper::Install(NodeContainer nodes) const
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Install(*it);
    }
}

void
QuicCcHelper::Install(const std::string& nodeName) const
{
    Ptr<Node> node = Names::Find<Node>(nodeName);
    NS_ABORT_MSG_IF(!node, "QuicCcHelper: no node named '" << nodeName << "'");
    Install(node);
}

} // namespace ns3
