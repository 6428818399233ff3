/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-flow-spec.h"

#include "ns3/object-factory.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/quic-congestion-controller.h"
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

/// The controller TypeId and attributes of a quic or tcp group; "" or the reason they are bad.
std::string
ParseController(const std::string& transport,
                const std::string& controller,
                const std::string& attributes,
                QuicCcFlowGroup* g)
{
    TypeId tid;
    if (transport == "quic")
    {
        const std::string name = controller == "cubic"  ? "ns3::QuicCubic"
                                 : controller == "reno" ? "ns3::QuicReno"
                                                        : controller;
        if (!QuicCcLookupTypeId(name, &tid) ||
            !tid.IsChildOf(QuicCongestionController::GetTypeId()))
        {
            return "unknown QUIC controller '" + controller +
                   "' (cubic, reno, or a QuicCongestionController TypeId)";
        }
    }
    else if (!QuicCcLookupTypeId(controller, &tid) || !IsTcpCongestionOps(tid))
    {
        return "unknown TCP congestion control '" + controller +
               "' (a TcpCongestionOps TypeId such as TcpCubic, TcpNewReno, TcpLinuxReno)";
    }
    g->typeId = tid.GetName();

    if (!attributes.empty())
    {
        for (const std::string& kv : SplitOutsideBrackets(attributes, '|'))
        {
            const size_t eq = kv.find('=');
            if (eq == std::string::npos || eq == 0)
            {
                return "attribute '" + kv + "' is not Name=Value";
            }
            const std::string name = kv.substr(0, eq);
            const std::string value = kv.substr(eq + 1);
            if (std::string why = QuicCcHelper::CheckAttributeValue(tid, name, StringValue(value));
                !why.empty())
            {
                return why;
            }
            g->attributes.emplace_back(name, value);
        }
    }
    return "";
}

/// An ngtcp2 group's controller: one of ngtcp2's own (no ns-3 object, so no attributes), and
/// only in a build with the ngtcp2 transport; "" or the reason it is bad.
std::string
CheckNgtcp2Controller(const std::string& controller, const std::string& attributes)
{
    if (QuicCcNgtcp2Version().empty())
    {
        return std::string("ngtcp2 flows: ") + kQuicCcNgtcp2Missing;
    }
    const std::vector<std::string>& known = QuicCcTransportSpec::Controllers("ngtcp2");
    if (std::find(known.begin(), known.end(), controller) == known.end())
    {
        return "unknown ngtcp2 congestion control '" + controller + "' (cubic, reno or bbr)";
    }
    if (!attributes.empty())
    {
        return "ngtcp2 flows take no controller attributes (ngtcp2's controllers are not ns-3 "
               "objects)";
    }
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

    if (transport == "ngtcp2")
    {
        if (std::string why = CheckNgtcp2Controller(controller, attributes); !why.empty())
        {
            return why;
        }
        g->typeId = controller;
        g->label = "ngtcp2-" + controller;
        g->quic = QuicCcTransportSpec("ngtcp2", controller);
    }
    else if (std::string why = ParseController(transport, controller, attributes, g); !why.empty())
    {
        return why;
    }
    else
    {
        g->label = g->typeId;
    }
    if (transport == "quic")
    {
        g->quic = QuicCcTransportSpec("quic-cc", g->typeId);
        for (const auto& [name, value] : g->attributes)
        {
            g->quic.SetController(name, StringValue(value));
        }
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
