#pragma once

#include "core/analysis/snapshot_align/snapshot_alignment.h"
#include "widgets/memory_snapshot/snapshot_view_data.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace ks::core {
struct TraceSet;
}

namespace ks::widgets {

// One matched range (ProfilerStep#N or a user annotation) as the Active Memory
// Timeline draws it: the memory_viz steps of the events inside it.
struct StepMark
{
    std::size_t range = 0; // index into SnapshotAlignment::ranges
    QString label; // the range's name
    QString shortLabel; // "#N" for a ProfilerStep, else the name: what a narrow band still fits
    double firstStep = 0; // the step after the last event before the range (its memory at the start)
    double endStep = 0; // the step after its last event (its memory at the end)
    int lane = 0; // 0 = the ProfilerSteps (or the first annotations when there is none), then nesting
    bool profilerStep = false;
};

// A snapshot aligned with one rank's trace, for the view: the core's
// alignment, which rank it is and how every rank fits, the trace's clocks to
// show its times as the timeline does, and per device of the snapshot the
// marks of its ranges. Built off the GUI thread (the marks walk every
// event), immutable once built.
struct SnapshotSteps
{
    core::SnapshotAlignment alignment;
    std::int64_t rank = 0; // the trace's rank
    std::size_t rankIndex = 0; // ... an index into the trace set's ranks
    std::vector<std::int64_t> ranks; // every rank of the trace set, in its order
    core::RankChoice choice; // how each of them fits the snapshot (one rank: not computed)
    bool chosen = false; // the user chose the rank; else it is choice.best
    std::int64_t baseNs = 0; // the trace's baseTimeNanoseconds: store time = µs × 1000 − baseNs
    std::int64_t originNs = 0; // the timeline's 0 (TraceSet::startNs), in store time
    std::vector<std::vector<StepMark>> marks; // parallel to SnapshotViewData::devices
    int lanes = 0; // the most lanes a device's marks use

    // A range's time as the timeline's store holds it (what TimelineViewState takes).
    std::int64_t storeNs(std::int64_t traceUs) const { return traceUs * 1000 - baseNs; }

    // ... and as the timeline's ruler shows it: since the trace's start.
    std::int64_t shownNs(std::int64_t traceUs) const { return storeNs(traceUs) - originNs; }
};

using SnapshotStepsPtr = std::shared_ptr<const SnapshotSteps>;

// At most this many lanes of nested user annotations under the ProfilerSteps;
// deeper ones share the last.
inline constexpr int kMaxAnnotationLanes = 2;

// Aligns `data` with a rank of `set` (traceRanges, alignSnapshot) and lays out
// the marks: with `rankIndex` (an index into set.ranks) when given, else with
// the rank the snapshot fits best (chooseSnapshotRank). The times are shown
// since set.startNs(), the timeline's 0.
SnapshotSteps alignViewData(const SnapshotViewData& data, const core::TraceSet& set, int rankIndex = -1);

// The ranges of `device` (a device number), in trace order: indices into alignment.ranges.
std::vector<std::size_t> rangesOfDevice(const core::SnapshotAlignment& alignment, std::int64_t device);

} // namespace ks::widgets
