#include "widgets/memory/memory_view_data.h"

#include "core/analysis/memory/memory_tables.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace ks::widgets {

namespace mc = core::memory_columns;

namespace {

    std::vector<core::Column> columns(std::initializer_list<core::ColumnId> ids)
    {
        std::vector<core::Column> out;
        for (const core::ColumnId& id : ids)
            out.push_back(id.column());
        return out;
    }

    core::Cell microseconds(const std::optional<core::TimeNs>& ts, core::TimeNs origin)
    {
        return ts ? core::Cell(static_cast<double>(*ts - origin) / 1000.0) : core::Cell();
    }

    // Cells appended one by one: GCC 12 warns (-Wmaybe-uninitialized, a false
    // positive) on Cell temporaries copied out of an initializer list.
    template <typename... Cells>
    void addRow(core::Table& table, Cells&&... cells)
    {
        std::vector<core::Cell> row;
        row.reserve(sizeof...(cells));
        (row.emplace_back(std::forward<Cells>(cells)), ...);
        table.rows.push_back(row);
    }

    std::shared_ptr<const core::AnalysisOutput> frameOf(core::Table table)
    {
        return std::make_shared<const core::AnalysisOutput>(
            core::AnalysisOutput::of(core::HtaResult::dataFrame(std::move(table))));
    }

    MemorySeries seriesOf(const core::DeviceCurve& curve, core::TimeNs origin)
    {
        MemorySeries s;
        s.device = curve.name;
        const bool hasReserved = curve.peakReserved > 0; // the CPU allocator reserves nothing
        std::vector<std::size_t> kept = core::downsampleCurve(curve, kMaxChartPoints);
        // The peak stays on the curve, whatever the down-sampling kept around it.
        if (curve.peak && !std::binary_search(kept.begin(), kept.end(), *curve.peak))
            kept.insert(std::lower_bound(kept.begin(), kept.end(), *curve.peak), *curve.peak);
        for (std::size_t k : kept) {
            const core::MemoryCurvePoint& p = curve.points[k];
            s.ms.push_back(static_cast<double>(p.ts - origin) / 1e6);
            s.allocated.push_back(static_cast<double>(p.allocated));
            if (hasReserved)
                s.reserved.push_back(static_cast<double>(std::max<std::int64_t>(p.reserved, 0)));
        }
        return s;
    }

} // namespace

bool liveIn(const core::AllocationRow& row, const core::MemoryRange& range)
{
    const core::TimeNs allocated = row.allocated.value_or(std::numeric_limits<core::TimeNs>::min());
    const core::TimeNs released = row.released.value_or(std::numeric_limits<core::TimeNs>::max());
    return allocated <= range.end && released >= range.start;
}

core::Table allocationsTable(const core::RankMemory& rank, const std::optional<core::MemoryRange>& range,
    core::TimeNs origin, std::vector<std::size_t>* rows)
{
    core::Table t;
    t.name = "memory_allocations";
    t.columns = columns({ mc::kDevice, mc::kOperator, mc::kSize, mc::kAllocationTime, mc::kReleaseTime,
        mc::kDuration, mc::kFreeOperator });
    for (std::size_t i = 0; i < rank.allocations.size(); ++i) {
        const core::AllocationRow& r = rank.allocations[i];
        if (range && !liveIn(r, *range))
            continue;
        if (rows)
            rows->push_back(i);
        const core::Cell duration = r.allocated && r.released
            ? core::Cell(static_cast<double>(*r.released - *r.allocated) / 1000.0)
            : core::Cell();
        const std::string freeOp = r.kind == core::AllocationKind::NeverFreed ? kNeverFreed : r.freeOp;
        addRow(t, r.device, r.op, r.size, microseconds(r.allocated, origin), microseconds(r.released, origin),
            duration, freeOp);
    }
    return t;
}

core::Table statsTable(const core::RankMemory& rank)
{
    core::Table t;
    t.name = "memory_stats";
    t.columns = columns({ mc::kDevice, mc::kOperator, mc::kCalls, mc::kSizeIncrease, mc::kSelfSizeIncrease,
        mc::kAllocationCount, mc::kSelfAllocationCount, mc::kAllocationSize, mc::kSelfAllocationSize });
    for (const core::OperatorMemoryRow& r : rank.stats)
        addRow(t, r.device, r.op, r.calls, r.sizeIncrease, r.selfSizeIncrease, r.allocationCount,
            r.selfAllocationCount, r.allocationSize, r.selfAllocationSize);
    return t;
}

MemoryViewData buildMemoryViewData(std::shared_ptr<const core::MemoryReport> report, std::size_t rankIndex,
    const core::RankMemory* ranged, const std::optional<core::MemoryRange>& range, core::TimeNs origin)
{
    MemoryViewData data;
    data.report = std::move(report);
    data.rankIndex = rankIndex;
    data.range = range;
    data.origin = origin;
    const core::RankMemory* rank = data.rank();
    if (!rank)
        return data;
    for (const core::DeviceCurve& curve : rank->curves)
        data.series.push_back(seriesOf(curve, origin));
    data.totalAllocations = rank->allocations.size();
    data.allocations = frameOf(allocationsTable(*rank, range, origin, &data.allocationRows));
    data.stats = frameOf(statsTable(range && ranged ? *ranged : *rank));
    return data;
}

} // namespace ks::widgets
