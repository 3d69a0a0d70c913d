// Rules about the host and the device's memory: dataloader_stall,
// memory_pressure, and low_efficiency (fed by the efficiency analysis through
// efficiency_seam.h).

#include "core/analysis/frame/data_loading.h"
#include "core/analysis/memory/memory_report.h"
#include "core/insights/efficiency_roofline.h"
#include "core/insights/efficiency_seam.h"
#include "core/insights/rule_support.h"
#include "core/insights/rules_memory.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace ks::core {

namespace {

    // ---- dataloader_stall ----------------------------------------------------

    const RuleInfo kLoader { "dataloader_stall", "time in data loading on the critical path",
        { { "min_gain_pct", 1.0, "report when data loading holds at least this % of the critical path" } },
        "operators" };

    RuleOutcome dataloaderStall(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        if (!c.hasPath())
            return RuleOutcome::na("no critical path: " + c.path().error().message);
        std::vector<const FrameRow*> loads;
        std::vector<Interval> spans;
        for (const FrameRow& row : frame.rows)
            if (!row.device && isDataLoading(frame.name(row))) {
                loads.push_back(&row);
                spans.push_back({ row.ts, row.end() });
            }
        if (loads.empty())
            return RuleOutcome::none();
        const TimeNs onPath = c.pathTimeWithin(frame.rank, spans);
        // Workers load the next batches while the step computes: per step the
        // loading leaves the path up to the rest of the step's time on it (low end:
        // one worker overlaps one batch with one step), all of it with enough
        // workers (high end). Re-timed with the loading's time in each step scaled.
        std::vector<Interval> steps;
        for (const FrameRow& row : frame.rows)
            if (!row.device && frame.name(row).substr(0, 13) == "ProfilerStep#")
                steps.push_back({ row.ts, row.end() });
        steps = mergeIntervals(std::move(steps));
        std::map<std::size_t, std::vector<Interval>> loadsByStep; // step position (steps.size(): none)
        for (const Interval& span : mergeIntervals(spans)) {
            const auto it = std::upper_bound(steps.begin(), steps.end(), span.start,
                [](TimeNs t, const Interval& i) { return t < i.end; });
            const bool inStep = it != steps.end() && it->start <= span.start;
            loadsByStep[inStep ? static_cast<std::size_t>(it - steps.begin()) : steps.size()].push_back(span);
        }
        WhatIfRankEdits edits;
        edits.rank = frame.rank;
        TimeNs hidden = 0;
        for (const auto& [step, stepLoads] : loadsByStep) {
            const TimeNs load = c.pathTimeWithin(frame.rank, stepLoads);
            if (load <= 0)
                continue;
            const TimeNs whole =
                step < steps.size() ? c.pathTimeWithin(frame.rank, { steps[step] }) : c.measured();
            const TimeNs overlap = std::clamp<TimeNs>(whole - load, 0, load);
            hidden += overlap;
            const double keep = 1.0 - static_cast<double>(overlap) / static_cast<double>(load);
            for (const Interval& span : stepLoads)
                edits.windows.push_back({ span.start, span.end, PathBound::Cpu, keep });
        }
        std::sort(edits.windows.begin(), edits.windows.end(),
            [](const WhatIfRankEdits::Window& a, const WhatIfRankEdits::Window& b) {
                return a.start < b.start;
            });
        const std::vector<WhatIfRankEdits> fix { edits };
        const double gain = c.whatIfGainPct({}, fix).value_or(c.pctOfMeasured(hidden));
        const double high = std::max(gain, c.pctOfMeasured(onPath));
        if (high < p["min_gain_pct"])
            return RuleOutcome::none();
        Finding f = newFinding(kLoader, "the step waits for data loading", gain, { frame.rank });
        f.gainHighPct = high;
        f.evidence.push_back(std::to_string(loads.size()) + " data-loading spans ("
            + std::string(frame.name(*loads.front())) + ", ...), "
            + formatMs(totalLength(mergeIntervals(spans))) + " in all");
        f.evidence.push_back("on the critical path: " + formatMs(onPath));
        f.evidence.push_back("model: DataLoader workers load the next batch while the step computes, so "
                             "each step's loading leaves the path up to the rest of the step ("
            + formatMs(hidden) + " over " + std::to_string(loadsByStep.size())
            + " step(s), low end: one worker) or all of it (high end: enough workers): gain "
            + formatPct(gain) + " to " + formatPct(high));
        f.whatIfEdits = fix;
        f.suggestion =
            "Load ahead of the step: DataLoader(num_workers>0, pin_memory=True, prefetch_factor, "
            "persistent_workers=True); move decoding and augmentation off the training process or onto "
            "the GPU.";
        f.where.push_back(rowsWhere(c, frame.rank, loads));
        f.iterations = iterationsOf(loads);
        f.gainBasis = "what-if: data loading off the critical path up to the rest of each step, re-timed on "
                      "the critical path";
        return { { f }, std::nullopt };
    }

    // ---- memory_pressure -----------------------------------------------------

    const RuleInfo kMemory { "memory_pressure", "peak GPU memory near the device's memory; allocator churn",
        { { "peak_pct", 90, "report when the peak allocated memory reaches this % of the device's memory" },
            { "allocs_per_step", 5000, "or when a step makes this many allocations" } },
        "" };

    constexpr std::int32_t kCudaDevice = 1; // MemoryEventTable::deviceType
    constexpr std::int64_t kMiB = std::int64_t { 1024 } * 1024;

    // What the memory analysis says of a device near its memory: the op and the
    // frames at the peak, and what would still fit beside it.
    void peakEvidence(const RankMemory& memory, const std::string& device, std::int64_t capacity,
        std::vector<std::string>& evidence)
    {
        for (const DeviceMemorySummary& d : memory.devices) {
            if (d.device != device || d.peakStack.empty())
                continue;
            std::string stack;
            for (std::size_t i = d.peakStack.size() > 4 ? d.peakStack.size() - 4 : 0; i < d.peakStack.size();
                 ++i)
                stack += (stack.empty() ? "" : " > ") + d.peakStack[i];
            evidence.push_back("at the peak: " + (d.peakOp.empty() ? std::string("no CPU op") : d.peakOp)
                + " (" + stack + ")");
            const std::int64_t headroom = capacity - d.peakAllocated;
            char factor[32];
            std::snprintf(factor, sizeof factor, "%.2f",
                static_cast<double>(capacity)
                    / static_cast<double>(std::max<std::int64_t>(1, d.peakAllocated)));
            std::string line = "what would fit: " + std::to_string(headroom / kMiB)
                + " MiB more at the peak (a peak up to " + factor + " x this one)";
            if (d.peakReserved >= 0)
                line += "; the allocator had reserved " + std::to_string(d.peakReserved / kMiB) + " MiB";
            evidence.push_back(line);
        }
    }

    RuleOutcome memoryPressure(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        const RankTrace& trace = *frame.trace;
        const MemoryEventTable& m = trace.memory;
        std::map<std::int32_t, std::int64_t> peak; // device -> peak total allocated
        std::map<std::int32_t, std::size_t> peakEvent;
        std::size_t allocations = 0;
        for (std::size_t i = 0; i < m.size(); ++i) {
            if (m.deviceType[i] != kCudaDevice)
                continue;
            if (m.bytes[static_cast<std::uint32_t>(i)] > 0)
                ++allocations;
            if (m.totalAllocated[i] > peak[m.deviceId[i]]) {
                peak[m.deviceId[i]] = m.totalAllocated[i];
                peakEvent[m.deviceId[i]] = i;
            }
        }
        if (peak.empty())
            return RuleOutcome::na("no GPU [memory] events (profile with profile_memory=True)");
        const std::size_t steps = std::max<std::size_t>(1, c.frames().iterations.size());
        const double perStep = static_cast<double>(allocations) / static_cast<double>(steps);
        std::vector<std::string> evidence;
        RankWhere where;
        where.rank = frame.rank;
        Severity severity = Severity::Info;
        bool near = false;
        bool knownSize = false;
        for (const auto& [device, bytes] : peak) {
            const auto props = std::find_if(trace.metadata.devices.begin(), trace.metadata.devices.end(),
                [device = device](const DeviceProperties& d) { return d.id == device; });
            if (props == trace.metadata.devices.end() || props->totalGlobalMem <= 0)
                continue;
            knownSize = true;
            const double pct =
                100.0 * static_cast<double>(bytes) / static_cast<double>(props->totalGlobalMem);
            evidence.push_back("GPU " + std::to_string(device) + ": peak allocated "
                + std::to_string(bytes / kMiB) + " MiB of " + std::to_string(props->totalGlobalMem / kMiB)
                + " MiB (" + formatPct(pct) + ")");
            if (pct >= p["peak_pct"]) {
                peakEvidence(
                    memoryOfRank(c), "GPU" + std::to_string(device), props->totalGlobalMem, evidence);
                near = true;
                severity = pct >= 97 ? Severity::Critical : Severity::Warning;
                where.events.push_back(m.eventIndex[peakEvent[device]]);
                where.ranges.push_back({ m.ts[peakEvent[device]], m.ts[peakEvent[device]] });
            }
        }
        const bool churn = perStep >= p["allocs_per_step"];
        if (!knownSize && !churn)
            return RuleOutcome::na("the trace gives no device memory size (deviceProperties)");
        if (!near && !churn)
            return RuleOutcome::none();
        evidence.push_back(std::to_string(allocations) + " GPU allocations, "
            + std::to_string(static_cast<long long>(perStep)) + " per step");
        Finding f = newFinding(kMemory,
            near ? std::string("peak GPU memory is near the device's memory")
                 : std::string("the caching allocator churns: many allocations per step"),
            0.0, { frame.rank });
        f.severity = churn && !near ? Severity::Warning : severity;
        f.evidence = std::move(evidence);
        f.where.push_back(std::move(where));
        f.suggestion = near
            ? "Close to out of memory: allocator retries (cudaFree + cudaMalloc) stall the step. "
              "Use activation checkpointing, a smaller micro-batch with gradient accumulation, "
              "mixed precision, or FSDP/ZeRO sharding; set "
              "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation."
            : "Reuse buffers (preallocate, in-place ops, torch.compile) so the allocator is not "
              "called thousands of times per step.";
        f.gainBasis =
            "none: memory pressure costs capacity (batch size) and allocator stalls, not measured path time";
        return { { f }, std::nullopt };
    }

    // ---- low_efficiency ------------------------------------------------------

    const RuleInfo kEfficiency { "low_efficiency", "op families far below their roofline",
        { { "min_ratio", 2.0, "report a family whose kernels take this many times their roofline time" },
            { "min_gain_pct", 1.0, "and whose what-if at the roofline gives back at least this %" } },
        "efficiency" };

    RuleOutcome lowEfficiency(InsightsContext& c, const RuleParams& p)
    {
        if (!c.roofline) {
            // The efficiency analysis of this rank over the rows and iterations the
            // insights are scoped to, against its GPU or the one the user named.
            FamilyRooflines computed =
                c.rooflines ? *c.rooflines : rooflineOfFrames(c.frames(), c.options().iterations, c.device);
            if (computed.notApplicable)
                return RuleOutcome::na(*computed.notApplicable);
            c.roofline = std::move(computed.families);
        }
        return lowEfficiencyFindings(c, *c.roofline, p["min_ratio"], p["min_gain_pct"]);
    }

} // namespace

RuleOutcome lowEfficiencyFindings(
    InsightsContext& c, const std::vector<OpFamilyRoofline>& families, double minRatio, double minGainPct)
{
    const RankFrame& frame = onlyRank(c);
    if (!c.hasPath())
        return RuleOutcome::na("no critical path: " + c.path().error().message);
    std::vector<Finding> out;
    for (const OpFamilyRoofline& family : families) {
        if (family.rank != frame.rank || family.rooflineNs <= 0 || family.measuredNs <= 0)
            continue;
        const double ratio = static_cast<double>(family.measuredNs) / static_cast<double>(family.rooflineNs);
        if (ratio < minRatio)
            continue;
        const std::vector<std::string> whatIf { family.namePattern + "=" + std::to_string(1.0 / ratio) };
        const double gain = c.whatIfGainPct(whatIf).value_or(0);
        if (gain < minGainPct)
            continue;
        Finding f = newFinding(kEfficiency,
            family.family + " kernels run at " + formatPct(100.0 / ratio) + " of their roofline", gain,
            { frame.rank });
        f.subject = family.family;
        f.evidence.push_back(family.family + ": " + formatMs(family.measuredNs) + " measured, "
            + formatMs(family.rooflineNs) + " at the roofline");
        f.suggestion = "Bring " + family.family
            + " closer to its roofline: larger or better-aligned shapes "
              "(multiples of 8/16), tensor-core dtypes (bf16/fp16/fp8), fused or tuned kernels "
              "(torch.compile max-autotune, FlashAttention for attention).";
        RankWhere where = family.where; // the family's slowest kernels
        where.rank = frame.rank;
        f.where.push_back(std::move(where));
        f.gainBasis = "what-if: the family's kernels (its " + std::to_string(kMaxWhatIfKernelNames)
            + " heaviest kernel names at most) shrunk to their roofline time";
        f.whatIf = whatIf;
        out.push_back(std::move(f));
    }
    return { out, std::nullopt };
}

std::vector<Rule> hostAndMemoryRules()
{
    return { { kLoader, RuleScope::Rank, dataloaderStall }, { kMemory, RuleScope::Rank, memoryPressure },
        { kEfficiency, RuleScope::Rank, lowEfficiency } };
}

} // namespace ks::core
