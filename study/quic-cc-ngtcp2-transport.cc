/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ngtcp2-transport.h"

#include "quic-cc-command-line.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/quic-congestion-controller.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>

#ifdef QUICCC_HAVE_NGTCP2
#include "ns3/quic-cc-ngtcp2-socket.h"
#endif

namespace ns3
{

const char* const kQuicCcNgtcp2Missing =
    "needs the ngtcp2 transport, which this build lacks: reconfigure with network (the pinned "
    "ngtcp2 1.24.0 is downloaded) or with make build NGTCP2_ARCHIVE=/path/to/ngtcp2-1.24.0.tar.xz "
    "(https://github.com/ngtcp2/ngtcp2/releases/tag/v1.24.0)";

std::vector<std::pair<std::string, std::string>>
QuicCcTransportAttributesSetBy(const std::map<std::string, std::string>& options)
{
    std::vector<std::pair<std::string, std::string>> setBy{
        {"ns3::QuicCcSocket::CongestionControl", ""}};
    // Every attribute QuicCcUseNgtcp2 and the scenarios set on every ngtcp2 socket, and those
    // \p options names (e.g. MaxAckDelay, which only some scenarios set).
    std::vector<std::string> names{"CongestionControl",
                                   "MaxDatagramSize",
                                   "UdpPayloadShaping",
                                   "IdleTimeout",
                                   "QlogDirectory",
                                   "PacketTraces"};
    for (const auto& [name, option] : options)
    {
        if (std::find(names.begin(), names.end(), name) == names.end())
        {
            names.push_back(name);
        }
    }
    for (const std::string& name : names)
    {
        const auto option = options.find(name);
        setBy.emplace_back("ns3::QuicCcNgtcp2Socket::" + name,
                           option == options.end() ? "" : option->second);
    }
    return setBy;
}

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

const char* const kQuicCcNgtcp2Factory = "ns3::QuicCcNgtcp2SocketFactory";

void
QuicCcUseNgtcp2(QuicCcHelper& quic, const std::string& controller)
{
    const std::string cc = controller == "bbr"     ? "Bbr"
                           : controller == "reno"  ? "Reno"
                           : controller == "cubic" ? "Cubic"
                                                   : "";
    NS_ABORT_MSG_IF(cc.empty(),
                    "ngtcp2 transport: controller must be cubic, reno or bbr, got '" << controller
                                                                                     << "'");
    quic.SetTransport(kQuicCcNgtcp2Factory);
    quic.SetSocketAttribute("CongestionControl", StringValue(cc));
    // The scenario's packet size (MaxDatagramSize) from the first packet, as the quic-cc rows;
    // ngtcp2's default would send 1200 B without PMTUD
    // (ngtcp2_conn_get_path_max_tx_udp_payload_size2).
    quic.SetSocketAttribute("UdpPayloadShaping", BooleanValue(false));
}

const std::vector<std::string>&
QuicCcNgtcp2Controllers()
{
    static const std::vector<std::string> controllers{"cubic", "reno", "bbr"};
    return controllers;
}

void
QuicCcTransportChoice::RequireQuicCcFor(const std::string& option,
                                        const std::string& value,
                                        bool given,
                                        const std::string& why) const
{
    QuicCcRequire(!given || quicCc,
                  option,
                  value,
                  "has no effect with --transport=ngtcp2 (" + why + ")");
}

void
QuicCcTransportChoice::RequireAttributesUsed(
    const std::vector<std::pair<std::string, std::string>>& attributes) const
{
    for (const auto& [attribute, value] : attributes)
    {
        const std::string type = attribute.substr(0, attribute.rfind("::"));
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(type, &tid))
        {
            continue; // not a type of ours (ns-3 has checked the name)
        }
        const bool ngtcp2Type = type.rfind("ns3::QuicCcNgtcp2", 0) == 0;
        const bool quicCcType = type == "ns3::QuicCcSocket" || type == "ns3::QuicCcSocketFactory" ||
                                tid.IsChildOf(QuicCongestionController::GetTypeId());
        QuicCcRequire(!ngtcp2Type || ngtcp2,
                      attribute,
                      value,
                      "has no effect with --transport=" + text + " (no ngtcp2 row runs)");
        QuicCcRequire(!quicCcType || quicCc,
                      attribute,
                      value,
                      "has no effect with --transport=" + text +
                          " (no quic-cc row runs; the ngtcp2 rows use ns3::QuicCcNgtcp2Socket)");
    }
}

std::vector<std::string>
QuicCcParseRows(const std::string& option,
                const std::string& text,
                const std::vector<std::string>& known,
                const std::function<bool(const std::string&)>& isNgtcp2)
{
    const bool ngtcp2Built = !QuicCcNgtcp2Version().empty();
    std::vector<std::string> allowed = known;
    allowed.emplace_back("all");
    std::vector<std::string> chosen;
    for (const std::string& item : QuicCcSplitList(option, text))
    {
        const std::string name = QuicCcParseChoice(option, item, allowed);
        QuicCcRequire(!isNgtcp2(name) || ngtcp2Built, option, item, kQuicCcNgtcp2Missing);
        for (const std::string& one : known)
        {
            if ((name == "all" && (!isNgtcp2(one) || ngtcp2Built)) || one == name)
            {
                QuicCcRequire(std::find(chosen.begin(), chosen.end(), one) == chosen.end(),
                              option,
                              text,
                              "names " + one + " twice");
                chosen.push_back(one);
            }
        }
    }
    std::vector<std::string> ordered;
    for (const std::string& one : known)
    {
        if (std::find(chosen.begin(), chosen.end(), one) != chosen.end())
        {
            ordered.push_back(one);
        }
    }
    return ordered;
}

std::string
QuicCcTransportHelp()
{
    return "quic-cc (the models), ngtcp2 (the real ngtcp2 library's own controllers: rows "
           "ngtcp2-cubic, ngtcp2-reno, ngtcp2-bbr) or all (both, same runs)";
}

QuicCcTransportChoice
QuicCcParseTransport(const std::string& text)
{
    QuicCcTransportChoice choice;
    choice.text = QuicCcParseChoice("transport", text, {"quic-cc", "ngtcp2", "all"});
    QuicCcRequire(text == "quic-cc" || !QuicCcNgtcp2Version().empty(),
                  "transport",
                  text,
                  kQuicCcNgtcp2Missing);
    choice.quicCc = text != "ngtcp2";
    choice.ngtcp2 = text != "quic-cc";
    return choice;
}

} // namespace ns3
