#include "core/analysis/efficiency/op_kernel_time.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace ks::core {

namespace {

    using Interval = std::pair<TimeNs, TimeNs>;

    TimeNs unionLength(std::vector<Interval>& intervals)
    {
        std::sort(intervals.begin(), intervals.end());
        TimeNs total = 0;
        TimeNs coveredTo = 0;
        bool any = false;
        for (const auto& [start, end] : intervals) {
            if (!any || start > coveredTo) {
                total += end - start;
                coveredTo = end;
                any = true;
            } else if (end > coveredTo) {
                total += end - coveredTo;
                coveredTo = end;
            }
        }
        return total;
    }

    // A GPU slice with the correlation id of its launch, and its stream (an index into tracks).
    struct Correlated
    {
        std::int64_t correlation;
        std::uint32_t slice;
        std::uint32_t track;

        bool operator<(const Correlated& o) const
        {
            return std::pair(correlation, slice) < std::pair(o.correlation, o.slice);
        }
    };

    using CorrelatedIt = std::vector<Correlated>::const_iterator;

    // TraceLens links a non-graph launch to one GPU event: the stream its flow ends on, and
    // there the event of the launch's correlation written last (pid_tid_event_map keeps the
    // last event of each (pid, tid, correlation)). No flow from the launch: no GPU work.
    std::optional<std::uint32_t> tracelensLaunchTarget(
        const RankTrace& t, CorrelatedIt first, CorrelatedIt last, const std::vector<bool>& flowLinked)
    {
        const auto writtenBefore = [&](const Correlated& a, const Correlated& b) {
            return t.slices.eventIndex[a.slice] < t.slices.eventIndex[b.slice];
        };
        std::optional<Correlated> flowEnd;
        for (auto it = first; it != last; ++it)
            if (flowLinked[it->slice] && (!flowEnd || writtenBefore(*flowEnd, *it)))
                flowEnd = *it;
        if (!flowEnd)
            return std::nullopt;
        Correlated chosen = *flowEnd;
        for (auto it = first; it != last; ++it)
            if (it->track == flowEnd->track && writtenBefore(chosen, *it))
                chosen = *it;
        return chosen.slice;
    }

    // (CPU slice, GPU slice) for every launch of the rank, sorted.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> launchPairs(const RankTrace& t, bool tracelensLinks)
    {
        // GPU slices an ac2g flow start points to, for TraceLens's linking.
        std::vector<bool> flowLinked;
        if (tracelensLinks) {
            flowLinked.assign(t.slices.size(), false);
            bool anyFlow = false;
            for (std::size_t k = 0; k < t.links.size(); ++k)
                if (t.links.kind[k] == LinkKind::LaunchFlow) {
                    flowLinked[t.links.to[k]] = true;
                    anyFlow = true;
                }
            if (!anyFlow)
                flowLinked.clear();
        }
        const auto isGraphLaunch = [&](std::uint32_t cpu) {
            return t.sliceName(cpu).find("GraphLaunch") != std::string_view::npos;
        };
        // GPU work per launching slice. The launch links, and the correlation id the runtime
        // call shares with its GPU work: flows may bind to a slice around the launch.
        std::vector<Correlated> gpuByCorrelation;
        for (std::uint32_t k = 0; k < t.tracks.size(); ++k)
            if (const Track& track = t.tracks[k]; track.kind == TrackKind::GpuStream)
                for (std::uint32_t g = track.sliceBegin; g < track.sliceEnd; ++g)
                    if (const std::int64_t c = t.correlation(g); c > 0)
                        gpuByCorrelation.push_back({ c, g, k });
        std::sort(gpuByCorrelation.begin(), gpuByCorrelation.end());
        std::vector<std::pair<std::uint32_t, std::uint32_t>> launches; // (CPU slice, GPU slice)
        bool correlated = false;
        for (const Track& track : t.tracks) {
            if (track.kind != TrackKind::CpuThread)
                continue;
            for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s) {
                const std::int64_t c = t.correlation(s);
                if (c <= 0)
                    continue;
                const auto first = std::lower_bound(
                    gpuByCorrelation.begin(), gpuByCorrelation.end(), Correlated { c, 0u, 0u });
                auto last = first;
                while (last != gpuByCorrelation.end() && last->correlation == c)
                    ++last;
                correlated = correlated || first != last;
                if (flowLinked.empty() || isGraphLaunch(s)) {
                    for (auto it = first; it != last; ++it)
                        launches.emplace_back(s, it->slice);
                    continue;
                }
                if (const auto target = tracelensLaunchTarget(t, first, last, flowLinked))
                    launches.emplace_back(s, *target);
            }
        }
        if (!correlated) // no correlation ids: the links are all there is
            for (std::size_t k = 0; k < t.links.size(); ++k)
                if (t.links.kind[k] == LinkKind::LaunchFlow || t.links.kind[k] == LinkKind::LaunchCorrelation)
                    launches.emplace_back(t.links.from[k], t.links.to[k]);
        std::sort(launches.begin(), launches.end());
        launches.erase(std::unique(launches.begin(), launches.end()), launches.end());
        return launches;
    }

    using Launches = std::vector<std::pair<std::uint32_t, std::uint32_t>>; // (CPU slice, GPU slice), sorted
    using Measured = std::vector<std::pair<std::uint32_t, std::vector<Interval>>>;

    bool isLaunchIn(const Launches& launches, std::uint32_t slice)
    {
        const auto it = std::lower_bound(launches.begin(), launches.end(), std::pair { slice, 0u });
        return it != launches.end() && it->first == slice;
    }

    // TraceLens's host tree (Trace2Tree's build_host_call_stack_tree): a thread's cpu_op,
    // cuda_runtime and cuda_driver events by start time alone (ties in the file's order), on a
    // stack popped of the events that ended at or before each start; an event that ends after
    // the one open around it is left out of the tree (no parent, never open). Left out, a
    // measured op keeps its row with no GPU work, the launches inside it count for the op
    // around it, and a launch left out counts for none.
    template <typename IsMeasured>
    void measureTrackAsTraceLens(const RankTrace& t, const Track& track, const IsMeasured& isMeasured,
        const Launches& launches, Measured& measured)
    {
        std::vector<std::uint32_t> events;
        for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s) {
            const std::string_view category = t.sliceCategory(s);
            if (isMeasured(s) || isLaunchIn(launches, s) || category == "cpu_op" || category == "cuda_runtime"
                || category == "cuda_driver")
                events.push_back(s);
        }
        std::sort(events.begin(), events.end(), [&](std::uint32_t a, std::uint32_t b) {
            return std::pair(t.slices.start[a], t.slices.eventIndex[a])
                < std::pair(t.slices.start[b], t.slices.eventIndex[b]);
        });

        struct Open
        {
            std::uint32_t slice;
            std::size_t measuredIndex; // into measured; npos: not measured
        };

        std::vector<Open> stack;
        for (const std::uint32_t s : events) {
            while (!stack.empty() && t.slices.start[s] >= t.slices.end(stack.back().slice))
                stack.pop_back();
            const bool inTree = stack.empty() || t.slices.end(s) <= t.slices.end(stack.back().slice);
            std::size_t index = std::string::npos;
            if (isMeasured(s)) {
                index = measured.size();
                measured.emplace_back(s, std::vector<Interval> {});
            }
            if (!inTree)
                continue;
            auto it = std::lower_bound(launches.begin(), launches.end(), std::pair { s, 0u });
            for (; it != launches.end() && it->first == s; ++it)
                for (const Open& o : stack)
                    if (o.measuredIndex != std::string::npos)
                        measured[o.measuredIndex].second.emplace_back(
                            t.slices.start[it->second], t.slices.end(it->second));
            stack.push_back({ s, index });
        }
    }

    // GPU intervals launched inside each measured slice of the rank (by it or by a slice
    // nested in it on its thread), for the measured slices in thread and start order.
    template <typename IsMeasured>
    Measured measure(const RankTrace& t, const IsMeasured& isMeasured, bool tracelensLinks)
    {
        const Launches launches = launchPairs(t, tracelensLinks);
        const auto isLaunch = [&](std::uint32_t slice) { return isLaunchIn(launches, slice); };
        Measured measured;
        for (const Track& track : t.tracks) {
            if (track.kind != TrackKind::CpuThread)
                continue;
            if (tracelensLinks) {
                measureTrackAsTraceLens(t, track, isMeasured, launches, measured);
                continue;
            }
            // Measured slices and launches of this thread, in start order, outer before inner.
            std::vector<std::uint32_t> events;
            for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s)
                if (isMeasured(s) || isLaunch(s))
                    events.push_back(s);
            std::sort(events.begin(), events.end(), [&](std::uint32_t a, std::uint32_t b) {
                return std::tuple(t.slices.start[a], -t.slices.end(a), a)
                    < std::tuple(t.slices.start[b], -t.slices.end(b), b);
            });
            std::vector<std::size_t> open; // indices into measured of the slices around the sweep
            for (const std::uint32_t s : events) {
                while (!open.empty()) {
                    const std::uint32_t top = measured[open.back()].first;
                    if (t.slices.start[top] <= t.slices.start[s] && t.slices.end(s) <= t.slices.end(top))
                        break;
                    open.pop_back();
                }
                if (isMeasured(s)) {
                    open.push_back(measured.size());
                    measured.emplace_back(s, std::vector<Interval> {});
                    continue;
                }
                if (open.empty())
                    continue;
                auto it = std::lower_bound(launches.begin(), launches.end(), std::pair { s, 0u });
                for (; it != launches.end() && it->first == s; ++it) {
                    const std::uint32_t gpu = it->second;
                    for (const std::size_t c : open)
                        measured[c].second.emplace_back(t.slices.start[gpu], t.slices.end(gpu));
                }
            }
        }
        return measured;
    }

} // namespace

std::vector<ModelledCall> modelledCalls(const RankTrace& t, bool tracelensLinks)
{
    std::unordered_map<std::uint32_t, const OpModel*> modelOfName; // NameId value -> model (or null)
    const auto modelOf = [&](std::uint32_t slice) {
        const std::uint32_t id = t.slices.name[slice].value;
        const auto [it, fresh] = modelOfName.try_emplace(id, nullptr);
        if (fresh)
            it->second = findOpModel(t.sliceName(slice));
        return it->second;
    };
    std::vector<ModelledCall> calls;
    for (auto& [slice, intervals] : measure(
             t, [&](std::uint32_t s) { return modelOf(s) != nullptr; }, tracelensLinks))
        calls.push_back({ slice, modelOf(slice), unionLength(intervals) });
    return calls;
}

std::vector<TimeNs> busyTimeOfGroups(
    const RankTrace& t, const std::vector<std::vector<std::uint32_t>>& groups, bool tracelensLinks)
{
    std::vector<bool> wanted(t.slices.size(), false);
    for (const auto& group : groups)
        for (const std::uint32_t s : group)
            wanted[s] = true;
    std::unordered_map<std::uint32_t, std::vector<Interval>> bySlice;
    for (auto& [slice, intervals] : measure(
             t, [&](std::uint32_t s) { return bool(wanted[s]); }, tracelensLinks))
        bySlice.emplace(slice, std::move(intervals));
    std::vector<TimeNs> times;
    for (const auto& group : groups) {
        std::vector<Interval> all;
        for (const std::uint32_t s : group)
            if (const auto it = bySlice.find(s); it != bySlice.end())
                all.insert(all.end(), it->second.begin(), it->second.end());
        times.push_back(unionLength(all));
    }
    return times;
}

} // namespace ks::core
