#pragma once

#include <cstdint>
#include <vector>

namespace ks::core {

struct Interval
{
    std::int64_t start = 0;
    std::int64_t end = 0;
};

// HTA's merge_kernel_intervals: sort by start; a new group starts only when
// start > the running max end, so touching intervals merge.
std::vector<Interval> mergeIntervals(std::vector<Interval> intervals);

std::int64_t totalLength(const std::vector<Interval>& merged);

} // namespace ks::core
