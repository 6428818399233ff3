/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-range-set.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

void
QuicCcRangeSet::Add(uint64_t start, uint64_t end)
{
    if (start >= end)
    {
        return;
    }
    // First range that could touch [start, end): the one starting at or before start.
    auto it = m_ranges.upper_bound(start);
    if (it != m_ranges.begin())
    {
        auto prev = std::prev(it);
        if (prev->second >= start)
        {
            // Grow that range in place (the in-order case: no map node freed and re-allocated),
            // absorbing the ranges the new end reaches.
            prev->second = std::max(end, prev->second);
            while (it != m_ranges.end() && it->first <= prev->second)
            {
                prev->second = std::max(prev->second, it->second);
                it = m_ranges.erase(it);
            }
            return;
        }
    }
    while (it != m_ranges.end() && it->first <= end)
    {
        end = std::max(end, it->second);
        it = m_ranges.erase(it);
    }
    m_ranges.emplace_hint(it, start, end);
}

void
QuicCcRangeSet::Remove(uint64_t start, uint64_t end)
{
    if (start >= end)
    {
        return;
    }
    auto it = m_ranges.upper_bound(start);
    if (it != m_ranges.begin())
    {
        --it;
    }
    while (it != m_ranges.end() && it->first < end)
    {
        const uint64_t s = it->first;
        const uint64_t e = it->second;
        if (e <= start)
        {
            ++it;
            continue;
        }
        it = m_ranges.erase(it);
        if (s < start)
        {
            m_ranges.emplace(s, start);
        }
        if (e > end)
        {
            m_ranges.emplace(end, e);
            break;
        }
    }
}

bool
QuicCcRangeSet::Contains(uint64_t value) const
{
    auto it = m_ranges.upper_bound(value);
    if (it == m_ranges.begin())
    {
        return false;
    }
    --it;
    return value < it->second;
}

bool
QuicCcRangeSet::ContainsAll(uint64_t start, uint64_t end) const
{
    if (start >= end)
    {
        return true;
    }
    auto it = m_ranges.upper_bound(start);
    if (it == m_ranges.begin())
    {
        return false;
    }
    --it;
    return it->first <= start && end <= it->second;
}

std::vector<std::pair<uint64_t, uint64_t>>
QuicCcRangeSet::Missing(uint64_t start, uint64_t end) const
{
    std::vector<std::pair<uint64_t, uint64_t>> out;
    uint64_t cursor = start;
    auto it = m_ranges.upper_bound(start);
    if (it != m_ranges.begin())
    {
        --it;
    }
    for (; it != m_ranges.end() && cursor < end; ++it)
    {
        if (it->second <= cursor)
        {
            continue;
        }
        if (it->first >= end)
        {
            break;
        }
        if (it->first > cursor)
        {
            out.emplace_back(cursor, it->first);
        }
        cursor = std::max(cursor, it->second);
    }
    if (cursor < end)
    {
        out.emplace_back(cursor, end);
    }
    return out;
}

bool
QuicCcRangeSet::Empty() const
{
    return m_ranges.empty();
}

size_t
QuicCcRangeSet::RangeCount() const
{
    return m_ranges.size();
}

std::pair<uint64_t, uint64_t>
QuicCcRangeSet::Front() const
{
    NS_ABORT_MSG_IF(m_ranges.empty(), "QuicCcRangeSet::Front on an empty set");
    return *m_ranges.begin();
}

std::pair<uint64_t, uint64_t>
QuicCcRangeSet::Back() const
{
    NS_ABORT_MSG_IF(m_ranges.empty(), "QuicCcRangeSet::Back on an empty set");
    return *m_ranges.rbegin();
}

std::vector<std::pair<uint64_t, uint64_t>>
QuicCcRangeSet::HighestInclusive(size_t maxRanges) const
{
    std::vector<std::pair<uint64_t, uint64_t>> out;
    out.reserve(std::min(maxRanges, m_ranges.size()));
    for (auto it = m_ranges.rbegin(); it != m_ranges.rend() && out.size() < maxRanges; ++it)
    {
        out.emplace_back(it->first, it->second - 1);
    }
    return out;
}

void
QuicCcRangeSet::Clear()
{
    m_ranges.clear();
}

} // namespace ns3
