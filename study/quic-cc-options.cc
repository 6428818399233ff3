/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-options.h"

#include "quic-cc-output-file.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/quic-congestion-controller.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/// The kinds of option (how the text is read).
enum Kind
{
    COUNT,
    BYTES,
    DURATION,
    RATE,
    LOSS,
    NUMBER,
    BOOL,
    FLAG,
    CHOICE,
    TEXT,
    OUTPUT,
    DIRECTORY,
    TRANSPORT,
    BATCH
};

/// "a, b and c"
std::string
JoinAnd(const std::vector<std::string>& items)
{
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
    {
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    }
    return out;
}

bool
Contains(const std::vector<std::string>& items, const std::string& item)
{
    return std::find(items.begin(), items.end(), item) != items.end();
}

/// Every quic-cc controller TypeId that declares \p name itself, as "ns3::QuicCubic::HyStart".
std::vector<std::string>
ControllerAttributeNames(const std::string& name)
{
    std::vector<std::string> out;
    const TypeId base = QuicCongestionController::GetTypeId();
    for (uint32_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid != base && !tid.IsChildOf(base))
        {
            continue;
        }
        for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
        {
            if (tid.GetAttribute(a).name == name)
            {
                out.push_back(tid.GetName() + "::" + name);
            }
        }
    }
    NS_ABORT_MSG_IF(out.empty(), "QuicCcOptions: no congestion controller has attribute " << name);
    return out;
}

/// The initial value of attribute \p fullName ("ns3::QuicCcSocket::AckPolicy"), with its checker.
std::pair<Ptr<const AttributeValue>, Ptr<const AttributeChecker>>
InitialValue(const std::string& fullName)
{
    const size_t sep = fullName.rfind("::");
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByName(fullName.substr(0, sep))
                            .LookupAttributeByName(fullName.substr(sep + 2), &info),
                        "QuicCcOptions: no attribute " << fullName);
    return {info.initialValue, info.checker};
}

} // namespace

/// One declared option.
struct QuicCcOptions::Option::Data
{
    std::string name;                                 //!< without "--"
    std::string help;                                 //!< help text
    int kind{TEXT};                                   //!< Kind
    std::string text;                                 //!< default, then as given
    bool hasDefault{false};                           //!< Default() gave the text
    std::function<std::string()> format;              //!< the field's value as text
    std::function<void(const AttributeValue&)> store; //!< into the field (null: a setting)
    uint64_t min{0};                                  //!< COUNT
    uint64_t max{0};                                  //!< COUNT
    std::vector<std::string> choices;                 //!< CHOICE
    std::map<std::string, std::string> map;           //!< CHOICE setting: text -> attribute value
    std::string positive;                             //!< "" or the reason a value <= 0 is bad
    std::vector<std::string> sockets;                 //!< Socket attributes
    std::vector<std::string> controllers;             //!< Controller attributes
    std::vector<std::string> attributes;              //!< Attribute full names
    std::vector<std::string> onlyOn;                  //!< OnlyOn transports
    std::string why;                                  //!< Why
    /// OnlyWith rules: option, values, why
    std::vector<std::tuple<std::string, std::vector<std::string>, std::string>> onlyWith;
    std::function<void(const std::string&)> then; //!< Then
    Ptr<const AttributeValue> value;              //!< the converted value (a setting's)
};

// ---- Option

QuicCcOptions::Option&
QuicCcOptions::Option::Socket(const std::string& attribute)
{
    NS_ABORT_MSG_IF(QuicCcTransportSpec::SocketTransports(attribute).empty(),
                    "QuicCcOptions: --" << m_data->name << ": no transport's socket has "
                                        << attribute);
    m_data->sockets.push_back(attribute);
    return *this;
}

QuicCcOptions::Option&
QuicCcOptions::Option::Controller(const std::string& attribute)
{
    ControllerAttributeNames(attribute); // fatal if no controller has it
    m_data->controllers.push_back(attribute);
    return *this;
}

QuicCcOptions::Option&
QuicCcOptions::Option::Attribute(const std::string& fullName)
{
    m_data->attributes.push_back(fullName);
    return *this;
}

QuicCcOptions::Option&
QuicCcOptions::Option::OnlyOn(const std::string& transport)
{
    QuicCcTransportSpec::SocketTypeName(transport); // fatal for an unknown transport
    m_data->onlyOn.push_back(transport);
    return *this;
}

QuicCcOptions::Option&
QuicCcOptions::Option::Why(const std::string& why)
{
    m_data->why = why;
    return *this;
}

QuicCcOptions::Option&
QuicCcOptions::Option::OnlyWith(const std::string& option,
                                const std::vector<std::string>& values,
                                const std::string& why)
{
    m_data->onlyWith.emplace_back(option, values, why);
    return *this;
}

QuicCcOptions::Option&
QuicCcOptions::Option::Positive(const std::string& reason)
{
    NS_ABORT_MSG_UNLESS(m_data->kind == DURATION || m_data->kind == NUMBER,
                        "QuicCcOptions: --" << m_data->name << ": Positive needs a number or time");
    m_data->positive = reason;
    return *this;
}

QuicCcOptions::Option&
QuicCcOptions::Option::Map(const std::map<std::string, std::string>& values)
{
    m_data->map = values;
    return *this;
}

QuicCcOptions::Option&
QuicCcOptions::Option::Default(const std::string& text)
{
    m_data->text = text;
    m_data->hasDefault = true;
    return *this;
}

QuicCcOptions::Option&
QuicCcOptions::Option::Then(std::function<void(const std::string& text)> convert)
{
    m_data->then = std::move(convert);
    return *this;
}

// ---- declarations

QuicCcOptions::QuicCcOptions(const std::string& file)
    : m_cmd(file)
{
}

QuicCcOptions::Option&
QuicCcOptions::Add(const std::string& name,
                   const std::string& help,
                   int kind,
                   std::function<std::string()> format,
                   std::function<void(const AttributeValue&)> store)
{
    for (const Option& o : m_options)
    {
        NS_ABORT_MSG_IF(o.m_data->name == name, "QuicCcOptions: --" << name << " declared twice");
    }
    Option option;
    option.m_data = std::make_shared<Option::Data>();
    option.m_data->name = name;
    option.m_data->help = help;
    option.m_data->kind = kind;
    option.m_data->format = std::move(format);
    option.m_data->store = std::move(store);
    m_options.push_back(option);
    return m_options.back();
}

namespace
{

/// How a converted value of AttributeValue type \p V reaches \p field.
template <typename V, typename T>
std::function<void(const AttributeValue&)>
Store(T& field)
{
    return [&field](const AttributeValue& v) {
        field = static_cast<T>(dynamic_cast<const V&>(v).Get());
    };
}

/// \p field as the option shows it, with \p format.
template <typename T, typename F>
std::function<std::string()>
Show(const T& field, F format)
{
    return [&field, format] { return format(field); };
}

/// Any value as operator<< writes it ("0.5").
template <typename T>
std::string
Streamed(const T& v)
{
    std::ostringstream os;
    os << v;
    return os.str();
}

} // namespace

QuicCcOptions::Option&
QuicCcOptions::Count(const std::string& name,
                     const std::string& help,
                     uint32_t& field,
                     uint64_t min,
                     uint64_t max)
{
    Option& o =
        Add(name, help, COUNT, Show(field, Streamed<uint32_t>), Store<UintegerValue>(field));
    o.m_data->min = min;
    o.m_data->max = max;
    return o;
}

QuicCcOptions::Option&
QuicCcOptions::Count(const std::string& name,
                     const std::string& help,
                     uint64_t& field,
                     uint64_t min,
                     uint64_t max)
{
    Option& o =
        Add(name, help, COUNT, Show(field, Streamed<uint64_t>), Store<UintegerValue>(field));
    o.m_data->min = min;
    o.m_data->max = max;
    return o;
}

QuicCcOptions::Option&
QuicCcOptions::Count(const std::string& name, const std::string& help, uint64_t min, uint64_t max)
{
    Option& o = Add(name, help, COUNT);
    o.m_data->min = min;
    o.m_data->max = max;
    return o;
}

QuicCcOptions::Option&
QuicCcOptions::Bytes(const std::string& name, const std::string& help, uint64_t& field)
{
    return Add(name, help, BYTES, Show(field, QuicCcFormatBytes), Store<UintegerValue>(field));
}

QuicCcOptions::Option&
QuicCcOptions::Duration(const std::string& name, const std::string& help, Time& field)
{
    return Add(name, help, DURATION, Show(field, QuicCcFormatTime), Store<TimeValue>(field));
}

QuicCcOptions::Option&
QuicCcOptions::Duration(const std::string& name, const std::string& help)
{
    return Add(name, help, DURATION);
}

QuicCcOptions::Option&
QuicCcOptions::Rate(const std::string& name, const std::string& help, DataRate& field)
{
    return Add(name, help, RATE, Show(field, QuicCcFormatRate), Store<DataRateValue>(field));
}

QuicCcOptions::Option&
QuicCcOptions::Loss(const std::string& name, const std::string& help, double& field)
{
    const auto percent = [](double v) { return v == 0 ? "0" : Streamed(100 * v) + "%"; };
    return Add(name, help, LOSS, Show(field, percent), Store<DoubleValue>(field));
}

QuicCcOptions::Option&
QuicCcOptions::Number(const std::string& name, const std::string& help, double& field)
{
    return Add(name, help, NUMBER, Show(field, Streamed<double>), Store<DoubleValue>(field));
}

QuicCcOptions::Option&
QuicCcOptions::Bool(const std::string& name, const std::string& help, bool& field)
{
    const auto text = [](bool v) { return std::string(v ? "true" : "false"); };
    return Add(name, help, BOOL, Show(field, text), Store<BooleanValue>(field));
}

QuicCcOptions::Option&
QuicCcOptions::Bool(const std::string& name, const std::string& help)
{
    return Add(name, help, BOOL);
}

QuicCcOptions::Option&
QuicCcOptions::Flag(const std::string& name, const std::string& help, bool& field)
{
    Option& o = Bool(name, help, field);
    o.m_data->kind = FLAG;
    return o;
}

QuicCcOptions::Option&
QuicCcOptions::Flag(const std::string& name, const std::string& help)
{
    return Add(name, help, FLAG);
}

QuicCcOptions::Option&
QuicCcOptions::Choice(const std::string& name,
                      const std::string& help,
                      std::string& field,
                      const std::vector<std::string>& choices)
{
    Option& o = Text(name, help, field);
    o.m_data->kind = CHOICE;
    o.m_data->choices = choices;
    return o;
}

QuicCcOptions::Option&
QuicCcOptions::Choice(const std::string& name,
                      const std::string& help,
                      const std::vector<std::string>& choices)
{
    Option& o = Add(name, help, CHOICE);
    o.m_data->choices = choices;
    return o;
}

QuicCcOptions::Option&
QuicCcOptions::Text(const std::string& name, const std::string& help, std::string& field)
{
    const auto same = [](const std::string& v) { return v; };
    return Add(name, help, TEXT, Show(field, same), Store<StringValue>(field));
}

QuicCcOptions::Option&
QuicCcOptions::Output(const std::string& name, const std::string& help, std::string& path)
{
    Option& o = Text(name, help, path);
    o.m_data->kind = OUTPUT;
    return o;
}

QuicCcOptions::Option&
QuicCcOptions::Directory(const std::string& name, const std::string& help, std::string& path)
{
    Option& o = Text(name, help, path);
    o.m_data->kind = DIRECTORY;
    return o;
}

QuicCcOptions::Option&
QuicCcOptions::Qlog(const std::string& name, const std::string& help, std::string& path)
{
    Option& o = Directory(name, help, path);
    for (const std::string& attribute : QuicCcTransportSpec::QlogAttributes())
    {
        o.Attribute(attribute);
    }
    return o;
}

const QuicCcTransportChoice&
QuicCcOptions::Transport()
{
    Option& o = Add("transport", QuicCcTransportHelp(), TRANSPORT);
    o.Default("quic-cc");
    return m_transports;
}

QuicCcBatchOptions&
QuicCcOptions::Batch(uint32_t defaultRuns, const std::string& runsHelp)
{
    NS_ABORT_MSG_IF(m_batch, "QuicCcOptions: Batch declared twice");
    m_batch = std::make_unique<QuicCcBatchOptions>(defaultRuns);
    Add("", runsHelp, BATCH);
    return *m_batch;
}

void
QuicCcOptions::SetByScenario(const std::vector<std::string>& attributes)
{
    m_setByScenario.insert(m_setByScenario.end(), attributes.begin(), attributes.end());
}

// ---- what the table derives

void
QuicCcOptions::Parse(int argc, char* argv[], const std::function<void()>& checks)
{
    // The transports each option stands for, and the attributes it sets.
    std::vector<std::pair<std::string, std::string>> setTo;
    std::map<std::string, std::map<std::string, std::string>> setToValues;
    std::vector<std::pair<std::string, std::string>> setBy;
    std::vector<std::string> declared;
    for (Option& option : m_options)
    {
        Option::Data& o = *option.m_data;
        for (const auto& rule : o.onlyWith)
        {
            NS_ABORT_MSG_UNLESS(Contains(declared, std::get<0>(rule)),
                                "QuicCcOptions: --" << o.name << " depends on --"
                                                    << std::get<0>(rule)
                                                    << ", which must be declared before it");
        }
        declared.push_back(o.name);
        if (o.kind == BATCH)
        {
            m_batch->Add(m_cmd, o.help);
            continue;
        }
        const bool setting = !o.store && o.kind != TRANSPORT;
        NS_ABORT_MSG_IF(setting && o.sockets.empty() && o.controllers.empty(),
                        "QuicCcOptions: --" << o.name
                                            << " has neither a field nor an attribute to set");
        if (!o.hasDefault && o.format)
        {
            o.text = o.format();
        }
        if (setting)
        {
            // A setting: the default of its attribute, as the option writes it; a Choice
            // without its own list takes the attribute's names.
            const std::string attribute =
                o.sockets.empty() ? ControllerAttributeNames(o.controllers.front()).front()
                                  : QuicCcTransportSpec::SocketAttributeName(Transports(o).front(),
                                                                             o.sockets.front());
            const auto [value, checker] = InitialValue(attribute);
            const auto written = [&o](const std::string& text) {
                for (const auto& [option, mapped] : o.map)
                {
                    if (mapped == text)
                    {
                        return option;
                    }
                }
                return text;
            };
            if (o.kind == CHOICE && o.choices.empty())
            {
                for (const std::string& name : QuicCcAttributeNames(attribute))
                {
                    o.choices.push_back(written(name));
                }
            }
            if (o.hasDefault)
            {
                // as given by Default
            }
            else if (const auto* t = dynamic_cast<const TimeValue*>(PeekPointer(value)))
            {
                o.text = QuicCcFormatTime(t->Get());
            }
            else
            {
                o.text = written(value->SerializeToString(checker));
            }
        }
        if (o.kind == FLAG)
        {
            m_cmd.AddFlag(o.name, o.help, o.text);
        }
        else
        {
            m_cmd.AddValue(o.name, o.help, o.text);
        }
        // The attributes the option sets: its Socket and Controller attributes with its text as
        // written (the constraints between attributes are checked with it) unless converted;
        // Attribute's by other means.
        const auto asWritten = [&o](const std::string& attribute) {
            const std::string type = InitialValue(attribute).second->GetValueTypeName();
            const std::map<int, std::string> types{{COUNT, "ns3::UintegerValue"},
                                                   {DURATION, "ns3::TimeValue"},
                                                   {BOOL, "ns3::BooleanValue"},
                                                   {FLAG, "ns3::BooleanValue"},
                                                   {CHOICE, "ns3::EnumValue"}};
            const auto kind = types.find(o.kind);
            return o.map.empty() && kind != types.end() && type.rfind(kind->second, 0) == 0;
        };
        for (const std::string& name : o.attributes)
        {
            setBy.emplace_back(name, o.name);
        }
        std::vector<std::string> names;
        for (const std::string& transport : Transports(o))
        {
            for (const std::string& socket : o.sockets)
            {
                if (QuicCcTransportSpec::SocketHas(transport, socket))
                {
                    names.push_back(QuicCcTransportSpec::SocketAttributeName(transport, socket));
                }
            }
        }
        for (const std::string& controller : o.controllers)
        {
            const std::vector<std::string> declared = ControllerAttributeNames(controller);
            names.insert(names.end(), declared.begin(), declared.end());
        }
        // A Choice whose texts map to the attribute's values is set to those values.
        const auto mapsToValues = [&o](const std::string& attribute) {
            return o.kind == CHOICE && !o.map.empty() &&
                   std::all_of(o.map.begin(), o.map.end(), [&attribute](const auto& text) {
                       return QuicCcCheckAttributeDefault(attribute, text.second).empty();
                   });
        };
        for (const std::string& name : names)
        {
            if (mapsToValues(name))
            {
                setTo.emplace_back(name, o.name);
                setToValues[o.name] = o.map;
            }
            else
            {
                (asWritten(name) ? setTo : setBy).emplace_back(name, o.name);
            }
        }
    }
    for (const std::string& attribute : QuicCcTransportSpec::SetByTransport())
    {
        setBy.emplace_back(attribute, "");
    }
    for (const std::string& attribute : m_setByScenario)
    {
        setBy.emplace_back(attribute, "");
    }
    m_cmd.AttributesSetTo(setTo, setToValues);
    m_cmd.AttributesSetBy(setBy);
    m_cmd.Parse(argc, argv);

    try
    {
        for (Option& option : m_options)
        {
            Convert(*option.m_data);
        }
        std::vector<QuicCcOutputPath> outputs;
        if (m_batch)
        {
            outputs.push_back({"csv", m_batch->csv});
        }
        for (const Option& option : m_options)
        {
            const Option::Data& o = *option.m_data;
            if (o.kind == OUTPUT || o.kind == DIRECTORY)
            {
                outputs.push_back({o.name, o.text, o.kind == DIRECTORY});
            }
        }
        QuicCcCheckOutputs(outputs);
        if (checks)
        {
            checks();
        }
    }
    catch (const QuicCcUsageError& e)
    {
        Exit(e);
    }
    if (m_batch && m_batch->dryRun)
    {
        std::exit(0);
    }
}

std::vector<std::string>
QuicCcOptions::Transports(const Option::Data& o) const
{
    if (!o.onlyOn.empty())
    {
        return o.onlyOn;
    }
    std::vector<std::string> out;
    for (const std::string& transport : QuicCcTransportSpec::Transports())
    {
        bool honours = o.controllers.empty() || transport == "quic-cc";
        for (const std::string& socket : o.sockets)
        {
            honours = honours && QuicCcTransportSpec::SocketHas(transport, socket);
        }
        if (honours)
        {
            out.push_back(transport);
        }
    }
    return out;
}

void
QuicCcOptions::Convert(Option::Data& o)
{
    if (o.kind == BATCH)
    {
        m_batch->Parse();
        return;
    }
    if (o.kind == TRANSPORT)
    {
        m_transports = QuicCcParseTransport(o.text);
        ApplyTransportRules();
        if (o.then)
        {
            o.then(o.text);
        }
        return;
    }
    const bool given = m_cmd.WasGiven(o.name);
    // Given while the option it depends on (converted before it) excludes it.
    for (const auto& [other, values, why] : o.onlyWith)
    {
        const std::string& text = GetText(other);
        QuicCcRequire(!given || Contains(values, text),
                      o.name,
                      o.text,
                      "has no effect with --" + other + "=" + text +
                          (why.empty() ? "" : " (" + why + ")"));
    }
    if (!given && o.text.empty())
    {
        return; // a default derived from other options: the example computes it
    }
    Ptr<AttributeValue> value;
    switch (o.kind)
    {
    case COUNT:
        value = Create<UintegerValue>(QuicCcParseUnsigned(o.name, o.text, o.min, o.max));
        break;
    case BYTES:
        value = Create<UintegerValue>(QuicCcParseBytes(o.name, o.text));
        break;
    case DURATION: {
        const Time t = QuicCcParseTime(o.name, o.text);
        QuicCcRequire(o.positive.empty() || t.IsStrictlyPositive(), o.name, o.text, o.positive);
        value = Create<TimeValue>(t);
        break;
    }
    case RATE:
        value = Create<DataRateValue>(QuicCcParseRate(o.name, o.text));
        break;
    case LOSS:
        value = Create<DoubleValue>(QuicCcParseLoss(o.name, o.text));
        break;
    case NUMBER: {
        const double v = QuicCcParseNonNegative(o.name, o.text);
        QuicCcRequire(o.positive.empty() || v > 0, o.name, o.text, o.positive);
        value = Create<DoubleValue>(v);
        break;
    }
    case BOOL:
    case FLAG:
        value = Create<BooleanValue>(QuicCcParseBool(o.name, o.text));
        break;
    case CHOICE: {
        const std::string choice = QuicCcParseChoice(o.name, o.text, o.choices);
        const auto mapped = o.map.find(choice);
        value = Create<StringValue>(mapped == o.map.end() ? choice : mapped->second);
        break;
    }
    default:
        value = Create<StringValue>(o.text);
        break;
    }
    o.value = value;
    if (o.store && given)
    {
        o.store(*value); // not given: the field keeps its default, exactly
    }
    if (o.then)
    {
        o.then(o.text);
    }
}

void
QuicCcOptions::ApplyTransportRules() const
{
    const std::string with = "has no effect with --transport=" + m_transports.text;
    std::string rows;
    for (const std::string& transport : m_transports.transports)
    {
        rows +=
            "; the " + transport + " rows use " + QuicCcTransportSpec::SocketTypeName(transport);
    }
    for (const QuicCcGivenAttribute& given : m_cmd.GetGivenAttributes())
    {
        const std::string owner =
            QuicCcTransportSpec::TransportOfType(given.name.substr(0, given.name.rfind("::")));
        QuicCcRequire(owner.empty() || m_transports.Runs(owner),
                      "",
                      given.quoted,
                      with + " (no " + owner + " row runs" + rows + ")");
    }
    for (const Option& option : m_options)
    {
        const Option::Data& o = *option.m_data;
        const std::vector<std::string> honouring = Transports(o);
        const bool honoured =
            std::any_of(honouring.begin(), honouring.end(), [this](const std::string& t) {
                return m_transports.Runs(t);
            });
        QuicCcRequire(!m_cmd.WasGiven(o.name) || honoured,
                      o.name,
                      o.text,
                      with + " (" +
                          (o.why.empty() ? "a " + JoinAnd(honouring) + " option; " +
                                               JoinAnd(m_transports.transports) + " has its own"
                                         : o.why) +
                          ")");
    }
}

// ---- reading

bool
QuicCcOptions::Given(const std::string& name) const
{
    return m_cmd.WasGiven(name);
}

const QuicCcOptions::Option::Data&
QuicCcOptions::Find(const std::string& name) const
{
    for (const Option& o : m_options)
    {
        if (o.m_data->name == name)
        {
            return *o.m_data;
        }
    }
    NS_FATAL_ERROR("QuicCcOptions: no option --" << name);
}

const std::string&
QuicCcOptions::GetText(const std::string& name) const
{
    return Find(name).text;
}

std::string
QuicCcOptions::Named(const std::string& name,
                     const std::string& what,
                     const std::string& value) const
{
    return Given(name) ? "--" + name + "=" + GetText(name) : what + " (" + value + ")";
}

const std::vector<QuicCcGivenAttribute>&
QuicCcOptions::GetGivenAttributes() const
{
    return m_cmd.GetGivenAttributes();
}

bool
QuicCcOptions::Applies(const std::string& name) const
{
    for (const auto& [other, values, why] : Find(name).onlyWith)
    {
        if (!Contains(values, GetText(other)))
        {
            return false;
        }
    }
    return true;
}

QuicCcTransportSpec
QuicCcOptions::GetTransportSpec(const std::string& transport, const std::string& controller) const
{
    QuicCcTransportSpec spec(transport, controller);
    for (const Option& option : m_options)
    {
        const Option::Data& o = *option.m_data;
        if (o.store || !o.value)
        {
            continue;
        }
        for (const std::string& attribute : o.controllers)
        {
            spec.SetController(attribute, *o.value);
        }
        for (const std::string& attribute : o.sockets)
        {
            std::vector<std::string> on;
            for (const std::string& t : Transports(o))
            {
                if (QuicCcTransportSpec::SocketHas(t, attribute))
                {
                    on.push_back(t);
                }
            }
            spec.SetSocket(attribute, *o.value, on);
        }
    }
    return spec;
}

const std::string&
QuicCcOptions::GetProgramName() const
{
    return m_cmd.GetProgramName();
}

const QuicCcTransportChoice&
QuicCcOptions::GetTransports() const
{
    return m_transports;
}

const QuicCcBatchOptions&
QuicCcOptions::GetBatch() const
{
    NS_ABORT_MSG_UNLESS(m_batch, "QuicCcOptions: no Batch declared");
    return *m_batch;
}

void
QuicCcOptions::Exit(const QuicCcUsageError& error) const
{
    m_cmd.Exit(error);
}

// ---- --transport

bool
QuicCcTransportChoice::Runs(const std::string& transport) const
{
    return Contains(transports, transport);
}

std::vector<std::string>
QuicCcTransportChoice::Controllers() const
{
    std::vector<std::string> out;
    for (const std::string& controller : QuicCcTransportSpec::Controllers(transports.front()))
    {
        bool everywhere = true;
        for (const std::string& transport : transports)
        {
            everywhere =
                everywhere && Contains(QuicCcTransportSpec::Controllers(transport), controller);
        }
        if (everywhere)
        {
            out.push_back(controller);
        }
    }
    return out;
}

std::string
QuicCcTransportHelp()
{
    return "quic-cc (the models), ngtcp2 (the real ngtcp2 library's own controllers: rows "
           "ngtcp2-cubic, ngtcp2-reno, ngtcp2-bbr) or all (both, same runs)";
}

std::vector<std::string>
QuicCcParseRows(const std::string& option,
                const std::string& text,
                const std::vector<std::string>& known,
                const std::function<bool(const std::string&)>& isNgtcp2)
{
    const bool ngtcp2Built = !QuicCcNgtcp2Version().empty();
    std::vector<std::string> allowed = known;
    allowed.emplace_back("all");
    std::vector<std::string> chosen;
    for (const std::string& item : QuicCcSplitList(option, text))
    {
        const std::string name = QuicCcParseChoice(option, item, allowed);
        QuicCcRequire(!isNgtcp2(name) || ngtcp2Built, option, item, kQuicCcNgtcp2Missing);
        for (const std::string& one : known)
        {
            if ((name == "all" && (!isNgtcp2(one) || ngtcp2Built)) || one == name)
            {
                QuicCcRequire(std::find(chosen.begin(), chosen.end(), one) == chosen.end(),
                              option,
                              text,
                              "names " + one + " twice");
                chosen.push_back(one);
            }
        }
    }
    std::vector<std::string> ordered;
    for (const std::string& one : known)
    {
        if (std::find(chosen.begin(), chosen.end(), one) != chosen.end())
        {
            ordered.push_back(one);
        }
    }
    return ordered;
}

QuicCcOptions::Option&
QuicCcAckRatiosOption(QuicCcOptions& options, std::string& text, std::vector<uint32_t>& ratios)
{
    return options
        .Text("ackRatios",
              "the receiver's ACK every N ack-eliciting packets, comma-separated",
              text)
        .Socket("AckElicitingThreshold")
        .Then([&ratios](const std::string& list) {
            for (const std::string& r : QuicCcSplitList("ackRatios", list))
            {
                ratios.push_back(QuicCcParseUnsigned("ackRatios", r, 1, 1000));
            }
        });
}

QuicCcTransportChoice
QuicCcParseTransport(const std::string& text)
{
    QuicCcTransportChoice choice;
    choice.text = QuicCcParseChoice("transport", text, {"quic-cc", "ngtcp2", "all"});
    QuicCcRequire(text == "quic-cc" || !QuicCcNgtcp2Version().empty(),
                  "transport",
                  text,
                  kQuicCcNgtcp2Missing);
    choice.transports =
        text == "all" ? QuicCcTransportSpec::Transports() : std::vector<std::string>{text};
    return choice;
}

std::vector<std::string>
QuicCcAttributeNames(const std::string& fullName)
{
    std::vector<std::string> out;
    std::istringstream names(InitialValue(fullName).second->GetUnderlyingTypeInformation());
    for (std::string name; std::getline(names, name, '|');)
    {
        out.push_back(name);
    }
    return out;
}

// ---- formatting

std::string
QuicCcFormatTime(Time t)
{
    const int64_t ns = t.GetNanoSeconds();
    if (ns == 0)
    {
        return "0s";
    }
    if (Time(NanoSeconds(ns)) == t)
    {
        for (const auto& [unit, factor] : {std::pair<const char*, int64_t>{"s", 1000000000},
                                           {"ms", 1000000},
                                           {"us", 1000},
                                           {"ns", 1}})
        {
            if (ns % factor == 0)
            {
                return std::to_string(ns / factor) + unit;
            }
        }
    }
    std::ostringstream os;
    os << t.GetSeconds() << "s";
    return os.str();
}

std::string
QuicCcFormatBytes(uint64_t bytes)
{
    for (const auto& [unit, factor] : {std::pair<const char*, uint64_t>{"TB", 1000000000000},
                                       {"GB", 1000000000},
                                       {"MB", 1000000},
                                       {"kB", 1000}})
    {
        if (bytes >= factor && bytes % factor == 0)
        {
            return std::to_string(bytes / factor) + unit;
        }
    }
    return std::to_string(bytes);
}

std::string
QuicCcFormatRate(DataRate rate)
{
    const uint64_t bps = rate.GetBitRate();
    for (const auto& [unit, factor] :
         {std::pair<const char*, uint64_t>{"Gbps", 1000000000}, {"Mbps", 1000000}, {"kbps", 1000}})
    {
        if (bps >= factor && bps % factor == 0)
        {
            return std::to_string(bps / factor) + unit;
        }
    }
    return std::to_string(bps) + "bps";
}

} // namespace ns3
