#include "core/analysis/hta/counter_series.h"

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/frame/kernel_type.h"
#include "core/analysis/frame/launch_api.h"
#include "core/analysis/kernels/kernel_occupancy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>
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

namespace {

    // A kernel's start (+) or end (-) on one stream; `efficiency` is NaN for a kernel
    // without "blocks per SM".
    struct KernelEdge
    {
        TimeNs ts = 0;
        int sign = 0;
        double efficiency = 0;
    };

    // The sweep over one stream's kernel edges: one point per distinct time.
    void sweepEfficiency(std::vector<KernelEdge>& edges, StepSeries& out)
    {
        std::stable_sort(
            edges.begin(), edges.end(), [](const KernelEdge& a, const KernelEdge& b) { return a.ts < b.ts; });
        double sum = 0; // blocks per SM of the running kernels that carry it
        int known = 0; // how many of them run
        int unknown = 0; // running kernels without it
        for (std::size_t i = 0; i < edges.size(); ++i) {
            const KernelEdge& e = edges[i];
            if (std::isnan(e.efficiency)) {
                unknown += e.sign;
            } else {
                known += e.sign;
                sum += e.sign * e.efficiency;
            }
            if (i + 1 < edges.size() && edges[i + 1].ts == e.ts)
                continue; // all edges at one time apply together
            // Exactly 0 when none runs, whatever the float sum left behind.
            const double value = known > 0 ? 100.0 * std::min(sum, 1.0)
                : unknown > 0              ? std::numeric_limits<double>::quiet_NaN()
                                           : 0.0;
            const bool same = !out.value.empty()
                && (out.value.back() == value || (std::isnan(out.value.back()) && std::isnan(value)));
            if (same)
                continue;
            out.ts.push_back(e.ts);
            out.value.push_back(value);
        }
    }

} // namespace

SmEfficiencySeries smEfficiencySeries(const RankTrace& t)
{
    struct Kernel
    {
        std::uint32_t slice;
        std::int64_t stream;
        std::int64_t device;
    };

    std::vector<Kernel> kernels;
    std::vector<std::uint32_t> slices;
    for (const Track& track : t.tracks) {
        if (track.kind != TrackKind::GpuStream)
            continue;
        for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i)
            if (isKernelCategory(t.sliceCategory(i))) {
                kernels.push_back({ i, t.stream(i), track.device });
                slices.push_back(i);
            }
    }
    auto read = readKernelOccupancy(t, std::move(slices));
    if (!read)
        return {};
    std::unordered_map<std::uint32_t, double> efficiencyOf;
    for (const KernelOccupancy& k : read.value())
        if (const auto efficiency = k.smEfficiency())
            efficiencyOf.emplace(k.slice, *efficiency);
    if (efficiencyOf.empty())
        return {};
    // A stream's edges, and which streams carry the arg at all (the only ones drawn).
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<KernelEdge>> byStream; // (device, stream)
    std::map<std::pair<std::int64_t, std::int64_t>, bool> carries;
    for (const Kernel& k : kernels) {
        const auto it = efficiencyOf.find(k.slice);
        const double efficiency =
            it == efficiencyOf.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
        auto& edges = byStream[{ k.device, k.stream }];
        edges.push_back({ t.slices.start[k.slice], +1, efficiency });
        edges.push_back({ t.slices.end(k.slice), -1, efficiency });
        carries[{ k.device, k.stream }] = carries[{ k.device, k.stream }] || it != efficiencyOf.end();
    }
    SmEfficiencySeries out;
    std::map<std::int64_t, std::vector<KernelEdge>> byDevice;
    std::map<std::int64_t, int> streamsOfDevice;
    for (auto& [key, edges] : byStream) {
        if (!carries[key])
            continue;
        auto& device = byDevice[key.first];
        device.insert(device.end(), edges.begin(), edges.end());
        ++streamsOfDevice[key.first];
        StepSeries& s = out.perStream.emplace_back();
        s.name = std::to_string(key.second);
        s.stream = key.second;
        sweepEfficiency(edges, s);
    }
    std::stable_sort(out.perStream.begin(), out.perStream.end(),
        [](const StepSeries& a, const StepSeries& b) { return a.stream < b.stream; });
    for (auto& [device, edges] : byDevice) {
        if (streamsOfDevice[device] < 2)
            continue; // the same as its one stream's
        StepSeries& s = out.perDevice.emplace_back();
        s.name = std::to_string(device);
        sweepEfficiency(edges, s);
    }
    return out;
}

} // namespace ks::core
