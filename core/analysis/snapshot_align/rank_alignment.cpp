#include "core/analysis/snapshot_align/rank_alignment.h"

#include "core/model/trace_set.h"

#include <vector>

namespace ks::core {

RankAlignment alignWithRank(const MemorySnapshot& snapshot, const SnapshotSummary& summary,
    const TraceSet& set, std::optional<std::size_t> rank, std::size_t top)
{
    RankAlignment result;
    if (set.ranks.empty()) {
        result.alignment.error = "the trace has no rank loaded";
        return result;
    }
    std::vector<std::vector<TraceRange>> ranges;
    ranges.reserve(set.ranks.size());
    for (const auto& trace : set.ranks)
        ranges.push_back(traceRanges(*trace));
    if (ranges.size() > 1)
        result.choice = chooseSnapshotRank(snapshot, ranges);
    result.named = rank && *rank < ranges.size();
    result.rankIndex = result.named ? *rank : result.choice.best;
    result.alignment = alignSnapshot(snapshot, summary, ranges[result.rankIndex], top);
    return result;
}

} // namespace ks::core
