/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_TRANSPORT_SPEC_H
#define QUIC_CC_TRANSPORT_SPEC_H

#include "ns3/attribute.h"
#include "ns3/ptr.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class QuicCcHelper;

/**
 * \ingroup quic-cc
 * A QUIC transport as a study installs it, written once for either engine: the transport
 * ("quic-cc", the model; "ngtcp2", the real ngtcp2 library in a build with it), its congestion
 * controller, and attribute values for the controller and the socket. The options layer builds
 * it (QuicCcOptions::GetTransportSpec, one per row); a scenario applies it to its QuicCcHelper in
 * one call (ApplyTo) and then sets what it sets on every transport under the same names
 * (MaxDatagramSize, IdleTimeout, EnableQlog):
 *
 * \code
 *   QuicCcTransportSpec spec("ngtcp2", "bbr");     // or ("quic-cc", "cubic")
 *   spec.SetController("HyStart", BooleanValue(false));
 *   spec.SetSocket("AckPolicy", StringValue("Rfc9000"));
 *   spec.SetSocket("MaxAckDelay", TimeValue(MilliSeconds(25)));
 *   QuicCcHelper quic;
 *   spec.ApplyTo(quic);   // ngtcp2: CongestionControl Bbr, MaxAckDelay; not AckPolicy
 * \endcode
 *
 * Each setting is for the transports that honour it: a socket attribute for those whose socket
 * has it (AckPolicy: quic-cc's model; MaxAckDelay: both) unless named explicitly, a controller
 * attribute for quic-cc's controllers that have it (IdleRestart: CUBIC, not Reno; ngtcp2's
 * controllers are not ns-3 objects). ApplyTo sets those of its transport and leaves the others
 * to the other engine (the ngtcp2 rows of a --transport=all batch run the library's own ACK
 * policy). A setting no transport honours is a fatal error naming it; refusing a setting the
 * user gave that no run of a batch honours is the options layer's job, before the first run.
 *
 * This file is the one place of the studies that knows the transports: their names, socket
 * factories and sockets, and how each takes its controller.
 */
class QuicCcTransportSpec
{
  public:
    /**
     * \param transport  "quic-cc" or "ngtcp2" (QuicCcTransportSpec::Transports)
     * \param controller "cubic" or "reno" (either transport), "bbr" (ngtcp2), a
     *                   QuicCongestionController TypeId name (quic-cc: "ns3::QuicCubic"), or ""
     *                   for the socket's own default (its CongestionControl attribute)
     * Anything else is a fatal error naming it.
     */
    explicit QuicCcTransportSpec(const std::string& transport = "quic-cc",
                                 const std::string& controller = "");

    /// Change the transport and its controller (as the constructor), keeping the settings.
    void SetTransport(const std::string& transport, const std::string& controller);

    /// An attribute of quic-cc's controller ("HyStart", "IdleRestart"), set on a controller
    /// whose TypeId has it; a name no QuicCongestionController has is a fatal error.
    void SetController(const std::string& name, const AttributeValue& value);

    /// A socket attribute, for every transport whose socket has it; a name no transport's
    /// socket has is a fatal error (in a program built without a transport, one that only that
    /// transport might have is kept for none: "PacketTraces" without ngtcp2).
    void SetSocket(const std::string& name, const AttributeValue& value);

    /// A socket attribute for the transports \p transports only (each must have it: fatal
    /// otherwise), e.g. an example option that only quic-cc's rows honour.
    void SetSocket(const std::string& name,
                   const AttributeValue& value,
                   const std::vector<std::string>& transports);

    /// An attribute default of an object quic-cc's controller creates itself, which no helper
    /// reaches ("ns3::QuicHyStartPlusPlus::CssRounds"): ApplyTo sets it with Config::SetDefault
    /// for the quic-cc transport (for every such object created afterwards in the process).
    void SetDefault(const std::string& fullName, const AttributeValue& value);

    /// Install this transport with its controller and settings on \p quic (QuicCcHelper::
    /// SetTransport, SetCongestionControl or the socket's CongestionControl, then the settings
    /// in the order given). Call it before any other setting of \p quic.
    void ApplyTo(QuicCcHelper& quic) const;

    const std::string& GetTransport() const;  //!< "quic-cc" or "ngtcp2"
    const std::string& GetController() const; //!< as given ("" = the socket's default)
    /// The transport's socket factory TypeId name ("ns3::QuicCcSocketFactory")
    std::string GetSocketFactoryName() const;
    /// The version of the library this transport runs ("1.24.0" for ngtcp2), "" for quic-cc's
    /// models: the outputs' ngtcp2_version column.
    std::string GetLibraryVersion() const;
    /// The controller as results name it: quic-cc's by TypeId ("ns3::QuicCubic"), a library's
    /// by transport and name ("ngtcp2-bbr", a row name SetFromRowName reads back).
    std::string GetControllerLabel() const;
    /// If \p rowName is a library controller's label ("ngtcp2-cubic"), set that transport and
    /// controller (as SetTransport) and return true; otherwise change nothing and return false.
    bool SetFromRowName(const std::string& rowName);

    /**
     * Check a controller and its attributes as a user wrote them, without a fatal error.
     * \param transport  "quic-cc" or "ngtcp2"
     * \param controller as the constructor takes it (not "")
     * \param attributes controller attribute names and values (quic-cc's controllers only)
     * \return "" if the constructor and SetController take them, else one line saying why not
     *         (an unknown controller, a transport this program lacks, a bad attribute value)
     */
    static std::string CheckController(
        const std::string& transport,
        const std::string& controller,
        const std::vector<std::pair<std::string, std::string>>& attributes);

    /// The transports of this program, in the order of the examples' rows: "quic-cc", then
    /// "ngtcp2" when the ngtcp2 transport is built.
    static std::vector<std::string> Transports();

    /// The controllers a transport runs by short name: quic-cc {"cubic", "reno"}, ngtcp2
    /// {"cubic", "reno", "bbr"} (the order of the examples' rows).
    static const std::vector<std::string>& Controllers(const std::string& transport);

    /// The socket TypeId name of \p transport ("ns3::QuicCcSocket").
    static std::string SocketTypeName(const std::string& transport);

    /// Whether the socket of \p transport (built) has attribute \p attribute.
    static bool SocketHas(const std::string& transport, const std::string& attribute);

    /// The transports of this program whose socket has attribute \p attribute.
    static std::vector<std::string> SocketTransports(const std::string& attribute);

    /// The full name of \p transport's socket attribute \p attribute as Config::SetDefault takes
    /// it, with the TypeId that declares it ("ns3::QuicCcNgtcp2Socket::MaxAckDelay").
    static std::string SocketAttributeName(const std::string& transport,
                                           const std::string& attribute);

    /// The full names of socket attribute \p attribute on every transport whose socket has it
    /// (for the attributes a scenario sets on either transport: "ns3::QuicCcSocket::IdleTimeout",
    /// "ns3::QuicCcNgtcp2Socket::IdleTimeout").
    static std::vector<std::string> SocketAttributeNames(const std::string& attribute);

    /// The socket attributes QuicCcHelper::EnableQlog sets, of the transports that take the
    /// qlog directory as one ("ns3::QuicCcNgtcp2Socket::QlogDirectory").
    static std::vector<std::string> QlogAttributes();

    /// The attributes ApplyTo sets itself on every socket of a transport (how each takes its
    /// controller, ngtcp2's UdpPayloadShaping): an attribute default would be overwritten.
    static std::vector<std::string> SetByTransport();

    /**
     * The transport whose object \p typeName is ("ns3::QuicCcNgtcp2Socket" -> "ngtcp2";
     * "ns3::QuicCcSocket", "ns3::QuicCcSocketFactory", a QuicCongestionController -> "quic-cc"),
     * or "" for a TypeId of neither.
     */
    static std::string TransportOfType(const std::string& typeName);

  private:
    /// One setting: the attribute, its value, the transports it is for.
    struct Setting
    {
        std::string name;                    //!< attribute name
        Ptr<const AttributeValue> value;     //!< its value
        std::vector<std::string> transports; //!< the transports it is for
    };

    std::string m_transport;                   //!< "quic-cc" or "ngtcp2"
    std::string m_controller;                  //!< as given
    std::vector<Setting> m_controllerSettings; //!< quic-cc's controllers
    std::vector<Setting> m_socketSettings;     //!< sockets
    std::vector<Setting> m_defaults;           //!< SetDefault's (full names)
};

/**
 * \ingroup quic-cc
 * A study's rows by name, each with its transport ("cubic-hystart" -> quic-cc's CUBIC with
 * HyStart++), in the order of the study's rows.
 */
using QuicCcTransportRows =
    std::vector<std::pair<std::string, std::function<QuicCcTransportSpec()>>>;

/// The names of \p rows, in their order.
std::vector<std::string> QuicCcRowNames(const QuicCcTransportRows& rows);

/// The transport of row \p name of \p rows; another name is a fatal error naming it and the
/// study (\p study: "satellite").
QuicCcTransportSpec QuicCcRowTransport(const QuicCcTransportRows& rows,
                                       const std::string& name,
                                       const std::string& study);

/// The linked ngtcp2's version ("1.24.0"); "" when the transport is not built.
std::string QuicCcNgtcp2Version();

/// Why a run that needs the ngtcp2 transport cannot start in a build without it, and how to turn
/// it on (the completion of "<option>=<value>: " in a usage error).
extern const char* const kQuicCcNgtcp2Missing;

} // namespace ns3

#endif // QUIC_CC_TRANSPORT_SPEC_H
