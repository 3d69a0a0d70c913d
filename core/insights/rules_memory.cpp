// Rules read from the memory analysis (core/analysis/memory/): memory that
// grows step after step (a leak), a caching allocator holding far more than
// its tensors use, and an allocation that failed. memory_pressure (peak near
// the device's memory) is in rules_host_memory.cpp and reads the same analysis
// through memoryOfRank.

#include "core/insights/rules_memory.h"

#include "core/analysis/memory/memory_report.h"
#include "core/insights/rule_support.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace ks::core {

namespace {

    constexpr double kMiB = 1024.0 * 1024.0;

    std::string mib(std::int64_t bytes)
    {
        const double v = static_cast<double>(bytes) / kMiB;
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, v >= 100 || v <= -100 ? "%.0f MiB" : "%.1f MiB", v);
        return buffer;
    }

    bool isGpu(const DeviceMemorySummary& d)
    {
        return d.id.type != kDeviceTypeCpu;
    }

    // The trace's event index of a record (for "where").
    std::int64_t eventOf(const RankTrace& trace, const RankMemory& memory, std::uint32_t record)
    {
        return trace.memory.eventIndex[memory.recordSet.records[record].row];
    }

    // ---- memory_growth -------------------------------------------------------

    const RuleInfo kGrowth { "memory_growth", "device memory grows step after step (a leak)",
        { { "min_growth_mib", 16, "report when every step ends at least this many MiB above its start" },
            { "min_steps", 2, "over at least this many ProfilerSteps" } },
        "" };

    RuleOutcome memoryGrowth(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        const RankMemory& memory = memoryOfRank(c);
        if (memory.records == 0)
            return RuleOutcome::na("no [memory] events (profile with profile_memory=True)");
        std::vector<Finding> out;
        for (const DeviceMemorySummary& d : memory.devices) {
            if (!isGpu(d))
                continue;
            std::vector<const StepMemory*> steps;
            for (const StepMemory& s : memory.steps)
                if (s.device == d.device)
                    steps.push_back(&s);
            if (steps.size() < static_cast<std::size_t>(p["min_steps"]))
                continue;
            const auto minGrowth = static_cast<std::int64_t>(p["min_growth_mib"] * kMiB);
            if (!std::all_of(steps.begin(), steps.end(),
                    [&](const StepMemory* s) { return s->growth() >= minGrowth; }))
                continue;
            std::int64_t total = 0;
            for (const StepMemory* s : steps)
                total += s->growth();
            Finding f = newFinding(kGrowth,
                d.device + " memory grows by " + mib(total / static_cast<std::int64_t>(steps.size()))
                    + " every step",
                0.0, { frame.rank });
            f.severity = Severity::Warning;
            f.subject = d.device;
            f.evidence.push_back(std::to_string(steps.size())
                + " steps, allocated at their starts: " + mib(steps.front()->allocatedAtStart) + " -> "
                + mib(steps.back()->allocatedAtEnd) + " (+" + mib(total) + ")");
            // Who allocated what stays live: the leak candidates by operator.
            std::map<std::string, std::int64_t> liveByOp;
            RankWhere where;
            where.rank = frame.rank;
            for (const AllocationRow& row : memory.allocations)
                if (row.device == d.device && row.kind == AllocationKind::NeverFreed) {
                    liveByOp[row.op] += row.size;
                    if (row.allocRecord && where.events.size() < kMaxWherePerRank)
                        where.events.push_back(eventOf(*frame.trace, memory, *row.allocRecord));
                }
            std::vector<std::pair<std::int64_t, std::string>> top;
            for (const auto& [op, bytes] : liveByOp)
                top.emplace_back(bytes, op);
            std::sort(top.rbegin(), top.rend());
            if (!top.empty()) {
                std::string line =
                    "live at the trace's end (allocated in it, never freed): " + mib(d.liveAtEndBytes)
                    + " in " + std::to_string(d.liveAtEndCount) + " allocations; most by";
                for (std::size_t i = 0; i < std::min<std::size_t>(3, top.size()); ++i)
                    line += (i ? ", " : " ") + top[i].second + " (" + mib(top[i].first) + ")";
                f.evidence.push_back(line);
            }
            for (const StepMemory* s : steps)
                where.ranges.push_back({ s->start, s->end });
            f.where.push_back(std::move(where));
            f.iterations.clear();
            for (const StepMemory* s : steps)
                f.iterations.push_back(s->step);
            f.suggestion =
                "Something keeps tensors from one step to the next: a loss or metric summed "
                "without .item() or .detach(), outputs appended to a list, a cache or a hook that "
                "grows. The allocations live at the end and their operators (kinetoscope-cli "
                "memory --events) say where they come from; torch.cuda.memory._record_memory_history "
                "gives their Python stacks.";
            f.gainBasis = "none: a leak ends in an out-of-memory error, it costs no measured path time";
            out.push_back(std::move(f));
        }
        return { std::move(out), std::nullopt };
    }

    // ---- allocator_cache_overhead --------------------------------------------

    const RuleInfo kCache { "allocator_cache_overhead",
        "the caching allocator reserves far more than the tensors use",
        { { "min_overhead_pct", 50,
              "report when reserved - allocated reaches this % of the reserved memory" },
            { "min_overhead_mib", 1024, "and at least this many MiB" } },
        "" };

    RuleOutcome allocatorCacheOverhead(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        const RankMemory& memory = memoryOfRank(c);
        if (memory.records == 0)
            return RuleOutcome::na("no [memory] events (profile with profile_memory=True)");
        std::vector<Finding> out;
        bool anyReserved = false;
        for (const DeviceMemorySummary& d : memory.devices) {
            if (!isGpu(d) || d.maxCacheOverhead < 0 || d.peakReserved <= 0)
                continue;
            anyReserved = true;
            const double pct =
                100.0 * static_cast<double>(d.maxCacheOverhead) / static_cast<double>(d.peakReserved);
            if (pct < p["min_overhead_pct"]
                || static_cast<double>(d.maxCacheOverhead) < p["min_overhead_mib"] * kMiB)
                continue;
            Finding f = newFinding(kCache,
                d.device + ": the allocator holds " + mib(d.maxCacheOverhead) + " no tensor uses", 0.0,
                { frame.rank });
            f.severity = Severity::Info;
            f.subject = d.device;
            f.evidence.push_back("reserved - allocated up to " + mib(d.maxCacheOverhead) + " ("
                + formatPct(pct) + " of the peak reserved " + mib(d.peakReserved) + "), "
                + mib(static_cast<std::int64_t>(d.meanCacheOverhead)) + " on average");
            f.evidence.push_back(std::to_string(d.allocations) + " allocations of " + mib(d.allocatedBytes)
                + " in all; peak allocated " + mib(d.peakAllocated));
            RankWhere where;
            where.rank = frame.rank;
            if (d.maxCacheOverheadTime)
                where.ranges.push_back({ *d.maxCacheOverheadTime, *d.maxCacheOverheadTime });
            f.where.push_back(std::move(where));
            f.suggestion =
                "Cached but unused blocks are memory other work cannot have: tensors of changing "
                "shapes split blocks the allocator cannot reuse. Try "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, pad or bucket shapes, and avoid "
                "torch.cuda.empty_cache() inside the loop (it only moves the cost to the next cudaMalloc).";
            f.gainBasis = "none: cached memory costs capacity, not measured path time";
            out.push_back(std::move(f));
        }
        if (!anyReserved)
            return RuleOutcome::na("the [memory] events carry no \"Total Reserved\"");
        return { std::move(out), std::nullopt };
    }

    // ---- out_of_memory -------------------------------------------------------

    const RuleInfo kOom { "out_of_memory", "an allocation failed ([OutOfMemory] in the trace)",
        { { "min_events", 1, "report when the rank has at least this many failed requests" } }, "" };

    RuleOutcome outOfMemory(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        const RankMemory& memory = memoryOfRank(c);
        if (memory.outOfMemory.empty() || static_cast<double>(memory.outOfMemory.size()) < p["min_events"])
            return RuleOutcome::none();
        const OutOfMemoryRow& first = memory.outOfMemory.front();
        Finding f = newFinding(kOom,
            first.device + " ran out of memory" + (first.op.empty() ? std::string() : " in " + first.op), 0.0,
            { frame.rank });
        f.severity = Severity::Critical;
        f.subject = first.device;
        RankWhere where;
        where.rank = frame.rank;
        for (const OutOfMemoryRow& o : memory.outOfMemory) {
            std::string line = o.device + ": a request of " + mib(o.requested) + " failed";
            if (o.totalAllocated >= 0)
                line += " with " + mib(o.totalAllocated) + " allocated";
            if (o.totalReserved >= 0)
                line += ", " + mib(o.totalReserved) + " reserved";
            if (o.capacity)
                line += " of " + mib(*o.capacity);
            if (!o.op.empty())
                line += " (in " + o.op + ")";
            if (f.evidence.size() < 5)
                f.evidence.push_back(line);
            where.ranges.push_back({ o.ts, o.ts });
        }
        f.where.push_back(std::move(where));
        f.suggestion =
            "Lower the peak: a smaller micro-batch with gradient accumulation, activation "
            "checkpointing, mixed precision, FSDP/ZeRO sharding; when reserved is far above "
            "allocated, fragmentation is the cause: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.";
        f.gainBasis = "none: the run failed";
        return { { f }, std::nullopt };
    }

} // namespace

std::shared_ptr<const RankMemory> insightsMemoryOf(const RankFrame& frame, const AnalysisOptions& analysis)
{
    MemoryOptions options;
    options.htaCategories = false; // HTA #223's tables: no rule reads them
    if (analysis.iterations)
        options.iterations = *analysis.iterations;
    return std::make_shared<const RankMemory>(rankMemory(*frame.trace, options));
}

const RankMemory& memoryOfRank(InsightsContext& c)
{
    if (!c.memory)
        c.memory = insightsMemoryOf(onlyRank(c), c.options());
    return *c.memory;
}

std::vector<Rule> memoryRules()
{
    return {
        { kGrowth, RuleScope::Rank, memoryGrowth },
        { kCache, RuleScope::Rank, allocatorCacheOverhead },
        { kOom, RuleScope::Rank, outOfMemory },
    };
}

} // namespace ks::core
