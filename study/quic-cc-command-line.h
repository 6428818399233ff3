/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_COMMAND_LINE_H
#define QUIC_CC_COMMAND_LINE_H

#include "quic-cc-argument-check.h"
#include "quic-cc-batch-runner.h"

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class QuicCcOutputFile;

/**
 * \ingroup quic-cc
 * A bad command-line value: the option (without "--"), the value as given and why it is bad.
 * The examples validate every option before their first run and turn this into one line on
 * stderr and exit status 2 (QuicCcCommandLine::Exit).
 */
class QuicCcUsageError : public std::runtime_error
{
  public:
    /**
     * \param option  option name without "--"
     * \param value   the value as given
     * \param reason  what is wrong, and what would be right
     */
    QuicCcUsageError(const std::string& option,
                     const std::string& value,
                     const std::string& reason);
    std::string option; //!< option name without "--"
    std::string value;  //!< as given
    std::string reason; //!< what is wrong
};

/**
 * \ingroup quic-cc
 * ns-3's CommandLine for the examples, with errors a user can act on: every option is read as
 * text (so ns-3 never rejects or wraps a value itself: `--runs=-1` is not 4294967295) and
 * converted by the QuicCcParse* functions below, which throw QuicCcUsageError. An option the
 * example does not know is the same kind of error, found before ns-3 parses anything. ns-3's
 * own options (--help, --PrintHelp, --PrintAttributes=..., global values such as --RngRun and
 * attribute defaults --ns3::Type::Attribute=...) pass through to ns-3 unchanged, with ns-3's
 * messages.
 *
 * \code
 *   QuicCcCommandLine cmd(__FILE__);
 *   std::string runs = "100";
 *   cmd.AddValue("runs", "Runs per configuration", runs);
 *   cmd.Parse(argc, argv);
 *   try { n = QuicCcParseUnsigned("runs", runs, 1, 1000000); ... }
 *   catch (const QuicCcUsageError& e) { cmd.Exit(e); }
 * \endcode
 */
class QuicCcCommandLine
{
  public:
    /// \param file the example's __FILE__; its base name without extension names the program
    explicit QuicCcCommandLine(const std::string& file);

    /// Register --\p name; \p text holds the default and receives the value as given.
    void AddValue(const std::string& name, const std::string& help, std::string& text);

    /// One option for AddValues: --name, its help, the text that holds its default.
    struct Option
    {
        std::string name;  //!< option name without "--"
        std::string help;  //!< help text
        std::string* text; //!< default; receives the value as given
    };

    /// AddValue for each of \p options, in order.
    void AddValues(const std::vector<Option>& options);

    /// Register a boolean --\p name, given as --name (true) or --name=true|false|1|0.
    void AddFlag(const std::string& name, const std::string& help, std::string& text);

    /// Unknown options, non-option arguments and bad attribute defaults (--ns3::Type::Attr=V)
    /// exit as Exit does; the rest goes to ns-3.
    void Parse(int argc, char* argv[]);

    /// Print "<program>: --<option>=<value>: <reason>" on stderr and exit with status 2.
    [[noreturn]] void Exit(const QuicCcUsageError& error) const;

    /**
     * Declare the attributes this example sets itself, each from an option, as pairs (attribute,
     * option), e.g. {"ns3::QuicCcSocket::MaxDatagramSize", "mss"}: an attribute default
     * --ns3::QuicCcSocket::MaxDatagramSize=V would be overridden silently, so Parse rejects it
     * and names the option to use (an empty option: the example sets it without an option).
     */
    void AttributesSetBy(const std::vector<std::pair<std::string, std::string>>& attributes);

    /**
     * AttributesSetBy for attributes this example sets to the value of an option as it is
     * written (e.g. {"ns3::QuicCcSocket::MaxDatagramSize", "mss"}: --mss=1200 is
     * MaxDatagramSize 1200): Parse checks the constraints between attributes
     * (QuicCcCheckAttributeDefaults) with the option's value, given or default, which
     * is what the runs use, and an error names --mss=V if the user gave it. \p values maps an
     * option's text to the attribute's value where they differ ({"flowControl", {{"on",
     * "true"}, {"off", "false"}}}); a text it does not map is not a value of the attribute.
     */
    void AttributesSetTo(
        const std::vector<std::pair<std::string, std::string>>& attributes,
        const std::map<std::string, std::map<std::string, std::string>>& values = {});

    /// \return the program name ("quic-cc-death-spiral")
    const std::string& GetProgramName() const;

    /// \return true if --\p name appeared on the command line (after Parse)
    bool WasGiven(const std::string& name) const;

    /// The attribute defaults given (after Parse): the command line's in the order given, then
    /// NS_ATTRIBUTE_DEFAULT's (QuicCcGivenAttributes).
    const std::vector<QuicCcGivenAttribute>& GetGivenAttributes() const;

  private:
    /// Exit with \p error, "<arguments>: <reason>" (a QuicCcHelper check's result).
    [[noreturn]] void Fail(const std::string& error) const;

    CommandLine m_cmd;                           //!< ns-3's parser
    std::map<std::string, std::string*> m_texts; //!< option -> its text (default, then as given)
    std::map<std::string, std::string> m_setTo;  //!< attribute -> option whose value it takes
    /// option -> (its text -> the attribute's value), for options whose text is not the value
    std::map<std::string, std::map<std::string, std::string>> m_setToValues;
    std::vector<QuicCcGivenAttribute> m_attributes; //!< attribute defaults given
    std::string m_program;                          //!< program name
    std::set<std::string> m_names;                  //!< registered options
    std::set<std::string> m_given;                  //!< registered options that appeared
    std::set<std::string> m_flags;                  //!< registered boolean options
    std::map<std::string, std::string> m_setBy;     //!< attribute -> option that sets it
};

/**
 * \ingroup quic-cc
 * The options of every example that runs a batch: --runs, --firstRun, --seed, --jobs, --csv,
 * --quiet, --dryRun. Add() registers them, Parse() checks them (throws QuicCcUsageError; the
 * --csv path is checked with QuicCcCheckOutputFile).
 */
struct QuicCcBatchOptions
{
    std::string runsText;            //!< --runs as given
    std::string firstRunText{"1"};   //!< --firstRun as given
    std::string seedText{"1"};       //!< --seed as given
    std::string jobsText{"0"};       //!< --jobs as given
    std::string csv;                 //!< --csv ("" = none)
    std::string quietText{"false"};  //!< --quiet as given
    std::string dryRunText{"false"}; //!< --dryRun as given

    uint32_t runs{0};     //!< runs per point, 1..1000000
    uint32_t firstRun{0}; //!< first RngRun
    uint32_t seed{1};     //!< RngSeed
    uint32_t jobs{0};     //!< worker processes (0 = cores)
    bool quiet{false};    //!< no progress
    bool dryRun{false};   //!< check the options only

    /// \param defaultRuns the default of --runs
    explicit QuicCcBatchOptions(uint32_t defaultRuns);
    /// Register the options on \p cmd; \p runsHelp describes --runs.
    void Add(QuicCcCommandLine& cmd, const std::string& runsHelp);
    /// Check and convert every option.
    void Parse();
    /// \return the progress to show: none with --quiet, else the '\r' line on a terminal (no CI
    /// variable), plain lines otherwise (a log, a pipe, CI)
    QuicCcProgress Progress() const;
    /// \return how QuicCcRunBatch reports for the program: its name, Progress(), and
    /// \p describe naming task i in the failure line ("cubic-Off, RngRun 3")
    QuicCcBatchReport Report(std::function<std::string(size_t)> describe = nullptr) const;
    /// \return the --csv file opened with \p header (QuicCcOutputFile), or null without --csv
    std::unique_ptr<QuicCcOutputFile> OpenCsv(const std::string& header) const;

    std::string program; //!< the program's name (Add)
};

/// "<program>: --<option>=<value>: <reason>" (no newline); "<program>: <value>: <reason>" for an
/// error without an option (a non-option argument).
std::string QuicCcUsageMessage(const std::string& program, const QuicCcUsageError& error);

/// Throw QuicCcUsageError(option, value, reason) unless \p ok.
void QuicCcRequire(bool ok,
                   const std::string& option,
                   const std::string& value,
                   const std::string& reason);

/// A whole number in [min, max], digits only (no sign, no exponent).
uint64_t QuicCcParseUnsigned(const std::string& option,
                             const std::string& text,
                             uint64_t min,
                             uint64_t max);

/// A finite number >= 0 ("0.5", "2", "1e-3").
double QuicCcParseNonNegative(const std::string& option, const std::string& text);

/// true for "", "true", "1"; false for "false", "0" (ns-3's BooleanValue spellings; a bare
/// --flag means true).
bool QuicCcParseBool(const std::string& option, const std::string& text);

/// The longest time an example option takes, seconds (10^6 s, 11.6 days): ns-3's Time holds
/// 2^63 ns (292 years) and wraps silently beyond, and a scenario adds and multiplies its times,
/// so an option far below that bound keeps every sum and product exact.
constexpr double kQuicCcMaxOptionSeconds = 1e6;

/// A time >= 0 in ns-3's syntax, with its unit (s, ms, us, ns, ps, fs, min, h, d, y), e.g. "2s",
/// "50us" (ns-3 would read a bare "5" as 5 s; here the unit is required), at most
/// kQuicCcMaxOptionSeconds.
Time QuicCcParseTime(const std::string& option, const std::string& text);

/// A rate > 0 in ns-3's DataRate syntax, with its unit ("1Gbps", "5Mb/s"; ns-3 would read a bare
/// "1000" as 1000 bit/s; here the unit is required).
DataRate QuicCcParseRate(const std::string& option, const std::string& text);

/// A whole byte count > 0: digits with an optional B, or with a decimal prefix k/K, M, G, T
/// (powers of 1000: "10MB" = "10M" = 10,000,000) or a binary one Ki, Mi, Gi, Ti (powers of 1024:
/// "1GiB" = 2^30), the B optional; a fraction is allowed if the bytes are whole ("1.5MB").
uint64_t QuicCcParseBytes(const std::string& option, const std::string& text);

/**
 * A loss probability in [0, 1]: a percentage with '%' ("30%" = 0.3, up to "100%") or a
 * fraction, as ns-3's error models take it ("0.3"). A bare number above 1 is rejected with the
 * hint "use 30% or 0.3" (it would otherwise be ambiguous).
 */
double QuicCcParseLoss(const std::string& option, const std::string& text);

/// One of \p allowed (their list is part of the error message).
std::string QuicCcParseChoice(const std::string& option,
                              const std::string& text,
                              const std::vector<std::string>& allowed);

/// Split a comma-separated list; an empty list or an empty item is an error.
std::vector<std::string> QuicCcSplitList(const std::string& option, const std::string& text);

} // namespace ns3

#endif // QUIC_CC_COMMAND_LINE_H
