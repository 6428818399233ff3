/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_OPTIONS_H
#define QUIC_CC_OPTIONS_H

/**
 * \file
 * The examples' option table: each option declared ONCE; the shared command line does the rest.
 *
 * \code
 *   QuicCcDeathSpiralParams p;                      // its values are the defaults
 *   QuicCcOptions options(__FILE__);
 *   options.Transport();                            // --transport=quic-cc|ngtcp2|all
 *   options.Batch(100, "Runs per configuration");   // --runs, --csv, --jobs, --dryRun, ...
 *   options.Duration("delay", "One-way propagation delay", p.oneWayDelay); // shown as 5ms
 *   options.Count("mss", "MaxDatagramSize, bytes", p.maxDatagramSize, 1200, 1472)
 *       .Socket("MaxDatagramSize");                 // both transports have it
 *   options.Choice("pacing", "Sender pacing", {}).Socket("Pacing"); // no field: a setting,
 *                                                   // its default and names the attribute's
 *   options.Count("ackThreshold", "Rfc9000: ACK every n-th", 1, 1000)
 *       .Socket("AckElicitingThreshold").OnlyOn("quic-cc")
 *       .OnlyWith("ackPolicy", {"Rfc9000"}, "only Rfc9000 uses it");
 *   options.Flag("hystart", "HyStart++").Controller("HyStart");
 *   options.Parse(argc, argv, [&] { QuicCcRequire(...); }); // + the example's own rules
 *   p.quic = options.GetTransportSpec("ngtcp2", "cubic");    // a row: the settings it honours
 * \endcode
 *
 * A declaration gives the option's name, help, kind (Count, Bytes, Duration, Rate, Loss, Number,
 * Bool, Flag, Choice, Text, Output, Directory, Qlog) and either the field it sets, whose value is
 * the default, or no field: then it is a setting of the transport spec (Socket / Controller),
 * with the attribute's own default (and a Choice without a list takes the attribute's names).
 * From the table the shared command line derives:
 * - registration with ns-3's CommandLine (--PrintHelp shows the defaults), parsing and range
 *   checks with the QuicCcParse* messages ("--mss=100: must be a whole number in 1200..1472");
 * - the attribute defaults the run would overwrite, refused before the first run:
 *   "--ns3::QuicCcSocket::Pacing=V: this example sets it from --pacing, ...: use --pacing"
 *   (Socket: each honouring transport's socket attribute; Controller: each controller TypeId
 *   that declares it; Attribute: the one named), and the constraints between attributes checked
 *   with the options' values (QuicCcCommandLine::AttributesSetTo);
 * - which transports honour an option (those whose socket has its Socket attributes, quic-cc for
 *   a Controller attribute, OnlyOn's): with --transport, a given option that no running
 *   transport honours is "has no effect with --transport=ngtcp2 (a quic-cc option; ngtcp2 has
 *   its own)" (Why says more), and an attribute default of a transport none of whose rows runs
 *   is refused too;
 * - OnlyWith: "--ackThreshold=3: has no effect with --ackPolicy=ReceiveBatch (only Rfc9000 uses
 *   it)";
 * - the outputs (--csv, Output, Directory, Qlog) checked together (QuicCcCheckOutputs), and
 *   --dryRun: Parse exits 0 after every check.
 * Rules that are really one example's stay in it: the checks function given to Parse.
 *
 * To add an option to an example: one declaration in its table (and, for a new field, the field
 * in the scenario's parameters, which the scenario reads).
 */

#include "quic-cc-command-line.h"
#include "quic-cc-transport-spec.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * The examples' --transport option: "quic-cc" (the models, the default), "ngtcp2" (the real
 * library's own controllers) or "all" (both, over the same runs). QuicCcOptions::Transport
 * declares and parses it.
 */
struct QuicCcTransportChoice
{
    std::string text{"quic-cc"};                    //!< as given
    std::vector<std::string> transports{"quic-cc"}; //!< those whose rows run, in the rows' order

    /// \return whether the rows of \p transport run
    bool Runs(const std::string& transport) const;
    /// \return the controllers every running transport has ("cubic", "reno" with quic-cc)
    std::vector<std::string> Controllers() const;
};

/**
 * \ingroup quic-cc
 * An example's options, each declared once (see the file's description): declare, Parse,
 * Check, then read the fields and GetTransportSpec.
 */
class QuicCcOptions
{
  public:
    /// One declared option; its methods refine the declaration and return it.
    class Option
    {
      public:
        /// The option stands for socket attribute \p attribute of each transport whose socket
        /// has it: honoured by those transports (unless OnlyOn narrows them), refused as an
        /// attribute default, and (without a field) a setting of the transport spec.
        Option& Socket(const std::string& attribute);
        /// As Socket, for an attribute of quic-cc's controllers (each TypeId that declares it),
        /// honoured by quic-cc only.
        Option& Controller(const std::string& attribute);
        /// The option sets the attribute \p fullName ("ns3::QuicHyStartPlusPlus::L") itself:
        /// refused as an attribute default; the honouring transports are left as they are.
        Option& Attribute(const std::string& fullName);
        /// Only the rows of \p transport honour the option.
        Option& OnlyOn(const std::string& transport);
        /// Why the option has no effect on other transports (the parenthesis of the error).
        Option& Why(const std::string& why);
        /// Given while --\p option has none of \p values, the option is an error: "has no effect
        /// with --<option>=<value> (<why>)" (no parenthesis when \p why is empty).
        Option& OnlyWith(const std::string& option,
                         const std::vector<std::string>& values,
                         const std::string& why = "");
        /// A value > 0 (a Duration or Number; the error "must be > 0" or \p reason).
        Option& Positive(const std::string& reason = "must be > 0");
        /// The values of a Choice setting as the attribute takes them (--epoch=shared:
        /// EpochSource SharedWithRecovery).
        Option& Map(const std::map<std::string, std::string>& values);
        /// The default as shown and parsed: for a default derived from other options ("", the
        /// field left alone when not given) or one the field cannot show.
        Option& Default(const std::string& text);
        /// Run \p convert with the text (given or default, unless empty) after the checks of
        /// the option's kind: for lists and other values an example parses itself.
        Option& Then(std::function<void(const std::string& text)> convert);

      private:
        friend class QuicCcOptions;
        struct Data;
        std::shared_ptr<Data> m_data; //!< the declaration
    };

    /// \param file the example's __FILE__ (its base name names the program)
    explicit QuicCcOptions(const std::string& file);

    /// A whole number in [\p min, \p max] into \p field.
    Option& Count(const std::string& name,
                  const std::string& help,
                  uint32_t& field,
                  uint64_t min,
                  uint64_t max);
    /// \copydoc Count
    Option& Count(const std::string& name,
                  const std::string& help,
                  uint64_t& field,
                  uint64_t min,
                  uint64_t max);
    /// A whole number in [\p min, \p max], a setting (Socket / Controller / Attribute).
    Option& Count(const std::string& name, const std::string& help, uint64_t min, uint64_t max);
    /// A byte count > 0 ("10MB", "1GiB", QuicCcParseBytes) into \p field.
    Option& Bytes(const std::string& name, const std::string& help, uint64_t& field);
    /// A time >= 0 with a unit (QuicCcParseTime) into \p field.
    Option& Duration(const std::string& name, const std::string& help, Time& field);
    /// A time >= 0 with a unit, a setting.
    Option& Duration(const std::string& name, const std::string& help);
    /// A rate > 0 with a unit (QuicCcParseRate) into \p field.
    Option& Rate(const std::string& name, const std::string& help, DataRate& field);
    /// A loss rate, "30%" or "0.3" (QuicCcParseLoss), into \p field.
    Option& Loss(const std::string& name, const std::string& help, double& field);
    /// A number >= 0 (QuicCcParseNonNegative) into \p field.
    Option& Number(const std::string& name, const std::string& help, double& field);
    /// true or false, given as --name=true|false|1|0, into \p field.
    Option& Bool(const std::string& name, const std::string& help, bool& field);
    /// true or false, a setting.
    Option& Bool(const std::string& name, const std::string& help);
    /// As Bool, and a bare --name is true.
    Option& Flag(const std::string& name, const std::string& help, bool& field);
    /// As Bool, and a bare --name is true; a setting.
    Option& Flag(const std::string& name, const std::string& help);
    /// One of \p choices into \p field.
    Option& Choice(const std::string& name,
                   const std::string& help,
                   std::string& field,
                   const std::vector<std::string>& choices);
    /// One of \p choices, a setting.
    Option& Choice(const std::string& name,
                   const std::string& help,
                   const std::vector<std::string>& choices);
    /// Text as given into \p field (see Then).
    Option& Text(const std::string& name, const std::string& help, std::string& field);
    /// An output file ("" = none), checked with the others before the first run.
    Option& Output(const std::string& name, const std::string& help, std::string& path);
    /// An output directory ("" = none), likewise.
    Option& Directory(const std::string& name, const std::string& help, std::string& path);
    /// A qlog directory: a Directory that stands for each transport's qlog attribute
    /// (QuicCcHelper::EnableQlog sets it).
    Option& Qlog(const std::string& name, const std::string& help, std::string& path);

    /// --transport (quic-cc, ngtcp2 or all), parsed where it is declared; \return its value
    /// after Parse.
    const QuicCcTransportChoice& Transport();

    /// The batch options (--runs, --firstRun, --seed, --jobs, --csv, --quiet, --dryRun),
    /// parsed where they are declared; --csv is the first output.
    QuicCcBatchOptions& Batch(uint32_t defaultRuns, const std::string& runsHelp);

    /// Attributes the scenario sets without an option: refused as attribute defaults.
    void SetByScenario(const std::vector<std::string>& attributes);

    /**
     * Register, pre-check (QuicCcCommandLine::Parse), then convert every option in the order
     * declared with the transport rules where --transport is declared, then the OnlyWith rules,
     * the outputs and last the example's own \p checks (its cross checks and derived defaults):
     * the first bad option exits with one line and status 2 (a QuicCcUsageError from \p checks
     * too). With --dryRun, exit 0 after the checks.
     */
    void Parse(int argc, char* argv[], const std::function<void()>& checks = nullptr);

    /// \return whether --\p name was given
    bool Given(const std::string& name) const;
    /// \return the text of --\p name, as given or the default
    const std::string& GetText(const std::string& name) const;
    /// "--<name>=<text>" if given, else "<what> (<value>)": a check names only what the user wrote.
    std::string Named(const std::string& name,
                      const std::string& what,
                      const std::string& value) const;
    /// The attribute defaults given on the command line, as (attribute as written, value)
    const std::vector<QuicCcGivenAttribute>& GetGivenAttributes() const;
    /// \return whether --\p name's OnlyWith rules hold (its value matters for this run)
    bool Applies(const std::string& name) const;

    /// The settings of the options without a field, for a row of \p transport with
    /// \p controller: each for the transports that honour its option.
    QuicCcTransportSpec GetTransportSpec(const std::string& transport = "quic-cc",
                                         const std::string& controller = "") const;

    /// \return the transports whose rows run (Transport must have been declared)
    const QuicCcTransportChoice& GetTransports() const;

    /// \return the program's name ("quic-cc-death-spiral")
    const std::string& GetProgramName() const;
    /// \return the batch options (Batch must have been declared)
    const QuicCcBatchOptions& GetBatch() const;

    /// Print "<program>: --<option>=<value>: <reason>" on stderr and exit with status 2.
    [[noreturn]] void Exit(const QuicCcUsageError& error) const;

  private:
    /// Declare an option of \p kind; with a field, \p format shows its value (the default) and
    /// \p store writes a converted value into it.
    Option& Add(const std::string& name,
                const std::string& help,
                int kind,
                std::function<std::string()> format = nullptr,
                std::function<void(const AttributeValue&)> store = nullptr);
    /// Convert one option (throws QuicCcUsageError).
    void Convert(Option::Data& option);
    /// The transport rules for the transports of m_transports.
    void ApplyTransportRules() const;
    /// The transports that honour \p option: OnlyOn's, else those whose socket has each Socket
    /// attribute (quic-cc only for a Controller attribute), else every transport.
    std::vector<std::string> Transports(const Option::Data& option) const;
    /// The option named \p name (fatal if none).
    const Option::Data& Find(const std::string& name) const;

    QuicCcCommandLine m_cmd;                     //!< the command line underneath
    std::vector<Option> m_options;               //!< in the order declared
    std::unique_ptr<QuicCcBatchOptions> m_batch; //!< Batch's
    QuicCcTransportChoice m_transports;          //!< Transport's
    std::vector<std::string> m_setByScenario;    //!< SetByScenario's
};

/// The names an enum attribute takes, in its checker's order ("ns3::QuicCubic::IdleRestart":
/// "LastSent", "LastActivity", ...); fatal for an unknown attribute.
std::vector<std::string> QuicCcAttributeNames(const std::string& fullName);

/// The --transport help text (the three values and the ngtcp2 rows).
std::string QuicCcTransportHelp();

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

/// The studies' --ackRatios (declared in \p options): the receiver's ACK every N ack-eliciting
/// packets, 1..1000, comma-separated from \p text into \p ratios; it stands for each
/// transport's AckElicitingThreshold.
QuicCcOptions::Option& QuicCcAckRatiosOption(QuicCcOptions& options,
                                             std::string& text,
                                             std::vector<uint32_t>& ratios);

/// Parse --transport (QuicCcUsageError for another value, or for ngtcp2 / all when this build
/// lacks the ngtcp2 transport).
QuicCcTransportChoice QuicCcParseTransport(const std::string& text);

/// "2s", "25ms", "50us": \p t in the largest unit that shows it whole (QuicCcParseTime reads it).
std::string QuicCcFormatTime(Time t);

/// "10MB", "500kB", "1234": \p bytes with the largest decimal prefix that shows it whole.
std::string QuicCcFormatBytes(uint64_t bytes);

/// "1Gbps", "20Mbps": \p rate with the largest decimal prefix that shows it whole.
std::string QuicCcFormatRate(DataRate rate);

} // namespace ns3

#endif // QUIC_CC_OPTIONS_H
