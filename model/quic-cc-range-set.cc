/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-range-set.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

size_t
QuicCcRangeSet::UpperBound(uint64_t value) const
{
    // Most look-ups are at the top (the newest packet numbers and offsets): check it first.
    if (m_ranges.empty() || m_ranges.back().first <= value)
    {
        return m_ranges.size();
    }
    const auto it = std::upper_bound(
        m_ranges.begin(),
        m_ranges.end(),
        value,
        [](uint64_t v, const std::pair<uint64_t, uint64_t>& r) { return v < r.first; });
    return static_cast<size_t>(it - m_ranges.begin());
}

void
QuicCcRangeSet::Add(uint64_t start, uint64_t end)
{
    if (start >= end)
    {
        return;
    }
    // First range that could touch [start, end): the one starting at or before start.
    size_t i = UpperBound(start);
    if (i > 0 && m_ranges[i - 1].second >= start)
    {
        // Grow that range (the in-order case), absorbing the ranges the new end reaches.
        auto& prev = m_ranges[i - 1];
        prev.second = std::max(end, prev.second);
        size_t j = i;
        while (j < m_ranges.size() && m_ranges[j].first <= prev.second)
        {
            prev.second = std::max(prev.second, m_ranges[j].second);
            ++j;
        }
        m_ranges.erase(m_ranges.begin() + static_cast<std::ptrdiff_t>(i),
                       m_ranges.begin() + static_cast<std::ptrdiff_t>(j));
        return;
    }
    size_t j = i;
    while (j < m_ranges.size() && m_ranges[j].first <= end)
    {
        end = std::max(end, m_ranges[j].second);
        ++j;
    }
    if (j == i)
    {
        m_ranges.insert(m_ranges.begin() + static_cast<std::ptrdiff_t>(i), {start, end});
        return;
    }
    m_ranges[i] = {start, end};
    m_ranges.erase(m_ranges.begin() + static_cast<std::ptrdiff_t>(i + 1),
                   m_ranges.begin() + static_cast<std::ptrdiff_t>(j));
}

void
QuicCcRangeSet::Remove(uint64_t start, uint64_t end)
{
    if (start >= end)
    {
        return;
    }
    // [first, last): the ranges [start, end) touches.
    size_t first = UpperBound(start);
    if (first > 0 && m_ranges[first - 1].second > start)
    {
        --first;
    }
    size_t last = first;
    while (last < m_ranges.size() && m_ranges[last].first < end)
    {
        ++last;
    }
    if (first == last)
    {
        return;
    }
    // What is left of them: a piece below start and a piece above end.
    const std::pair<uint64_t, uint64_t> below{m_ranges[first].first, start};
    const std::pair<uint64_t, uint64_t> above{end, m_ranges[last - 1].second};
    const auto at = [this](size_t k) { return m_ranges.begin() + static_cast<std::ptrdiff_t>(k); };
    size_t k = first;
    if (below.first < below.second)
    {
        m_ranges[k++] = below;
    }
    if (above.first < above.second)
    {
        if (k == last)
        {
            m_ranges.insert(at(k), above); // one range split in two
            return;
        }
        m_ranges[k++] = above;
    }
    m_ranges.erase(at(k), at(last));
}

bool
QuicCcRangeSet::Contains(uint64_t value) const
{
    const size_t i = UpperBound(value);
    return i > 0 && value < m_ranges[i - 1].second;
}

bool
QuicCcRangeSet::ContainsAll(uint64_t start, uint64_t end) const
{
    if (start >= end)
    {
        return true;
    }
    const size_t i = UpperBound(start);
    return i > 0 && end <= m_ranges[i - 1].second;
}

std::vector<std::pair<uint64_t, uint64_t>>
QuicCcRangeSet::Missing(uint64_t start, uint64_t end) const
{
    std::vector<std::pair<uint64_t, uint64_t>> out;
    uint64_t cursor = start;
    size_t i = UpperBound(start);
    if (i > 0)
    {
        --i;
    }
    for (; i < m_ranges.size() && cursor < end; ++i)
    {
        const auto& [s, e] = m_ranges[i];
        if (e <= cursor)
        {
            continue;
        }
        if (s >= end)
        {
            break;
        }
        if (s > cursor)
        {
            out.emplace_back(cursor, s);
        }
        cursor = std::max(cursor, e);
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
    return m_ranges.front();
}

std::pair<uint64_t, uint64_t>
QuicCcRangeSet::Back() const
{
    NS_ABORT_MSG_IF(m_ranges.empty(), "QuicCcRangeSet::Back on an empty set");
    return m_ranges.back();
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
