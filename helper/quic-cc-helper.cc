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

#include <set>
#include <sstream>

namespace ns3
{

QuicCcHelper::QuicCcHelper()
{
    m_transport.SetTypeId(QuicCcSocketFactory::GetTypeId());
}

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
 * number with one of Time(std::string)'s units or none (any other suffix aborts there), an
 * object (a PointerValue, e.g. a random variable) must name a TypeId, and a
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
    if (valueType == "ns3::PointerValue")
    {
        // "ns3::Type" or "ns3::Type[Name=Value|...]": ns-3's ObjectFactory dereferences an
        // unknown TypeId (a crash, not an error).
        const size_t open = text.find('[');
        TypeId tid;
        return TypeId::LookupByNameFailSafe(text.substr(0, open), &tid) && tid.HasConstructor() &&
               (open == std::string::npos || text.back() == ']');
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
    CheckControllerTransport();
}

void
QuicCcHelper::CheckControllerTransport() const
{
    NS_ABORT_MSG_UNLESS(m_transport.GetTypeId() == QuicCcSocketFactory::GetTypeId(),
                        "QuicCcHelper: SetCongestionControl chooses one of quic-cc's controllers, "
                        "which the "
                            << m_transport.GetTypeId().GetName()
                            << " transport does not run; set its socket attribute "
                               "CongestionControl instead");
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
QuicCcHelper::SetTransport(const std::string& factoryTypeId)
{
    TypeId tid;
    NS_ABORT_MSG_UNLESS(
        TypeId::LookupByNameFailSafe(factoryTypeId, &tid) &&
            tid.IsChildOf(QuicCcSocketFactoryBase::GetTypeId()) && tid.HasConstructor(),
        "QuicCcHelper::SetTransport: '"
            << factoryTypeId
            << "' is not a QUIC transport of this program (ns3::QuicCcSocketFactory, or "
               "ns3::QuicCcNgtcp2SocketFactory in a build with the ngtcp2 transport, the "
               "program linked with libns3-quic-cc-ngtcp2; with --as-needed, a program that "
               "names none of its symbols needs -Wl,--no-as-needed)");
    m_transport.SetTypeId(tid);
    if (m_ccConfigured)
    {
        CheckControllerTransport();
    }
    const TypeId socket = SocketTypeId();
    for (const auto& [name, value] : m_socketAttributes)
    {
        CheckAttribute(socket, name, *value);
    }
}

std::string
QuicCcHelper::GetSocketFactoryName() const
{
    return m_transport.GetTypeId().GetName();
}

TypeId
QuicCcHelper::SocketTypeId() const
{
    return m_transport.Create<QuicCcSocketFactoryBase>()->GetSocketTypeId();
}

void
QuicCcHelper::SetSocketAttribute(const std::string& name, const AttributeValue& value)
{
    CheckAttribute(SocketTypeId(), name, value);
    m_socketAttributes.emplace_back(name, value.Copy());
}

void
QuicCcHelper::EnableQlog(const std::string& directory)
{
    QuicCcCreateQlogDirectory(directory);
    m_qlogDirectory = directory;
}

void
QuicCcHelper::Install(Ptr<Node> node) const
{
    const TypeId tid = m_transport.GetTypeId();
    NS_ABORT_MSG_IF(!node->GetObject<UdpSocketFactory>(),
                    "QuicCcHelper: node " << node->GetId()
                                          << " has no UDP; install the Internet stack first");
    NS_ABORT_MSG_IF(node->GetObject<QuicCcSocketFactoryBase>(tid),
                    "QuicCcHelper: " << tid.GetName() << " is already installed on node "
                                     << node->GetId());
    Ptr<QuicCcSocketFactoryBase> factory = m_transport.Create<QuicCcSocketFactoryBase>();
    for (const auto& [name, value] : m_socketAttributes)
    {
        factory->SetSocketAttribute(name, *value);
    }
    if (m_ccConfigured)
    {
        // SetCongestionControl and SetTransport have checked that the transport is quic-cc's.
        DynamicCast<QuicCcSocketFactory>(factory)->SetCongestionController(
            m_ccFactory.Create<QuicCongestionController>());
    }
    if (!m_qlogDirectory.empty())
    {
        factory->EnableQlog(m_qlogDirectory);
    }
    node->AggregateObject(factory);
}

Ptr<QuicCcSocketFactoryBase>
QuicCcHelper::InstalledFactory(Ptr<Node> node, const std::string& caller) const
{
    Ptr<QuicCcSocketFactoryBase> factory =
        node->GetObject<QuicCcSocketFactoryBase>(m_transport.GetTypeId());
    NS_ABORT_MSG_IF(!factory,
                    "QuicCcHelper::" << caller << ": " << m_transport.GetTypeId().GetName()
                                     << " is not installed on node " << node->GetId());
    return factory;
}

int64_t
QuicCcHelper::AssignStreams(NodeContainer nodes, int64_t stream) const
{
    int64_t used = 0;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        used += InstalledFactory(*it, "AssignStreams")->AssignStreams(stream + used);
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
    const TypeId socketTid = SocketTypeId();
    NS_ABORT_MSG_UNLESS(socketTid.LookupTraceSourceByName(traceSource),
                        "QuicCcHelper::ConnectSocketTrace: " << socketTid.GetName()
                                                             << " has no trace source '"
                                                             << traceSource << "'");
    const std::string factoryName = m_transport.GetTypeId().GetName();
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<QuicCcSocketFactoryBase> factory = InstalledFactory(*it, "ConnectSocketTrace");
        // The factory owns this callback: capture a plain pointer to it, not a Ptr (no cycle).
        const QuicCcSocketFactoryBase* owner = PeekPointer(factory);
        const uint32_t nodeId = (*it)->GetId();
        factory->TraceConnectWithoutContext(
            "SocketCreated",
            Callback<void, Ptr<QuicCcSocketBase>>([=](Ptr<QuicCcSocketBase> socket) {
                if (!withContext)
                {
                    socket->TraceConnectWithoutContext(traceSource, cb);
                    return;
                }
                // SocketCreated fires right after the socket joined SocketList: it is the last one.
                std::ostringstream path;
                path << "/NodeList/" << nodeId << "/$" << factoryName << "/SocketList/"
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
