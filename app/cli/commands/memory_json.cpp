// The JSON of `kinetoscope-cli memory --format json`: names scripts can rely
// on (docs/guide/memory.md): per rank its devices (peak_allocated_b,
// peak_reserved_b, peak_time_us, ...), `stats` rows named as the plugin's
// Memory Statistics, `events` rows as its Memory Events, `leaks`, `growth`
// per step, `out_of_memory` and HTA #223's `hta_classified`, `hta_categories`,
// `hta_stack_names`. Times are µs since the rank's time base.

#include "app/cli/commands/memory_cli.h"
#include "app/cli/output/json_out.h"
#include "core/analysis/memory/memory_tables.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>

namespace ks::cli {

namespace {

    std::string number(double value)
    {
        if (!std::isfinite(value))
            return "null";
        char buffer[32];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
        return std::string(buffer, end);
    }

    std::string optionalInt(std::int64_t value, bool present)
    {
        return present ? std::to_string(value) : std::string("null");
    }

    class Object
    {
    public:
        Object& field(std::string_view name, const std::string& rawValue)
        {
            m_text += (m_text.empty() ? "{" : ",") + jsonQuote(name) + ":" + rawValue;
            return *this;
        }

        Object& text(std::string_view name, std::string_view value) { return field(name, jsonQuote(value)); }

        Object& integer(std::string_view name, std::int64_t value)
        {
            return field(name, std::to_string(value));
        }

        std::string str() const { return m_text.empty() ? "{}" : m_text + "}"; }

        // The object so far, left open for fields streamed after it.
        const std::string& open() const { return m_text; }

    private:
        std::string m_text;
    };

    template <typename Rows, typename Write>
    std::string array(const Rows& rows, Write&& write)
    {
        std::string out = "[";
        bool first = true;
        for (const auto& row : rows) {
            out += (first ? "" : ",") + write(row);
            first = false;
        }
        return out + "]";
    }

    // An array streamed row by row: HTA #223's rows are one per [memory] event (hundreds of
    // MB of JSON on a long trace), never held as one string, let alone copied into the next.
    template <typename Rows, typename Write>
    void streamArray(std::ostream& out, std::string_view name, const Rows& rows, Write&& write)
    {
        out << ',' << jsonQuote(name) << ":[";
        bool first = true;
        for (const auto& row : rows) {
            if (!first)
                out << ',';
            out << write(row);
            first = false;
        }
        out << ']';
    }

    std::string time(const core::RankMemory& rank, const std::optional<core::TimeNs>& ts)
    {
        return ts ? number(core::memoryTimeUs(rank, *ts)) : std::string("null");
    }

    std::string deviceJson(const core::RankMemory& rank, const core::DeviceMemorySummary& d,
        const core::DeviceCurve& curve, std::size_t curvePoints)
    {
        Object o;
        o.text("device", d.device)
            .integer("peak_allocated_b", d.peakAllocated)
            .field("peak_reserved_b", optionalInt(d.peakReserved, d.peakReserved >= 0))
            .field("peak_time_us", time(rank, d.peakTime))
            .text("peak_operator", d.peakOp)
            .field("peak_stack", array(d.peakStack, [](const std::string& s) { return jsonQuote(s); }))
            .field("capacity_b", d.capacity ? std::to_string(*d.capacity) : "null")
            .field("peak_pct_of_capacity",
                d.capacity
                    ? number(100.0 * static_cast<double>(d.peakAllocated) / static_cast<double>(*d.capacity))
                    : "null")
            .integer("allocated_before_trace_b", d.allocatedBeforeTrace)
            .integer("allocated_at_end_b", d.allocatedAtEnd)
            .integer("allocations", d.allocations)
            .integer("frees", d.frees)
            .integer("allocated_total_b", d.allocatedBytes)
            .integer("live_at_end_b", d.liveAtEndBytes)
            .integer("live_at_end_count", d.liveAtEndCount)
            .integer("freed_before_trace_b", d.freedBeforeTraceBytes)
            .integer("freed_before_trace_count", d.freedBeforeTraceCount)
            .field("max_cache_overhead_b", optionalInt(d.maxCacheOverhead, d.maxCacheOverhead >= 0))
            .field("max_cache_overhead_time_us", time(rank, d.maxCacheOverheadTime))
            .field("mean_cache_overhead_b", d.maxCacheOverhead >= 0 ? number(d.meanCacheOverhead) : "null")
            .field("curve_summed_from_bytes", d.summedFromBytes ? "true" : "false");
        if (curvePoints > 0)
            o.field("curve", array(core::downsampleCurve(curve, curvePoints), [&](std::size_t k) {
                const core::MemoryCurvePoint& p = curve.points[k];
                return "[" + number(core::memoryTimeUs(rank, p.ts)) + "," + std::to_string(p.allocated) + ","
                    + optionalInt(p.reserved, p.reserved >= 0) + "]";
            }));
        return o.str();
    }

    std::string statsJson(const core::OperatorMemoryRow& r)
    {
        return Object()
            .text("device", r.device)
            .text("operator", r.op)
            .integer("calls", r.calls)
            .integer("size_increase_b", r.sizeIncrease)
            .integer("self_size_increase_b", r.selfSizeIncrease)
            .integer("allocation_count", r.allocationCount)
            .integer("self_allocation_count", r.selfAllocationCount)
            .integer("allocation_size_b", r.allocationSize)
            .integer("self_allocation_size_b", r.selfAllocationSize)
            .str();
    }

    std::string eventJson(const core::RankMemory& rank, const core::AllocationRow& r)
    {
        const std::string duration = r.allocated && r.released
            ? number(static_cast<double>(*r.released - *r.allocated) / 1000.0)
            : std::string("null");
        return Object()
            .text("device", r.device)
            .text("operator", r.op)
            .integer("size_b", r.size)
            .field("allocation_time_us", time(rank, r.allocated))
            .field("release_time_us", time(rank, r.released))
            .field("duration_us", duration)
            .text("free_operator", r.freeOp)
            .str();
    }

    std::string stepJson(const core::RankMemory& rank, const core::StepMemory& s)
    {
        return Object()
            .text("device", s.device)
            .integer("step", s.step)
            .field("start_us", number(core::memoryTimeUs(rank, s.start)))
            .field("end_us", number(core::memoryTimeUs(rank, s.end)))
            .integer("allocated_at_start_b", s.allocatedAtStart)
            .integer("allocated_at_end_b", s.allocatedAtEnd)
            .integer("growth_b", s.growth())
            .integer("step_peak_allocated_b", s.peakAllocated)
            .str();
    }

    std::string oomJson(const core::RankMemory& rank, const core::OutOfMemoryRow& o)
    {
        return Object()
            .text("device", o.device)
            .field("time_us", number(core::memoryTimeUs(rank, o.ts)))
            .integer("requested_b", o.requested)
            .field("total_allocated_b", optionalInt(o.totalAllocated, o.totalAllocated >= 0))
            .field("total_reserved_b", optionalInt(o.totalReserved, o.totalReserved >= 0))
            .field("capacity_b", o.capacity ? std::to_string(*o.capacity) : "null")
            .text("operator", o.op)
            .str();
    }

    // HTA #223's get_memory_timeline_per_category (spec HTA.6), its columns' names.
    std::string classifiedJson(const core::ClassifiedMemoryEvent& e)
    {
        return Object()
            .integer("device", e.deviceId)
            .integer("index", e.index)
            .integer("ev_idx", e.evIdx)
            .integer("ts", e.ts)
            .integer("pid", e.pid)
            .integer("tid", e.tid)
            .integer("device_id", e.deviceId)
            .integer("addr", e.addr)
            .integer("bytes_delta", e.bytesDelta)
            .integer("total_allocated", e.totalAllocated)
            .integer("total_reserved", e.totalReserved)
            .field("alloc_or_dealloc_id",
                optionalInt(e.allocOrDeallocId.value_or(0), e.allocOrDeallocId.has_value()))
            .text("stack_type", e.stackType)
            .field("stack_ids", array(e.stackIds, [](std::int64_t id) { return std::to_string(id); }))
            .integer("stack_name_id", e.stackNameId)
            .str();
    }

    std::string categoryJson(const core::CategoryTimelineRow& r)
    {
        return Object()
            .integer("device", r.deviceId)
            .integer("index", r.index)
            .integer("ts", r.ts)
            .text("category", r.category)
            .integer("bytes_delta", r.bytesDelta)
            .field("is_plotting_event_only", r.plottingOnly ? "true" : "false")
            .integer("category_total", r.categoryTotal)
            .integer("stack_name_id", r.stackNameId)
            .str();
    }

    void writeRankJson(std::ostream& out, const core::RankMemory& rank, const MemoryTraceArgs& args)
    {
        std::string devices = "[";
        for (std::size_t i = 0; i < rank.devices.size(); ++i)
            devices += (i ? "," : "") + deviceJson(rank, rank.devices[i], rank.curves[i], args.curvePoints);
        devices += "]";
        std::vector<const core::AllocationRow*> leaks;
        for (const core::AllocationRow& r : rank.allocations)
            if (r.kind == core::AllocationKind::NeverFreed)
                leaks.push_back(&r);
        out << Object()
                   .integer("rank", rank.rank)
                   .text("path", rank.path)
                   .field("time_base_us", number(static_cast<double>(rank.timeBase) / 1000.0))
                   .integer("hta_time_base_us", rank.categories.timeBaseUs)
                   .integer("records", static_cast<std::int64_t>(rank.records))
                   .integer("attributed_records", static_cast<std::int64_t>(rank.attributed))
                   .field("diagnostics",
                       array(rank.diagnostics, [](const std::string& s) { return jsonQuote(s); }))
                   .field("devices", devices)
                   .open();
        streamArray(out, "stats", rank.stats, statsJson);
        streamArray(out, "events", rank.allocations,
            [&](const core::AllocationRow& r) { return eventJson(rank, r); });
        streamArray(out, "leaks", leaks, [&](const core::AllocationRow* r) { return eventJson(rank, *r); });
        streamArray(out, "growth", rank.steps, [&](const core::StepMemory& s) { return stepJson(rank, s); });
        streamArray(out, "out_of_memory", rank.outOfMemory,
            [&](const core::OutOfMemoryRow& o) { return oomJson(rank, o); });
        streamArray(out, "hta_classified", rank.categories.events, classifiedJson);
        streamArray(out, "hta_categories", rank.categories.timeline, categoryJson);
        streamArray(out, "hta_stack_names", rank.categories.stackNames,
            [](const std::string& n) { return jsonQuote(n); });
        out << '}';
    }

} // namespace

void writeMemoryReportJson(std::ostream& out, const core::MemoryReport& report, const MemoryTraceArgs& args)
{
    out << Object()
               .field("tb_compat", report.tbCompat ? "true" : "false")
               .text("hta_time_base",
                   std::any_of(report.ranks.begin(), report.ranks.end(),
                       [](const core::RankMemory& r) { return r.categories.jobTimeBase; })
                       ? "all_ranks"
                       : "rank")
               .open()
        << ",\"ranks\":[";
    for (std::size_t i = 0; i < report.ranks.size(); ++i) {
        if (i)
            out << ',';
        writeRankJson(out, report.ranks[i], args);
    }
    out << "]}";
}

} // namespace ks::cli
