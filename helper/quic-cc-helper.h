/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_HELPER_H
#define QUIC_CC_HELPER_H

#include "ns3/callback.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/quic-cc-socket-factory-base.h"
#include "ns3/quic-congestion-controller.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc-helper
 * \brief Installs a QUIC transport on nodes (quic-cc's model, a QuicCcSocketFactory, or the
 * ngtcp2 library, SetTransport) and chooses its congestion controller and socket attributes.
 *
 * \code
 *   QuicCcHelper quic;
 *   quic.SetCongestionControl("ns3::QuicCubic", "IdleRestart", StringValue("LastSent"));
 *   quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(1350));
 *   quic.Install(nodes); // after InternetStackHelper
 *   quic.ConnectSocketTraceWithoutContext(nodes.Get(0), "CongestionWindow",
 *                                         MakeCallback(&CwndChange)); // void (uint32_t, uint32_t)
 *   BulkSendHelper bulk("ns3::QuicCcSocketFactory", InetSocketAddress(receiverAddr, 443));
 * \endcode
 */
class QuicCcHelper
{
  public:
    QuicCcHelper();

    /**
     * Controller for every socket later created on nodes this helper installs (without this
     * call, each socket's CongestionControl attribute decides; its default is ns3::QuicCubic).
     * \param tid  TypeId name, e.g. "ns3::QuicCubic" or "ns3::QuicReno"; it must name a
     *             QuicCongestionController: anything else is a fatal error naming \p tid
     * \param args attribute name/value pairs, e.g. "IdleRestart", StringValue("LastSent");
     *             an unknown attribute name is a fatal error naming it (ObjectFactory)
     */
    template <typename... Args>
    void SetCongestionControl(const std::string& tid, Args&&... args);

    /**
     * Set one attribute of the controller chosen by SetCongestionControl (attributes known only
     * at run time, e.g. parsed from a command line). An unknown name or an invalid value is a
     * fatal error naming the TypeId, the attribute and the value.
     */
    void SetControllerAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Check that \p tid has a constructible attribute \p name that accepts \p value, without
     * aborting: "" if so, else the reason, naming the TypeId, the attribute and the value. An
     * enum given as a string is checked against the enum's names first (ns-3.37's EnumChecker
     * asserts on an unknown name in builds with asserts on).
     */
    static std::string CheckAttributeValue(TypeId tid,
                                           const std::string& name,
                                           const AttributeValue& value);

    /**
     * Check \p value against \p checker without aborting (a StringValue is first checked to be
     * text that the checker's value type reads without an abort inside ns-3: "abc" for a
     * DoubleValue, "5x" for a TimeValue): "" if valid, else "invalid value 'V'<subject> (range)",
     * the range as the checker describes it, e.g. "(double in (0, 1))". Also for a GlobalValue's
     * checker (--RngRun=abc).
     */
    static std::string CheckValue(Ptr<const AttributeChecker> checker,
                                  const AttributeValue& value,
                                  const std::string& subject = "");

    /**
     * The transport the helper installs, named by its socket factory's TypeId:
     * "ns3::QuicCcSocketFactory" (quic-cc's model, the default) or
     * "ns3::QuicCcNgtcp2SocketFactory" (the real ngtcp2 library; in builds with the ngtcp2
     * transport, the program linked with libns3-quic-cc-ngtcp2). The rest of a script is the
     * same for both: give applications GetSocketFactoryName(). A name that is not a
     * QuicCcSocketFactoryBase in this program is a fatal error naming it; socket attributes
     * given before are checked against the new transport's socket (fatal if it lacks one), and
     * SetCongestionControl (quic-cc's controllers) is fatal with ngtcp2, whose controller is its
     * socket attribute CongestionControl.
     */
    void SetTransport(const std::string& factoryTypeId);
    /// The transport's socket factory TypeId name, for BulkSendHelper, PacketSinkHelper, ...
    std::string GetSocketFactoryName() const;

    /// An attribute of the transport's socket for every socket (e.g. "MaxDatagramSize" of
    /// ns3::QuicCcSocket); an unknown name or an invalid value is fatal, naming both.
    void SetSocketAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Write one qlog file (JSON-SEQ, .sqlog) per connection into \p directory, in the sockets'
     * QlogSchema (default: draft-ietf-quic-qlog-main-schema-13 with quic-events-12; V0_3 for
     * qvis; QuicCcQlogWriter),
     * which is created if missing (QuicCcCreateQlogDirectory: a failure ends the run with one line
     * naming it, as a failed qlog write does, QuicCcQlogFile), on the nodes installed
     * after this call: a QuicCcQlogWriter is attached to every socket through the factory's
     * SocketCreated trace source and opened when the connection starts; it is flushed and closed
     * when the connection closes or the simulation is destroyed.
     */
    void EnableQlog(const std::string& directory);

    /// Aggregate a configured QuicCcSocketFactory to each node (the Internet stack must be
    /// installed first: fatal error naming the node otherwise; installing twice is fatal too).
    void Install(NodeContainer nodes) const;
    void Install(Ptr<Node> node) const;              //!< \copydoc Install(NodeContainer) const
    void Install(const std::string& nodeName) const; //!< node by Names

    /**
     * Fix the random streams of quic-cc on \p nodes (installed before): each node's factory gets
     * its own block, so results do not depend on other simulations run in the same process.
     * \return the number of streams used
     */
    int64_t AssignStreams(NodeContainer nodes, int64_t stream) const;

    /**
     * Connect \p cb to the trace source \p traceSource (e.g. "CongestionWindow") of every
     * QuicCcSocket created on \p nodes from now on: the sockets applications create and the
     * server sockets their listeners accept. Each socket is connected the moment it exists
     * (through the factory's SocketCreated trace source), before its connection starts, so the
     * first CongestionWindow call (0 -> initial window) is seen; call it after Install() and
     * before Simulator::Run(). \p cb has the trace source's signature, e.g.
     * void (uint32_t oldValue, uint32_t newValue) for CongestionWindow, as ns-3 TCP's.
     *
     * A node without quic-cc or an unknown trace source name is a fatal error naming it; a
     * callback of another signature is ns-3's fatal "Incompatible types" error, naming both
     * types, when the first socket is created.
     */
    void ConnectSocketTraceWithoutContext(NodeContainer nodes,
                                          const std::string& traceSource,
                                          const CallbackBase& cb) const;
    /**
     * As ConnectSocketTraceWithoutContext, but \p cb gets the socket's Config path first, as
     * Config::Connect gives it:
     * "/NodeList/<n>/$ns3::QuicCcSocketFactory/SocketList/<k>/<traceSource>".
     */
    void ConnectSocketTrace(NodeContainer nodes,
                            const std::string& traceSource,
                            const CallbackBase& cb) const;

  private:
    /// Both ConnectSocketTrace forms; \p withContext selects the socket's Config path as context.
    void ConnectOnSocketCreated(NodeContainer nodes,
                                const std::string& traceSource,
                                const CallbackBase& cb,
                                bool withContext) const;
    void CheckControllerName(const std::string& tid) const;
    /// Fatal unless the transport runs quic-cc's controllers (SetCongestionControl).
    void CheckControllerTransport() const;
    /// The socket TypeId of the transport.
    TypeId SocketTypeId() const;
    /// The transport's factory on \p node; fatal error naming \p caller and the node if absent.
    Ptr<QuicCcSocketFactoryBase> InstalledFactory(Ptr<Node> node, const std::string& caller) const;

    void SetControllerAttributes()
    {
    }

    template <typename... Rest>
    void SetControllerAttributes(const std::string& name,
                                 const AttributeValue& value,
                                 Rest&&... rest)
    {
        SetControllerAttribute(name, value);
        SetControllerAttributes(std::forward<Rest>(rest)...);
    }

    ObjectFactory m_transport;  //!< the socket factory the helper installs (TypeId only)
    ObjectFactory m_ccFactory;  //!< controller TypeId + attributes
    bool m_ccConfigured{false}; //!< SetCongestionControl was called; otherwise each socket's
                                //!< CongestionControl attribute (default ns3::QuicCubic) decides
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_socketAttributes; //!< in order
    std::string m_qlogDirectory; //!< EnableQlog directory ("" = no qlog)
};

template <typename... Args>
void
QuicCcHelper::SetCongestionControl(const std::string& tid, Args&&... args)
{
    CheckControllerName(tid);
    m_ccFactory = ObjectFactory();
    m_ccFactory.SetTypeId(tid);
    m_ccConfigured = true;
    SetControllerAttributes(std::forward<Args>(args)...);
}

} // namespace ns3

#endif // QUIC_CC_HELPER_H
