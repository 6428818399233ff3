/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The manual (doc/) covers the public configuration surface: its user document
 * (doc/quic-cc-user.rst) names every attribute and trace source that the user-facing TypeIds
 * register themselves (not the ones inherited from ns3::Socket, ns3::SocketFactory or
 * ns3::Object), and its validation document (doc/quic-cc-validation.rst) every ns-3 TestSuite of
 * test/*.cc (each TestSuite("name", ...) constructor call, as CMakeLists.txt finds them for
 * ctest). The documents are found through QUICCC_SOURCE_DIR, a compile definition of the
 * quic-cc-gtest target.
 *
 * Spelling the documents must use (reStructuredText inline literals):
 * - an attribute as its Config::SetDefault name, ``ns3::QuicCubic::Beta``;
 * - a trace source as ``CongestionWindow``;
 * - a TypeId as ``ns3::QuicCubic``, a TestSuite as ``quic-cc-transport``.
 * The reverse is checked too: an inline literal ``ns3::<one of them>::<Name>`` anywhere in the
 * manual must name an attribute or trace source of that very TypeId (or a trace signature typedef,
 * "...Callback"), so a renamed or removed attribute does not linger in the documentation.
 */
#include "ns3/quic-cc-socket-factory.h"
#include "ns3/quic-cc-socket.h"
#include "ns3/quic-congestion-controller.h"
#include "ns3/quic-cubic.h"
#include "ns3/quic-hystart-plus-plus.h"
#include "ns3/quic-reno.h"
#include "ns3/type-id.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#ifndef QUICCC_SOURCE_DIR
#error "QUICCC_SOURCE_DIR must be defined (CMakeLists.txt: quic-cc-gtest compile definitions)"
#endif

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

/// Whole text of a file of the source tree, or "" if it cannot be read.
std::string
ReadSourceFile(const std::string& relativePath)
{
    std::ifstream in(std::string(QUICCC_SOURCE_DIR) + "/" + relativePath);
    if (!in)
    {
        return "";
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The user document: attributes, trace sources, helpers, examples.
const std::string&
UserDocument()
{
    static const std::string text = ReadSourceFile("doc/quic-cc-user.rst");
    return text;
}

/// The validation document: every test suite and what it asserts.
const std::string&
ValidationDocument()
{
    static const std::string text = ReadSourceFile("doc/quic-cc-validation.rst");
    return text;
}

/// Every document of the manual, one after the other.
const std::string&
Manual()
{
    static const std::string text = [] {
        std::string all;
        for (const char* name :
             {"quic-cc", "quic-cc-design", "quic-cc-user", "quic-cc-validation", "quic-cc-results"})
        {
            all += ReadSourceFile(std::string("doc/") + name + ".rst");
        }
        return all;
    }();
    return text;
}

/// True if \p document contains \p word as an inline literal, ``word``.
bool
HasLiteral(const std::string& document, const std::string& word)
{
    return document.find("``" + word + "``") != std::string::npos;
}

/// The documented TypeIds, each looked up by name and compared with its class's GetTypeId()
/// (which also guarantees that the library registered it).
std::vector<std::pair<std::string, TypeId>>
DocumentedTypeIds()
{
    return {
        {"ns3::QuicCcSocketBase", QuicCcSocketBase::GetTypeId()},
        {"ns3::QuicCcSocket", QuicCcSocket::GetTypeId()},
        {"ns3::QuicCcSocketFactoryBase", QuicCcSocketFactoryBase::GetTypeId()},
        {"ns3::QuicCcSocketFactory", QuicCcSocketFactory::GetTypeId()},
        {"ns3::QuicCongestionController", QuicCongestionController::GetTypeId()},
        {"ns3::QuicReno", QuicReno::GetTypeId()},
        {"ns3::QuicCubic", QuicCubic::GetTypeId()},
        {"ns3::QuicHyStartPlusPlus", QuicHyStartPlusPlus::GetTypeId()},
    };
}

/// Names of the attributes \p tid registers itself (GetAttributeN excludes inherited ones).
std::set<std::string>
OwnAttributes(TypeId tid)
{
    std::set<std::string> names;
    for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        names.insert(tid.GetAttribute(i).name);
    }
    return names;
}

/// Names of the trace sources \p tid registers itself.
std::set<std::string>
OwnTraceSources(TypeId tid)
{
    std::set<std::string> names;
    for (std::size_t i = 0; i < tid.GetTraceSourceN(); ++i)
    {
        names.insert(tid.GetTraceSource(i).name);
    }
    return names;
}

// Scenario: the documents exist where QUICCC_SOURCE_DIR says and are not stubs.
TEST(QuicCcDocCoverageTest, DocumentsAreReadable)
{
    for (const auto& [name, title] : std::vector<std::pair<std::string, std::string>>{
             {"doc/quic-cc-design.rst", "Design Documentation"},
             {"doc/quic-cc-user.rst", "User Documentation"},
             {"doc/quic-cc-validation.rst", "Validation Documentation"},
             {"doc/quic-cc-results.rst", "Results"}})
    {
        const std::string text = ReadSourceFile(name);
        EXPECT_GT(text.size(), 10000u) << QUICCC_SOURCE_DIR "/" << name << " is missing or a stub";
        EXPECT_NE(text.find("\n" + title + "\n"), std::string::npos) << name << ": " << title;
    }
}

// Scenario: each of the eight TypeIds is registered under its documented name and named in the
// user document.
TEST(QuicCcDocCoverageTest, TypeIdsAreRegisteredAndNamed)
{
    for (const auto& [name, tid] : DocumentedTypeIds())
    {
        TypeId found;
        ASSERT_TRUE(TypeId::LookupByNameFailSafe(name, &found)) << name << " is not registered";
        EXPECT_EQ(TypeId::LookupByName(name), tid) << name;
        EXPECT_EQ(found.GetName(), name);
        EXPECT_TRUE(HasLiteral(UserDocument(), name))
            << "TypeId ``" << name << "`` is not in doc/quic-cc-user.rst";
    }
}

// Scenario: every own attribute of the eight TypeIds appears as ``<TypeId>::<Attribute>``, the
// name Config::SetDefault takes.
TEST(QuicCcDocCoverageTest, EveryAttributeIsDocumented)
{
    std::size_t checked = 0;
    for (const auto& [name, tid] : DocumentedTypeIds())
    {
        for (const std::string& attribute : OwnAttributes(tid))
        {
            ++checked;
            const std::string path = name + "::" + attribute;
            EXPECT_TRUE(HasLiteral(UserDocument(), path))
                << "attribute ``" << path << "`` is not in doc/quic-cc-user.rst";
        }
    }
    // QuicCcSocket 16, factory 1, controller 1, Reno 0, CUBIC 6, HyStart++ 5 when this was written;
    // the floor only guards against enumerating nothing.
    EXPECT_GE(checked, 20u);
}

// Scenario: every own trace source of the eight TypeIds appears as ``<Name>``.
TEST(QuicCcDocCoverageTest, EveryTraceSourceIsDocumented)
{
    std::size_t checked = 0;
    for (const auto& [name, tid] : DocumentedTypeIds())
    {
        for (const std::string& source : OwnTraceSources(tid))
        {
            ++checked;
            EXPECT_TRUE(HasLiteral(UserDocument(), source))
                << "trace source " << name << " ``" << source
                << "`` is not in doc/quic-cc-user.rst";
        }
    }
    // The socket shell 11, QuicCcSocket 4, factory 1, controller 4 when this was written.
    EXPECT_GE(checked, 20u);
}

// Scenario: an inline literal ``ns3::<TypeId>::<Name>`` in the manual names something that
// TypeId itself registers (an attribute or a trace source) or a trace signature typedef.
TEST(QuicCcDocCoverageTest, NoStaleAttributeNames)
{
    std::set<std::string> documentedTids;
    for (const auto& entry : DocumentedTypeIds())
    {
        documentedTids.insert(entry.first);
    }
    const std::regex literal("``(ns3::Quic[A-Za-z]+)::([A-Z][A-Za-z0-9]*)``");
    std::size_t seen = 0;
    const std::string& text = Manual();
    for (auto it = std::sregex_iterator(text.begin(), text.end(), literal);
         it != std::sregex_iterator();
         ++it)
    {
        const std::string tidName = (*it)[1];
        const std::string member = (*it)[2];
        if (documentedTids.count(tidName) == 0)
        {
            continue; // another class (not one of the eight)
        }
        ++seen;
        const TypeId tid = TypeId::LookupByName(tidName);
        const bool known =
            OwnAttributes(tid).count(member) > 0 || OwnTraceSources(tid).count(member) > 0 ||
            (member.size() > 8 && member.compare(member.size() - 8, 8, "Callback") == 0);
        EXPECT_TRUE(known) << "``" << tidName << "::" << member
                           << "`` in doc/ is not an attribute, trace source or "
                              "callback typedef of "
                           << tidName << " itself";
    }
    EXPECT_GT(seen, 0u);
}

// Scenario: every TestSuite of test/*.cc (what CMakeLists.txt registers with ctest) is described
// in the validation document.
TEST(QuicCcDocCoverageTest, EveryRegisteredTestSuiteIsDocumented)
{
    const std::regex registration(R"re(TestSuite\("([^"]+)")re");
    std::size_t suites = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(QUICCC_SOURCE_DIR) + "/test"))
    {
        if (entry.path().extension() != ".cc")
        {
            continue;
        }
        const std::string source = ReadSourceFile("test/" + entry.path().filename().string());
        for (std::sregex_iterator it(source.begin(), source.end(), registration), end; it != end;
             ++it)
        {
            ++suites;
            const std::string suite = (*it)[1].str();
            EXPECT_TRUE(HasLiteral(ValidationDocument(), suite))
                << "TestSuite ``" << suite << "`` is not in doc/quic-cc-validation.rst";
        }
    }
    EXPECT_GE(suites, 8u); // the eight suites of this writing, at least
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
