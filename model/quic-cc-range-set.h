/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_RANGE_SET_H
#define QUIC_CC_RANGE_SET_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc-transport
 * \brief A set of non-negative integers stored as disjoint half-open ranges [start, end).
 *
 * Used for received packet numbers (ACK ranges), acknowledged stream offsets and stream data
 * awaiting retransmission. Adjacent and overlapping ranges merge.
 *
 * The ranges are kept in one sorted vector: a look-up is a binary search (O(log n)); adding at
 * or above the highest range (in-order packet numbers and offsets, the common case) is O(1);
 * a change elsewhere moves the ranges above it (O(n) element moves, no allocation). The sets
 * hold few ranges: the ACK history is bounded (QuicCcReceivedPacketManager), stream sets hold
 * one range per hole.
 */
class QuicCcRangeSet
{
  public:
    /// Add [start, end); an empty range (start >= end) is ignored.
    void Add(uint64_t start, uint64_t end);
    /// Remove [start, end).
    void Remove(uint64_t start, uint64_t end);
    /// True if \p value is in the set.
    bool Contains(uint64_t value) const;
    /// True if all of [start, end) is in the set.
    bool ContainsAll(uint64_t start, uint64_t end) const;
    /// The parts of [start, end) that are NOT in the set, ascending.
    std::vector<std::pair<uint64_t, uint64_t>> Missing(uint64_t start, uint64_t end) const;
    /// True if the set is empty.
    bool Empty() const;
    /// Number of disjoint ranges.
    size_t RangeCount() const;
    /// The lowest range; the set must not be empty.
    std::pair<uint64_t, uint64_t> Front() const;
    /// The highest range; the set must not be empty.
    std::pair<uint64_t, uint64_t> Back() const;
    /// Up to \p maxRanges highest ranges as inclusive [smallest, largest] pairs, descending.
    std::vector<std::pair<uint64_t, uint64_t>> HighestInclusive(size_t maxRanges) const;

    /// The \p i-th range [start, end), ascending (0: the lowest); \p i < RangeCount().
    std::pair<uint64_t, uint64_t> At(size_t i) const
    {
        return m_ranges[i];
    }

    /// Remove everything.
    void Clear();

  private:
    /// Index of the first range whose start is above \p value (RangeCount() if none).
    size_t UpperBound(uint64_t value) const;

    /// (start, end exclusive), ascending, disjoint and not adjacent
    std::vector<std::pair<uint64_t, uint64_t>> m_ranges;
};

} // namespace ns3

#endif // QUIC_CC_RANGE_SET_H
