/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-flow-spec.h"

#include "ns3/object-factory.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

namespace
{

/// Most flows one group may hold (each flow is two leaf nodes).
constexpr uint64_t kMaxFlowsPerGroup = 1000;

/// Split \p s at \p sep, ignoring separators inside [...].
std::vector<std::string>
SplitOutsideBrackets(const std::string& s, char sep)
{
    std::vector<std::string> out(1);
    int depth = 0;
    for (char c : s)
    {
        depth += (c == '[') - (c == ']');
        if (c == sep && depth == 0)
        {
            out.emplace_back();
            continue;
        }
        out.back() += c;
    }
    return out;
}

/// Whether \p tid makes a TcpCongestionOps. By object, not by TypeId parent: ns-3.37 registers
/// TcpCubic with TcpSocketBase as its parent.
bool
IsTcpCongestionOps(TypeId tid)
{
    if (tid.IsChildOf(TcpCongestionOps::GetTypeId()))
    {
        return true;
    }
    if (!tid.HasConstructor())
    {
        return false;
    }
    ObjectFactory factory;
    factory.SetTypeId(tid);
    return static_cast<bool>(DynamicCast<TcpCongestionOps>(factory.Create()));
}

/// A group's "Name=Value|..." controller attributes into \p out; "" or why they are bad.
std::string
ParseAttributes(const std::string& attributes,
                std::vector<std::pair<std::string, std::string>>* out)
{
    if (attributes.empty())
    {
        return "";
    }
    for (const std::string& kv : SplitOutsideBrackets(attributes, '|'))
    {
        const size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
        {
            return "attribute '" + kv + "' is not Name=Value";
        }
        out->emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    return "";
}

/// A tcp group's TcpCongestionOps and its attributes; "" or the reason they are bad.
std::string
ParseTcpController(const std::string& controller, QuicCcFlowGroup* g)
{
    TypeId tid;
    if (!QuicCcLookupTypeId(controller, &tid) || !IsTcpCongestionOps(tid))
    {
        return "unknown TCP congestion control '" + controller +
               "' (a TcpCongestionOps TypeId such as TcpCubic, TcpNewReno, TcpLinuxReno)";
    }
    for (const auto& [name, value] : g->attributes)
    {
        if (std::string why = QuicCcHelper::CheckAttributeValue(tid, name, StringValue(value));
            !why.empty())
        {
            return why;
        }
    }
    g->typeId = tid.GetName();
    g->label = g->typeId;
    return "";
}

/// A QUIC group's transport with its controller and attributes (QuicCcTransportSpec checks
/// them for the transport it names); "" or the reason they are bad.
std::string
ParseQuicController(const std::string& transport, const std::string& controller, QuicCcFlowGroup* g)
{
    if (std::string why =
            QuicCcTransportSpec::CheckController(transport, controller, g->attributes);
        !why.empty())
    {
        return why;
    }
    g->quic = QuicCcTransportSpec(transport, controller);
    for (const auto& [name, value] : g->attributes)
    {
        g->quic.SetController(name, StringValue(value));
    }
    g->label = g->quic.GetControllerLabel();
    // quic-cc's controller by TypeId (the label), a library's by its own name.
    g->typeId = g->quic.GetLibraryVersion().empty() ? g->label : controller;
    return "";
}

/// Parse one group; "" or the reason it is bad.
std::string
ParseGroup(const std::string& token, QuicCcFlowGroup* g)
{
    g->token = token;
    const std::vector<std::string> parts = SplitOutsideBrackets(token, ':');
    if (parts.size() != 3)
    {
        return "expected transport:controller:count";
    }
    const std::string& transport = parts[0];
    std::string controller = parts[1];
    const std::string& count = parts[2];
    // The group's transport word: "quic" is quic-cc's models, "tcp" ns-3's TCP.
    if (transport != "quic" && transport != "tcp" && transport != "ngtcp2")
    {
        return "transport must be quic, tcp or ngtcp2, got '" + transport + "'";
    }
    g->transport = transport;

    std::string attributes;
    if (const size_t open = controller.find('['); open != std::string::npos)
    {
        if (controller.back() != ']')
        {
            return "attribute list must end with ']'";
        }
        attributes = controller.substr(open + 1, controller.size() - open - 2);
        controller = controller.substr(0, open);
    }
    if (std::string why = ParseAttributes(attributes, &g->attributes); !why.empty())
    {
        return why;
    }
    if (std::string why =
            transport == "tcp"
                ? ParseTcpController(controller, g)
                : ParseQuicController(transport == "quic" ? "quic-cc" : transport, controller, g);
        !why.empty())
    {
        return why;
    }

    if (count.empty() || count.size() > 6 ||
        !std::all_of(count.begin(), count.end(), [](unsigned char c) { return std::isdigit(c); }))
    {
        return "count must be a positive integer, got '" + count + "'";
    }
    const uint64_t n = std::stoull(count);
    if (n == 0 || n > kMaxFlowsPerGroup)
    {
        return "count must be 1.." + std::to_string(kMaxFlowsPerGroup) + ", got " + count;
    }
    g->count = static_cast<uint32_t>(n);
    return "";
}

} // namespace

std::string
QuicCcParseFlowSpec(const std::string& spec, std::vector<QuicCcFlowGroup>* groups)
{
    if (spec.empty())
    {
        return "empty flow list";
    }
    for (const std::string& token : SplitOutsideBrackets(spec, ','))
    {
        QuicCcFlowGroup g;
        if (std::string why = ParseGroup(token, &g); !why.empty())
        {
            return "'" + token + "': " + why;
        }
        groups->push_back(g);
    }
    return "";
}

bool
QuicCcLookupTypeId(const std::string& name, TypeId* tid)
{
    return TypeId::LookupByNameFailSafe(name, tid) ||
           (name.rfind("ns3::", 0) != 0 && TypeId::LookupByNameFailSafe("ns3::" + name, tid));
}

} // namespace ns3
