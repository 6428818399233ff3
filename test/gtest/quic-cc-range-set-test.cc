/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuicCcRangeSet: disjoint half-open ranges [start, end) of packet numbers or stream offsets.
 * Ranges are written as {start, end} (end excluded) except for HighestInclusive(), which
 * returns {smallest, largest} as an ACK frame carries them.
 */
#include "ns3/quic-cc-range-set.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <utility>
#include <vector>

namespace ns3
{
namespace quiccc
{
namespace test
{
namespace
{

using Range = std::pair<uint64_t, uint64_t>;
using RangeList = std::vector<Range>;

/// Every range of \p s, ascending, as half-open {start, end}.
RangeList
AllRanges(const QuicCcRangeSet& s)
{
    RangeList out;
    for (const auto& r : s.HighestInclusive(s.RangeCount()))
    {
        out.insert(out.begin(), Range{r.first, r.second + 1});
    }
    return out;
}

TEST(QuicCcRangeSetTest, EmptySet)
{
    QuicCcRangeSet s;
    EXPECT_TRUE(s.Empty());
    EXPECT_EQ(s.RangeCount(), 0u);
    EXPECT_FALSE(s.Contains(0));
    EXPECT_FALSE(s.ContainsAll(0, 1));
    EXPECT_TRUE(s.ContainsAll(5, 5)); // the empty interval is always covered
    EXPECT_EQ(s.Missing(3, 8), RangeList({{3, 8}}));
    EXPECT_TRUE(s.HighestInclusive(4).empty());
}

TEST(QuicCcRangeSetTest, AddDisjointKeepsOrder)
{
    QuicCcRangeSet s;
    s.Add(10, 12);
    s.Add(0, 3);
    s.Add(5, 7);
    EXPECT_EQ(AllRanges(s), RangeList({{0, 3}, {5, 7}, {10, 12}}));
    EXPECT_EQ(s.Front(), Range(0, 3));
    EXPECT_EQ(s.Back(), Range(10, 12));
    EXPECT_FALSE(s.Empty());
}

TEST(QuicCcRangeSetTest, EmptyRangeIgnored)
{
    QuicCcRangeSet s;
    s.Add(4, 4);
    s.Add(9, 2);
    EXPECT_TRUE(s.Empty());
}

// Adjacent ranges merge: [1, 3) + [5, 7) + [3, 5) = [1, 7); touching on either side only.
TEST(QuicCcRangeSetTest, AddMergesAdjacent)
{
    QuicCcRangeSet s;
    s.Add(1, 3);
    s.Add(5, 7);
    EXPECT_EQ(s.RangeCount(), 2u);
    s.Add(3, 5);
    EXPECT_EQ(AllRanges(s), RangeList({{1, 7}}));

    s.Add(7, 8); // touches the end
    EXPECT_EQ(AllRanges(s), RangeList({{1, 8}}));
    s.Add(0, 1); // touches the start
    EXPECT_EQ(AllRanges(s), RangeList({{0, 8}}));
    s.Add(9, 10); // one gap (8) away: separate
    EXPECT_EQ(AllRanges(s), RangeList({{0, 8}, {9, 10}}));
}

TEST(QuicCcRangeSetTest, AddMergesOverlapping)
{
    QuicCcRangeSet s;
    s.Add(10, 20);
    s.Add(15, 25); // overlaps the end
    EXPECT_EQ(AllRanges(s), RangeList({{10, 25}}));
    s.Add(5, 12); // overlaps the start
    EXPECT_EQ(AllRanges(s), RangeList({{5, 25}}));
    s.Add(8, 9); // inside: no change
    EXPECT_EQ(AllRanges(s), RangeList({{5, 25}}));

    s.Add(30, 32);
    s.Add(40, 45);
    s.Add(50, 51);
    EXPECT_EQ(s.RangeCount(), 4u);
    s.Add(20, 41); // swallows [30, 32) and joins [5, 25) with [40, 45)
    EXPECT_EQ(AllRanges(s), RangeList({{5, 45}, {50, 51}}));
    s.Add(0, 100); // swallows everything
    EXPECT_EQ(AllRanges(s), RangeList({{0, 100}}));
}

TEST(QuicCcRangeSetTest, RemoveSplitsAndTrims)
{
    QuicCcRangeSet s;
    s.Add(0, 10);
    s.Remove(3, 5); // middle: split
    EXPECT_EQ(AllRanges(s), RangeList({{0, 3}, {5, 10}}));
    s.Remove(0, 1); // front edge
    EXPECT_EQ(AllRanges(s), RangeList({{1, 3}, {5, 10}}));
    s.Remove(9, 10); // back edge
    EXPECT_EQ(AllRanges(s), RangeList({{1, 3}, {5, 9}}));
    s.Remove(3, 5); // exactly the gap: nothing
    EXPECT_EQ(AllRanges(s), RangeList({{1, 3}, {5, 9}}));
    s.Remove(2, 6); // across the gap: trims both
    EXPECT_EQ(AllRanges(s), RangeList({{1, 2}, {6, 9}}));
    s.Remove(7, 7); // empty: nothing
    EXPECT_EQ(AllRanges(s), RangeList({{1, 2}, {6, 9}}));
    s.Remove(100, 200); // beyond: nothing
    EXPECT_EQ(AllRanges(s), RangeList({{1, 2}, {6, 9}}));
}

TEST(QuicCcRangeSetTest, RemoveSpanningSeveralRanges)
{
    QuicCcRangeSet s;
    s.Add(0, 4);
    s.Add(6, 8);
    s.Add(10, 12);
    s.Add(14, 20);
    s.Remove(2, 16); // trims [0, 4) and [14, 20), drops the two between
    EXPECT_EQ(AllRanges(s), RangeList({{0, 2}, {16, 20}}));
    s.Remove(0, 20);
    EXPECT_TRUE(s.Empty());
}

TEST(QuicCcRangeSetTest, ContainsBoundaries)
{
    QuicCcRangeSet s;
    s.Add(5, 8);
    EXPECT_FALSE(s.Contains(4));
    EXPECT_TRUE(s.Contains(5));
    EXPECT_TRUE(s.Contains(7));
    EXPECT_FALSE(s.Contains(8)); // end excluded
}

TEST(QuicCcRangeSetTest, ContainsAll)
{
    QuicCcRangeSet s;
    s.Add(2, 5);
    s.Add(8, 10);
    EXPECT_TRUE(s.ContainsAll(2, 5));
    EXPECT_TRUE(s.ContainsAll(3, 4));
    EXPECT_FALSE(s.ContainsAll(1, 3));  // starts before
    EXPECT_FALSE(s.ContainsAll(4, 6));  // runs past the end
    EXPECT_FALSE(s.ContainsAll(2, 10)); // across the gap [5, 8)
    EXPECT_FALSE(s.ContainsAll(6, 7));  // inside the gap
    EXPECT_TRUE(s.ContainsAll(8, 10));
    EXPECT_TRUE(s.ContainsAll(7, 7)); // empty interval
}

TEST(QuicCcRangeSetTest, Missing)
{
    QuicCcRangeSet s;
    s.Add(2, 5);
    s.Add(8, 10);
    EXPECT_EQ(s.Missing(0, 20), RangeList({{0, 2}, {5, 8}, {10, 20}}));
    EXPECT_EQ(s.Missing(3, 9), RangeList({{5, 8}})); // both ends inside ranges
    EXPECT_EQ(s.Missing(2, 10), RangeList({{5, 8}}));
    EXPECT_EQ(s.Missing(5, 8), RangeList({{5, 8}})); // exactly the gap
    EXPECT_TRUE(s.Missing(3, 4).empty());            // fully covered
    EXPECT_TRUE(s.Missing(8, 10).empty());
    EXPECT_EQ(s.Missing(9, 12), RangeList({{10, 12}}));
    EXPECT_EQ(s.Missing(0, 1), RangeList({{0, 1}}));
    EXPECT_TRUE(s.Missing(6, 6).empty()); // empty interval
}

// Highest ranges first, as inclusive [smallest, largest] pairs, at most maxRanges of them.
TEST(QuicCcRangeSetTest, HighestInclusiveOrderAndLimit)
{
    QuicCcRangeSet s;
    s.Add(0, 3);   // 0..2
    s.Add(5, 8);   // 5..7
    s.Add(10, 11); // 10..10
    EXPECT_EQ(s.HighestInclusive(10), RangeList({{10, 10}, {5, 7}, {0, 2}}));
    EXPECT_EQ(s.HighestInclusive(3), RangeList({{10, 10}, {5, 7}, {0, 2}}));
    EXPECT_EQ(s.HighestInclusive(2), RangeList({{10, 10}, {5, 7}}));
    EXPECT_EQ(s.HighestInclusive(1), RangeList({{10, 10}}));
    EXPECT_TRUE(s.HighestInclusive(0).empty());
}

TEST(QuicCcRangeSetTest, Clear)
{
    QuicCcRangeSet s;
    s.Add(1, 2);
    s.Add(4, 9);
    s.Clear();
    EXPECT_TRUE(s.Empty());
    EXPECT_FALSE(s.Contains(5));
}

// Large values: no overflow at the top of the packet-number space (2^62 - 1).
TEST(QuicCcRangeSetTest, LargeValues)
{
    constexpr uint64_t kTop = (uint64_t{1} << 62) - 1;
    QuicCcRangeSet s;
    s.Add(kTop - 2, kTop + 1);
    EXPECT_TRUE(s.Contains(kTop));
    EXPECT_EQ(s.HighestInclusive(1), RangeList({{kTop - 2, kTop}}));
    s.Remove(kTop - 1, kTop);
    EXPECT_EQ(s.Missing(kTop - 2, kTop + 1), RangeList({{kTop - 1, kTop}}));
}

// Random Add / Remove against a plain membership table: after every step the set holds
// exactly the table's members as maximal runs (At, RangeCount), and every query agrees.
TEST(QuicCcRangeSetTest, RandomOperationsMatchAMembershipTable)
{
    constexpr uint64_t kSpan = 96;
    std::mt19937_64 rng(20261204);
    auto draw = [&](uint64_t n) { return static_cast<uint64_t>(rng() % n); };
    for (int round = 0; round < 200; ++round)
    {
        QuicCcRangeSet s;
        std::vector<bool> in(kSpan, false);
        for (int step = 0; step < 60; ++step)
        {
            // Short and long ranges, often at the top (in-order packet numbers and offsets).
            const uint64_t start = draw(3) == 0 ? kSpan - 1 - draw(8) : draw(kSpan);
            const uint64_t end = std::min(kSpan, start + draw(draw(2) == 0 ? 4 : 24));
            const bool add = draw(3) != 0;
            if (add)
            {
                s.Add(start, end);
            }
            else
            {
                s.Remove(start, end);
            }
            for (uint64_t v = start; v < end; ++v)
            {
                in[v] = add;
            }
            RangeList runs;
            for (uint64_t v = 0; v < kSpan; ++v)
            {
                if (in[v] && (v == 0 || !in[v - 1]))
                {
                    runs.push_back({v, v});
                }
                if (in[v])
                {
                    runs.back().second = v + 1;
                }
            }
            ASSERT_EQ(s.RangeCount(), runs.size()) << "round " << round << " step " << step;
            for (size_t i = 0; i < runs.size(); ++i)
            {
                ASSERT_EQ(s.At(i), runs[i]) << "round " << round << " step " << step;
            }
            ASSERT_EQ(AllRanges(s), runs);
            for (uint64_t v = 0; v < kSpan; ++v)
            {
                ASSERT_EQ(s.Contains(v), static_cast<bool>(in[v])) << v;
            }
            const uint64_t a = draw(kSpan);
            const uint64_t b = a + draw(kSpan - a + 1);
            RangeList missing;
            bool all = true;
            for (uint64_t v = a; v < b; ++v)
            {
                all = all && in[v];
                if (!in[v] && (missing.empty() || missing.back().second != v))
                {
                    missing.push_back({v, v});
                }
                if (!in[v])
                {
                    missing.back().second = v + 1;
                }
            }
            ASSERT_EQ(s.ContainsAll(a, b), all) << a << " " << b;
            ASSERT_EQ(s.Missing(a, b), missing) << a << " " << b;
        }
    }
}

TEST(QuicCcRangeSetDeathTest, FrontAndBackOfEmptySetAreFatal)
{
    QuicCcRangeSet s;
    EXPECT_DEATH(s.Front(), "QuicCcRangeSet::Front on an empty set");
    EXPECT_DEATH(s.Back(), "QuicCcRangeSet::Back on an empty set");
    s.Add(1, 2);
    s.Remove(1, 2);
    EXPECT_DEATH(s.Front(), "empty set");
}

} // namespace
} // namespace test
} // namespace quiccc
} // namespace ns3
