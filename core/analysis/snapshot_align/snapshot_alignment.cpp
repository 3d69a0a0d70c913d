#include "core/analysis/snapshot_align/snapshot_alignment.h"

#include "core/analysis/memory_snapshot/snapshot_frames.h"
#include "core/analysis/snapshot_align/range_rows.h"
#include "core/model/rank_trace.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>

namespace ks::core {

namespace {

    bool startsWith(std::string_view text, std::string_view prefix)
    {
        return text.substr(0, prefix.size()) == prefix;
    }

    // A START of the snapshot with its END (kNoTime when none followed).
    struct AnnotationPair
    {
        std::string name;
        std::int64_t device = 0;
        std::int64_t startUs = kNoTime;
        std::int64_t endUs = kNoTime;
    };

    std::vector<AnnotationPair> annotationPairs(const std::vector<ExternalAnnotation>& annotations)
    {
        std::vector<const ExternalAnnotation*> sorted;
        for (const ExternalAnnotation& a : annotations)
            if (a.timeUs != kNoTime)
                sorted.push_back(&a);
        std::stable_sort(sorted.begin(), sorted.end(),
            [](const ExternalAnnotation* a, const ExternalAnnotation* b) { return a->timeUs < b->timeUs; });
        std::vector<AnnotationPair> pairs;
        std::map<std::pair<std::int64_t, std::string>, std::vector<std::size_t>> open;
        for (const ExternalAnnotation* a : sorted) {
            auto& stack = open[{ a->device, a->name }];
            if (a->stage == "START") {
                stack.push_back(pairs.size());
                pairs.push_back(AnnotationPair { a->name, a->device, a->timeUs, kNoTime });
            } else if (a->stage == "END" && !stack.empty()) {
                pairs[stack.back()].endUs = a->timeUs;
                stack.pop_back();
            }
        }
        return pairs;
    }

    std::int64_t median(std::vector<std::int64_t> values)
    {
        std::sort(values.begin(), values.end());
        const std::size_t n = values.size();
        if (n % 2 == 1)
            return values[n / 2];
        const std::int64_t a = values[n / 2 - 1];
        const std::int64_t b = values[n / 2];
        return a + (b - a) / 2;
    }

    struct TotalsAt
    {
        std::uint64_t requested = 0;
        std::uint64_t allocated = 0;
        std::uint64_t reserved = 0;
    };

    void measure(const MemorySnapshot& snapshot, const DeviceSnapshotSummary& d, std::int64_t offsetUs,
        std::size_t top, const std::vector<TraceRange>& ranges, std::vector<RangeMemory>& out)
    {
        const ActiveMemoryTimeline& timeline = d.timeline;
        const RangeRows rows(snapshot, d);
        const TotalsAt initial { timeline.initialAllocated, d.stateBeforeFirst.allocated,
            d.stateBeforeFirst.reserved };
        // The totals after the first `count` rows (the initial ones before the first).
        auto totalsAfter = [&](std::size_t count) {
            if (count == 0)
                return initial;
            const TimelineRow& row = timeline.rows[count - 1];
            return TotalsAt { row.allocated, row.stateAllocated, row.stateReserved };
        };
        for (const TraceRange& range : ranges) {
            const std::int64_t s = range.startUs + offsetUs;
            const std::int64_t e = range.endUs + offsetUs;
            const auto [before, through] = rows.rowsIn(s, e);
            const TotalsAt atStart = totalsAfter(before);
            const TotalsAt atEnd = totalsAfter(through);
            RangeMemory m;
            m.name = range.name;
            m.device = d.device;
            m.startUs = range.startUs;
            m.endUs = range.endUs;
            m.requestedAtStart = atStart.requested;
            m.requestedAtEnd = atEnd.requested;
            m.allocatedAtStart = atStart.allocated;
            m.allocatedAtEnd = atEnd.allocated;
            m.reservedAtStart = atStart.reserved;
            m.reservedAtEnd = atEnd.reserved;
            m.requestedPeak = atStart.requested;
            m.requestedPeakTimeUs = range.startUs;
            m.allocatedPeak = atStart.allocated;
            for (std::size_t i = before; i < through; ++i) {
                const TimelineRow& row = timeline.rows[i];
                if (row.allocated > m.requestedPeak) {
                    m.requestedPeak = row.allocated;
                    m.requestedPeakTimeUs = rows.timeOf(i) - offsetUs;
                }
                m.allocatedPeak = std::max(m.allocatedPeak, row.stateAllocated);
            }
            std::map<std::string, RangeTopFrame> byFrame;
            for (const TimelineAllocation& a : timeline.allocations) {
                if (a.origin != AllocationOrigin::Alloc || a.timeUs == kNoTime || a.timeUs < s
                    || a.timeUs > e)
                    continue;
                ++m.allocations;
                m.allocatedBytes += a.size;
                const std::string frame = userFrame(snapshot, a.stack).text;
                RangeTopFrame& f = byFrame[frame];
                f.frame = frame;
                f.bytes += a.size;
                ++f.count;
            }
            for (auto& entry : byFrame)
                m.topFrames.push_back(std::move(entry.second));
            std::stable_sort(m.topFrames.begin(), m.topFrames.end(),
                [](const RangeTopFrame& a, const RangeTopFrame& b) { return a.bytes > b.bytes; });
            if (m.topFrames.size() > top)
                m.topFrames.resize(top);
            out.push_back(std::move(m));
        }
    }

} // namespace

std::vector<TraceRange> traceRanges(const RankTrace& trace)
{
    const std::int64_t baseNs = trace.metadata.baseTimeNanoseconds.value_or(0);
    std::vector<TraceRange> ranges;
    for (const Track& track : trace.tracks) {
        if (track.kind != TrackKind::CpuThread)
            continue;
        for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s) {
            const std::string_view name = trace.sliceName(s);
            if (!startsWith(name, "ProfilerStep#") && trace.sliceCategory(s) != "user_annotation")
                continue;
            ranges.push_back(TraceRange { std::string(name), (baseNs + trace.slices.start[s]) / 1000,
                (baseNs + trace.slices.end(s)) / 1000 });
        }
    }
    std::stable_sort(ranges.begin(), ranges.end(),
        [](const TraceRange& a, const TraceRange& b) { return a.startUs < b.startUs; });
    return ranges;
}

SnapshotAlignment matchAnnotations(const MemorySnapshot& snapshot, const std::vector<TraceRange>& ranges)
{
    SnapshotAlignment result;
    if (!snapshot.hasTime()) {
        result.error = snapshot.path
            + ": the snapshot's events have no time_us (PyTorch before 2.2 wrote none): they cannot be put "
              "on "
              "the trace's clock";
        return result;
    }
    const std::vector<AnnotationPair> pairs = annotationPairs(snapshot.annotations);
    result.snapshotAnnotations = pairs.size();
    if (pairs.empty()) {
        result.error = snapshot.path
            + ": the snapshot has no external_annotations with a time (record_function ranges the profiler "
              "writes while recording memory history): nothing to match with the trace";
        return result;
    }
    if (ranges.empty()) {
        result.error = "the trace has no ProfilerStep#N or user_annotation ranges to match the snapshot's "
                       "external_annotations with";
        return result;
    }
    // The trace's ranges of each name, by start.
    std::map<std::string, std::vector<const TraceRange*>> byName;
    for (const TraceRange& r : ranges)
        byName[r.name].push_back(&r);
    std::map<std::pair<std::int64_t, std::string>, std::int64_t> seen;
    std::vector<std::int64_t> startDifferences;
    std::vector<std::int64_t> endDifferences;
    std::vector<std::string> unmatched;
    for (const AnnotationPair& p : pairs) {
        const std::int64_t occurrence = seen[{ p.device, p.name }]++;
        const auto it = byName.find(p.name);
        if (it == byName.end() || occurrence >= static_cast<std::int64_t>(it->second.size())) {
            if (std::find(unmatched.begin(), unmatched.end(), p.name) == unmatched.end())
                unmatched.push_back(p.name);
            continue;
        }
        const TraceRange& r = *it->second[static_cast<std::size_t>(occurrence)];
        result.matches.push_back(
            AnnotationMatch { p.name, p.device, occurrence, p.startUs, r.startUs, p.startUs - r.startUs });
        startDifferences.push_back(p.startUs - r.startUs);
        if (p.endUs != kNoTime)
            endDifferences.push_back(p.endUs - r.endUs);
    }
    if (result.matches.empty()) {
        std::string names;
        for (std::size_t i = 0; i < unmatched.size() && i < 5; ++i)
            names += (i ? ", " : "") + unmatched[i];
        result.error = "none of the snapshot's " + std::to_string(pairs.size()) + " external_annotations ("
            + names + (unmatched.size() > 5 ? ", ..." : "")
            + ") is a range of the trace: is it the trace of the same run?";
        return result;
    }
    result.offsetUs = median(startDifferences);
    for (const std::int64_t d : startDifferences)
        result.spreadUs = std::max(result.spreadUs, std::abs(d - result.offsetUs));
    for (const std::int64_t d : endDifferences)
        result.spreadUs = std::max(result.spreadUs, std::abs(d - result.offsetUs));
    if (result.spreadUs > kLargeAlignmentSpreadUs)
        result.diagnostics.push_back("the matched annotations disagree by up to "
            + std::to_string(result.spreadUs)
            + " us around the offset: the alignment is approximate (another run's trace, or clocks that "
              "drift)");
    for (const std::string& name : unmatched)
        result.diagnostics.push_back(
            "annotation \"" + name + "\" of the snapshot is not (or not as often) in the trace");
    return result;
}

SnapshotAlignment alignSnapshot(const MemorySnapshot& snapshot, const SnapshotSummary& summary,
    const std::vector<TraceRange>& ranges, std::size_t top)
{
    SnapshotAlignment result = matchAnnotations(snapshot, ranges);
    if (!result.error.empty())
        return result;
    for (const DeviceSnapshotSummary& d : summary.devices) {
        if (!d.trace.timeMonotonic)
            result.diagnostics.push_back("device " + std::to_string(d.device)
                + ": the trace's time_us go backwards: totals at a time are approximate");
        measure(snapshot, d, result.offsetUs, top, ranges, result.ranges);
    }
    return result;
}

RankChoice chooseSnapshotRank(
    const MemorySnapshot& snapshot, const std::vector<std::vector<TraceRange>>& ranks)
{
    RankChoice choice;
    for (const std::vector<TraceRange>& ranges : ranks) {
        const SnapshotAlignment a = matchAnnotations(snapshot, ranges);
        choice.fits.push_back(a.error.empty() ? RankFit { true, a.matches.size(), a.spreadUs } : RankFit {});
    }
    auto better = [](const RankFit& a, const RankFit& b) {
        return std::tuple(a.aligned, a.matched, -a.spreadUs) > std::tuple(b.aligned, b.matched, -b.spreadUs);
    };
    for (std::size_t i = 1; i < choice.fits.size(); ++i)
        if (better(choice.fits[i], choice.fits[choice.best]))
            choice.best = i;
    if (choice.fits.empty() || !choice.fits[choice.best].aligned)
        return choice;
    const RankFit& best = choice.fits[choice.best];
    choice.told = best.spreadUs <= kLargeAlignmentSpreadUs;
    for (std::size_t i = 0; i < choice.fits.size() && choice.told; ++i) {
        const RankFit& other = choice.fits[i];
        if (i != choice.best && other.aligned && other.matched == best.matched
            && other.spreadUs <= 2 * best.spreadUs + kRankMarginUs)
            choice.told = false;
    }
    return choice;
}

} // namespace ks::core
