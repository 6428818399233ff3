/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-ngtcp2-profile.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/string.h"

namespace ns3
{

namespace
{
constexpr const char* kCubic = "ns3::QuicCubic::";
constexpr const char* kSocket = "ns3::QuicCcSocket::";
} // namespace

std::vector<QuicCcAttributeSetting>
QuicCcNgtcp2Profile()
{
    const std::string cubic = kCubic;
    const std::string socket = kSocket;
    // Each line: the ngtcp2 1.24.0 code it follows (lib/ngtcp2_cc.c unless named).
    return {
        // ngtcp2_cc_cubic_cc_congestion_event sets epoch_start apart from the recovery start.
        {cubic + "EpochSource", "Separate"},
        // ngtcp2_cc_cubic_cc_on_ack_recv: app_limited_duration is left out of t.
        {cubic + "IdleRestart", "AppLimitedTime"},
        // ngtcp2_cc_cubic_cc_on_ack_recv: w_est grows by 9/17 while w_est < cwnd_prior.
        {cubic + "RenoFriendly", "Rfc9438"},
        // No PRR in ngtcp2: cwnd - bytes in flight is the send budget in recovery.
        {cubic + "Prr", "false"},
        // ngtcp2_rtb_recv_ack undoes only when every lost packet is acked later.
        {cubic + "SpuriousLossRollback", "false"},
        // NGTCP2_HS_* constants are RFC 9406's, the model's defaults.
        {cubic + "HyStart", "true"},
        // ngtcp2_cc_cubic_cc_on_ack_recv: css_round is 1 at entry and grows at each round start;
        // CSS ends when it reaches 5 (NGTCP2_HS_CSS_ROUNDS), after 4 rounds counting the entry
        // round; the model counts round ends, so 4.
        {"ns3::QuicHyStartPlusPlus::CssRounds", "4"},
        // ngtcp2_cc_cubic_cc_on_ack_recv, at the CSS exit: epoch_start = ts, w_max = cwnd.
        {cubic + "CssExitEpoch", "Exit"},
        // ngtcp2_cc_cubic_cc_on_ack_recv: w_cubic_next at t + smoothed_rtt, and one
        // (target - cwnd) / cwnd step per ACK frame (on_ack_recv runs once per frame).
        {cubic + "TargetRtt", "SmoothedRtt"},
        {cubic + "CubicStep", "PerAckFrame"},
        // cwnd * 17 / 20 below W_max; cwnd * 7 / 10; 4 / 10 in cubic_cc_compute_w_cubic.
        {cubic + "FastConvergence", "true"},
        {cubic + "Beta", "0.7"},
        {cubic + "C", "0.4"},
        // ngtcp2_settings_default: ack_thresh 2; max_ack_delay 25 ms; ngtcp2_conn.c
        // pktns_commit_recv_pkt_num acks at once on a gap, as the Rfc9000 policy.
        {socket + "AckPolicy", "Rfc9000"},
        {socket + "AckElicitingThreshold", "2"},
        {socket + "MaxAckDelay", "25ms"},
        {socket + "MaxAckRanges", "32"}, // NGTCP2_MAX_ACK_RANGES (lib/ngtcp2_pkt.h)
        // set_pacing_rate: cwnd x 1.25 / smoothed_rtt; send_quantum at least 10 packets.
        {socket + "Pacing", "Rfc9002"},
        {socket + "PacingGain", "1.25"},
        {socket + "PacingBurstPackets", "10"},
        // ngtcp2_conn.c conn_write_vmsg_wrapper: held by the pacer is not app-limited.
        {socket + "AppLimitedWhilePaced", "false"},
        // ngtcp2_rtb.c rtb_detect_lost_pkt: RFC 9002 Section 7.6.
        {socket + "PersistentCongestion", "true"},
        // ngtcp2_cc_compute_initcwnd (10 packets up to 1472 B); 2 x max_tx_udp_payload_size;
        // NGTCP2_DEFAULT_INITIAL_RTT (lib/includes/ngtcp2/ngtcp2.h).
        {socket + "InitialWindowPackets", "10"},
        {socket + "MinimumWindowPackets", "2"},
        {socket + "InitialRtt", "333ms"},
    };
}

void
QuicCcSetNgtcp2ProfileDefaults()
{
    for (const QuicCcAttributeSetting& s : QuicCcNgtcp2Profile())
    {
        Config::SetDefault(s.name, StringValue(s.value));
    }
}

void
QuicCcApplyNgtcp2Profile(QuicCcHelper& helper)
{
    helper.SetCongestionControl("ns3::QuicCubic");
    const std::string cubic = kCubic;
    const std::string socket = kSocket;
    for (const QuicCcAttributeSetting& s : QuicCcNgtcp2Profile())
    {
        if (s.name.compare(0, cubic.size(), cubic) == 0)
        {
            helper.SetControllerAttribute(s.name.substr(cubic.size()), StringValue(s.value));
        }
        else if (s.name.compare(0, socket.size(), socket) == 0)
        {
            helper.SetSocketAttribute(s.name.substr(socket.size()), StringValue(s.value));
        }
        else
        {
            // Objects the controller creates itself (its QuicHyStartPlusPlus): a default.
            Config::SetDefault(s.name, StringValue(s.value));
        }
    }
}

std::string
QuicCcNgtcp2ProfileValue(const std::string& name)
{
    for (const QuicCcAttributeSetting& s : QuicCcNgtcp2Profile())
    {
        if (s.name == name)
        {
            return s.value;
        }
    }
    NS_FATAL_ERROR("the ngtcp2 profile does not set " << name);
}

} // namespace ns3
