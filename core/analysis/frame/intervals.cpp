#include "core/analysis/frame/intervals.h"

#include <algorithm>

namespace ks::core {

std::vector<Interval> mergeIntervals(std::vector<Interval> intervals)
{
    std::sort(intervals.begin(), intervals.end(),
        [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::vector<Interval> merged;
    for (const Interval& i : intervals) {
        if (merged.empty() || i.start > merged.back().end)
            merged.push_back(i);
        else
            merged.back().end = std::max(merged.back().end, i.end);
    }
    return merged;
}

std::int64_t totalLength(const std::vector<Interval>& merged)
{
    std::int64_t sum = 0;
    for (const Interval& i : merged)
        sum += i.end - i.start;
    return sum;
}

} // namespace ks::core
