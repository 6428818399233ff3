/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_TRANSPORT_H
#define QUIC_CC_NGTCP2_TRANSPORT_H

#include "ns3/nstime.h"
#include "ns3/quic-cc-helper.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/// The linked ngtcp2's version ("1.24.0"); "" when the transport is not built.
std::string QuicCcNgtcp2Version();

/**
 * The ngtcp2 socket attributes QuicCcUseNgtcp2 (and the scenarios' EnableQlog) set on every socket
 * it creates, as pairs (full attribute name, the program's option that sets it) for
 * QuicCcCommandLine::AttributesSetBy, so that a --ns3::QuicCcNgtcp2Socket::X=V the run would
 * overwrite is refused: \p options maps an attribute's short name ("MaxDatagramSize") to the
 * option ("mss"); the others are set by the scenario itself (option ""). The quic-cc socket's
 * CongestionControl, which QuicCcHelper::SetCongestionControl sets, is in the list too.
 */
std::vector<std::pair<std::string, std::string>> QuicCcTransportAttributesSetBy(
    const std::map<std::string, std::string>& options);

/// Why a run that needs the ngtcp2 transport cannot start in a build without it, and how to turn
/// it on (the completion of "<option>=<value>: " in a usage error).
extern const char* const kQuicCcNgtcp2Missing;

/// The ngtcp2 transport's socket factory TypeId ("ns3::QuicCcNgtcp2SocketFactory").
extern const char* const kQuicCcNgtcp2Factory;

/**
 * Make \p quic install the ngtcp2 transport (QuicCcHelper::SetTransport) running the library's
 * \p controller ("cubic", "reno" or "bbr"; another is a fatal error naming it), its UDP payloads
 * of MaxDatagramSize from the first packet on (no shaping, as quic-cc's rows). Call it before
 * any SetSocketAttribute; MaxDatagramSize, MaxAckDelay and IdleTimeout have the same names on
 * both transports. A build without the ngtcp2 transport fails here (QuicCcParseTransport
 * refuses such runs first).
 */
void QuicCcUseNgtcp2(QuicCcHelper& quic, const std::string& controller);

/// ngtcp2's controllers, in the order of the examples' rows: "cubic", "reno", "bbr".
const std::vector<std::string>& QuicCcNgtcp2Controllers();

/**
 * \ingroup quic-cc
 * The examples' --transport option: "quic-cc" (the models, the default), "ngtcp2" (the real
 * library's own controllers, rows ngtcp2-cubic, ngtcp2-reno, ngtcp2-bbr) or "all" (both, over
 * the same runs). QuicCcParseTransport makes one.
 */
struct QuicCcTransportChoice
{
    std::string text{"quic-cc"}; //!< as given
    bool quicCc{true};           //!< the quic-cc (and other non-ngtcp2) rows run
    bool ngtcp2{false};          //!< the ngtcp2 rows run

    /**
     * A quic-cc-only option given when only the ngtcp2 rows run is a mistake, not a silent
     * no-op: throws QuicCcUsageError(\p option, \p value, "has no effect with
     * --transport=ngtcp2 (<why>)") if \p given and not quicCc.
     */
    void RequireQuicCcFor(const std::string& option,
                          const std::string& value,
                          bool given,
                          const std::string& why) const;

    /**
     * An attribute default of a transport whose rows do not run is refused, not ignored:
     * throws QuicCcUsageError naming the first of \p attributes (QuicCcCommandLine::
     * GetGivenAttributes) that belongs to the ngtcp2 socket when no ngtcp2 row runs, or to
     * quic-cc's socket or controllers (ns3::QuicCcSocket, ns3::QuicCcSocketFactory, a
     * QuicCongestionController) when only ngtcp2 rows run.
     */
    void RequireAttributesUsed(
        const std::vector<std::pair<std::string, std::string>>& attributes) const;
};

/**
 * An example's list of rows (--stacks, --configs): comma-separated names of \p known, or "all"
 * for every one of them, the ngtcp2 ones (those \p isNgtcp2 holds for) only where the ngtcp2
 * transport is built. Throws QuicCcUsageError(\p option, ...) for an unknown name, a name given
 * twice (also through "all"), or an ngtcp2 one in a build without it. Returns them in the order
 * of \p known.
 */
std::vector<std::string> QuicCcParseRows(const std::string& option,
                                         const std::string& text,
                                         const std::vector<std::string>& known,
                                         const std::function<bool(const std::string&)>& isNgtcp2);

/// The --transport help text (the three values and the ngtcp2 rows).
std::string QuicCcTransportHelp();

/// Parse --transport (QuicCcUsageError for another value, or for ngtcp2 / all when this build
/// lacks the ngtcp2 transport).
QuicCcTransportChoice QuicCcParseTransport(const std::string& text);

} // namespace ns3

#endif // QUIC_CC_NGTCP2_TRANSPORT_H
