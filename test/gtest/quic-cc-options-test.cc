/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the examples' option table (QuicCcOptions) and the transport spec
 * (QuicCcTransportSpec): defaults, derived refusals and transport rules, and the settings each
 * transport gets.
 */
#include "quic-cc-options.h"
#include "quic-cc-transport-spec.h"

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/quic-cc-helper.h"
#include "ns3/quic-cc-socket-factory-base.h"
#include "ns3/quic-cc-socket.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace
{

using namespace ns3;

bool
HasNgtcp2()
{
    return !QuicCcNgtcp2Version().empty();
}

/// The value of attribute \p name, as text, of a socket the spec's transport creates on a
/// fresh node (a time in milliseconds: "7ms").
std::string
SocketAttribute(const QuicCcTransportSpec& spec, const std::string& name)
{
    Ptr<Node> node = CreateObject<Node>();
    InternetStackHelper internet;
    internet.Install(node);
    QuicCcHelper quic;
    spec.ApplyTo(quic);
    quic.Install(node);
    Ptr<QuicCcSocketFactoryBase> factory =
        node->GetObject<QuicCcSocketFactoryBase>(TypeId::LookupByName(quic.GetSocketFactoryName()));
    Ptr<Socket> socket = factory->CreateSocket();
    std::string out;
    TimeValue time;
    if (socket->GetAttributeFailSafe(name, time))
    {
        out = std::to_string(time.Get().GetMilliSeconds()) + "ms";
    }
    else
    {
        StringValue value;
        socket->GetAttribute(name, value);
        out = value.Get();
    }
    Simulator::Destroy();
    return out;
}

/// Run \p declare's table on \p args (argv[0] added); the process exits on an error.
void
ParseWith(std::vector<std::string> args, const std::function<void(QuicCcOptions&)>& declare)
{
    QuicCcOptions options("/x/quic-cc-table-test.cc");
    declare(options);
    args.insert(args.begin(), "quic-cc-table-test");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    options.Parse(static_cast<int>(argv.size()), argv.data());
}

TEST(QuicCcTransportSpec, SettingsGoToTheTransportsThatHaveThem)
{
    // Reno with CUBIC's IdleRestart: not set on Reno (which has none), no error.
    QuicCcTransportSpec reno("quic-cc", "reno");
    reno.SetController("IdleRestart", StringValue("LastSent"));
    reno.SetController("HyStart", BooleanValue(false));
    reno.SetSocket("AckPolicy", StringValue("Rfc9000"));
    reno.SetSocket("MaxAckDelay", TimeValue(MilliSeconds(7)));
    EXPECT_EQ(SocketAttribute(reno, "AckPolicy"), "Rfc9000");
    EXPECT_EQ(SocketAttribute(reno, "MaxAckDelay"), "7ms");
    if (!HasNgtcp2())
    {
        GTEST_SKIP() << "built without the ngtcp2 transport";
    }
    // The same settings on ngtcp2: its controller by name, MaxAckDelay, not quic-cc's own.
    reno.SetTransport("ngtcp2", "bbr");
    EXPECT_EQ(SocketAttribute(reno, "CongestionControl"), "Bbr");
    EXPECT_EQ(SocketAttribute(reno, "MaxAckDelay"), "7ms");
    EXPECT_EQ(SocketAttribute(reno, "UdpPayloadShaping"), "false");
}

TEST(QuicCcTransportSpecDeathTest, UnknownNamesAreFatal)
{
    QuicCcTransportSpec spec;
    if (HasNgtcp2()) // without it, the ngtcp2 socket might have the name
    {
        EXPECT_DEATH(spec.SetSocket("NoSuchAttribute", UintegerValue(1)),
                     "no transport's socket has an attribute 'NoSuchAttribute'");
    }
    EXPECT_DEATH(spec.SetController("NoSuchAttribute", UintegerValue(1)),
                 "no congestion controller has an attribute 'NoSuchAttribute'");
    EXPECT_DEATH(QuicCcTransportSpec("tcp", "cubic"), "transport must be quic-cc or ngtcp2");
    EXPECT_DEATH(QuicCcTransportSpec("quic-cc", "bbr"), "quic-cc has no controller 'bbr'");
}

TEST(QuicCcTransportSpec, Transports)
{
    EXPECT_EQ(QuicCcTransportSpec::TransportOfType("ns3::QuicCubic"), "quic-cc");
    EXPECT_EQ(QuicCcTransportSpec::TransportOfType("ns3::QuicCcSocket"), "quic-cc");
    EXPECT_EQ(QuicCcTransportSpec::TransportOfType("ns3::TcpSocketBase"), "");
    EXPECT_EQ(QuicCcTransportSpec::SocketTransports("AckPolicy"),
              std::vector<std::string>{"quic-cc"});
    EXPECT_EQ(QuicCcTransportSpec::SocketTransports("MaxAckDelay"),
              QuicCcTransportSpec::Transports());
    EXPECT_EQ(QuicCcTransportSpec::SocketAttributeName("quic-cc", "AckPolicy"),
              "ns3::QuicCcSocket::AckPolicy");
}

TEST(QuicCcOptions, Formats)
{
    EXPECT_EQ(QuicCcFormatTime(MicroSeconds(50)), "50us");
    EXPECT_EQ(QuicCcFormatTime(Seconds(2)), "2s");
    EXPECT_EQ(QuicCcFormatTime(Time(0)), "0s");
    EXPECT_EQ(QuicCcFormatTime(MilliSeconds(1500)), "1500ms");
    EXPECT_EQ(QuicCcFormatBytes(10000000), "10MB");
    EXPECT_EQ(QuicCcFormatBytes(1234), "1234");
    EXPECT_EQ(QuicCcFormatRate(DataRate("1Gbps")), "1Gbps");
    EXPECT_EQ(QuicCcFormatRate(DataRate("20Mbps")), "20Mbps");
    for (const Time t : {MicroSeconds(50), MilliSeconds(25), Seconds(600), NanoSeconds(7)})
    {
        EXPECT_EQ(QuicCcParseTime("t", QuicCcFormatTime(t)), t);
    }
}

/// A small table over \p fields: a field of each kind, settings of both kinds, a transport.
struct Table
{
    Time delay{MilliSeconds(5)};
    uint32_t buffer{1000};
    double loss{0.3};
    std::string mode{"a"};
    QuicCcOptions options{"/somewhere/quic-cc-table-test.cc"};

    Table()
    {
        options.Transport();
        options.Duration("delay", "one-way delay", delay);
        options.Count("buffer", "packets", buffer, 1, 100000);
        options.Loss("loss", "loss rate", loss);
        options.Choice("mode", "a or b", mode, {"a", "b"});
        options.Choice("ackPolicy", "ACK policy", {"ReceiveBatch", "Rfc9000"}).Socket("AckPolicy");
        options.Choice("probeContent", "PTO probes", {}).Socket("ProbeContent"); // its names
        options.Count("ackThreshold", "ACK every n-th", 1, 1000)
            .Socket("AckElicitingThreshold")
            .OnlyOn("quic-cc")
            .OnlyWith("ackPolicy", {"Rfc9000"}, "only Rfc9000 uses it");
        options.Duration("maxAckDelay", "ACK timer").Socket("MaxAckDelay");
        options.Flag("hystart", "HyStart++").Controller("HyStart");
        options.Batch(3, "runs");
    }

    /// Parse \p args (after the program name); a bad one exits the process.
    void Parse(std::vector<std::string> args)
    {
        args.insert(args.begin(), "quic-cc-table-test");
        std::vector<char*> argv;
        for (std::string& a : args)
        {
            argv.push_back(a.data());
        }
        options.Parse(static_cast<int>(argv.size()), argv.data());
    }
};

TEST(QuicCcOptions, FieldsKeepTheirDefaultsAndTakeGivenValues)
{
    Table t;
    t.Parse({"--buffer=7", "--mode=b"});
    EXPECT_EQ(t.buffer, 7u);
    EXPECT_EQ(t.mode, "b");
    EXPECT_EQ(t.delay, MilliSeconds(5));
    EXPECT_EQ(t.loss, 0.3);
    EXPECT_EQ(t.options.GetText("delay"), "5ms"); // the field's default, as --PrintHelp shows it
    EXPECT_EQ(t.options.GetText("loss"), "30%");
    EXPECT_EQ(t.options.GetText("maxAckDelay"), "25ms"); // the attribute's default
    EXPECT_EQ(t.options.GetText("ackPolicy"), "ReceiveBatch");
    EXPECT_TRUE(t.options.Given("buffer"));
    EXPECT_FALSE(t.options.Given("delay"));
    EXPECT_EQ(t.options.GetBatch().runs, 3u);
    EXPECT_EQ(t.options.Named("delay", "the delay", "5ms"), "the delay (5ms)");
    EXPECT_EQ(t.options.Named("buffer", "the buffer", "1000"), "--buffer=7");
}

TEST(QuicCcOptions, SettingsReachTheTransportsThatHonourThem)
{
    Table t;
    t.Parse({"--ackPolicy=Rfc9000", "--ackThreshold=4", "--maxAckDelay=7ms", "--hystart=false"});
    const QuicCcTransportSpec model = t.options.GetTransportSpec("quic-cc", "cubic");
    EXPECT_EQ(SocketAttribute(model, "AckPolicy"), "Rfc9000");
    EXPECT_EQ(SocketAttribute(model, "AckElicitingThreshold"), "4");
    EXPECT_EQ(SocketAttribute(model, "MaxAckDelay"), "7ms");
    if (!HasNgtcp2())
    {
        GTEST_SKIP() << "built without the ngtcp2 transport";
    }
    // ngtcp2: MaxAckDelay, which both honour; not the threshold the option keeps to quic-cc.
    const QuicCcTransportSpec library = t.options.GetTransportSpec("ngtcp2", "cubic");
    EXPECT_EQ(SocketAttribute(library, "MaxAckDelay"), "7ms");
    EXPECT_EQ(SocketAttribute(library, "AckElicitingThreshold"), "2");
}

using QuicCcOptionsDeathTest = ::testing::Test;

TEST_F(QuicCcOptionsDeathTest, BadValuesAreOneLineAndStatus2)
{
    const auto exits = [](std::vector<std::string> args, const std::string& line) {
        EXPECT_EXIT(Table().Parse(args),
                    ::testing::ExitedWithCode(2),
                    "^quic-cc-table-test: " + line + "\n$");
    };
    exits({"--buffer=0"}, "--buffer=0: must be a whole number in 1\\.\\.100000");
    exits({"--mode=c"}, "--mode=c: must be a or b");
    exits({"--ackPolicy=Sometimes"}, "--ackPolicy=Sometimes: must be ReceiveBatch or Rfc9000");
    exits({"--probeContent=Nothing"}, "--probeContent=Nothing: must be Data or Ping");
    // Derived from the table: the attribute the option sets, and its dependency.
    exits({"--ns3::QuicCcSocket::AckPolicy=Rfc9000"},
          "--ns3::QuicCcSocket::AckPolicy=Rfc9000: this example sets it from --ackPolicy, which "
          "would override it: use --ackPolicy");
    exits({"--ns3::QuicCubic::HyStart=false"},
          "--ns3::QuicCubic::HyStart=false: this example sets it from --hystart, which would "
          "override it: use --hystart");
    exits({"--ackThreshold=3"},
          "--ackThreshold=3: has no effect with --ackPolicy=ReceiveBatch \\(only Rfc9000 uses "
          "it\\)");
    exits({"--ns3::QuicCcSocket::CongestionControl=ns3::QuicReno"},
          "--ns3::QuicCcSocket::CongestionControl=ns3::QuicReno: this example sets this attribute "
          "itself, so the default has no effect");
}

TEST_F(QuicCcOptionsDeathTest, OptionsNoRunningTransportHonoursAreRefused)
{
    if (!HasNgtcp2())
    {
        GTEST_SKIP() << "built without the ngtcp2 transport";
    }
    const auto exits = [](std::vector<std::string> args, const std::string& line) {
        EXPECT_EXIT(Table().Parse(args),
                    ::testing::ExitedWithCode(2),
                    "^quic-cc-table-test: " + line + "\n$");
    };
    exits({"--transport=ngtcp2", "--hystart=false"},
          "--hystart=false: has no effect with --transport=ngtcp2 \\(a quic-cc option; ngtcp2 "
          "has its own\\)");
    exits({"--transport=ngtcp2", "--ackPolicy=Rfc9000"},
          "--ackPolicy=Rfc9000: has no effect with --transport=ngtcp2 \\(a quic-cc option; "
          "ngtcp2 has its own\\)");
    exits({"--transport=ngtcp2", "--ns3::QuicCubic::Beta=0.5"},
          "--ns3::QuicCubic::Beta=0.5: has no effect with --transport=ngtcp2 \\(no quic-cc row "
          "runs; the ngtcp2 rows use ns3::QuicCcNgtcp2Socket\\)");
    exits({"--ns3::QuicCcNgtcp2Socket::MaxAckDelay=5ms"},
          "--ns3::QuicCcNgtcp2Socket::MaxAckDelay=5ms: this example sets it from --maxAckDelay, "
          "which would override it: use --maxAckDelay");
    // Honoured by both: accepted on ngtcp2 alone.
    EXPECT_EXIT(
        {
            Table t;
            t.Parse({"--transport=ngtcp2", "--maxAckDelay=5ms", "--dryRun"});
        },
        ::testing::ExitedWithCode(0),
        "^$");
}

} // namespace
