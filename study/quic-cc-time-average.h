/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_TIME_AVERAGE_H
#define QUIC_CC_TIME_AVERAGE_H

#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup quic-cc
 * Time-weighted mean of a piecewise-constant value (a cwnd trace) over [from, to], where `to`
 * is the time of Close() or of the last Update().
 */
class QuicCcTimeAverage
{
  public:
    /// \param from start of the averaging interval: earlier values count from here on
    explicit QuicCcTimeAverage(Time from);

    /// The value is \p value from \p now on.
    void Update(Time now, double value);

    /// End the interval at \p now; later updates are ignored.
    void Close(Time now);

    /// \return the time-weighted mean over the time covered so far; 0 if none is
    double Mean() const;

  private:
    /// Add the current value's contribution up to \p now.
    void Accumulate(Time now);

    Time m_from;           //!< start of the interval
    Time m_last;           //!< time of the last Update (or Close)
    Time m_covered;        //!< time integrated so far
    double m_value{0};     //!< current value
    double m_integral{0};  //!< integral of the value over m_covered, value x seconds
    bool m_started{false}; //!< a first Update was seen
    bool m_closed{false};  //!< Close was called
};

} // namespace ns3

#endif // QUIC_CC_TIME_AVERAGE_H
