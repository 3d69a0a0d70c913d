#include "widgets/timeline/model/kernel_context.h"

#include "core/model/rank_trace.h"
#include "widgets/timeline/model/slice_queries.h"
#include "widgets/timeline/model/timeline_data.h"

#include <algorithm>
#include <tuple>

namespace ks::widgets {

namespace {

    constexpr std::string_view kGpuAnnotation = "gpu_user_annotation";
    constexpr std::string_view kCpuAnnotation = "user_annotation";
    constexpr std::string_view kCounterRange = "cuda_profiler_range";

    bool startsWith(std::string_view text, std::string_view prefix)
    {
        return text.substr(0, prefix.size()) == prefix;
    }

    // §17 in default mode: of the gpu_user_annotation slices on the track overlapping the
    // work (both ends strict), the shortest, the later-starting among equals.
    SliceRef innermostGpuAnnotation(const core::RankTrace& t, int rank, std::uint32_t slice)
    {
        const core::TrackId track = t.trackOf(slice);
        if (!track.valid())
            return {};
        const TimeNs start = t.slices.start[slice];
        const TimeNs end = t.slices.end(slice);
        std::optional<std::uint32_t> best;
        t.forEachSliceInRange(track, start, end, [&](std::uint32_t a) {
            if (a == slice || t.sliceCategory(a) != kGpuAnnotation)
                return;
            if (!(t.slices.start[a] < end && start < t.slices.end(a)))
                return;
            if (!best || t.slices.duration(a) < t.slices.duration(*best)
                || (t.slices.duration(a) == t.slices.duration(*best)
                    && t.slices.start[a] > t.slices.start[*best]))
                best = a;
        });
        return best ? SliceRef { rank, *best } : SliceRef {};
    }

    // §19: the rank's ranges and kernel launches, each in time order (file order among
    // equal starts), paired by position; none when their counts differ.
    SliceRef launchOfRange(const core::RankTrace& t, int rank, std::uint32_t range)
    {
        std::vector<std::uint32_t> ranges;
        std::vector<std::uint32_t> launches;
        for (std::uint32_t s = 0; s < t.slices.size(); ++s) {
            const std::string_view category = t.sliceCategory(s);
            if (category == kCounterRange)
                ranges.push_back(s);
            else if (startsWith(category, "cuda_runtime") && startsWith(t.sliceName(s), "cudaLaunchKernel"))
                launches.push_back(s);
        }
        if (ranges.size() != launches.size())
            return {};
        const auto inTimeOrder = [&t](std::uint32_t a, std::uint32_t b) {
            return std::tie(t.slices.start[a], t.slices.eventIndex[a])
                < std::tie(t.slices.start[b], t.slices.eventIndex[b]);
        };
        std::sort(ranges.begin(), ranges.end(), inTimeOrder);
        std::sort(launches.begin(), launches.end(), inTimeOrder);
        const auto at = std::find(ranges.begin(), ranges.end(), range);
        if (at == ranges.end())
            return {};
        return { rank, launches[static_cast<std::size_t>(at - ranges.begin())] };
    }

} // namespace

bool hasUserAnnotations(const core::RankTrace& trace)
{
    return trace.counts.byCategory.count(kGpuAnnotation) > 0
        || trace.counts.byCategory.count(kCpuAnnotation) > 0;
}

KernelContext kernelContext(const TimelineData& data, SliceRef ref)
{
    KernelContext context;
    if (!ref.valid() || ref.rank >= data.rankCount() || ref.slice >= data.trace(ref.rank).slices.size())
        return context;
    const core::RankTrace& t = data.trace(ref.rank);
    const std::string_view category = t.sliceCategory(ref.slice);
    const core::TrackId track = t.trackOf(ref.slice);
    context.counterRange = category == kCounterRange;
    const bool onStream = track.valid() && t.tracks[track.value].kind == core::TrackKind::GpuStream;
    context.gpuWork = context.counterRange || (onStream && category != kGpuAnnotation);
    if (!context.gpuWork)
        return context;
    context.gpuAnnotation = innermostGpuAnnotation(t, ref.rank, ref.slice);
    context.launch = linkedSlice(data, ref, false);
    if (!context.launch.valid() && context.counterRange)
        context.launch = launchOfRange(t, ref.rank, ref.slice);
    if (!context.launch.valid())
        return context;
    const std::vector<std::uint32_t> parents = parentSlices(t, context.launch.slice);
    for (auto it = parents.rbegin(); it != parents.rend(); ++it) {
        if (t.sliceCategory(*it) == kCpuAnnotation) {
            context.cpuAnnotation = { ref.rank, *it };
            break;
        }
    }
    for (const std::uint32_t p : parents)
        if (t.sliceCategory(p) == "cpu_op")
            context.opStack.emplace_back(t.sliceName(p));
    return context;
}

} // namespace ks::widgets
