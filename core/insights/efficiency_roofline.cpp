#include "core/insights/efficiency_roofline.h"

#include "core/insights/finding.h"

#include <algorithm>
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

    // The names of the GPU work launched from inside a call (its subtree on its thread),
    // by correlation id as the efficiency analysis joins them, else by launch links.
    void kernelsOf(
        const RankTrace& trace, const GpuByCorrelation& gpu, std::uint32_t call, std::set<std::string>& names)
    {
        const TimeNs start = trace.slices.start[call];
        const TimeNs end = trace.slices.end(call);
        const std::uint32_t level = trace.levelOf(call);
        trace.forEachSliceInRange(trace.trackOf(call), start, end, [&](std::uint32_t s) {
            if (trace.levelOf(s) <= level || trace.slices.start[s] < start)
                return;
            if (const std::int64_t c = trace.correlation(s); c > 0)
                if (const auto it = gpu.find(c); it != gpu.end())
                    for (const std::uint32_t g : it->second)
                        names.emplace(trace.sliceName(g));
            for (const std::uint32_t link : trace.linksFrom(s))
                names.emplace(trace.sliceName(trace.links.to[link]));
        });
    }

} // namespace

std::vector<OpFamilyRoofline> rooflineByFamily(const TraceSet& set, const EfficiencyReport& report)
{
    struct Acc
    {
        OpFamilyRoofline result;
        std::set<std::string> kernels;
        std::vector<std::pair<TimeNs, std::int64_t>> calls; // kernel time, event
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
            acc.calls.emplace_back(call.kernelTime, trace.slices.eventIndex[call.slice]);
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
        std::string pattern = "^(";
        bool first = true;
        for (const std::string& k : acc.kernels) {
            pattern += (first ? "" : "|") + escaped(k);
            first = false;
        }
        acc.result.namePattern = pattern + ")$";
        std::sort(acc.calls.begin(), acc.calls.end(), std::greater<>());
        for (std::size_t i = 0; i < std::min<std::size_t>(acc.calls.size(), kMaxWherePerRank); ++i)
            acc.result.events.push_back(acc.calls[i].second);
        out.push_back(std::move(acc.result));
    }
    return out;
}

std::vector<OpFamilyRoofline> rooflineOfTraces(const TraceSet& set)
{
    const DeviceChoice device = chooseDevice(set, std::nullopt, std::nullopt);
    if (!device.peaks)
        return {};
    EfficiencyOptions options;
    options.device = device.peaks;
    const EfficiencyReport report = efficiencyReport(set, options);
    if (report.error || !report.shapesRecorded)
        return {};
    return rooflineByFamily(set, report);
}

} // namespace ks::core
