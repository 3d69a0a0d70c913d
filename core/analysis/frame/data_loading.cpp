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

std::optional<double> dataLoadingPct(const RankFrame& frame, std::int64_t iteration)
{
    const std::string stepName = "ProfilerStep#" + std::to_string(iteration);
    const FrameRow* step = nullptr;
    for (const FrameRow& row : frame.rows)
        if (!row.device && row.iteration == iteration && frame.name(row) == stepName) {
            step = &row;
            break;
        }
    if (!step || step->dur <= 0)
        return std::nullopt;
    std::vector<Interval> loading;
    for (const FrameRow& row : frame.rows) {
        if (row.device || row.end() <= step->ts || row.ts >= step->end() || !isDataLoading(frame.name(row)))
            continue;
        loading.push_back({ std::max(row.ts, step->ts), std::min(row.end(), step->end()) });
    }
    // Nested loading spans (__next__ around _next_data) count once.
    const auto inLoading = totalLength(mergeIntervals(std::move(loading)));
    return 100.0 * static_cast<double>(inLoading) / static_cast<double>(step->dur);
}

} // namespace ks::core
