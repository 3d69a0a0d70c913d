#include "core/analysis/frame/data_loading.h"

#include "core/analysis/frame/intervals.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace ks::core {

bool isDataLoading(std::string_view name)
{
    // Plain substring tests: a regular expression per row cost seconds on a large rank.
    constexpr std::array<std::string_view, 5> kMarks { "DataLoader", "dataloader", "data_loader",
        "_next_data", "load_batch" };
    return std::any_of(kMarks.begin(), kMarks.end(),
        [name](std::string_view mark) { return name.find(mark) != std::string_view::npos; });
}

std::map<std::int64_t, double> dataLoadingPctByIteration(const RankFrame& frame)
{
    std::vector<const FrameRow*> steps;
    std::vector<Interval> loading;
    for (const FrameRow& row : frame.rows) {
        if (row.device)
            continue;
        const std::string_view name = frame.name(row);
        if (name.starts_with("ProfilerStep#") && row.dur > 0
            && name.substr(13) == std::to_string(row.iteration))
            steps.push_back(&row);
        else if (isDataLoading(name))
            loading.push_back({ row.ts, row.end() });
    }
    // Nested loading spans (__next__ around _next_data) count once.
    const std::vector<Interval> merged = mergeIntervals(std::move(loading));
    std::map<std::int64_t, double> out;
    for (const FrameRow* step : steps) {
        // The first merged span ending after the step starts; they are disjoint and sorted.
        auto it = std::upper_bound(merged.begin(), merged.end(), step->ts,
            [](std::int64_t t, const Interval& i) { return t < i.end; });
        std::int64_t inLoading = 0;
        for (; it != merged.end() && it->start < step->end(); ++it)
            inLoading += std::min(it->end, step->end()) - std::max(it->start, step->ts);
        out[step->iteration] = 100.0 * static_cast<double>(inLoading) / static_cast<double>(step->dur);
    }
    return out;
}

} // namespace ks::core
