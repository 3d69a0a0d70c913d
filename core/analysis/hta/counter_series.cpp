#include "core/analysis/hta/counter_series.h"

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/frame/kernel_type.h"
#include "core/analysis/frame/launch_api.h"

#include <algorithm>
#include <map>
#include <unordered_set>

namespace ks::core {

namespace {

    struct Step
    {
        TimeNs ts = 0;
        double delta = 0;
    };

    // Device activity by category index: one string test per category, not per slice.
    std::vector<bool> deviceCategories(const RankTrace& trace)
    {
        std::vector<bool> device(trace.categories.size());
        for (std::size_t c = 0; c < trace.categories.size(); ++c)
            device[c] = isDeviceActivityCategory(trace.name(trace.categories[c]));
        return device;
    }

    // Sorted by time with decrements first at equal times (stable otherwise),
    // then summed: the analyses' default-mode order.
    void accumulate(std::vector<Step>& steps, StepSeries& out)
    {
        std::stable_sort(steps.begin(), steps.end(),
            [](const Step& a, const Step& b) { return a.ts != b.ts ? a.ts < b.ts : a.delta < b.delta; });
        double running = 0;
        out.ts.reserve(steps.size());
        out.value.reserve(steps.size());
        for (const Step& s : steps) {
            running += s.delta;
            out.ts.push_back(s.ts);
            out.value.push_back(running);
        }
    }

    // The frame's GPU side of a correlation (hta_frame.cpp linkCorrelations):
    // a row with a stream and a correlation, or a sync by name. Only whether
    // one exists matters here, so the stream test is enough for launches' partners.
    bool gpuSide(const RankTrace& t, std::uint32_t slice)
    {
        return t.stream(slice) >= 0 && t.correlation(slice) >= 0;
    }

} // namespace

std::vector<StepSeries> queueLengthSeries(const RankTrace& t)
{
    // The timeline's series: every launch API, graph launches included (one step per kernel).
    const LaunchNames launches(t.strings, AnalysisMode::Default, HtaLaunchList::StreamLaunches);
    std::vector<StepSeries> out;
    if (!launches.any())
        return out;
    const std::vector<bool> device = deviceCategories(t);
    // GPU work by correlation; correlations that have a GPU-side row at all.
    std::unordered_multimap<std::int64_t, std::uint32_t> gpuByCorrelation;
    std::unordered_set<std::int64_t> gpuSideCorrelations;
    for (const Track& track : t.tracks) {
        for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const std::int64_t c = t.correlation(i);
            if (c < 0)
                continue;
            if (device[t.slices.category[i]])
                gpuByCorrelation.emplace(c, i);
            if (gpuSide(t, i))
                gpuSideCorrelations.insert(c);
        }
    }
    std::map<std::int64_t, std::vector<Step>> byStream;
    std::unordered_set<std::int64_t> launched;
    for (const Track& track : t.tracks) {
        if (track.kind == TrackKind::GpuStream)
            continue;
        for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            if (launches.kindOf(t.slices.name[i]) == LaunchKind::None)
                continue;
            const std::int64_t c = t.correlation(i);
            // A launch counts when its correlation has a GPU-side partner (HTA's index_correlation > 0).
            if (c <= 0 || !gpuSideCorrelations.count(c))
                continue;
            launched.insert(c);
            const auto [first, last] = gpuByCorrelation.equal_range(c);
            for (auto it = first; it != last; ++it)
                byStream[t.stream(it->second)].push_back({ t.slices.start[i], +1.0 });
        }
    }
    for (const auto& [c, gpu] : gpuByCorrelation)
        if (launched.count(c))
            byStream[t.stream(gpu)].push_back({ t.slices.start[gpu], -1.0 });
    for (auto& [stream, steps] : byStream) {
        StepSeries& s = out.emplace_back();
        s.name = std::to_string(stream);
        s.stream = stream;
        accumulate(steps, s);
    }
    return out;
}

std::vector<StepSeries> memoryBandwidthSeries(const RankTrace& t)
{
    const std::vector<bool> device = deviceCategories(t);
    std::map<std::string, std::vector<Step>> byKind;
    for (const Track& track : t.tracks) {
        for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            if (!device[t.slices.category[i]]
                || classifyKernelDefault(t.sliceCategory(i), t.sliceName(i)) != KernelType::Memory)
                continue;
            const std::uint32_t extra = t.extraRow(i);
            const double bw = extra == kNoRow ? 0.0 : t.extra.memoryBandwidthGBps[extra];
            // As the analysis: 0 ns copies last 1 µs, so the end never precedes the start.
            const TimeNs dur = t.slices.duration(i) == 0 ? 1000 : t.slices.duration(i);
            auto& steps = byKind[memoryKernelSubType(t.sliceName(i))];
            steps.push_back({ t.slices.start[i], bw });
            steps.push_back({ t.slices.start[i] + dur, -bw });
        }
    }
    std::vector<StepSeries> out;
    for (auto& [kind, steps] : byKind) {
        StepSeries& s = out.emplace_back();
        s.name = kind;
        accumulate(steps, s);
    }
    return out;
}

} // namespace ks::core
