#pragma once

#include "core/analysis/memory_snapshot/memory_snapshot.h"
#include "core/analysis/memory_snapshot/snapshot_summary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

class RankTrace;

// A range of the Kineto trace (a ProfilerStep#N or a user annotation), in
// µs on the trace's clock: baseTimeNanoseconds (when the header has one) + ts.
struct TraceRange
{
    std::string name;
    std::int64_t startUs = 0;
    std::int64_t endUs = 0;
};

// The CPU ranges a snapshot's external_annotations can match: every slice
// named ProfilerStep#N or of category user_annotation on a CPU thread, by start.
std::vector<TraceRange> traceRanges(const RankTrace& trace);

// One START of the snapshot matched with the same occurrence of its name in the trace.
struct AnnotationMatch
{
    std::string name;
    std::int64_t device = 0;
    std::int64_t occurrence = 0; // 0 = the first range of this name
    std::int64_t snapshotStartUs = 0;
    std::int64_t traceStartUs = 0;
    std::int64_t differenceUs = 0; // snapshot - trace
};

// Memory inside one trace range, on one device of the snapshot. Bytes as
// memory_viz: requested = the Active Memory Timeline's total, allocated and
// reserved = the Allocator State History's header.
struct RangeTopFrame
{
    std::string frame; // userFrame(): the program's own line
    std::uint64_t bytes = 0; // requested bytes allocated inside the range
    std::uint64_t count = 0;
};

struct RangeMemory
{
    std::string name;
    std::int64_t device = 0;
    std::int64_t startUs = 0; // the trace's clock
    std::int64_t endUs = 0;
    std::uint64_t requestedAtStart = 0;
    std::uint64_t requestedAtEnd = 0;
    std::uint64_t requestedPeak = 0; // the largest total inside [start, end] (the start's included)
    std::int64_t requestedPeakTimeUs = 0; // the trace's clock
    std::uint64_t allocatedAtStart = 0;
    std::uint64_t allocatedAtEnd = 0;
    std::uint64_t allocatedPeak = 0;
    std::uint64_t reservedAtStart = 0;
    std::uint64_t reservedAtEnd = 0;
    std::uint64_t allocations = 0; // allocs inside the range
    std::uint64_t allocatedBytes = 0; // their requested bytes
    std::vector<RangeTopFrame> topFrames; // largest first, at most `top`
};

struct SnapshotAlignment
{
    std::string error; // non-empty: could not align (no time_us, no annotations, nothing matched)
    std::vector<std::string> diagnostics; // aligned, but: a large spread, unmatched names
    std::int64_t offsetUs = 0; // snapshot time = trace time + offsetUs (median of the START differences)
    std::int64_t spreadUs = 0; // largest |difference - offset| over the matched STARTs and ENDs
    std::uint64_t snapshotAnnotations = 0; // START/END pairs in the snapshot
    std::vector<AnnotationMatch> matches;
    std::vector<RangeMemory> ranges; // by device, then trace order
};

// Spreads above this are reported (the two clocks drift, or the annotations are of another run).
inline constexpr std::int64_t kLargeAlignmentSpreadUs = 1000;

// Matches the snapshot's external_annotations (START/END pairs, per device and
// name, in time order) with the trace's ranges of the same name (the k-th pair
// with the k-th range), takes the clock offset as the median of the START
// differences, and gives each range of `ranges` its memory on every device of
// `summary` (summarizeSnapshot of the same snapshot).
SnapshotAlignment alignSnapshot(const MemorySnapshot& snapshot, const SnapshotSummary& summary,
    const std::vector<TraceRange>& ranges, std::size_t top = 5);

// The matching of alignSnapshot alone (no memory measured, `ranges` of the
// result empty): the matches, the offset, the spread, the diagnostics of both,
// or why nothing matched.
SnapshotAlignment matchAnnotations(const MemorySnapshot& snapshot, const std::vector<TraceRange>& ranges);

// How well one rank's ranges fit the snapshot's annotations.
struct RankFit
{
    bool aligned = false; // something matched (else `matched` and `spreadUs` are 0)
    std::uint64_t matched = 0;
    std::int64_t spreadUs = 0;
};

// Which rank of a trace a snapshot belongs to. Every rank of a job runs the
// same ProfilerSteps, so names alone match any of them; what tells them apart
// is the times: on the snapshot's own rank every matched START and END lies
// the same offset away (the spread is the two clocks' jitter), on another
// rank the steps' lengths differ by that rank's own waits and the spread
// grows. The best fit matches the most annotations, then has the smallest
// spread. It is told apart (`told`) when it is within kLargeAlignmentSpreadUs
// and every other rank matches fewer or spreads more than twice as far, plus
// kRankMarginUs; else the ranks fit alike (identical steps, or none fits
// well) and only the user can say.
struct RankChoice
{
    std::size_t best = 0; // an index into the ranks given (0 when none aligns)
    bool told = false;
    std::vector<RankFit> fits; // per rank given
};

inline constexpr std::int64_t kRankMarginUs = 50;

RankChoice chooseSnapshotRank(
    const MemorySnapshot& snapshot, const std::vector<std::vector<TraceRange>>& ranks);

} // namespace ks::core
