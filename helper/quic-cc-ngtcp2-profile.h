/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_NGTCP2_PROFILE_H
#define QUIC_CC_NGTCP2_PROFILE_H

#include "quic-cc-helper.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc-helper
 * One attribute value of a profile: the attribute's full name ("ns3::QuicCubic::IdleRestart")
 * and its value as Config::SetDefault takes it ("AppLimitedTime").
 */
struct QuicCcAttributeSetting
{
    std::string name;  //!< "ns3::<TypeId>::<Attribute>"
    std::string value; //!< the value as text
};

/**
 * \ingroup quic-cc-helper
 * The attribute values that make quic-cc's CUBIC run as ngtcp2 1.24 runs its CUBIC
 * (lib/ngtcp2_cc.c, ngtcp2_cc_cubic_cc_on_ack_recv / _congestion_event): a separate CUBIC epoch,
 * the app-limited-time idle rule, RFC 9438's Reno-friendly switch, no PRR, no quiche rollback
 * heuristic, HyStart++ with RFC 9406 constants, an ACK every 2 ack-eliciting packets with a
 * 25 ms max_ack_delay, pacing at 1.25 x cwnd / smoothed_rtt after 10 packets, persistent
 * congestion, a 10-packet initial window, a 2-packet minimum window and a 333 ms initial RTT.
 * The packet size is not part of it (set MaxDatagramSize; ngtcp2 sends 1200 B until PMTUD finds
 * more). Every value and the ngtcp2 line behind it: doc/quic-cc-design.rst, "The ngtcp2 profile".
 * \return the settings: the controller (ns3::QuicCubic, ns3::QuicHyStartPlusPlus), then the
 *         socket (ns3::QuicCcSocket)
 */
std::vector<QuicCcAttributeSetting> QuicCcNgtcp2Profile();

/// Config::SetDefault for every setting of QuicCcNgtcp2Profile() (for sockets and controllers
/// created afterwards, whatever creates them).
void QuicCcSetNgtcp2ProfileDefaults();

/// Make \p helper use ns3::QuicCubic with the profile's controller settings and the profile's
/// socket settings (later SetSocketAttribute / SetControllerAttribute calls override them); the
/// settings of objects the controller creates itself (ns3::QuicHyStartPlusPlus) become attribute
/// defaults (Config::SetDefault), as no helper reaches them.
void QuicCcApplyNgtcp2Profile(QuicCcHelper& helper);

/// The profile's value of attribute \p name ("ns3::QuicCcSocket::AckPolicy"); a name the profile
/// does not set is a fatal error naming it.
std::string QuicCcNgtcp2ProfileValue(const std::string& name);

} // namespace ns3

#endif // QUIC_CC_NGTCP2_PROFILE_H
