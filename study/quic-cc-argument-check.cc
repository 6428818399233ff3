/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-argument-check.h"

#include "ns3/global-value.h"
#include "ns3/object-factory.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/quic-cc-socket.h"
#include "ns3/quic-hystart-plus-plus.h"
#include "ns3/string.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

namespace ns3
{

std::string
QuicCcCheckAttributeDefault(const std::string& name,
                            const std::string& value,
                            const std::string& spelling)
{
    const size_t sep = name.rfind("::");
    if (sep == std::string::npos || sep == 0)
    {
        return "not an attribute name (ns3::Type::Attribute)";
    }
    const std::string typeName = name.substr(0, sep);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        return "no TypeId named " + typeName;
    }
    const std::string attribute = name.substr(sep + 2);
    // Config::SetDefault and NS_ATTRIBUTE_DEFAULT look only at the attributes the TypeId itself
    // declares (ns-3.37 Config::SetDefaultFailSafe, ObjectBase::ConstructSelf).
    for (TypeId owner = tid; owner != owner.GetParent(); owner = owner.GetParent())
    {
        bool declared = false;
        for (std::size_t i = 0; i < owner.GetAttributeN(); ++i)
        {
            declared = declared || owner.GetAttribute(i).name == attribute;
        }
        if (declared && owner != tid)
        {
            return attribute + " is declared by " + owner.GetName() + ": use " + spelling +
                   owner.GetName() + "::" + attribute;
        }
        if (declared)
        {
            break;
        }
    }
    return QuicCcHelper::CheckAttributeValue(tid, attribute, StringValue(value));
}

namespace
{
/// An attribute default or a global value as the user gave it.
struct GivenDefault
{
    std::string source; //!< "--" (command line) or "NS_ATTRIBUTE_DEFAULT="
    std::string name;   //!< "ns3::Type::Attribute" or a global value's name
    std::string value;  //!< as given
    bool assigned;      //!< the item had a '=' (an environment item without one is ignored by
                        //!< ns-3)

    /// The value as the user wrote it.
    std::string Quote() const
    {
        return source + name + (assigned ? "=" + value : "");
    }
};

/// The items of an environment variable, split as ns-3 splits them (';' between items, the
/// first '=' between name and value).
std::vector<GivenDefault>
EnvironmentItems(const char* variable)
{
    std::vector<GivenDefault> items;
    const char* env = std::getenv(variable);
    if (!env || !*env)
    {
        return items;
    }
    std::istringstream list(env);
    std::string item;
    while (std::getline(list, item, ';'))
    {
        const size_t eq = item.find('=');
        items.push_back({std::string(variable) + "=",
                         item.substr(0, eq),
                         eq == std::string::npos ? "" : item.substr(eq + 1),
                         eq != std::string::npos});
    }
    return items;
}

/// Options ns-3's CommandLine handles itself (CommandLine::HandleHardOptions, ns-3.37).
const std::set<std::string> kNs3Options{"help",
                                        "PrintHelp",
                                        "PrintGlobals",
                                        "PrintGroups",
                                        "PrintGroup",
                                        "PrintTypeIds",
                                        "PrintAttributes",
                                        "PrintVersion",
                                        "version"};

/// The global value named \p name, or null.
const GlobalValue*
FindGlobal(const std::string& name)
{
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() == name)
        {
            return *it;
        }
    }
    return nullptr;
}

/// The arguments ns-3's CommandLine gives to Config::SetDefault (a name with "::") or
/// Config::SetGlobal (a global value's name); "-name" and "--name" alike, as it reads them.
std::vector<GivenDefault>
CommandLineItems(int argc, char* argv[])
{
    std::vector<GivenDefault> items;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const size_t dashes = arg.find_first_not_of('-');
        if (dashes == 0 || dashes == std::string::npos || dashes > 2)
        {
            continue;
        }
        const size_t eq = arg.find('=');
        GivenDefault d{"--",
                       arg.substr(dashes, eq == std::string::npos ? eq : eq - dashes),
                       eq == std::string::npos ? "" : arg.substr(eq + 1),
                       true};
        if (d.name.find("::") != std::string::npos || FindGlobal(d.name))
        {
            items.push_back(d);
        }
    }
    return items;
}

/// The reason \p given is invalid on its own, or "".
std::string
CheckGiven(const GivenDefault& given)
{
    if (!given.assigned)
    {
        return "not Name=Value";
    }
    if (given.name.find("::") != std::string::npos)
    {
        return QuicCcCheckAttributeDefault(given.name,
                                           given.value,
                                           given.source == "--" ? "--" : "");
    }
    const GlobalValue* global = FindGlobal(given.name);
    if (!global)
    {
        return "no global value named " + given.name;
    }
    return QuicCcHelper::CheckValue(global->GetChecker(), StringValue(given.value));
}

/// The TypeIds with constraints between their attributes, and how each object reports them.
const std::vector<std::pair<std::string, std::function<std::string(Ptr<Object>)>>>&
ConstrainedTypes()
{
    static const std::vector<std::pair<std::string, std::function<std::string(Ptr<Object>)>>>
        kTypes{
            {"ns3::QuicHyStartPlusPlus",
             [](Ptr<Object> o) { return DynamicCast<QuicHyStartPlusPlus>(o)->GetConfigError(); }},
            {"ns3::QuicCcSocket",
             [](Ptr<Object> o) { return DynamicCast<QuicCcSocket>(o)->GetConfigError(); }}};
    return kTypes;
}

/**
 * The first constraint between attributes that the given values break, as one line naming the
 * values the user gave that the reason mentions, or "". Each object is built as ns-3 would build
 * it: NS_ATTRIBUTE_DEFAULT wins over a command-line default (ObjectBase::ConstructSelf takes the
 * environment before the initial value that Config::SetDefault changed), so a command-line
 * value is used only for an attribute the environment does not set.
 */
std::string
CheckConstraints(const std::vector<GivenDefault>& commandLine,
                 const std::vector<GivenDefault>& environment,
                 const std::vector<QuicCcProgramSetting>& settings)
{
    const auto setByProgram = [&settings](const std::string& name) {
        return std::any_of(settings.begin(),
                           settings.end(),
                           [&name](const QuicCcProgramSetting& s) { return s.attribute == name; });
    };
    for (const auto& [typeName, check] : ConstrainedTypes())
    {
        std::vector<std::pair<std::string, std::string>> given; // attribute, as the user wrote it
        ObjectFactory factory(typeName);
        for (const GivenDefault& d : commandLine)
        {
            const bool fromEnvironment =
                std::any_of(environment.begin(), environment.end(), [&d](const GivenDefault& e) {
                    return e.name == d.name;
                });
            if (d.name.rfind(typeName + "::", 0) == 0 && !fromEnvironment && !setByProgram(d.name))
            {
                factory.Set(d.name.substr(typeName.size() + 2), StringValue(d.value));
                given.emplace_back(d.name, d.Quote());
            }
        }
        for (const GivenDefault& e : environment)
        {
            if (e.name.rfind(typeName + "::", 0) == 0 && !setByProgram(e.name))
            {
                given.emplace_back(e.name, e.Quote());
            }
        }
        // The program's own values win over the environment too (ObjectBase::ConstructSelf
        // takes the factory's attributes first).
        for (const QuicCcProgramSetting& setting : settings)
        {
            if (setting.attribute.rfind(typeName + "::", 0) == 0)
            {
                factory.Set(setting.attribute.substr(typeName.size() + 2),
                            StringValue(setting.value));
                if (!setting.given.empty())
                {
                    given.emplace_back(setting.attribute, setting.given);
                }
            }
        }
        Ptr<Object> object = factory.Create<Object>();
        const std::string reason = check(object);
        object->Dispose();
        if (reason.empty())
        {
            continue;
        }
        std::string quoted;
        for (const auto& [name, asWritten] : given)
        {
            const std::string attribute = name.substr(typeName.size() + 2);
            if (std::regex_search(reason, std::regex("\\b" + attribute + "\\b")))
            {
                quoted += (quoted.empty() ? "" : " ") + asWritten;
            }
        }
        return (quoted.empty() ? "" : quoted + ": ") + reason;
    }
    return "";
}
} // namespace

std::string
QuicCcCheckAttributeDefaults(int argc,
                             char* argv[],
                             const std::vector<QuicCcProgramSetting>& settings)
{
    const std::vector<GivenDefault> commandLine = CommandLineItems(argc, argv);
    std::vector<GivenDefault> environment = EnvironmentItems("NS_ATTRIBUTE_DEFAULT");
    std::vector<GivenDefault> all = commandLine;
    all.insert(all.end(), environment.begin(), environment.end());
    for (const GivenDefault& d : all)
    {
        if (const std::string reason = CheckGiven(d); !reason.empty())
        {
            return d.Quote() + ": " + reason;
        }
    }
    return CheckConstraints(commandLine, environment, settings);
}

std::string
QuicCcCheckArguments(int argc,
                     char* argv[],
                     const std::vector<std::string>& options,
                     const std::vector<std::string>& flags,
                     const std::vector<QuicCcProgramSetting>& settings)
{
    const auto listed = [](const std::vector<std::string>& names, const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const size_t dashes = arg.find_first_not_of('-');
        const size_t eq = arg.find('=');
        const std::string name = dashes == std::string::npos ? "" : arg.substr(dashes, eq - dashes);
        if (dashes == 0 || dashes > 2 || name.empty())
        {
            return arg + ": not an option (options are --name=value; see --help)";
        }
        const std::string quoted =
            "--" + name + "=" + (eq == std::string::npos ? "" : arg.substr(eq + 1));
        const std::string needsValue = quoted + ": needs a value (--" + name + "=VALUE)";
        if (eq != std::string::npos && eq + 1 == arg.size())
        {
            return needsValue; // ns-3 would print its whole help text and exit 1
        }
        if (listed(options, name))
        {
            if (eq == std::string::npos && !listed(flags, name))
            {
                return needsValue;
            }
            continue;
        }
        if (kNs3Options.count(name))
        {
            continue;
        }
        const GivenDefault d{"--", name, eq == std::string::npos ? "" : arg.substr(eq + 1), true};
        if (name.find("::") == std::string::npos && !FindGlobal(name))
        {
            return quoted + ": unknown option (see --help)";
        }
        if (const std::string reason = CheckGiven(d); !reason.empty())
        {
            return d.Quote() + ": " + reason;
        }
    }
    return QuicCcCheckAttributeDefaults(argc, argv, settings);
}

std::vector<QuicCcGivenAttribute>
QuicCcGivenAttributes(int argc, char* argv[])
{
    std::vector<QuicCcGivenAttribute> attributes;
    std::vector<GivenDefault> items = CommandLineItems(argc, argv);
    const std::vector<GivenDefault> environment = EnvironmentItems("NS_ATTRIBUTE_DEFAULT");
    items.insert(items.end(), environment.begin(), environment.end());
    for (const GivenDefault& d : items)
    {
        if (d.assigned && d.name.find("::") != std::string::npos)
        {
            attributes.push_back({d.name, d.value, d.Quote(), d.source != "--"});
        }
    }
    return attributes;
}

std::string
QuicCcQuoteAttribute(const std::string& name, const std::string& value)
{
    const std::vector<GivenDefault> environment = EnvironmentItems("NS_ATTRIBUTE_DEFAULT");
    for (auto it = environment.rbegin(); it != environment.rend(); ++it)
    {
        if (it->name == name && it->assigned)
        {
            return it->Quote();
        }
    }
    return "--" + name + "=" + value;
}

} // namespace ns3
