#include "core/analysis/memory/memory_tables.h"

#include <algorithm>
#include <optional>
#include <string>

namespace ks::core {

namespace mc = memory_columns;

namespace {

    // A row built cell by cell: GCC 12 warns (-Wmaybe-uninitialized, a false
    // positive) on Cell temporaries copied out of an initializer list.
    class Row
    {
    public:
        template <typename T>
        Row& operator<<(T value)
        {
            m_cells.emplace_back(std::move(value));
            return *this;
        }

        Row& optional(bool present, std::int64_t value)
        {
            if (present)
                m_cells.emplace_back(value);
            else
                m_cells.emplace_back();
            return *this;
        }

        Row& optionalReal(bool present, double value)
        {
            if (present)
                m_cells.emplace_back(value);
            else
                m_cells.emplace_back();
            return *this;
        }

        void addTo(Table& table) { table.rows.push_back(std::move(m_cells)); }

    private:
        std::vector<Cell> m_cells;
    };

    std::vector<Column> columns(std::initializer_list<ColumnId> ids)
    {
        std::vector<Column> out;
        for (const ColumnId& id : ids)
            out.push_back(id.column());
        return out;
    }

} // namespace

double memoryTimeUs(const RankMemory& rank, TimeNs ts)
{
    return static_cast<double>(ts - rank.timeBase) / 1000.0;
}

Table memoryDevicesTable(const MemoryReport& report)
{
    Table t;
    t.name = "memory_devices";
    t.columns = columns({ mc::kRank, mc::kDevice, mc::kPeakAllocated, mc::kPeakReserved, mc::kPeakTime,
        mc::kPeakOperator, mc::kCapacity, mc::kPeakPercent, mc::kBeforeTrace, mc::kAtEnd, mc::kLiveAtEnd,
        mc::kLiveAtEndCount, mc::kFreedBeforeTrace, mc::kMaxCacheOverhead, mc::kMeanCacheOverhead,
        mc::kAllocations });
    for (const RankMemory& rank : report.ranks)
        for (const DeviceMemorySummary& d : rank.devices) {
            const double pct = d.capacity
                ? 100.0 * static_cast<double>(d.peakAllocated) / static_cast<double>(*d.capacity)
                : 0.0;
            Row row;
            row << rank.rank << d.device << d.peakAllocated;
            row.optional(d.peakReserved >= 0, d.peakReserved);
            row.optionalReal(d.peakTime.has_value(), d.peakTime ? memoryTimeUs(rank, *d.peakTime) : 0.0);
            row << d.peakOp;
            row.optional(d.capacity.has_value(), d.capacity.value_or(0));
            row.optionalReal(d.capacity.has_value(), pct);
            row << d.allocatedBeforeTrace << d.allocatedAtEnd << d.liveAtEndBytes << d.liveAtEndCount
                << d.freedBeforeTraceBytes;
            row.optional(d.maxCacheOverhead >= 0, d.maxCacheOverhead);
            row.optionalReal(d.maxCacheOverhead >= 0, d.meanCacheOverhead);
            row << d.allocations;
            row.addTo(t);
        }
    return t;
}

Table memoryStatsTable(const MemoryReport& report)
{
    Table t;
    t.name = "memory_stats";
    t.columns =
        columns({ mc::kRank, mc::kDevice, mc::kOperator, mc::kCalls, mc::kSizeIncrease, mc::kSelfSizeIncrease,
            mc::kAllocationCount, mc::kSelfAllocationCount, mc::kAllocationSize, mc::kSelfAllocationSize });
    for (const RankMemory& rank : report.ranks)
        for (const OperatorMemoryRow& r : rank.stats)
            (Row() << rank.rank << r.device << r.op << r.calls << r.sizeIncrease << r.selfSizeIncrease
                   << r.allocationCount << r.selfAllocationCount << r.allocationSize << r.selfAllocationSize)
                .addTo(t);
    return t;
}

Table memoryEventsTable(const MemoryReport& report)
{
    Table t;
    t.name = "memory_events";
    t.columns = columns({ mc::kRank, mc::kDevice, mc::kOperator, mc::kSize, mc::kAllocationTime,
        mc::kReleaseTime, mc::kDuration, mc::kFreeOperator });
    for (const RankMemory& rank : report.ranks)
        for (const AllocationRow& r : rank.allocations) {
            Row row;
            row << rank.rank << r.device << r.op << r.size;
            row.optionalReal(r.allocated.has_value(), r.allocated ? memoryTimeUs(rank, *r.allocated) : 0.0);
            row.optionalReal(r.released.has_value(), r.released ? memoryTimeUs(rank, *r.released) : 0.0);
            row.optionalReal(r.allocated && r.released,
                r.allocated && r.released ? static_cast<double>(*r.released - *r.allocated) / 1000.0 : 0.0);
            row << r.freeOp;
            row.addTo(t);
        }
    return t;
}

Table memoryStepsTable(const MemoryReport& report)
{
    Table t;
    t.name = "memory_steps";
    t.columns = columns({ mc::kRank, mc::kDevice, mc::kStep, mc::kStart, mc::kAtStart, mc::kAtEnd,
        mc::kGrowth, mc::kStepPeak });
    for (const RankMemory& rank : report.ranks)
        for (const StepMemory& s : rank.steps)
            (Row() << rank.rank << s.device << s.step << memoryTimeUs(rank, s.start) << s.allocatedAtStart
                   << s.allocatedAtEnd << s.growth() << s.peakAllocated)
                .addTo(t);
    return t;
}

Table memoryOutOfMemoryTable(const MemoryReport& report)
{
    Table t;
    t.name = "memory_out_of_memory";
    t.columns = columns({ mc::kRank, mc::kDevice, mc::kTime, mc::kRequested, mc::kTotalAllocated,
        mc::kTotalReserved, mc::kCapacity, mc::kOperator });
    for (const RankMemory& rank : report.ranks)
        for (const OutOfMemoryRow& o : rank.outOfMemory) {
            Row row;
            row << rank.rank << o.device << memoryTimeUs(rank, o.ts) << o.requested;
            row.optional(o.totalAllocated >= 0, o.totalAllocated)
                .optional(o.totalReserved >= 0, o.totalReserved);
            row.optional(o.capacity.has_value(), o.capacity.value_or(0));
            row << o.op;
            row.addTo(t);
        }
    return t;
}

std::string noMemoryEventsLine(const MemoryReport& report)
{
    std::string paths;
    for (const RankMemory& rank : report.ranks)
        paths += (paths.empty() ? "" : ", ") + rank.path;
    return "memory: not applicable: no [memory] events in "
        + (paths.empty() ? std::string("the traces") : paths)
        + " (record with torch.profiler.profile(profile_memory=True))";
}

Table memoryClassifiedTable(const MemoryReport& report)
{
    Table t;
    t.name = "memory_classified";
    t.columns = columns({ mc::kRank, mc::kDevice, mc::kIndex, mc::kEvIdx, mc::kTs, mc::kPid, mc::kTid,
        mc::kDeviceId, mc::kAddr, mc::kBytesDelta, mc::kHtaTotalAllocated, mc::kHtaTotalReserved,
        mc::kAllocOrDeallocId, mc::kStackType, mc::kStackIds, mc::kStackNameId });
    for (const RankMemory& rank : report.ranks)
        for (const ClassifiedMemoryEvent& e : rank.categories.events) {
            std::string ids;
            for (std::size_t k = 0; k < e.stackIds.size(); ++k)
                ids += (k ? ";" : "") + std::to_string(e.stackIds[k]);
            Row row;
            row << rank.rank << e.deviceId << e.index << e.evIdx << e.ts << e.pid << e.tid << e.deviceId
                << e.addr << e.bytesDelta << e.totalAllocated << e.totalReserved;
            // HTA's column is float (NaN where unmatched).
            row.optionalReal(e.allocOrDeallocId.has_value(),
                e.allocOrDeallocId ? static_cast<double>(*e.allocOrDeallocId) : 0.0);
            row << e.stackType << ids << static_cast<std::int64_t>(e.stackNameId);
            row.addTo(t);
        }
    return t;
}

Table memoryCategoriesTable(const MemoryReport& report)
{
    Table t;
    t.name = "memory_categories";
    t.columns = columns({ mc::kRank, mc::kDevice, mc::kI, mc::kIndex, mc::kTs, mc::kCategory, mc::kBytesDelta,
        mc::kPlottingOnly, mc::kCategoryTotal, mc::kStackNameId });
    for (const RankMemory& rank : report.ranks) {
        std::int64_t i = 0;
        std::optional<std::int64_t> device;
        for (const CategoryTimelineRow& r : rank.categories.timeline) {
            i = device == r.deviceId ? i + 1 : 0; // the position within the device's frame
            device = r.deviceId;
            (Row() << rank.rank << r.deviceId << i << r.index << r.ts << r.category << r.bytesDelta
                   << static_cast<std::int64_t>(r.plottingOnly) << r.categoryTotal
                   << static_cast<std::int64_t>(r.stackNameId))
                .addTo(t);
        }
    }
    return t;
}

Table memoryStackNamesTable(const MemoryReport& report)
{
    Table t;
    t.name = "memory_stack_names";
    t.columns = columns({ mc::kRank, mc::kStackNameId, mc::kStackName });
    for (const RankMemory& rank : report.ranks)
        for (std::size_t k = 0; k < rank.categories.stackNames.size(); ++k)
            (Row() << rank.rank << static_cast<std::int64_t>(k) << rank.categories.stackNames[k]).addTo(t);
    return t;
}

std::string htaTimeBaseNote(const MemoryReport& report)
{
    const bool job = std::any_of(report.ranks.begin(), report.ranks.end(),
        [](const RankMemory& r) { return r.categories.jobTimeBase; });
    return job
        ? "HTA #223's ts: integer µs since the earliest event of all loaded ranks (HTA's min_ts)"
        : "HTA #223's ts: integer µs since each rank's own first event (--hta-compat: since the earliest "
          "of all ranks, as HTA)";
}

AnalysisOutput memoryOutput(const MemoryReport& report)
{
    if (!report.anyRecords())
        return AnalysisOutput::notApplicable(noMemoryEventsLine(report));
    HtaResult r;
    r.kind = HtaResult::Kind::Tuple;
    for (Table table : { memoryDevicesTable(report), memoryStatsTable(report), memoryEventsTable(report),
             memoryStepsTable(report), memoryOutOfMemoryTable(report), memoryClassifiedTable(report),
             memoryCategoriesTable(report), memoryStackNamesTable(report) })
        r.items.push_back(HtaResult::dataFrame(std::move(table)));
    return AnalysisOutput::of(std::move(r));
}

} // namespace ks::core
