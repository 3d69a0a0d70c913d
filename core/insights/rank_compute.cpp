#include "core/insights/rank_compute.h"

#include "core/analysis/cross_rank/collective_slices.h"

#include <algorithm>
#include <unordered_set>

namespace ks::core {

std::vector<Interval> rankCompute(const RankFrame& frame)
{
    const bool gpu =
        std::any_of(frame.rows.begin(), frame.rows.end(), [](const FrameRow& r) { return r.device; });
    std::unordered_set<std::uint32_t> collectives;
    for (const CollectiveSlice& cs : collectiveSlicesOf(*frame.trace))
        collectives.insert(cs.slice);
    std::vector<Interval> out;
    for (const FrameRow& row : frame.rows) {
        if (row.dur <= 0 || row.device != gpu || collectives.count(row.slice))
            continue;
        if (gpu) {
            if (row.kernelType == KernelType::Computation)
                out.push_back({ row.ts, row.end() });
            continue;
        }
        const std::string_view name = frame.name(row);
        if (frame.category(row) == "user_annotation" || name.starts_with("ProfilerStep#")
            || name.starts_with("c10d::") || name.find("wait") != std::string_view::npos)
            continue;
        out.push_back({ row.ts, row.end() });
    }
    return mergeIntervals(std::move(out));
}

TimeNs coveredWithin(const std::vector<Interval>& merged, TimeNs from, TimeNs to)
{
    auto it = std::upper_bound(
        merged.begin(), merged.end(), from, [](TimeNs t, const Interval& i) { return t < i.end; });
    TimeNs covered = 0;
    for (; it != merged.end() && it->start < to; ++it)
        covered += std::min(to, it->end) - std::max(from, it->start);
    return covered;
}

} // namespace ks::core
