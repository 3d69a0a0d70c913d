#include "core/analysis/memory/memory_report.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace ks::core {

namespace {

    // The frames of a thread enclosing `ts` ([start, end)), outermost first.
    std::vector<std::uint32_t> stackAt(const RankTrace& trace, const ThreadKey& thread, TimeNs ts)
    {
        std::vector<std::uint32_t> slices;
        for (std::uint32_t t = 0; t < trace.tracks.size(); ++t) {
            const Track& track = trace.tracks[t];
            if (track.kind != TrackKind::CpuThread || !(track.key == thread))
                continue;
            trace.forEachSliceInRange(TrackId { t }, ts, ts, [&](std::uint32_t s) {
                if (trace.slices.start[s] <= ts && ts < trace.slices.end(s))
                    slices.push_back(s);
            });
        }
        std::sort(slices.begin(), slices.end(), [&](std::uint32_t a, std::uint32_t b) {
            if (trace.slices.start[a] != trace.slices.start[b])
                return trace.slices.start[a] < trace.slices.start[b];
            return trace.slices.end(a) > trace.slices.end(b);
        });
        return slices;
    }

    std::string innermostOp(const RankTrace& trace, const std::vector<std::uint32_t>& stack)
    {
        for (auto it = stack.rbegin(); it != stack.rend(); ++it)
            if (trace.sliceCategory(*it) == "cpu_op" || trace.sliceCategory(*it) == "operator")
                return std::string(trace.sliceName(*it));
        return {};
    }

    std::optional<std::int64_t> capacityOf(const RankTrace& trace, MemoryDevice device)
    {
        if (device.type == kDeviceTypeCpu)
            return std::nullopt;
        for (const DeviceProperties& p : trace.metadata.devices)
            if (p.id == device.id && p.totalGlobalMem > 0)
                return p.totalGlobalMem;
        return std::nullopt;
    }

    struct Step
    {
        std::int64_t number = 0;
        TimeNs start = 0;
        TimeNs end = 0;
    };

    // ProfilerStep#N on the CPU (one per N: the outermost).
    std::vector<Step> profilerSteps(const RankTrace& trace)
    {
        std::map<std::int64_t, Step> byNumber;
        for (const Track& track : trace.tracks) {
            if (track.kind != TrackKind::CpuThread)
                continue;
            for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s) {
                const std::string_view name = trace.sliceName(s);
                if (name.substr(0, 13) != "ProfilerStep#")
                    continue;
                std::int64_t n = 0;
                const auto digits = name.substr(13);
                if (std::from_chars(digits.data(), digits.data() + digits.size(), n).ec != std::errc())
                    continue;
                auto [it, added] =
                    byNumber.try_emplace(n, Step { n, trace.slices.start[s], trace.slices.end(s) });
                if (!added && trace.slices.end(s) - trace.slices.start[s] > it->second.end - it->second.start)
                    it->second = Step { n, trace.slices.start[s], trace.slices.end(s) };
            }
        }
        std::vector<Step> steps;
        for (const auto& [n, step] : byNumber)
            steps.push_back(step);
        return steps;
    }

    std::optional<MemoryRange> rangeOf(const RankTrace& trace, const MemoryOptions& options, std::string& why)
    {
        if (options.iterations.empty())
            return options.range;
        std::optional<MemoryRange> range;
        for (const Step& step : profilerSteps(trace))
            if (std::find(options.iterations.begin(), options.iterations.end(), step.number)
                != options.iterations.end()) {
                if (!range)
                    range = MemoryRange { step.start, step.end };
                range->start = std::min(range->start, step.start);
                range->end = std::max(range->end, step.end);
            }
        if (!range)
            why = "none of the iterations asked for is a ProfilerStep of this rank";
        if (range && options.range) {
            range->start = std::max(range->start, options.range->start);
            range->end = std::min(range->end, options.range->end);
        }
        return range;
    }

    void summarise(const RankTrace& trace, RankMemory& out, const AllocationPairing& pairing)
    {
        const MemoryRecords& records = out.recordSet;
        for (const DeviceCurve& curve : out.curves) {
            DeviceMemorySummary d;
            d.device = curve.name;
            d.id = curve.device;
            d.summedFromBytes = curve.summedFromBytes;
            d.capacity = capacityOf(trace, curve.device);
            d.peakReserved = curve.peakReserved;
            if (curve.peak) {
                const MemoryCurvePoint& p = curve.points[*curve.peak];
                d.peakAllocated = p.allocated;
                d.peakTime = p.ts;
                const auto stack = stackAt(trace, records.records[p.record].thread, p.ts);
                for (std::uint32_t s : stack)
                    d.peakStack.emplace_back(trace.sliceName(s));
                d.peakOp = innermostOp(trace, stack);
            }
            if (!curve.points.empty()) {
                d.allocatedAtEnd = curve.points.back().allocated;
                const MemoryCurvePoint& first = curve.points.front();
                d.allocatedBeforeTrace =
                    curve.summedFromBytes ? 0 : first.allocated - records.records[first.record].bytes;
            }
            if (curve.peakOverhead) {
                const MemoryCurvePoint& p = curve.points[*curve.peakOverhead];
                d.maxCacheOverhead = p.reserved - p.allocated;
                d.maxCacheOverheadTime = p.ts;
                d.meanCacheOverhead = curve.meanOverhead;
            }
            for (const MemoryRecord& r : records.records)
                if (r.device == curve.device) {
                    if (r.isAllocation()) {
                        ++d.allocations;
                        d.allocatedBytes += r.bytes;
                    } else {
                        ++d.frees;
                    }
                }
            for (const AllocationRow& row : pairing.rows) {
                if (row.device != d.device)
                    continue;
                if (row.kind == AllocationKind::FreedOnly) {
                    ++d.freedBeforeTraceCount;
                    d.freedBeforeTraceBytes += row.size;
                } else if (row.kind == AllocationKind::NeverFreed) {
                    ++d.liveAtEndCount;
                    d.liveAtEndBytes += row.size;
                }
            }
            out.devices.push_back(std::move(d));
        }
    }

    void addSteps(const RankTrace& trace, RankMemory& out)
    {
        const std::vector<Step> steps = profilerSteps(trace);
        for (const DeviceCurve& curve : out.curves)
            for (const Step& step : steps) {
                StepMemory s;
                s.device = curve.name;
                s.step = step.number;
                s.start = step.start;
                s.end = step.end;
                s.allocatedAtStart = allocatedAt(curve, out.recordSet, step.start);
                s.allocatedAtEnd = allocatedAt(curve, out.recordSet, step.end);
                s.peakAllocated = s.allocatedAtStart;
                for (const MemoryCurvePoint& p : curve.points)
                    if (p.ts >= step.start && p.ts <= step.end)
                        s.peakAllocated = std::max(s.peakAllocated, p.allocated);
                out.steps.push_back(s);
            }
    }

    void addOutOfMemory(const RankTrace& trace, const MemoryOptions& options, RankMemory& out)
    {
        auto ooms = outOfMemoryRecords(trace);
        if (!ooms) {
            out.diagnostics.push_back("[OutOfMemory] events not read: " + ooms.error().message);
            return;
        }
        for (const OutOfMemoryRecord& r : ooms.value()) {
            OutOfMemoryRow row;
            row.device = memoryDeviceName(r.device, options.tbCompat)
                             .value_or("device type " + std::to_string(r.device.type));
            row.ts = r.ts;
            row.requested = r.bytes;
            row.totalAllocated = r.totalAllocated;
            row.totalReserved = r.totalReserved;
            row.capacity = capacityOf(trace, r.device);
            row.op = innermostOp(trace, stackAt(trace, r.thread, r.ts));
            out.outOfMemory.push_back(row);
        }
    }

    void addDiagnostics(const RankTrace& trace, const MemoryOptions& options,
        const AllocationPairing& pairing, std::size_t droppedOverlaps, RankMemory& out)
    {
        const MemoryRecords& r = out.recordSet;
        if (!r.anyAddr)
            out.diagnostics.push_back("no \"Addr\" in the [memory] events (PyTorch before 1.10): allocations "
                                      "cannot be paired with their frees");
        if (!r.anyTotals)
            out.diagnostics.push_back(options.tbCompat
                    ? "no \"Total Allocated\"/\"Total Reserved\" in the [memory] events: the plugin draws no "
                      "curve"
                    : "no \"Total Allocated\" in the [memory] events: the curve is the running sum of "
                      "\"Bytes\" "
                      "from the trace's start, without what was allocated before it");
        if (!r.anyCategory)
            out.diagnostics.push_back(
                "the [memory] events have no \"cat\" (PyTorch 1.8/1.9): HTA's memory analysis drops them");
        const bool hip = std::any_of(
            r.devices.begin(), r.devices.end(), [](MemoryDevice d) { return d.type == kDeviceTypeHip; });
        if (hip)
            out.diagnostics.push_back(options.tbCompat
                    ? "Device Type 6 (HIP) is not a device the plugin knows: its records count in no table, "
                      "and the "
                      "plugin's curve and events fail on them (shown without them here)"
                    : "Device Type 6 (HIP) is counted as a GPU (GPU<id>), as key_averages counts it as CUDA");
        if (pairing.sizeMismatches > 0)
            out.diagnostics.push_back(std::to_string(pairing.sizeMismatches)
                + " frees released a different size than their allocation");
        if (droppedOverlaps > 0)
            out.diagnostics.push_back(std::to_string(droppedOverlaps)
                + " operators overlap their parent without nesting and are left out of the operator tree, as "
                  "the "
                  "plugin leaves them out");
        (void)trace;
    }

    RankMemory rankMemoryOf(
        const RankTrace& trace, const MemoryOptions& options, std::optional<std::int64_t> jobBaseUs)
    {
        RankMemory out;
        out.rank = trace.rank;
        out.path = trace.path;
        out.timeBase = memoryTimeBase(trace);
        auto records = memoryRecords(trace);
        if (!records) {
            out.error = records.error().message;
            return out;
        }
        out.recordSet = std::move(records).value();
        out.records = out.recordSet.records.size();
        std::string rangeWhy;
        const std::optional<MemoryRange> range = rangeOf(trace, options, rangeWhy);
        if (!rangeWhy.empty()) {
            out.diagnostics.push_back(rangeWhy);
            return out;
        }
        if (options.htaCategories) {
            out.categories = memoryCategories(trace, out.recordSet, jobBaseUs);
            if (range)
                restrictCategoriesToRange(out.categories, *range);
        }
        const auto trees = operatorTrees(trace);
        std::size_t dropped = 0;
        for (const auto& [tid, tree] : trees)
            dropped += tree.droppedOverlaps;
        const MemoryAttribution attribution = attributeRecords(out.recordSet, trees, options.tbCompat);
        out.attributed = attribution.attributed;
        out.stats = operatorMemoryStats(out.recordSet, trees, attribution, options.tbCompat, range);
        AllocationPairing pairing = pairAllocations(out.recordSet, attribution, options.tbCompat, range);
        out.curves = memoryCurves(out.recordSet, options.tbCompat);
        if (range)
            for (DeviceCurve& curve : out.curves) {
                std::erase_if(curve.points,
                    [&](const MemoryCurvePoint& p) { return p.ts < range->start || p.ts > range->end; });
                curve.peak.reset();
                curve.peakOverhead.reset();
                curve.peakReserved = -1;
                for (std::size_t k = 0; k < curve.points.size(); ++k) {
                    const MemoryCurvePoint& p = curve.points[k];
                    if (!curve.peak || p.allocated > curve.points[*curve.peak].allocated)
                        curve.peak = k;
                    curve.peakReserved = std::max(curve.peakReserved, p.reserved);
                    if (p.reserved >= 0 && curve.device.type != kDeviceTypeCpu
                        && (!curve.peakOverhead
                            || p.reserved - p.allocated > curve.points[*curve.peakOverhead].reserved
                                    - curve.points[*curve.peakOverhead].allocated))
                        curve.peakOverhead = k;
                }
            }
        summarise(trace, out, pairing);
        addSteps(trace, out);
        addOutOfMemory(trace, options, out);
        addDiagnostics(trace, options, pairing, dropped, out);
        out.allocations = std::move(pairing.rows);
        return out;
    }

} // namespace

RankMemory rankMemory(const RankTrace& trace, const MemoryOptions& options)
{
    return rankMemoryOf(trace, options, std::nullopt);
}

bool MemoryReport::anyRecords() const
{
    return std::any_of(ranks.begin(), ranks.end(), [](const RankMemory& r) { return r.records > 0; });
}

MemoryReport memoryReport(const TraceSet& traces, const MemoryOptions& options, const CancelToken* cancel)
{
    MemoryReport report;
    report.tbCompat = options.tbCompat;
    // HTA's min_ts: the earliest kept event of every rank it loaded (HTA.2).
    std::optional<std::int64_t> jobBaseUs;
    if (options.htaTimeBase && options.htaCategories)
        for (const auto& trace : traces.ranks)
            if (const auto start = htaRankStartUs(*trace))
                jobBaseUs = std::min(jobBaseUs.value_or(*start), *start);
    for (const auto& trace : traces.ranks) {
        if (cancel && cancel->isCancelled())
            break;
        if (!options.ranks.empty()
            && std::find(options.ranks.begin(), options.ranks.end(), trace->rank) == options.ranks.end())
            continue;
        report.ranks.push_back(rankMemoryOf(*trace, options, jobBaseUs));
    }
    return report;
}

} // namespace ks::core
