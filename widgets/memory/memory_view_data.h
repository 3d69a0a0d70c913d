#pragma once

// What the Memory view shows of one rank, built off the GUI thread from the
// session's memory reports: the curves per device down-sampled for the chart,
// the allocations live in the selected range and the per-operator statistics
// of the records inside it. Plain C++ over core (no Qt), so it can be tested
// and built on the job pool.

#include "core/analysis/memory/memory_report.h"
#include "core/analysis/tables/hta_result.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks::widgets {

// One device's curves as the chart draws them: ms since the origin.
struct MemorySeries
{
    std::string device;
    std::vector<double> ms;
    std::vector<double> allocated; // bytes
    std::vector<double> reserved; // bytes; empty when the trace has no reserved total
};

struct MemoryViewData
{
    std::shared_ptr<const core::MemoryReport> report; // the whole trace
    std::size_t rankIndex = 0; // into report->ranks
    std::optional<core::MemoryRange> range; // absolute ns
    // The view's times count from here: the trace set's start, the timeline's 0 (the
    // CLI's tables count from the plugin's time base, a few µs apart at most).
    core::TimeNs origin = 0;
    std::vector<MemorySeries> series; // parallel to the rank's devices
    std::shared_ptr<const core::AnalysisOutput> allocations; // a data frame: allocationsTable
    std::vector<std::size_t> allocationRows; // per row of `allocations`: its index in the rank's allocations
    std::shared_ptr<const core::AnalysisOutput> stats; // a data frame: statsTable
    std::size_t totalAllocations = 0; // the rank's, before the range filter

    const core::RankMemory* rank() const
    {
        return report && rankIndex < report->ranks.size() ? &report->ranks[rankIndex] : nullptr;
    }
};

// The points a chart draws per device at most (LTTB keeps the peaks' shape).
inline constexpr std::size_t kMaxChartPoints = 4000;

// The text the free operator column shows for an allocation still live at the trace's end.
inline constexpr const char* kNeverFreed = "never freed";

// An allocation is live in [range.start, range.end] when it was allocated by the
// range's end (or before the trace) and released at or after its start (or never).
bool liveIn(const core::AllocationRow& row, const core::MemoryRange& range);

// The rank's allocations live in `range` (all without one): device, operator,
// size, allocation and release time (µs since `origin`), duration, free
// operator ("never freed" when it was not).
// `rows` (optional): each row's index in rank.allocations.
core::Table allocationsTable(const core::RankMemory& rank, const std::optional<core::MemoryRange>& range,
    core::TimeNs origin, std::vector<std::size_t>* rows = nullptr);

// The plugin's Memory Statistics of the rank (device, operator and its seven numbers).
core::Table statsTable(const core::RankMemory& rank);

// `ranged`: the same rank's report over `range` (its statistics count only the
// records inside), null without a range.
MemoryViewData buildMemoryViewData(std::shared_ptr<const core::MemoryReport> report, std::size_t rankIndex,
    const core::RankMemory* ranged, const std::optional<core::MemoryRange>& range, core::TimeNs origin);

// `ts` in ms since the data's origin.
inline double msSinceOrigin(const MemoryViewData& data, core::TimeNs ts)
{
    return static_cast<double>(ts - data.origin) / 1e6;
}

} // namespace ks::widgets
