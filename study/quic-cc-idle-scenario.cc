/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-idle-scenario.h"

#include "quic-cc-chunked-sender.h"
#include "quic-cc-delivery-clock.h"
#include "quic-cc-drop-tail-link.h"
#include "quic-cc-first-socket.h"
#include "quic-cc-loss-phases.h"
#include "quic-cc-random-streams.h"
#include "quic-cc-rate-limited-sender.h"
#include "quic-cc-request-client.h"
#include "quic-cc-response-server.h"
#include "quic-cc-single-path.h"
#include "quic-cc-slow-reader.h"

#include "ns3/abort.h"
#include "ns3/applications-module.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/quic-cc-helper.h"

#include <algorithm>

namespace ns3
{

namespace
{

const uint16_t kPort = 4433;

/// The socket the observer watches (any transport), kept to check one was made.
struct WatchedSocket
{
    QuicCcIdleObserver* observer;
    Ptr<Socket> socket;
};

void
ObserveAny(WatchedSocket* watched, Ptr<Socket> socket)
{
    watched->socket = socket;
    watched->observer->Observe(socket);
}

/// The client's first socket (QuicCcFirstSocket), on either transport.
void
ObserveSender(WatchedSocket* watched, Ptr<QuicCcSocketBase> socket)
{
    ObserveAny(watched, socket);
}

void
MarkResume(QuicCcIdleObserver* observer)
{
    observer->MarkResumeNow();
}

/// A PacketSink for the data on \p node, over \p factory.
Ptr<Application>
InstallSink(Ptr<Node> node, const std::string& factory)
{
    PacketSinkHelper sink(factory, InetSocketAddress(Ipv4Address::GetAny(), kPort));
    ApplicationContainer apps = sink.Install(node);
    apps.Start(Seconds(0));
    return apps.Get(0);
}

/// Completion times: marks reached minus the write times (as many as both have).
std::vector<double>
Elapsed(const std::vector<double>& reached, const std::vector<double>& written)
{
    std::vector<double> out;
    for (size_t i = 0; i < reached.size() && i < written.size(); ++i)
    {
        out.push_back(reached[i] - written[i]);
    }
    return out;
}

} // namespace

QuicCcIdleResult
QuicCcRunIdle(const QuicCcIdleParams& params)
{
    const std::string& w = params.workload;
    NS_ABORT_MSG_UNLESS(w == "chunked" || w == "request-response" || w == "rate-limited" ||
                            w == "slow-reader" || w == "onoff",
                        "idle study: unknown workload '" << w << "'");
    NS_ABORT_MSG_IF(params.bufferPackets == 0, "idle study: buffer must be >= 1 packet");
    NS_ABORT_MSG_UNLESS(params.fraction > 0 && params.fraction <= 1,
                        "idle study: fraction must be in (0, 1], got " << params.fraction);
    NS_ABORT_MSG_UNLESS(params.lossRate >= 0 && params.lossRate <= 1,
                        "idle study: loss rate must be in [0, 1], got " << params.lossRate);
    NS_ABORT_MSG_UNLESS(params.timeout.IsStrictlyPositive(), "idle study: timeout must be > 0");

    QuicCcSinglePath path(params);
    const NodeContainer& nodes = path.nodes; // 0 = QUIC client, 1 = QUIC server

    // The data direction: client -> server, except request-response (server -> client).
    const bool serverSends = w == "request-response";
    QuicCcLossPhases loss(params.lossRate, params.lossOnMean, params.lossOffMean);
    if (params.lossRate > 0)
    {
        path.devices.Get(serverSends ? 0 : 1)
            ->SetAttribute("ReceiveErrorModel", PointerValue(loss.GetErrorModel()));
    }

    path.InstallInternet(); // the drop-tail device queue is the buffer

    // The observer reads packet traces, which a transport may send only when asked to.
    QuicCcTransportSpec transport = params.quic;
    transport.SetSocket("PacketTraces", BooleanValue(true));
    QuicCcHelper quic;
    transport.ApplyTo(quic);
    // Set with the same names on either transport.
    quic.SetSocketAttribute("MaxDatagramSize", UintegerValue(params.maxDatagramSize));
    quic.SetSocketAttribute("IdleTimeout", TimeValue(params.timeout));
    if (!params.qlogDirectory.empty())
    {
        quic.EnableQlog(params.qlogDirectory);
    }
    quic.Install(nodes);

    int64_t stream = 1;
    stream += loss.AssignStreams(stream);
    if (params.lossRate > 0)
    {
        loss.Start(); // its first phase drawn from the stream just assigned
    }
    stream += QuicCcInternetStreamBlock(nodes); // the stack's streams come last
    QuicCcIdleObserver observer(params.minPause, params.rate, params.maxDatagramSize);
    QuicCcFirstSocket sender;
    WatchedSocket watched{&observer, nullptr};
    const std::string factory = quic.GetSocketFactoryName();
    // The sending socket of every workload but request-response: the client's first.
    const auto watchSender = [&]() {
        sender.Watch(nodes.Get(0), MakeBoundCallback(&ObserveSender, &watched));
    };
    stream += quic.AssignStreams(nodes, stream);

    const InetSocketAddress server(path.ifaces.GetAddress(1), kPort);
    std::vector<uint64_t> marks;
    Ptr<QuicCcChunkedSender> chunked;
    Ptr<QuicCcRequestClient> client;
    Ptr<QuicCcRateLimitedSender> limited;
    Ptr<QuicCcSlowReader> reader;
    Ptr<Application> sink;
    const uint32_t periods = params.pauses + 1;
    if (w == "request-response")
    {
        Ptr<QuicCcResponseServer> app = CreateObject<QuicCcResponseServer>();
        app->Setup(factory,
                   InetSocketAddress(Ipv4Address::GetAny(), kPort),
                   params.requestBytes,
                   params.responseBytes,
                   MakeBoundCallback(&ObserveAny, &watched));
        nodes.Get(1)->AddApplication(app);
        Ptr<RandomVariableStream> think;
        if (params.thinkExponential)
        {
            Ptr<ExponentialRandomVariable> e = CreateObject<ExponentialRandomVariable>();
            e->SetAttribute("Mean", DoubleValue(params.thinkTime.GetSeconds()));
            think = e;
        }
        else
        {
            Ptr<ConstantRandomVariable> c = CreateObject<ConstantRandomVariable>();
            c->SetAttribute("Constant", DoubleValue(params.thinkTime.GetSeconds()));
            think = c;
        }
        think->SetStream(stream++);
        client = CreateObject<QuicCcRequestClient>();
        client->Setup(factory, server, params.requestBytes, params.responseBytes, think, periods);
        nodes.Get(0)->AddApplication(client);
    }
    else if (w == "slow-reader")
    {
        watchSender();
        reader = CreateObject<QuicCcSlowReader>();
        reader->Setup(factory,
                      InetSocketAddress(Ipv4Address::GetAny(), kPort),
                      params.readRate,
                      MilliSeconds(10),
                      params.bulkBytes);
        nodes.Get(1)->AddApplication(reader);
        chunked = CreateObject<QuicCcChunkedSender>();
        chunked->Setup(factory, server, params.bulkBytes, Seconds(1), 1);
        nodes.Get(0)->AddApplication(chunked);
    }
    else
    {
        watchSender();
        sink = InstallSink(nodes.Get(1), factory);
    }
    if (w == "chunked")
    {
        chunked = CreateObject<QuicCcChunkedSender>();
        chunked->Setup(factory, server, params.chunkBytes, params.period, periods);
        nodes.Get(0)->AddApplication(chunked);
        for (uint32_t i = 1; i <= periods; ++i)
        {
            marks.push_back(i * params.chunkBytes);
        }
    }
    else if (w == "rate-limited")
    {
        limited = CreateObject<QuicCcRateLimitedSender>();
        limited->Setup(factory,
                       server,
                       DataRate(static_cast<uint64_t>(params.rate.GetBitRate() * params.fraction)),
                       params.maxDatagramSize,
                       params.limitedFor,
                       params.bulkBytes,
                       MakeBoundCallback(&MarkResume, &observer));
        nodes.Get(0)->AddApplication(limited);
        marks = {limited->GetLimitedBytes() + params.bulkBytes};
    }
    else if (w == "onoff")
    {
        OnOffHelper onoff(factory, server);
        onoff.SetConstantRate(
            DataRate(static_cast<uint64_t>(params.rate.GetBitRate() * params.fraction)),
            params.maxDatagramSize);
        std::ostringstream on;
        on << "ns3::ConstantRandomVariable[Constant=" << params.onTime.GetSeconds() << "]";
        std::ostringstream off;
        off << "ns3::ConstantRandomVariable[Constant=" << params.offTime.GetSeconds() << "]";
        onoff.SetAttribute("OnTime", StringValue(on.str()));
        onoff.SetAttribute("OffTime", StringValue(off.str()));
        ApplicationContainer apps = onoff.Install(nodes.Get(0));
        apps.Start(Seconds(0));
        // OnOffApplication starts with an off period: on period k ends at k x (off + on).
        apps.Stop(periods * (params.onTime + params.offTime));
        stream += onoff.AssignStreams(NodeContainer(nodes.Get(0)), stream);
    }
    path.internet.AssignStreams(nodes, stream);
    for (Ptr<Application> app :
         {Ptr<Application>(chunked), Ptr<Application>(client), Ptr<Application>(limited)})
    {
        if (app)
        {
            app->SetStartTime(Seconds(0));
        }
    }
    QuicCcDeliveryClock clock(marks);
    if (sink)
    {
        clock.Watch(sink);
    }

    // onoff has no end of its own: the last on period plus one second to drain.
    const Time onoffEnd = periods * (params.onTime + params.offTime) + Seconds(1);
    Simulator::Stop(w == "onoff" ? std::min(params.timeout, onoffEnd) : params.timeout);
    Simulator::Run();

    QuicCcIdleResult result;
    result.endSeconds = Simulator::Now().GetSeconds();
    result.pauses = observer.GetPauses();
    NS_ABORT_MSG_IF(w == "onoff" && !sender.Get() && !watched.socket,
                    "idle study: OnOffApplication made no socket");
    if (reader)
    {
        result.completed = reader->GetDoneSeconds() >= 0;
        if (result.completed && !chunked->GetWriteTimes().empty())
        {
            result.startSeconds = {chunked->GetWriteTimes().front()};
            result.completionSeconds = {reader->GetDoneSeconds() - result.startSeconds[0]};
        }
        result.bytesReceived = reader->GetBytesRead();
        result.peakBacklog = reader->GetPeakBacklog();
    }
    else if (chunked)
    {
        result.completionSeconds = Elapsed(clock.GetTimes(), chunked->GetWriteTimes());
        result.startSeconds = chunked->GetWriteTimes();
        result.startSeconds.resize(result.completionSeconds.size());
        result.completed = clock.GetTimes().size() == marks.size();
        result.bytesReceived = clock.GetReceived();
    }
    else if (limited)
    {
        result.completed = clock.GetTimes().size() == marks.size();
        if (result.completed)
        {
            result.completionSeconds = {clock.GetTimes().back() - limited->GetBulkTime()};
            result.startSeconds = {limited->GetBulkTime()};
        }
        result.bytesReceived = clock.GetReceived();
    }
    else if (client)
    {
        result.completionSeconds = client->GetResponseTimes();
        result.startSeconds = client->GetRequestTimes();
        result.startSeconds.resize(result.completionSeconds.size());
        result.completed = result.completionSeconds.size() == periods;
        result.bytesReceived = client->GetResponseBytesReceived();
        result.corruptBytes = client->GetCorruptBytes();
    }
    else
    {
        // OnOffApplication opens with an off period: the idle between the handshake and the
        // first on period precedes any data, so it is no pause between on periods.
        const double firstOnEnd = (params.offTime + params.onTime).GetSeconds();
        result.pauses.erase(
            std::remove_if(result.pauses.begin(),
                           result.pauses.end(),
                           [&](const QuicCcIdlePause& q) { return q.resume < firstOnEnd; }),
            result.pauses.end());
        result.bytesReceived = clock.GetReceived();
        result.completed = true;
    }
    result.lostPackets = observer.GetLostPackets();
    Simulator::Destroy();
    return result;
}

} // namespace ns3
