/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-transport-spec.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/quic-congestion-controller.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>

#ifdef QUICCC_HAVE_NGTCP2
#include "ns3/quic-cc-ngtcp2-socket.h"
#endif

namespace ns3
{

const char* const kQuicCcNgtcp2Missing =
    "needs the ngtcp2 transport, which this build lacks: reconfigure with network (the pinned "
    "ngtcp2 1.24.0 is downloaded) or with make build NGTCP2_ARCHIVE=/path/to/ngtcp2-1.24.0.tar.xz "
    "(https://github.com/ngtcp2/ngtcp2/releases/tag/v1.24.0)";

#ifdef QUICCC_HAVE_NGTCP2
std::string
QuicCcNgtcp2Version()
{
    return QuicCcNgtcp2Socket::GetLibraryVersion();
}
#else
std::string
QuicCcNgtcp2Version()
{
    return "";
}
#endif

namespace
{

/// One transport: its name, socket factory and socket TypeIds, and its controllers.
struct Transport
{
    std::string name;                     //!< "quic-cc"
    std::string factory;                  //!< its QuicCcSocketFactoryBase TypeId name
    std::string socket;                   //!< its socket TypeId name
    std::vector<std::string> controllers; //!< short names, in the rows' order
    std::string (*libraryVersion)();      //!< the library it runs; nullptr: quic-cc's models
};

/// Every transport quic-cc has; those of this program are the ones whose factory is registered.
const std::vector<Transport>&
AllTransports()
{
    static const std::vector<Transport> kAll{
        {"quic-cc", "ns3::QuicCcSocketFactory", "ns3::QuicCcSocket", {"cubic", "reno"}, nullptr},
        {"ngtcp2",
         "ns3::QuicCcNgtcp2SocketFactory",
         "ns3::QuicCcNgtcp2Socket",
         {"cubic", "reno", "bbr"},
         &QuicCcNgtcp2Version}};
    return kAll;
}

/// Whether \p t is built into this program.
bool
Built(const Transport& t)
{
    TypeId tid;
    return TypeId::LookupByNameFailSafe(t.factory, &tid);
}

const Transport&
Find(const std::string& name)
{
    for (const Transport& t : AllTransports())
    {
        if (t.name == name)
        {
            return t;
        }
    }
    NS_FATAL_ERROR("QuicCcTransportSpec: transport must be quic-cc or ngtcp2, got '" << name
                                                                                     << "'");
}

/// Whether the socket of \p t has attribute \p name.
bool
Has(const Transport& t, const std::string& name)
{
    TypeId tid;
    TypeId::AttributeInformation info;
    return TypeId::LookupByNameFailSafe(t.socket, &tid) && tid.LookupAttributeByName(name, &info);
}

/// quic-cc's TypeId for controller \p controller ("cubic", "reno" or a TypeId name).
std::string
ModelControllerTypeId(const std::string& controller)
{
    if (controller == "cubic")
    {
        return "ns3::QuicCubic";
    }
    if (controller == "reno")
    {
        return "ns3::QuicReno";
    }
    return controller;
}

/// Whether \p tid is quic-cc's QuicCongestionController or one of its controllers.
bool
IsController(TypeId tid)
{
    const TypeId base = QuicCongestionController::GetTypeId();
    return tid == base || tid.IsChildOf(base);
}

/// quic-cc's controller \p controller ("cubic", "reno", a TypeId name with or without "ns3::")
/// into \p tid; false if it names none.
bool
LookupModelController(const std::string& controller, TypeId* tid)
{
    const std::string name = ModelControllerTypeId(controller);
    return (TypeId::LookupByNameFailSafe(name, tid) ||
            (name.rfind("ns3::", 0) != 0 && TypeId::LookupByNameFailSafe("ns3::" + name, tid))) &&
           IsController(*tid);
}

/// Whether a QuicCongestionController TypeId of this program has attribute \p name.
bool
SomeControllerHas(const std::string& name)
{
    for (uint32_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        TypeId::AttributeInformation info;
        if (IsController(tid) && tid.LookupAttributeByName(name, &info))
        {
            return true;
        }
    }
    return false;
}

} // namespace

QuicCcTransportSpec::QuicCcTransportSpec(const std::string& transport,
                                         const std::string& controller)
{
    SetTransport(transport, controller);
}

void
QuicCcTransportSpec::SetTransport(const std::string& transport, const std::string& controller)
{
    const Transport& t = Find(transport);
    const bool known =
        controller.empty() ||
        std::find(t.controllers.begin(), t.controllers.end(), controller) != t.controllers.end();
    TypeId tid;
    const bool modelTypeId = !t.libraryVersion && LookupModelController(controller, &tid);
    NS_ABORT_MSG_UNLESS(known || modelTypeId,
                        "QuicCcTransportSpec: " << transport << " has no controller '" << controller
                                                << "'");
    m_transport = transport;
    m_controller = controller;
}

void
QuicCcTransportSpec::SetController(const std::string& name, const AttributeValue& value)
{
    NS_ABORT_MSG_UNLESS(SomeControllerHas(name),
                        "QuicCcTransportSpec: no congestion controller has an attribute '" << name
                                                                                           << "'");
    m_controllerSettings.push_back({name, value.Copy(), {"quic-cc"}});
}

void
QuicCcTransportSpec::SetSocket(const std::string& name, const AttributeValue& value)
{
    std::vector<std::string> transports;
    for (const Transport& t : AllTransports())
    {
        if (Has(t, name))
        {
            transports.push_back(t.name);
        }
    }
    // A transport this program is built without (ngtcp2 in an ns-3 tree) may have it: the
    // setting is kept for none then, as no socket of this program takes it.
    const bool allBuilt = std::all_of(AllTransports().begin(),
                                      AllTransports().end(),
                                      [](const Transport& t) { return Built(t); });
    NS_ABORT_MSG_IF(transports.empty() && allBuilt,
                    "QuicCcTransportSpec: no transport's socket has an attribute '" << name << "'");
    m_socketSettings.push_back({name, value.Copy(), transports});
}

void
QuicCcTransportSpec::SetSocket(const std::string& name,
                               const AttributeValue& value,
                               const std::vector<std::string>& transports)
{
    for (const std::string& transport : transports)
    {
        NS_ABORT_MSG_UNLESS(!Built(Find(transport)) || Has(Find(transport), name),
                            "QuicCcTransportSpec: " << SocketTypeName(transport)
                                                    << " has no attribute '" << name << "'");
    }
    m_socketSettings.push_back({name, value.Copy(), transports});
}

void
QuicCcTransportSpec::SetDefault(const std::string& fullName, const AttributeValue& value)
{
    const size_t sep = fullName.rfind("::");
    TypeId tid;
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(sep != std::string::npos &&
                            TypeId::LookupByNameFailSafe(fullName.substr(0, sep), &tid) &&
                            tid.LookupAttributeByName(fullName.substr(sep + 2), &info),
                        "QuicCcTransportSpec: no attribute " << fullName);
    m_defaults.push_back({fullName, value.Copy(), {"quic-cc"}});
}

void
QuicCcTransportSpec::ApplyTo(QuicCcHelper& quic) const
{
    const Transport& t = Find(m_transport);
    quic.SetTransport(t.factory);
    const auto mine = [this](const Setting& s) {
        return std::find(s.transports.begin(), s.transports.end(), m_transport) !=
               s.transports.end();
    };
    if (t.name == "quic-cc")
    {
        // quic-cc's controllers are ns-3 objects with attributes of their own.
        const bool settings =
            std::any_of(m_controllerSettings.begin(), m_controllerSettings.end(), mine);
        NS_ABORT_MSG_IF(settings && m_controller.empty(),
                        "QuicCcTransportSpec: controller settings need a controller");
        if (!m_controller.empty())
        {
            TypeId tid;
            LookupModelController(m_controller, &tid);
            quic.SetCongestionControl(tid.GetName());
            for (const Setting& s : m_controllerSettings)
            {
                TypeId::AttributeInformation info;
                if (tid.LookupAttributeByName(s.name, &info))
                {
                    quic.SetControllerAttribute(s.name, *s.value);
                }
            }
        }
    }
    else
    {
        // ngtcp2 runs its own controller, named by its socket's CongestionControl ("Cubic"), and
        // sends the scenario's MaxDatagramSize from the first packet on, as quic-cc does (its
        // default would send 1200 B until PMTUD, ngtcp2_conn_get_path_max_tx_udp_payload_size2).
        if (!m_controller.empty())
        {
            std::string name = m_controller;
            name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
            quic.SetSocketAttribute("CongestionControl", StringValue(name));
        }
        quic.SetSocketAttribute("UdpPayloadShaping", BooleanValue(false));
    }
    for (const Setting& s : m_socketSettings)
    {
        if (mine(s))
        {
            quic.SetSocketAttribute(s.name, *s.value);
        }
    }
    for (const Setting& s : m_defaults)
    {
        if (mine(s))
        {
            Config::SetDefault(s.name, *s.value);
        }
    }
}

const std::string&
QuicCcTransportSpec::GetTransport() const
{
    return m_transport;
}

const std::string&
QuicCcTransportSpec::GetController() const
{
    return m_controller;
}

std::string
QuicCcTransportSpec::GetSocketFactoryName() const
{
    return Find(m_transport).factory;
}

std::string
QuicCcTransportSpec::GetLibraryVersion() const
{
    const Transport& t = Find(m_transport);
    return t.libraryVersion ? t.libraryVersion() : "";
}

std::string
QuicCcTransportSpec::GetControllerLabel() const
{
    const Transport& t = Find(m_transport);
    TypeId tid;
    return t.libraryVersion                            ? t.name + "-" + m_controller
           : LookupModelController(m_controller, &tid) ? tid.GetName()
                                                       : m_controller;
}

bool
QuicCcTransportSpec::SetFromRowName(const std::string& rowName)
{
    for (const Transport& t : AllTransports())
    {
        const std::string prefix = t.name + "-";
        if (t.libraryVersion && rowName.rfind(prefix, 0) == 0)
        {
            const std::string controller = rowName.substr(prefix.size());
            if (std::find(t.controllers.begin(), t.controllers.end(), controller) !=
                t.controllers.end())
            {
                SetTransport(t.name, controller);
                return true;
            }
        }
    }
    return false;
}

std::string
QuicCcTransportSpec::CheckController(
    const std::string& transport,
    const std::string& controller,
    const std::vector<std::pair<std::string, std::string>>& attributes)
{
    const Transport& t = Find(transport);
    if (t.libraryVersion)
    {
        if (!Built(t))
        {
            return transport + " flows: " + kQuicCcNgtcp2Missing;
        }
        if (std::find(t.controllers.begin(), t.controllers.end(), controller) ==
            t.controllers.end())
        {
            std::string names;
            for (size_t i = 0; i < t.controllers.size(); ++i)
            {
                names += (i == 0                         ? ""
                          : i + 1 < t.controllers.size() ? ", "
                                                         : " or ") +
                         t.controllers[i];
            }
            return "unknown " + transport + " congestion control '" + controller + "' (" + names +
                   ")";
        }
        if (!attributes.empty())
        {
            return transport + " flows take no controller attributes (" + transport +
                   "'s controllers are not ns-3 objects)";
        }
        return "";
    }
    TypeId tid;
    if (!LookupModelController(controller, &tid))
    {
        return "unknown QUIC controller '" + controller +
               "' (cubic, reno, or a QuicCongestionController TypeId)";
    }
    for (const auto& [name, value] : attributes)
    {
        if (std::string why = QuicCcHelper::CheckAttributeValue(tid, name, StringValue(value));
            !why.empty())
        {
            return why;
        }
    }
    return "";
}

std::vector<std::string>
QuicCcTransportSpec::Transports()
{
    std::vector<std::string> out;
    for (const Transport& t : AllTransports())
    {
        if (Built(t))
        {
            out.push_back(t.name);
        }
    }
    return out;
}

const std::vector<std::string>&
QuicCcTransportSpec::Controllers(const std::string& transport)
{
    return Find(transport).controllers;
}

std::string
QuicCcTransportSpec::SocketTypeName(const std::string& transport)
{
    return Find(transport).socket;
}

bool
QuicCcTransportSpec::SocketHas(const std::string& transport, const std::string& attribute)
{
    return Has(Find(transport), attribute);
}

std::vector<std::string>
QuicCcTransportSpec::SocketTransports(const std::string& attribute)
{
    std::vector<std::string> out;
    for (const std::string& transport : Transports())
    {
        if (SocketHas(transport, attribute))
        {
            out.push_back(transport);
        }
    }
    return out;
}

std::string
QuicCcTransportSpec::SocketAttributeName(const std::string& transport, const std::string& attribute)
{
    for (TypeId t = TypeId::LookupByName(Find(transport).socket);; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            if (t.GetAttribute(i).name == attribute)
            {
                return t.GetName() + "::" + attribute;
            }
        }
        NS_ABORT_MSG_IF(t == t.GetParent(),
                        "QuicCcTransportSpec: " << Find(transport).socket << " has no attribute "
                                                << attribute);
    }
}

std::vector<std::string>
QuicCcTransportSpec::SocketAttributeNames(const std::string& attribute)
{
    std::vector<std::string> out;
    for (const std::string& transport : SocketTransports(attribute))
    {
        out.push_back(SocketAttributeName(transport, attribute));
    }
    return out;
}

std::vector<std::string>
QuicCcTransportSpec::QlogAttributes()
{
    return SocketAttributeNames("QlogDirectory");
}

std::vector<std::string>
QuicCcTransportSpec::SetByTransport()
{
    // quic-cc: the factory gives each socket the helper's controller (its CongestionControl);
    // ngtcp2: CongestionControl and UdpPayloadShaping, set in ApplyTo.
    std::vector<std::string> out;
    for (const std::string& transport : Transports())
    {
        for (const char* attribute : {"CongestionControl", "UdpPayloadShaping"})
        {
            if (SocketHas(transport, attribute))
            {
                out.push_back(SocketAttributeName(transport, attribute));
            }
        }
    }
    return out;
}

std::string
QuicCcTransportSpec::TransportOfType(const std::string& typeName)
{
    for (const Transport& t : AllTransports())
    {
        if (typeName == t.socket || typeName == t.factory)
        {
            return t.name;
        }
    }
    TypeId tid;
    if (TypeId::LookupByNameFailSafe(typeName, &tid) && IsController(tid))
    {
        return "quic-cc";
    }
    return "";
}

std::vector<std::string>
QuicCcRowNames(const QuicCcTransportRows& rows)
{
    std::vector<std::string> names;
    for (const auto& [name, spec] : rows)
    {
        names.push_back(name);
    }
    return names;
}

QuicCcTransportSpec
QuicCcRowTransport(const QuicCcTransportRows& rows,
                   const std::string& name,
                   const std::string& study)
{
    std::string known;
    for (const auto& [row, spec] : rows)
    {
        if (row == name)
        {
            return spec();
        }
        known += (known.empty() ? "" : ", ") + row;
    }
    NS_FATAL_ERROR(study << ": '" << name << "' is not one of " << known);
}

} // namespace ns3
