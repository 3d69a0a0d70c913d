#include "core/summary/summary_memory.h"

#include "core/summary/summary_schema.h"

#include <algorithm>

namespace ks::core {

namespace {

    using Rows = std::vector<std::vector<Cell>>;

    Cell optionalInt(const std::optional<std::int64_t>& value)
    {
        return value ? Cell { *value } : Cell {};
    }

    std::optional<std::int64_t> optionalColumn(const SqliteStatement& s, int column)
    {
        return s.columnIsNull(column) ? std::nullopt : std::optional(s.columnInt(column));
    }

    // Runs `sql` and hands each row to `read`; the first error, if any.
    template <typename Read>
    std::optional<Error> forEachRow(SqliteDb& db, const std::string& sql, Read&& read)
    {
        auto select = db.prepare(sql);
        if (!select)
            return select.error();
        SqliteStatement& s = select.value();
        auto r = s.step();
        for (; r && r.value(); r = s.step())
            read(s);
        return r ? std::nullopt : std::optional<Error>(r.error());
    }

    bool isGpu(const std::string& device)
    {
        return device.rfind("GPU", 0) == 0;
    }

} // namespace

std::optional<double> SummaryMemoryPeak::peakTimeUs() const
{
    if (!peakNs)
        return std::nullopt;
    return static_cast<double>(*peakNs - timeBaseNs) / 1000.0;
}

std::optional<std::int64_t> SummaryMemory::rankPeak(std::int64_t rank) const
{
    std::optional<std::int64_t> gpu;
    std::optional<std::int64_t> cpu;
    for (const SummaryMemoryPeak& p : peaks) {
        if (p.rank != rank)
            continue;
        std::optional<std::int64_t>& into = isGpu(p.device) ? gpu : cpu;
        into = std::max(into.value_or(p.peakAllocated), p.peakAllocated);
    }
    return gpu ? gpu : cpu;
}

void addSummaryMemoryRows(const RankMemory& memory, std::map<std::string, Rows, std::less<>>& rows)
{
    const std::int64_t rank = memory.rank;
    Rows& peaks = rows[std::string(kMemoryPeaksTable)];
    for (const DeviceMemorySummary& d : memory.devices) {
        std::vector<Cell> row;
        row.reserve(8);
        row.emplace_back(rank);
        row.emplace_back(d.device);
        row.emplace_back(d.peakAllocated);
        row.push_back(d.peakReserved >= 0 ? Cell { d.peakReserved } : Cell {});
        row.push_back(d.peakTime ? Cell { static_cast<std::int64_t>(*d.peakTime) } : Cell {});
        row.emplace_back(static_cast<std::int64_t>(memory.timeBase));
        row.emplace_back(d.peakOp);
        row.push_back(optionalInt(d.capacity));
        peaks.push_back(std::move(row));
    }
    Rows& steps = rows[std::string(kMemoryStepsTable)];
    for (const StepMemory& s : memory.steps) {
        std::vector<Cell> row;
        row.reserve(8);
        row.emplace_back(rank);
        row.emplace_back(s.device);
        row.emplace_back(s.step);
        row.emplace_back(static_cast<std::int64_t>(s.start));
        row.emplace_back(static_cast<std::int64_t>(s.end));
        row.emplace_back(s.allocatedAtStart);
        row.emplace_back(s.allocatedAtEnd);
        row.emplace_back(s.peakAllocated);
        steps.push_back(std::move(row));
    }
    // Per device the largest self allocation sizes (ties by name, as the statistics sort).
    std::map<std::string, std::vector<const OperatorMemoryRow*>> byDevice;
    for (const OperatorMemoryRow& r : memory.stats)
        if (r.selfAllocationSize > 0)
            byDevice[r.device].push_back(&r);
    Rows& ops = rows[std::string(kMemoryTopOpsTable)];
    for (auto& [device, list] : byDevice) {
        std::stable_sort(
            list.begin(), list.end(), [](const OperatorMemoryRow* a, const OperatorMemoryRow* b) {
                return a->selfAllocationSize > b->selfAllocationSize;
            });
        list.resize(std::min(list.size(), kSummaryMemoryTopOps));
        std::int64_t position = 0;
        for (const OperatorMemoryRow* r : list) {
            std::vector<Cell> row;
            row.reserve(9);
            row.emplace_back(rank);
            row.emplace_back(device);
            row.emplace_back(position++);
            row.emplace_back(r->op);
            row.emplace_back(r->calls);
            row.emplace_back(r->selfAllocationSize);
            row.emplace_back(r->selfAllocationCount);
            row.emplace_back(r->allocationSize);
            row.emplace_back(r->selfSizeIncrease);
            ops.push_back(std::move(row));
        }
    }
}

Result<SummaryMemory> readSummaryMemory(SqliteDb& db)
{
    SummaryMemory m;
    if (!db.hasTable(kMemoryPeaksTable) || !db.hasTable(kMemoryStepsTable)
        || !db.hasTable(kMemoryTopOpsTable))
        return m;
    m.stored = true;
    auto error = forEachRow(db,
        "SELECT rank, device, peak_allocated_b, peak_reserved_b, peak_ns, time_base_ns, peak_operator, "
        "capacity_b FROM "
            + std::string(kMemoryPeaksTable) + " ORDER BY rank, device",
        [&](const SqliteStatement& s) {
            SummaryMemoryPeak p;
            p.rank = s.columnInt(0);
            p.device = s.columnText(1);
            p.peakAllocated = s.columnInt(2);
            p.peakReserved = optionalColumn(s, 3).value_or(-1);
            p.peakNs = optionalColumn(s, 4);
            p.timeBaseNs = s.columnInt(5);
            p.peakOp = s.columnText(6);
            p.capacity = optionalColumn(s, 7);
            m.peaks.push_back(std::move(p));
        });
    if (!error)
        error = forEachRow(db,
            "SELECT rank, device, step, start_ns, end_ns, allocated_at_start_b, allocated_at_end_b, "
            "step_peak_allocated_b FROM "
                + std::string(kMemoryStepsTable) + " ORDER BY rank, device, step",
            [&](const SqliteStatement& s) {
                m.steps.push_back({ s.columnInt(0), s.columnText(1), s.columnInt(2), s.columnInt(3),
                    s.columnInt(4), s.columnInt(5), s.columnInt(6), s.columnInt(7) });
            });
    if (!error)
        error = forEachRow(db,
            "SELECT rank, device, operator, calls, self_allocation_size_b, self_allocation_count, "
            "allocation_size_b, self_size_increase_b FROM "
                + std::string(kMemoryTopOpsTable) + " ORDER BY rank, device, position",
            [&](const SqliteStatement& s) {
                m.topOps.push_back({ s.columnInt(0), s.columnText(1), s.columnText(2), s.columnInt(3),
                    s.columnInt(4), s.columnInt(5), s.columnInt(6), s.columnInt(7) });
            });
    if (error)
        return Error { ErrorCode::WrongType, "damaged summary: " + error->message, db.path(), {} };
    return m;
}

} // namespace ks::core
