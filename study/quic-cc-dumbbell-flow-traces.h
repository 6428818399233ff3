/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_DUMBBELL_FLOW_TRACES_H
#define QUIC_CC_DUMBBELL_FLOW_TRACES_H

#include "quic-cc-dumbbell-params.h"
#include "quic-cc-dumbbell-result.h"
#include "quic-cc-time-average.h"

#include "ns3/bulk-send-application.h"
#include "ns3/packet-sink.h"
#include "ns3/quic-cc-socket-factory-base.h"
#include "ns3/tcp-socket-base.h"

#include <memory>
#include <vector>

namespace ns3
{

struct QuicCcDumbbellRun;

/**
 * \ingroup quic-cc
 * What the trace sinks of one dumbbell flow write: its result so far (bytes received, per
 * interval bin and in the measurement window, completion, TCP retransmissions) and its cwnd's
 * time average.
 */
struct QuicCcDumbbellFlow
{
    QuicCcDumbbellRun* run{nullptr};         //!< the run the flow belongs to
    QuicCcDumbbellFlowResult result;         //!< filled by the sinks
    std::unique_ptr<QuicCcTimeAverage> cwnd; //!< over the measurement window, bytes
    Ptr<QuicCcSocketBase> quicSender;        //!< the QUIC sender's socket (once created)
    Ptr<TcpSocketBase> tcpSender;            //!< the TCP sender's socket (once created)
    Ptr<PacketSink> sink;                    //!< the receiver's application
    SequenceNumber32 tcpHighestTx{0};        //!< highest TCP sequence sent + 1
    bool tcpSentAny{false};                  //!< a TCP data segment was sent
};

/// What every flow of one dumbbell run shares: the measurement window and the completions.
struct QuicCcDumbbellRun
{
    const QuicCcDumbbellParams* params{nullptr}; //!< the run's parameters
    std::vector<QuicCcDumbbellFlow> flows;       //!< in flow order
    Time windowEnd;                              //!< end of the measurement window
    bool windowClosed{false};                    //!< the window has ended
    uint32_t completed{0};                       //!< fixed-size transfers received
};

/// End the measurement window of \p run now (once): every flow's cwnd average stops.
void QuicCcDumbbellCloseWindow(QuicCcDumbbellRun* run);

/// Count \p sink's received bytes for \p f (PacketSink "Rx"): per interval bin, in the window,
/// and the completion of a fixed-size transfer, which closes the window; the last completion
/// stops the simulator.
void QuicCcDumbbellWatchSink(QuicCcDumbbellFlow* f, Ptr<PacketSink> sink);

/// Follow the cwnd of the first socket the QUIC factory of \p sender creates (the sender's;
/// either transport: the shell's traces).
void QuicCcDumbbellWatchQuicSender(QuicCcDumbbellFlow* f, Ptr<Node> sender);

/// Right after BulkSend created its TCP socket (SYN sent, no data yet): install \p group's
/// controller with its attributes, and follow the socket's cwnd and retransmissions.
void QuicCcDumbbellHookTcpSender(QuicCcDumbbellFlow* f,
                                 Ptr<BulkSendApplication> app,
                                 const QuicCcFlowGroup* group);

} // namespace ns3

#endif // QUIC_CC_DUMBBELL_FLOW_TRACES_H
