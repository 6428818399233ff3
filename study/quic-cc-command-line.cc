/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-command-line.h"

#include "quic-cc-argument-check.h"
#include "quic-cc-output-file.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/string.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <unistd.h>

namespace ns3
{

namespace
{

/// The whole of \p text as a double, or false.
bool
ToDouble(const std::string& text, double& v)
{
    if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())))
    {
        return false;
    }
    char* end = nullptr;
    v = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(v);
}

} // namespace

QuicCcUsageError::QuicCcUsageError(const std::string& option,
                                   const std::string& value,
                                   const std::string& reason)
    : std::runtime_error("--" + option + "=" + value + ": " + reason),
      option(option),
      value(value),
      reason(reason)
{
}

QuicCcCommandLine::QuicCcCommandLine(const std::string& file)
    : m_cmd(file)
{
    std::string name = file.substr(file.find_last_of('/') + 1);
    m_program = name.substr(0, name.find('.'));
}

void
QuicCcCommandLine::AddValue(const std::string& name, const std::string& help, std::string& text)
{
    m_names.insert(name);
    m_texts[name] = &text;
    m_cmd.AddValue(name, help, text);
}

void
QuicCcCommandLine::AddValues(const std::vector<Option>& options)
{
    for (const Option& o : options)
    {
        AddValue(o.name, o.help, *o.text);
    }
}

void
QuicCcCommandLine::AddFlag(const std::string& name, const std::string& help, std::string& text)
{
    m_flags.insert(name);
    AddValue(name, help, text);
}

void
QuicCcCommandLine::Parse(int argc, char* argv[])
{
    // The last value of each option, as ns-3 takes it, and ns-3's arguments: a bare --flag
    // becomes --flag=true (the options are text to ns-3, which wants a value).
    std::map<std::string, std::string> given;
    std::vector<std::string> args{argv[0]};
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const size_t dashes = arg.find_first_not_of('-');
        const size_t eq = arg.find('=');
        const std::string name = dashes == std::string::npos ? "" : arg.substr(dashes, eq - dashes);
        if (m_names.count(name))
        {
            m_given.insert(name);
            given[name] = arg;
        }
        args.push_back(eq == std::string::npos && m_flags.count(name) ? arg + "=true" : arg);
    }
    // The values the runs give the attributes set from options (given or default), for the
    // constraints between attributes; a value the attribute cannot take is the option's own
    // error, reported by the example.
    std::vector<QuicCcProgramSetting> settings;
    for (const auto& [attribute, option] : m_setTo)
    {
        const auto text = m_texts.find(option);
        NS_ABORT_MSG_IF(text == m_texts.end(),
                        "QuicCcCommandLine::AttributesSetTo: no option --" << option);
        QuicCcProgramSetting setting{attribute, *text->second, ""};
        if (const auto arg = given.find(option); arg != given.end())
        {
            const size_t eq = arg->second.find('=');
            setting.value = eq == std::string::npos ? "true" : arg->second.substr(eq + 1);
            setting.given = arg->second;
        }
        if (const auto map = m_setToValues.find(option); map != m_setToValues.end())
        {
            // Trimmed: a text the option itself refuses (" on") is reported by the option,
            // not first by a constraint checked as if the attribute kept its default.
            const size_t first = setting.value.find_first_not_of(" \t\n");
            const size_t last = setting.value.find_last_not_of(" \t\n");
            const auto value = map->second.find(
                first == std::string::npos ? "" : setting.value.substr(first, last - first + 1));
            if (value == map->second.end())
            {
                continue; // not one of the attribute's values ("": the attribute's default)
            }
            setting.value = value->second;
        }
        if (QuicCcCheckAttributeDefault(attribute, setting.value).empty())
        {
            settings.push_back(setting);
        }
    }
    // Arguments ns-3 would answer with its usage text, unknown options, bad attribute defaults
    // (checked by their checkers), NS_ATTRIBUTE_DEFAULT and the constraints: one line, exit 2.
    const std::vector<std::string> names(m_names.begin(), m_names.end());
    const std::vector<std::string> flags(m_flags.begin(), m_flags.end());
    if (const std::string error = QuicCcCheckArguments(argc, argv, names, flags, settings);
        !error.empty())
    {
        Fail(error);
    }
    // Every attribute default given, on the command line or in NS_ATTRIBUTE_DEFAULT: one the
    // program sets itself would be overwritten (ns-3 takes the program's value over both).
    m_attributes = QuicCcGivenAttributes(argc, argv);
    for (const QuicCcGivenAttribute& attribute : m_attributes)
    {
        if (const auto owner = m_setBy.find(attribute.name); owner != m_setBy.end())
        {
            Exit(QuicCcUsageError(
                "",
                attribute.quoted,
                owner->second.empty()
                    ? "this example sets this attribute itself, so the default has no effect"
                    : "this example sets it from --" + owner->second +
                          ", which would override it: use --" + owner->second));
        }
    }
    m_cmd.Parse(args);
    // ns-3 reads an option's value with operator>>, which stops at the first space or newline
    // ("--csv=my results.csv" would write "my"): each given option takes its whole text.
    for (const auto& [name, arg] : given)
    {
        const size_t eq = arg.find('=');
        *m_texts.at(name) = eq == std::string::npos ? "true" : arg.substr(eq + 1);
    }
    // NS_ATTRIBUTE_DEFAULT wins over the command line in every object ns-3 constructs
    // (ObjectBase::ConstructSelf): made the defaults too, so that the program's checks of a
    // default (TypeId::LookupAttributeByName's initial value) see the value the runs use.
    for (const QuicCcGivenAttribute& attribute : m_attributes)
    {
        if (attribute.environment)
        {
            Config::SetDefaultFailSafe(attribute.name, StringValue(attribute.value));
        }
    }
}

void
QuicCcCommandLine::Fail(const std::string& error) const
{
    const size_t colon = error.find(": "); // "<arguments>: <reason>", printed as it is
    Exit(QuicCcUsageError("", error.substr(0, colon), error.substr(colon + 2)));
}

void
QuicCcCommandLine::Exit(const QuicCcUsageError& error) const
{
    std::cout.flush();
    std::cerr << QuicCcUsageMessage(m_program, error) << std::endl;
    std::exit(2);
}

void
QuicCcCommandLine::AttributesSetBy(
    const std::vector<std::pair<std::string, std::string>>& attributes)
{
    m_setBy.insert(attributes.begin(), attributes.end());
}

void
QuicCcCommandLine::AttributesSetTo(
    const std::vector<std::pair<std::string, std::string>>& attributes,
    const std::map<std::string, std::map<std::string, std::string>>& values)
{
    AttributesSetBy(attributes);
    m_setTo.insert(attributes.begin(), attributes.end());
    m_setToValues.insert(values.begin(), values.end());
}

const std::vector<QuicCcGivenAttribute>&
QuicCcCommandLine::GetGivenAttributes() const
{
    return m_attributes;
}

const std::string&
QuicCcCommandLine::GetProgramName() const
{
    return m_program;
}

bool
QuicCcCommandLine::WasGiven(const std::string& name) const
{
    return m_given.count(name) > 0;
}

QuicCcBatchOptions::QuicCcBatchOptions(uint32_t defaultRuns)
    : runsText(std::to_string(defaultRuns))
{
}

void
QuicCcBatchOptions::Add(QuicCcCommandLine& cmd, const std::string& runsHelp)
{
    program = cmd.GetProgramName();
    cmd.AddValue("runs", runsHelp, runsText);
    cmd.AddValue("firstRun", "First RngRun value", firstRunText);
    cmd.AddValue("seed", "RngSeed", seedText);
    cmd.AddValue("jobs", "Worker processes (0 = number of cores)", jobsText);
    cmd.AddValue("csv",
                 "Write one row per run to this CSV file (written atomically at the end)",
                 csv);
    cmd.AddFlag("quiet", "No progress on stderr", quietText);
    cmd.AddFlag("dryRun",
                "Check every option and output path, then exit (status 0) without running",
                dryRunText);
}

void
QuicCcBatchOptions::Parse()
{
    runs = QuicCcParseUnsigned("runs", runsText, 1, 1000000);
    firstRun = QuicCcParseUnsigned("firstRun",
                                   firstRunText,
                                   0,
                                   std::numeric_limits<uint32_t>::max() - runs + 1);
    seed = QuicCcParseUnsigned("seed", seedText, 1, std::numeric_limits<uint32_t>::max());
    jobs = QuicCcParseUnsigned("jobs", jobsText, 0, 4096);
    quiet = QuicCcParseBool("quiet", quietText);
    dryRun = QuicCcParseBool("dryRun", dryRunText);
    if (!csv.empty())
    {
        QuicCcCheckOutputFile("csv", csv);
    }
}

QuicCcProgress
QuicCcBatchOptions::Progress() const
{
    if (quiet)
    {
        return QuicCcProgress::NONE;
    }
    return isatty(STDERR_FILENO) && !std::getenv("CI") ? QuicCcProgress::TERMINAL
                                                       : QuicCcProgress::LINES;
}

QuicCcBatchReport
QuicCcBatchOptions::Report(std::function<std::string(size_t)> describe) const
{
    return QuicCcBatchReport{program, Progress(), std::move(describe)};
}

std::unique_ptr<QuicCcOutputFile>
QuicCcBatchOptions::OpenCsv(const std::string& header) const
{
    return csv.empty() ? nullptr : std::make_unique<QuicCcOutputFile>(program, csv, header);
}

std::string
QuicCcUsageMessage(const std::string& program, const QuicCcUsageError& error)
{
    const std::string what =
        error.option.empty() ? error.value : "--" + error.option + "=" + error.value;
    return program + ": " + what + ": " + error.reason;
}

void
QuicCcRequire(bool ok,
              const std::string& option,
              const std::string& value,
              const std::string& reason)
{
    if (!ok)
    {
        throw QuicCcUsageError(option, value, reason);
    }
}

uint64_t
QuicCcParseUnsigned(const std::string& option, const std::string& text, uint64_t min, uint64_t max)
{
    const std::string range =
        "must be a whole number in " + std::to_string(min) + ".." + std::to_string(max);
    QuicCcRequire(!text.empty() && text.size() <= 19 &&
                      text.find_first_not_of("0123456789") == std::string::npos,
                  option,
                  text,
                  range);
    const uint64_t v = std::stoull(text);
    QuicCcRequire(v >= min && v <= max, option, text, range);
    return v;
}

double
QuicCcParseNonNegative(const std::string& option, const std::string& text)
{
    double v = 0;
    QuicCcRequire(ToDouble(text, v) && v >= 0, option, text, "must be a number >= 0");
    return v;
}

bool
QuicCcParseBool(const std::string& option, const std::string& text)
{
    if (text.empty() || text == "true" || text == "1")
    {
        return true;
    }
    QuicCcRequire(text == "false" || text == "0", option, text, "must be true or false");
    return false;
}

Time
QuicCcParseTime(const std::string& option, const std::string& text)
{
    static const std::regex kTime(
        "([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?(s|ms|us|ns|ps|fs|min|h|d|y)");
    std::smatch m;
    QuicCcRequire(std::regex_match(text, m, kTime),
                  option,
                  text,
                  "must be a time >= 0 with a unit, e.g. 2s, 500ms, 50us");
    // The value in seconds, in double (no wrap), before Time(std::string) reads it.
    static const std::map<std::string, double> kUnitSeconds{{"s", 1},
                                                            {"ms", 1e-3},
                                                            {"us", 1e-6},
                                                            {"ns", 1e-9},
                                                            {"ps", 1e-12},
                                                            {"fs", 1e-15},
                                                            {"min", 60},
                                                            {"h", 3600},
                                                            {"d", 86400},
                                                            {"y", 365 * 86400.0}};
    // strtod saturates to HUGE_VAL where stod would throw (e.g. 1e400s).
    const std::string number = m[1].str() + (m[2].matched ? m[2].str() : "");
    const double seconds = std::strtod(number.c_str(), nullptr) * kUnitSeconds.at(m[3].str());
    QuicCcRequire(seconds <= kQuicCcMaxOptionSeconds,
                  option,
                  text,
                  "must be at most 1000000s (11.6 days; ns-3's Time wraps at 2^63 ns)");
    return Time(text); // the syntax above is a subset of what Time(std::string) parses
}

DataRate
QuicCcParseRate(const std::string& option, const std::string& text)
{
    DataRate rate;
    std::istringstream is(text);
    const bool parsed = !text.empty() && text.find_first_of(" \t") == std::string::npos &&
                        static_cast<bool>(is >> rate);
    // ns-3 reads a bare number as bit/s; here the unit is required, as for times.
    const bool unit = !text.empty() && !std::isdigit(static_cast<unsigned char>(text.back()));
    QuicCcRequire(parsed && unit && rate.GetBitRate() > 0,
                  option,
                  text,
                  "must be a rate > 0 with a unit, e.g. 1Gbps, 5Mbps, 100kb/s");
    return rate;
}

uint64_t
QuicCcParseBytes(const std::string& option, const std::string& text)
{
    // A number, then a decimal (k/K, M, G, T: 1000^n) or binary (Ki, Mi, Gi, Ti: 1024^n) prefix,
    // then an optional B; no prefix: bytes, with or without B.
    static const std::regex kSize("([0-9]+\\.?[0-9]*|\\.[0-9]+)(([kKMGT])(i?))?B?");
    std::smatch m;
    double bytes = 0;
    if (std::regex_match(text, m, kSize))
    {
        const std::string prefix = m[3].str() == "K" ? "k" : m[3].str();
        const double power = prefix.empty() ? 0 : 1 + std::string("kMGT").find(prefix);
        bytes = std::stod(m[1].str()) * std::pow(m[4].length() ? 1024.0 : 1000.0, power);
    }
    QuicCcRequire(bytes >= 1 && bytes == std::floor(bytes) && bytes < 1e18,
                  option,
                  text,
                  "must be a whole number of bytes > 0, e.g. 8000000, 10MB (10,000,000 bytes), "
                  "500kB, 1GiB (2^30 bytes)");
    return static_cast<uint64_t>(bytes);
}

double
QuicCcParseLoss(const std::string& option, const std::string& text)
{
    double v = 0;
    if (!text.empty() && text.back() == '%')
    {
        QuicCcRequire(ToDouble(text.substr(0, text.size() - 1), v) && v >= 0 && v <= 100,
                      option,
                      text,
                      "a percentage must be in 0%..100%");
        return v / 100.0;
    }
    QuicCcRequire(ToDouble(text, v) && v >= 0, option, text, "must be a loss rate: use 30% or 0.3");
    QuicCcRequire(v <= 1, option, text, "a fraction must be in [0, 1]: use 30% or 0.3");
    return v;
}

std::string
QuicCcParseChoice(const std::string& option,
                  const std::string& text,
                  const std::vector<std::string>& allowed)
{
    std::string list;
    for (size_t i = 0; i < allowed.size(); ++i)
    {
        list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + allowed[i];
    }
    QuicCcRequire(std::find(allowed.begin(), allowed.end(), text) != allowed.end(),
                  option,
                  text,
                  "must be " + list);
    return text;
}

std::vector<std::string>
QuicCcSplitList(const std::string& option, const std::string& text)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (true)
    {
        const size_t comma = text.find(',', start);
        out.push_back(text.substr(start, comma - start));
        QuicCcRequire(!out.back().empty(), option, text, "empty item in the comma-separated list");
        if (comma == std::string::npos)
        {
            break;
        }
        start = comma + 1;
    }
    return out;
}

} // namespace ns3
