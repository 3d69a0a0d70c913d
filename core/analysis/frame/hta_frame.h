#pragma once

#include "core/analysis/frame/analysis_options.h"
#include "core/analysis/frame/kernel_type.h"
#include "core/common/parallel_for.h"
#include "core/common/result.h"
#include "core/model/trace_set.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

namespace ks::core {

constexpr std::int64_t kNoIteration = std::numeric_limits<std::int64_t>::min(); // HTA's NaN iteration

// One row of the table the analyses read: one complete slice, with the columns
// HTA derives at load time. Times are integer nanoseconds relative to the
// trace set's start (HTA's alignment); in HTA-compatible mode they carry HTA's
// ns-rounding (Q1), so ts and dur are whole microseconds there when it applies.
struct FrameRow
{
    std::uint32_t slice = 0; // row of RankTrace::slices
    std::uint32_t eventIndex = 0; // position in traceEvents (HTA's `index`)
    std::int64_t ts = 0;
    std::int64_t dur = 0;
    std::int64_t stream = -1;
    std::int64_t correlation = -1;
    std::int64_t indexCorrelation = -1; // partner's event index; 0 = has correlation, no partner; -1 = none
    std::int64_t iteration = -1; // kNoIteration where HTA has NaN
    bool device = false; // device activity (kernel, memcpy, memset, and their legacy/ROCm/MTIA names)
    // The mode's kernel type (classifyKernel), set on GPU-work rows: rows with a
    // stream in HTA-compatible mode, device activity otherwise (Q3).
    KernelType kernelType = KernelType::Other;

    // Cannot overflow: the reader keeps only slices whose end is in range
    // (core/io/store_builder/time_range.h).
    std::int64_t end() const { return ts + dur; }
};

// One rank as the analyses see it.
class RankFrame
{
public:
    std::int64_t rank = 0;
    std::shared_ptr<const RankTrace> trace;
    std::vector<FrameRow> rows; // HTA's row order in compat mode; event order otherwise
    bool floatTimestamps = false; // HTA's ts column is float64 (only affects output types)
    bool floatDurations = false; // HTA's dur column is float64

    std::string_view name(const FrameRow& row) const { return trace->sliceName(row.slice); }

    std::string_view category(const FrameRow& row) const { return trace->sliceCategory(row.slice); }

    // The row of an event index (HTA's df.loc[i]); nullptr when the event has no row.
    const FrameRow* rowOfEvent(std::int64_t eventIndex) const;
    void indexRows();

private:
    static constexpr std::uint32_t kNoRow = 0xffffffffu;
    // Event index -> row. A dense array: event indexes are positions in
    // traceEvents, so it is at most 4 bytes per event and lookups are one load.
    std::vector<std::uint32_t> m_rowByEvent;
};

struct FrameSet
{
    AnalysisMode mode = AnalysisMode::Default;
    std::vector<RankFrame> ranks; // ascending rank
    std::int64_t minTs = 0; // absolute ns subtracted from every ts (HTA's min_ts, in ns)
    std::string deviceType; // "NVIDIA GPU", "AMD GPU", "MTIA", "UNKNOWN GPU"
    bool filteredToCompleteSteps = false; // Q2 applied
    std::vector<std::int64_t> iterations; // ProfilerStep numbers present after loading, ascending
};

// Builds the analysis rows of every selected rank. In HTA-compatible mode this
// is HTA 0.6.1's loading (hta-semantics.md §1): drops, ns rounding, correlation
// index, iterations, alignment and the last-step filter. In default mode all
// slices are kept with exact times. Iteration selection (A9) applies last.
// Ranks are built independently, through `parallelFor` when given.
Result<FrameSet> buildFrames(
    const TraceSet& traces, const AnalysisOptions& options, const ParallelFor& parallelFor = runSequentially);

bool isDeviceActivityCategory(std::string_view category);

} // namespace ks::core
