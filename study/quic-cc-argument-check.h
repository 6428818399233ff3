/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_ARGUMENT_CHECK_H
#define QUIC_CC_ARGUMENT_CHECK_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \file
 * \ingroup quic-cc
 * The examples' checks of what a user gives a program from outside, before ns-3's CommandLine
 * reads it (QuicCcCommandLine::Parse runs them): each bad argument, attribute default, global
 * value or NS_ATTRIBUTE_DEFAULT item is one line naming what the user wrote, where ns-3 would
 * print its whole help text and exit 1, abort inside its attribute code, or ignore it.
 */

/**
 * Check one attribute default as ns-3's CommandLine (--\p name=\p value) or the
 * NS_ATTRIBUTE_DEFAULT variable (\p name=\p value) gives it, without aborting: \p name is
 * "ns3::Type::Attribute" with the TypeId that declares the attribute (Config::SetDefault and the
 * environment look at no other), and \p value must pass the attribute's checker
 * (QuicCcHelper::CheckAttributeValue).
 * \param spelling how the user writes a name: "--" on a command line, "" in the environment
 * \return "" if valid, else the reason (naming the declaring TypeId if another one was given)
 */
std::string QuicCcCheckAttributeDefault(const std::string& name,
                                        const std::string& value,
                                        const std::string& spelling = "--");

/// An attribute value a program sets itself (e.g. MaxDatagramSize from its option --mss): it
/// wins over every default, so the constraints between attributes are checked with it.
struct QuicCcProgramSetting
{
    std::string attribute; //!< "ns3::Type::Attribute"
    std::string value;     //!< the value the program gives it, as text ("1200")
    std::string given;     //!< the argument it comes from as the user wrote it ("--mss=1200");
                           //!< "" for a default of the program
};

/**
 * Check every attribute default and global value given from outside the program, so that a bad
 * one is one line instead of an abort inside ns-3 (text its value type cannot read, e.g.
 * --ns3::QuicCubic::Beta=abc, aborts in ns-3's double.cc) or silence (ns-3 ignores an unknown
 * name or an out-of-range value in the environment):
 * - in \p argv: --ns3::Type::Attribute=V (QuicCcCheckAttributeDefault) and --GlobalName=V
 *   (--RngRun=V, checked against the global value's checker);
 * - the NS_ATTRIBUTE_DEFAULT environment variable, "ns3::Type::Attribute=V;..." (ns-3 applies it
 *   to each object as it is constructed, and it wins over Config::SetDefault and hence over the
 *   command line; NS_GLOBAL_VALUE is read before main, when ns-3 constructs its global values,
 *   so a bad one aborts there, before any check can run);
 * - then the constraints between attributes, which no single checker sees
 *   (QuicHyStartPlusPlus::GetConfigError: MinRttThresh <= MaxRttThresh;
 *   QuicCcSocket::GetConfigError: MinimumWindowPackets <= InitialWindowPackets,
 *   MaxDatagramSize <= RcvBufSize, ...), on objects built with the values above and the values
 *   \p settings of the attributes the program sets itself, so that an error names the argument
 *   each came from: "--mss=1472 --ns3::QuicCcSocket::RcvBufSize=1400: QuicCcSocket::RcvBufSize
 *   (1400) must hold at least one datagram (MaxDatagramSize 1472)".
 *
 * Other arguments are left alone. \return "" if all are valid, else one line that names the
 * values as the user wrote them, e.g. "--ns3::QuicCubic::Beta=abc: invalid value 'abc' for
 * attribute Beta of ns3::QuicCubic (double in (0, 1))" or
 * "NS_ATTRIBUTE_DEFAULT=ns3::QuicCubic::C=-1: ...".
 */
std::string QuicCcCheckAttributeDefaults(int argc,
                                         char* argv[],
                                         const std::vector<QuicCcProgramSetting>& settings = {});

/**
 * Check every argument of a program that parses its options with ns-3's CommandLine, which
 * answers each of the following with its whole usage text and exit status 1 (or an abort): an
 * argument that is not an option ("x", "-", "---x"), an empty value ("--name="), an option given
 * without a value that is not one of \p flags ("--name"), an option that is neither one of
 * \p options, nor ns-3's own (--help, --PrintHelp, --PrintAttributes=...), nor an attribute
 * default or global value (--ns3::Type::Attribute=V, --RngRun=V: their values checked as
 * QuicCcCheckAttributeDefault does); then QuicCcCheckAttributeDefaults(\p argc, \p argv,
 * \p settings).
 *
 * \param options the program's options (CommandLine::AddValue), without "--"
 * \param flags   those of them that may be given bare ("--dryRun" for a bool)
 * \param settings the attribute values the program sets itself
 * \return "" if all are valid, else one line "<argument>: <reason>", e.g.
 * "--maxBytes=: needs a value (--maxBytes=VALUE)" or "--bogus=1: unknown option (see --help)"
 */
std::string QuicCcCheckArguments(int argc,
                                 char* argv[],
                                 const std::vector<std::string>& options,
                                 const std::vector<std::string>& flags = {},
                                 const std::vector<QuicCcProgramSetting>& settings = {});

/// An attribute default the user gave from outside the program.
struct QuicCcGivenAttribute
{
    std::string name;   //!< "ns3::Type::Attribute"
    std::string value;  //!< as given
    std::string quoted; //!< as the user wrote it: "--ns3::Type::Attribute=V" or
                        //!< "NS_ATTRIBUTE_DEFAULT=ns3::Type::Attribute=V"
    bool environment;   //!< from NS_ATTRIBUTE_DEFAULT (it wins over the command line)
};

/**
 * The attribute defaults given on the command line (--ns3::Type::Attribute=V, in their order),
 * then those of NS_ATTRIBUTE_DEFAULT (ns-3 applies them to every object it constructs, over
 * Config::SetDefault): each is a setting the program must honour or refuse.
 */
std::vector<QuicCcGivenAttribute> QuicCcGivenAttributes(int argc, char* argv[]);

/**
 * Attribute \p name with its value \p value as the user gave it, for an error line:
 * "NS_ATTRIBUTE_DEFAULT=ns3::QuicCcSocket::SndBufSize=8192" when the environment sets it (its
 * value wins), else "--ns3::QuicCcSocket::SndBufSize=8192".
 */
std::string QuicCcQuoteAttribute(const std::string& name, const std::string& value);

} // namespace ns3

#endif // QUIC_CC_ARGUMENT_CHECK_H
