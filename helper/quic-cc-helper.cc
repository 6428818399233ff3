/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-helper.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/global-value.h"
#include "ns3/names.h"
#include "ns3/node.h"
#include "ns3/quic-cc-qlog.h"
#include "ns3/quic-cc-socket-factory.h"
#include "ns3/quic-hystart-plus-plus.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/udp-socket-factory.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <regex>
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

std::string
QuicCcHelper::CheckAttributeDefault(const std::string& name,
                                    const std::string& value,
                                    const std::string& spelling)
{
    const size_t sep = name.rfind("::");
    if (sep == std::string::npos || sep == 0)
    {
        return "not an attribute name (ns3::Type::Attribute)";
    }
    const std::string typeName = name.substr(0, sep);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        return "no TypeId named " + typeName;
    }
    const std::string attribute = name.substr(sep + 2);
    // Config::SetDefault and NS_ATTRIBUTE_DEFAULT look only at the attributes the TypeId itself
    // declares (ns-3.37 Config::SetDefaultFailSafe, ObjectBase::ConstructSelf).
    for (TypeId owner = tid; owner != owner.GetParent(); owner = owner.GetParent())
    {
        bool declared = false;
        for (std::size_t i = 0; i < owner.GetAttributeN(); ++i)
        {
            declared = declared || owner.GetAttribute(i).name == attribute;
        }
        if (declared && owner != tid)
        {
            return attribute + " is declared by " + owner.GetName() + ": use " + spelling +
                   owner.GetName() + "::" + attribute;
        }
        if (declared)
        {
            break;
        }
    }
    return CheckAttributeValue(tid, attribute, StringValue(value));
}

namespace
{
/// An attribute default or a global value as the user gave it.
struct GivenDefault
{
    std::string source; //!< "--" (command line) or "NS_ATTRIBUTE_DEFAULT="
    std::string name;   //!< "ns3::Type::Attribute" or a global value's name
    std::string value;  //!< as given
    bool assigned;      //!< the item had a '=' (an environment item without one is ignored by
                        //!< ns-3)

    /// The value as the user wrote it.
    std::string Quote() const
    {
        return source + name + (assigned ? "=" + value : "");
    }
};

/// The items of an environment variable, split as ns-3 splits them (';' between items, the
/// first '=' between name and value).
std::vector<GivenDefault>
EnvironmentItems(const char* variable)
{
    std::vector<GivenDefault> items;
    const char* env = std::getenv(variable);
    if (!env || !*env)
    {
        return items;
    }
    std::istringstream list(env);
    std::string item;
    while (std::getline(list, item, ';'))
    {
        const size_t eq = item.find('=');
        items.push_back({std::string(variable) + "=",
                         item.substr(0, eq),
                         eq == std::string::npos ? "" : item.substr(eq + 1),
                         eq != std::string::npos});
    }
    return items;
}

/// Options ns-3's CommandLine handles itself (CommandLine::HandleHardOptions, ns-3.37).
const std::set<std::string> kNs3Options{"help",
                                        "PrintHelp",
                                        "PrintGlobals",
                                        "PrintGroups",
                                        "PrintGroup",
                                        "PrintTypeIds",
                                        "PrintAttributes",
                                        "PrintVersion",
                                        "version"};

/// The global value named \p name, or null.
const GlobalValue*
FindGlobal(const std::string& name)
{
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() == name)
        {
            return *it;
        }
    }
    return nullptr;
}

/// The reason \p given is invalid on its own, or "".
std::string
CheckGiven(const GivenDefault& given)
{
    if (!given.assigned)
    {
        return "not Name=Value";
    }
    if (given.name.find("::") != std::string::npos)
    {
        return QuicCcHelper::CheckAttributeDefault(given.name,
                                                   given.value,
                                                   given.source == "--" ? "--" : "");
    }
    const GlobalValue* global = FindGlobal(given.name);
    if (!global)
    {
        return "no global value named " + given.name;
    }
    return QuicCcHelper::CheckValue(global->GetChecker(), StringValue(given.value));
}

/// The TypeIds with constraints between their attributes, and how each object reports them.
const std::vector<std::pair<std::string, std::function<std::string(Ptr<Object>)>>>&
ConstrainedTypes()
{
    static const std::vector<std::pair<std::string, std::function<std::string(Ptr<Object>)>>>
        kTypes{
            {"ns3::QuicHyStartPlusPlus",
             [](Ptr<Object> o) { return DynamicCast<QuicHyStartPlusPlus>(o)->GetConfigError(); }},
            {"ns3::QuicCcSocket",
             [](Ptr<Object> o) { return DynamicCast<QuicCcSocket>(o)->GetConfigError(); }}};
    return kTypes;
}

/**
 * The first constraint between attributes that the given values break, as one line naming the
 * values the user gave that the reason mentions, or "". Each object is built as ns-3 would build
 * it: NS_ATTRIBUTE_DEFAULT wins over a command-line default (ObjectBase::ConstructSelf takes the
 * environment before the initial value that Config::SetDefault changed), so a command-line
 * value is used only for an attribute the environment does not set.
 */
std::string
CheckConstraints(const std::vector<GivenDefault>& commandLine,
                 const std::vector<GivenDefault>& environment,
                 const std::vector<QuicCcHelper::ProgramSetting>& settings)
{
    const auto setByProgram = [&settings](const std::string& name) {
        return std::any_of(
            settings.begin(),
            settings.end(),
            [&name](const QuicCcHelper::ProgramSetting& s) { return s.attribute == name; });
    };
    for (const auto& [typeName, check] : ConstrainedTypes())
    {
        std::vector<std::pair<std::string, std::string>> given; // attribute, as the user wrote it
        ObjectFactory factory(typeName);
        for (const GivenDefault& d : commandLine)
        {
            const bool fromEnvironment =
                std::any_of(environment.begin(), environment.end(), [&d](const GivenDefault& e) {
                    return e.name == d.name;
                });
            if (d.name.rfind(typeName + "::", 0) == 0 && !fromEnvironment && !setByProgram(d.name))
            {
                factory.Set(d.name.substr(typeName.size() + 2), StringValue(d.value));
                given.emplace_back(d.name, d.Quote());
            }
        }
        for (const GivenDefault& e : environment)
        {
            if (e.name.rfind(typeName + "::", 0) == 0 && !setByProgram(e.name))
            {
                given.emplace_back(e.name, e.Quote());
            }
        }
        // The program's own values win over the environment too (ObjectBase::ConstructSelf
        // takes the factory's attributes first).
        for (const QuicCcHelper::ProgramSetting& setting : settings)
        {
            if (setting.attribute.rfind(typeName + "::", 0) == 0)
            {
                factory.Set(setting.attribute.substr(typeName.size() + 2),
                            StringValue(setting.value));
                if (!setting.given.empty())
                {
                    given.emplace_back(setting.attribute, setting.given);
                }
            }
        }
        Ptr<Object> object = factory.Create<Object>();
        const std::string reason = check(object);
        object->Dispose();
        if (reason.empty())
        {
            continue;
        }
        std::string quoted;
        for (const auto& [name, asWritten] : given)
        {
            const std::string attribute = name.substr(typeName.size() + 2);
            if (std::regex_search(reason, std::regex("\\b" + attribute + "\\b")))
            {
                quoted += (quoted.empty() ? "" : " ") + asWritten;
            }
        }
        return (quoted.empty() ? "" : quoted + ": ") + reason;
    }
    return "";
}
} // namespace

std::string
QuicCcHelper::CheckAttributeDefaults(int argc, char* argv[])
{
    return CheckAttributeDefaults(argc, argv, {});
}

std::string
QuicCcHelper::CheckAttributeDefaults(int argc,
                                     char* argv[],
                                     const std::vector<ProgramSetting>& settings)
{
    // The arguments ns-3's CommandLine gives to Config::SetDefault (a name with "::") or
    // Config::SetGlobal (a global value's name); "-name" and "--name" alike, as it reads them.
    std::vector<GivenDefault> commandLine;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const size_t dashes = arg.find_first_not_of('-');
        if (dashes == 0 || dashes == std::string::npos || dashes > 2)
        {
            continue;
        }
        const size_t eq = arg.find('=');
        GivenDefault d{"--",
                       arg.substr(dashes, eq == std::string::npos ? eq : eq - dashes),
                       eq == std::string::npos ? "" : arg.substr(eq + 1),
                       true};
        if (d.name.find("::") != std::string::npos || FindGlobal(d.name))
        {
            commandLine.push_back(d);
        }
    }
    std::vector<GivenDefault> environment = EnvironmentItems("NS_ATTRIBUTE_DEFAULT");
    std::vector<GivenDefault> all = commandLine;
    all.insert(all.end(), environment.begin(), environment.end());
    for (const GivenDefault& d : all)
    {
        if (const std::string reason = CheckGiven(d); !reason.empty())
        {
            return d.Quote() + ": " + reason;
        }
    }
    return CheckConstraints(commandLine, environment, settings);
}

std::string
QuicCcHelper::CheckArguments(int argc,
                             char* argv[],
                             const std::vector<std::string>& options,
                             const std::vector<std::string>& flags,
                             const std::vector<ProgramSetting>& settings)
{
    const auto listed = [](const std::vector<std::string>& names, const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const size_t dashes = arg.find_first_not_of('-');
        const size_t eq = arg.find('=');
        const std::string name = dashes == std::string::npos ? "" : arg.substr(dashes, eq - dashes);
        if (dashes == 0 || dashes > 2 || name.empty())
        {
            return arg + ": not an option (options are --name=value; see --help)";
        }
        const std::string quoted =
            "--" + name + "=" + (eq == std::string::npos ? "" : arg.substr(eq + 1));
        const std::string needsValue = quoted + ": needs a value (--" + name + "=VALUE)";
        if (eq != std::string::npos && eq + 1 == arg.size())
        {
            return needsValue; // ns-3 would print its whole help text and exit 1
        }
        if (listed(options, name))
        {
            if (eq == std::string::npos && !listed(flags, name))
            {
                return needsValue;
            }
            continue;
        }
        if (kNs3Options.count(name))
        {
            continue;
        }
        const GivenDefault d{"--", name, eq == std::string::npos ? "" : arg.substr(eq + 1), true};
        if (name.find("::") == std::string::npos && !FindGlobal(name))
        {
            return quoted + ": unknown option (see --help)";
        }
        if (const std::string reason = CheckGiven(d); !reason.empty())
        {
            return d.Quote() + ": " + reason;
        }
    }
    return CheckAttributeDefaults(argc, argv, settings);
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
