#pragma once

#include "core/analysis/cross_rank/cross_rank_path.h"
#include "widgets/timeline/model/timeline_types.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace ks::core {
struct JobCriticalPath;
struct TraceSet;
} // namespace ks::core

namespace ks::widgets {

// The job's critical path across ranks on one rank's
// tracks: the slices its segments spent time in, each with the bound type the
// path counted it as (the colour it gets).
struct RankPathMarks
{
    std::vector<std::uint32_t> slices; // ascending slice index
    std::vector<core::PathBound> bounds; // bounds[i] is the bound of slices[i]

    bool contains(std::uint32_t slice) const;
    // The bound of the first path slice in [first, last): a merged block of
    // sub-pixel slices shows the path when any of its slices is on it.
    std::optional<core::PathBound> boundIn(std::uint32_t first, std::uint32_t last) const;
};

// Where the path moves from one rank to another: from the collective slice of
// the member the others waited for (its arrival) to the collective slice of
// the member the path leaves through (its end).
struct PathHopMark
{
    SliceRef from;
    SliceRef to;
    QString collective;
};

struct JobPathMarks
{
    std::vector<RankPathMarks> ranks; // by position in TraceSet::ranks
    std::vector<PathHopMark> hops; // in path order; only hops whose both slices were found
    TimeNs length = 0; // the path's length
    std::size_t segments = 0; // segments of the path
    std::size_t segmentsWithoutSlice = 0; // gaps and pieces no event holds

    const RankPathMarks* rank(int r) const
    {
        return r >= 0 && static_cast<std::size_t>(r) < ranks.size() ? &ranks[static_cast<std::size_t>(r)]
                                                                    : nullptr;
    }
};

// Finds the slices of every segment and hop of `job` in `set` (the ranks are
// matched by rank number, the slices by their traceEvents index). One pass
// over each rank's slices: call it off the GUI thread on big traces.
JobPathMarks computeJobPathMarks(const core::TraceSet& set, const core::JobCriticalPath& job);

} // namespace ks::widgets
