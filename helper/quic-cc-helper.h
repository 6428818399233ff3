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
     * Check one attribute default as ns-3's CommandLine (--\p name=\p value) or the
     * NS_ATTRIBUTE_DEFAULT variable (\p name=\p value) gives it, without aborting: \p name is
     * "ns3::Type::Attribute" with the TypeId that declares the attribute (Config::SetDefault and
     * the environment look at no other), and \p value must pass the attribute's checker.
     * \param name  "ns3::Type::Attribute"
     * \param value  the value as text
     * \param spelling how the user writes a name: "--" on a command line, "" in the environment
     * \return "" if valid, else the reason (naming the declaring TypeId if another one was given)
     */
    static std::string CheckAttributeDefault(const std::string& name,
                                             const std::string& value,
                                             const std::string& spelling = "--");

    /**
     * Check, before CommandLine::Parse, every attribute default and global value given from
     * outside the program, so that a bad one is one line instead of an abort inside ns-3 (text
     * its value type cannot read, e.g. --ns3::QuicCubic::Beta=abc, aborts in ns-3's double.cc)
     * or silence (ns-3 ignores an unknown name or an out-of-range value in the environment):
     * - in \p argv: --ns3::Type::Attribute=V (CheckAttributeDefault) and --GlobalName=V
     *   (--RngRun=V, checked against the global value's checker);
     * - the NS_ATTRIBUTE_DEFAULT environment variable, "ns3::Type::Attribute=V;..." (ns-3 applies
     *   it to each object as it is constructed, and it wins over Config::SetDefault and hence
     *   over the command line; NS_GLOBAL_VALUE is read before main, when ns-3 constructs its
     *   global values, so a bad one aborts there, before any check can run);
     * - then the constraints between attributes, which no single checker sees
     *   (QuicHyStartPlusPlus::GetConfigError: MinRttThresh <= MaxRttThresh;
     *   QuicCcSocket::GetConfigError: MinimumWindowPackets <= InitialWindowPackets,
     *   MaxDatagramSize <= RcvBufSize, ...), on objects built with the values above.
     *
     * Other arguments are left to CommandLine. \return "" if all are valid, else one line that
     * names the values as the user wrote them, e.g.
     * "--ns3::QuicCubic::Beta=abc: invalid value 'abc' for attribute Beta of ns3::QuicCubic
     * (double in (0, 1))" or "NS_ATTRIBUTE_DEFAULT=ns3::QuicCubic::C=-1: ...".
     *
     * \code
     *   CommandLine cmd(__FILE__);
     *   ...
     *   if (std::string error = QuicCcHelper::CheckAttributeDefaults(argc, argv); !error.empty())
     *   {
     *       std::cerr << "my-program: " << error << std::endl;
     *       return 2;
     *   }
     *   cmd.Parse(argc, argv);
     * \endcode
     */
    static std::string CheckAttributeDefaults(int argc, char* argv[]);

    /// An attribute value a program sets itself (e.g. MaxDatagramSize from its option --mss):
    /// it wins over every default, so the constraints between attributes are checked with it.
    struct ProgramSetting
    {
        std::string attribute; //!< "ns3::Type::Attribute"
        std::string value;     //!< the value the program gives it, as text ("1200")
        std::string given;     //!< the argument it comes from as the user wrote it ("--mss=1200");
                               //!< "" for a default of the program
    };

    /**
     * CheckAttributeDefaults with the values \p settings of attributes the program sets itself
     * (QuicCcHelper::SetSocketAttribute, ...): the constraints between attributes are checked
     * with the values the runs use, and an error names the argument each came from, e.g.
     * "--mss=1472 --ns3::QuicCcSocket::RcvBufSize=1400: QuicCcSocket::RcvBufSize (1400) must
     * hold at least one datagram (MaxDatagramSize 1472)".
     */
    static std::string CheckAttributeDefaults(int argc,
                                              char* argv[],
                                              const std::vector<ProgramSetting>& settings);

    /**
     * Check every argument of a program that parses its options with ns-3's CommandLine, which
     * answers each of the following with its whole usage text and exit status 1 (or an abort):
     * an argument that is not an option ("x", "-", "---x"), an empty value ("--name="), an
     * option given without a value that is not one of \p flags ("--name"), an option that is
     * neither one of \p options, nor ns-3's own (--help, --PrintHelp, --PrintAttributes=...),
     * nor an attribute default or global value (--ns3::Type::Attribute=V, --RngRun=V: their
     * values checked as CheckAttributeDefault does); then CheckAttributeDefaults(\p argc,
     * \p argv, \p settings).
     *
     * \param argc  main's argc
     * \param argv  main's argv
     * \param options the program's options (CommandLine::AddValue), without "--"
     * \param flags   those of them that may be given bare ("--dryRun" for a bool)
     * \param settings the attribute values the program sets itself
     * \return "" if all are valid, else one line "<argument>: <reason>", e.g.
     * "--maxBytes=: needs a value (--maxBytes=VALUE)" or "--bogus=1: unknown option (see --help)"
     *
     * \code
     *   if (std::string error = QuicCcHelper::CheckArguments(argc, argv, {"maxBytes", "dryRun"},
     *                                                        {"dryRun"});
     *       !error.empty())
     *   {
     *       std::cerr << "my-program: " << error << std::endl;
     *       return 2;
     *   }
     *   cmd.Parse(argc, argv);
     * \endcode
     */
    static std::string CheckArguments(int argc,
                                      char* argv[],
                                      const std::vector<std::string>& options,
                                      const std::vector<std::string>& flags = {},
                                      const std::vector<ProgramSetting>& settings = {});

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
