#pragma once

#include "core/analysis/cross_rank/clock_offsets.h"
#include "core/analysis/cross_rank/collective_match.h"
#include "core/model/trace_set.h"
#include "widgets/timeline/model/counter_track.h"
#include "widgets/timeline/model/critical_path_marks.h"
#include "widgets/timeline/model/index_pyramid.h"
#include "widgets/timeline/model/job_path_marks.h"
#include "widgets/timeline/model/slice_kind.h"
#include "widgets/timeline/model/timeline_types.h"

#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace ks::core {
class TraceAnalyses;
} // namespace ks::core

namespace ks::widgets {

// LOD summary node of one slice level: busy time and the longest slice of a
// block of consecutive slices. A merged block takes the colour of its longest
// slice, the one that dominates when zooming in, and a shade from its busy time.
struct SliceSummaryNode
{
    TimeNs busy = 0;
    std::uint32_t longest = core::kNoRow; // absolute slice index
    std::uint32_t longestDur = 0; // saturated at 2^32 - 1 ns
};

using LevelSummary = IndexPyramid<SliceSummaryNode>;

// What the timeline needs of one rank besides the core's RankTrace: colour keys
// and level summaries. Built once per load, then immutable and shared.
class RankTimeline
{
public:
    std::shared_ptr<const core::RankTrace> trace;
    int index = 0; // position in TraceSet::ranks
    QString label; // "Rank 3"
    QString detail; // "NVIDIA H100 · rank-3.pt.trace.json.gz"
    std::vector<QString> trackNames;
    std::vector<std::uint8_t> sliceKind; // SliceKind of each slice
    std::vector<std::uint8_t> nameKey; // name palette key of each NameId
    std::uint32_t kindMask = 0; // bit k: some slice is of SliceKind k
    std::vector<std::vector<LevelSummary>> summaries; // [track][level]

    // Kind or name colour (critical path colours need the path: see draw_list.cpp).
    std::uint8_t colorKey(std::uint32_t slice, ColorMode mode) const
    {
        return mode == ColorMode::Name ? nameKey[trace->slices.name[slice].value] : sliceKind[slice];
    }

    // Folds the summary of slices [a, b) (absolute, inside one level) into acc.
    void summarize(std::uint32_t track, std::uint32_t level, std::uint32_t a, std::uint32_t b,
        SliceSummaryNode& acc) const;
    std::size_t bytesUsed() const;
};

// Runs body(i) for i in [0, n), possibly in parallel. Background jobs pass
// their TaskContext::parallelFor; runInParallel (Qt's global pool) serves the
// draw lists of one frame, built while the GUI thread waits, and tests.
using ParallelRunner = std::function<void(std::size_t n, const std::function<void(std::size_t)>& body)>;
void runInParallel(std::size_t n, const std::function<void(std::size_t)>& body);

// Everything the timeline draws, for one opened trace set. Immutable once built;
// a new version (e.g. when the analysis counters arrive) shares the rank parts.
class TimelineData
{
public:
    // With `analyses` (the load's session, over `set`), the collectives are its
    // match, which the job path shares; without, the build matches them.
    static std::shared_ptr<TimelineData> build(std::shared_ptr<const core::TraceSet> set,
        const ParallelRunner& parallel = runInParallel,
        const std::shared_ptr<core::TraceAnalyses>& analyses = nullptr);
    // A copy with the analysis counters (queue length, bandwidth) added; version + 1.
    std::shared_ptr<TimelineData> withAnalysisCounters(std::vector<CounterTracks> perRank) const;
    // A copy with every rank's critical path (T10); version + 1.
    std::shared_ptr<TimelineData> withCriticalPaths(std::vector<CriticalPathMarks> perRank) const;
    // A copy with the job's critical path across ranks (X3), or without when null; version + 1.
    std::shared_ptr<TimelineData> withJobPath(std::shared_ptr<const JobPathMarks> marks) const;

    std::shared_ptr<const core::TraceSet> set;
    std::vector<std::shared_ptr<const RankTimeline>> ranks;
    std::vector<std::shared_ptr<const CounterTracks>> counters; // per rank
    std::vector<std::shared_ptr<const CriticalPathMarks>> criticalPaths; // per rank; empty until computed
    std::shared_ptr<const JobPathMarks> jobPath; // null until the analyses give the job's path
    // X2: the job's collectives matched across ranks, and the clock offsets
    // estimated from them (the "Estimated clocks" alignment). Built with the data.
    std::shared_ptr<const core::CollectiveMatch> collectives;
    std::shared_ptr<const core::ClockOffsets> clockOffsets;
    // D3 per rank: the DiffClass of each NameId; empty outside a trace diff.
    std::vector<std::shared_ptr<const std::vector<std::uint8_t>>> diffClasses;
    TimeNs traceStart = 0; // earliest event of any rank: the ruler's 0
    TimeNs traceEnd = 0;
    std::uint64_t version = 0;

    int rankCount() const { return static_cast<int>(ranks.size()); }

    const core::RankTrace& trace(int rank) const { return *ranks[static_cast<std::size_t>(rank)]->trace; }

    const RankTimeline& rank(int r) const { return *ranks[static_cast<std::size_t>(r)]; }

    const CounterTracks& rankCounters(int r) const { return *counters[static_cast<std::size_t>(r)]; }

    const CriticalPathMarks* criticalPath(int r) const
    {
        return static_cast<std::size_t>(r) < criticalPaths.size()
            ? criticalPaths[static_cast<std::size_t>(r)].get()
            : nullptr;
    }

    const RankPathMarks* jobPathMarks(int r) const { return jobPath ? jobPath->rank(r) : nullptr; }

    // A copy with each rank's diff classes by NameId (D3); version + 1.
    std::shared_ptr<TimelineData> withDiffClasses(std::vector<std::vector<std::uint8_t>> perRank) const;

    const std::vector<std::uint8_t>* nameClasses(int r) const
    {
        return static_cast<std::size_t>(r) < diffClasses.size()
            ? diffClasses[static_cast<std::size_t>(r)].get()
            : nullptr;
    }

    bool hasCriticalPaths() const { return !criticalPaths.empty(); }

    // display time = raw time - offset
    TimeNs offset(int rank, const Alignment& alignment) const;
    TimeRange displayBounds(const Alignment& alignment) const;
    std::size_t sliceCount() const;
    std::uint32_t kindMask() const; // kinds present in any rank (legend)
};

std::uint64_t nextDataVersion();

} // namespace ks::widgets
