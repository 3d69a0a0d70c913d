#include "core/insights/efficiency_roofline.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

namespace ks::core {

namespace {

    // A name as a regular expression matching only itself.
    std::string escaped(std::string_view name)
    {
        std::string out;
        for (const char c : name) {
            if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos)
                out += '\\';
            out += c;
        }
        return out;
    }

    // GPU work by correlation id, per rank: the runtime call and its kernels share it.
    using GpuByCorrelation = std::unordered_map<std::int64_t, std::vector<std::uint32_t>>;

    GpuByCorrelation gpuByCorrelation(const RankTrace& trace)
    {
        GpuByCorrelation out;
        for (const Track& track : trace.tracks)
            if (track.kind == TrackKind::GpuStream)
                for (std::uint32_t g = track.sliceBegin; g < track.sliceEnd; ++g)
                    if (const std::int64_t c = trace.correlation(g); c > 0)
                        out[c].push_back(g);
        return out;
    }

    // The GPU work launched from inside a call (its subtree on its thread), by
    // correlation id as the efficiency analysis joins them, else by launch links.
    void kernelsOf(const RankTrace& trace, const GpuByCorrelation& gpu, std::uint32_t call,
        std::set<std::uint32_t>& kernels)
    {
        const TimeNs start = trace.slices.start[call];
        const TimeNs end = trace.slices.end(call);
        const std::uint32_t level = trace.levelOf(call);
        trace.forEachSliceInRange(trace.trackOf(call), start, end, [&](std::uint32_t s) {
            if (trace.levelOf(s) <= level || trace.slices.start[s] < start)
                return;
            if (const std::int64_t c = trace.correlation(s); c > 0)
                if (const auto it = gpu.find(c); it != gpu.end())
                    kernels.insert(it->second.begin(), it->second.end());
            for (const std::uint32_t link : trace.linksFrom(s))
                kernels.insert(trace.links.to[link]);
        });
    }

    std::string heaviestNamesPattern(const RankTrace& trace, const std::set<std::uint32_t>& kernels)
    {
        std::map<std::string_view, TimeNs> timeByName;
        for (const std::uint32_t k : kernels)
            timeByName[trace.sliceName(k)] += trace.slices.duration(k);
        return whatIfNamesPattern(timeByName);
    }

    // The family's slowest kernels, as events and time ranges.
    RankWhere slowestKernels(const RankTrace& trace, const std::set<std::uint32_t>& kernels)
    {
        std::vector<std::uint32_t> slowest(kernels.begin(), kernels.end());
        std::stable_sort(slowest.begin(), slowest.end(), [&trace](std::uint32_t a, std::uint32_t b) {
            return trace.slices.duration(a) > trace.slices.duration(b);
        });
        slowest.resize(std::min(slowest.size(), kMaxWherePerRank));
        RankWhere where;
        where.rank = trace.rank;
        for (const std::uint32_t k : slowest) {
            where.events.push_back(trace.slices.eventIndex[k]);
            where.ranges.push_back({ trace.slices.start[k], trace.slices.end(k) });
        }
        return where;
    }

    // The rank's rows' span on the trace's clock: the window the frames were cut to.
    std::optional<std::pair<TimeNs, TimeNs>> rowsSpan(const FrameSet& frames, const RankFrame& frame)
    {
        if (frame.rows.empty())
            return std::nullopt;
        TimeNs first = std::numeric_limits<TimeNs>::max();
        TimeNs last = std::numeric_limits<TimeNs>::min();
        for (const FrameRow& row : frame.rows) {
            first = std::min(first, row.ts);
            last = std::max(last, row.ts);
        }
        return std::make_pair(first + frames.minTs, last + frames.minTs + 1);
    }

} // namespace

std::string whatIfNamesPattern(const std::map<std::string_view, TimeNs>& timeByName)
{
    std::vector<std::pair<TimeNs, std::string_view>> byTime;
    for (const auto& [name, time] : timeByName)
        byTime.emplace_back(time, name);
    // Heaviest first; equal times by name, so the pattern does not depend on the order met.
    std::sort(byTime.begin(), byTime.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    byTime.resize(std::min(byTime.size(), kMaxWhatIfKernelNames));
    std::vector<std::string_view> names;
    for (const auto& entry : byTime)
        names.push_back(entry.second);
    std::sort(names.begin(), names.end());
    std::string pattern = "^(";
    for (std::size_t i = 0; i < names.size(); ++i)
        pattern += (i ? "|" : "") + escaped(names[i]);
    return pattern + ")$";
}

std::vector<OpFamilyRoofline> rooflineByFamily(const TraceSet& set, const EfficiencyReport& report)
{
    struct Acc
    {
        OpFamilyRoofline result;
        std::set<std::uint32_t> kernels; // GPU slices the family's calls launched
    };

    std::map<std::pair<std::uint32_t, OpFamily>, Acc> byRankFamily;
    std::map<std::uint32_t, GpuByCorrelation> gpu; // by rank index, built when first needed
    for (const EfficiencyRow& row : report.rows) {
        if (!row.modelled || row.rooflineTimeUs <= 0)
            continue;
        for (const EfficiencyCall& call : row.callList) {
            if (call.rankIndex >= set.ranks.size() || call.kernelTime <= 0)
                continue;
            const RankTrace& trace = *set.ranks[call.rankIndex];
            Acc& acc = byRankFamily[{ call.rankIndex, row.family }];
            acc.result.rank = trace.rank;
            acc.result.family = std::string(opFamilyName(row.family));
            acc.result.measuredNs += call.kernelTime;
            acc.result.rooflineNs += static_cast<TimeNs>(row.rooflineTimeUs * 1000.0);
            auto [it, fresh] = gpu.try_emplace(call.rankIndex);
            if (fresh)
                it->second = gpuByCorrelation(trace);
            kernelsOf(trace, it->second, call.slice, acc.kernels);
        }
    }
    std::vector<OpFamilyRoofline> out;
    for (auto& [key, acc] : byRankFamily) {
        if (acc.kernels.empty())
            continue;
        const RankTrace& trace = *set.ranks[key.first];
        acc.result.namePattern = heaviestNamesPattern(trace, acc.kernels);
        acc.result.where = slowestKernels(trace, acc.kernels);
        out.push_back(std::move(acc.result));
    }
    return out;
}

FamilyRooflines rooflineOfFrames(const FrameSet& frames,
    const std::optional<std::vector<std::int64_t>>& iterations, const RooflineDevice& device)
{
    FamilyRooflines out;
    bool anyShapes = false;
    std::optional<std::string> unknownDevice;
    for (const RankFrame& frame : frames.ranks) {
        TraceSet set;
        set.ranks.push_back(frame.trace);
        const DeviceChoice choice = chooseDevice(set, device.name, device.peaksFile);
        EfficiencyOptions options;
        options.device = choice.peaks;
        if (iterations)
            options.iterations = *iterations;
        if (const auto span = rowsSpan(frames, frame)) {
            options.windowStart = span->first;
            options.windowEnd = span->second;
        }
        const EfficiencyReport report = efficiencyReport(set, options);
        if (report.error) {
            out.notApplicable = report.error->message;
            return out;
        }
        if (!report.shapesRecorded)
            continue;
        anyShapes = true;
        if (!choice.peaks) {
            unknownDevice = choice.note;
            continue;
        }
        for (OpFamilyRoofline& family : rooflineByFamily(set, report))
            out.families.push_back(std::move(family));
    }
    if (!out.families.empty())
        return out;
    if (!anyShapes)
        out.notApplicable = "no input shapes recorded: profile with record_shapes=True";
    else if (unknownDevice)
        out.notApplicable = *unknownDevice; // names the device and says to give --device or --peaks
    else
        out.notApplicable = "no call of a modelled op (GEMM, attention, convolution, ...) launched GPU work";
    return out;
}

} // namespace ks::core
