#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/hta_result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// Which rows a trace diff compares (HTA's DeviceType.CPU / GPU / ALL).
enum class DiffDevice : std::uint8_t
{
    Cpu,
    Gpu,
    All
};

// One side of a diff: its label (column prefix) and the ranks and iterations taken.
struct TraceDiffSide
{
    std::string label;
    std::optional<std::vector<std::int64_t>> ranks; // default: the smallest rank
    std::optional<std::vector<std::int64_t>> iterations; // default: the smallest ProfilerStep number
};

struct TraceDiffOptions
{
    AnalysisMode mode = AnalysisMode::Default;
    TraceDiffSide control { "Control", std::nullopt, std::nullopt };
    TraceDiffSide test { "Test", std::nullopt, std::nullopt };
    DiffDevice device = DiffDevice::All;
    bool shortNames = false;
};

// One trace of a diff, loaded the way the diff needs it: in HTA-compatible mode
// as HTA's LabeledTrace (parsed, no last-step filter), with the ProfilerStep
// numbers of every symbol (HTA lists them from its symbol table).
struct DiffTrace
{
    FrameSet frames;
    std::vector<std::int64_t> iterations; // ascending
};

Result<DiffTrace> loadDiffTrace(const TraceSet& traces, AnalysisMode mode);

// D1 (§12): HTA's TraceDiff.compare_traces. Per name (or short name): count and
// total duration (µs) on each side, their differences and '+'/'-'/'=', sorted by name.
AnalysisOutput compareTraces(
    const DiffTrace& control, const DiffTrace& test, const TraceDiffOptions& options);

// HTA's TraceDiff.ops_diff: names added, deleted, increased, decreased, unchanged.
AnalysisOutput opsDiff(const DiffTrace& control, const DiffTrace& test, const TraceDiffOptions& options);

// HTA's shorten_name as 0.6.1 applies it (checked against ../shared/reference):
// memory names (is_memory_kernel: starting with Memcpy, Memset, hipMemcpy, hipMemset or
// dma) and names without '(' or '<' unchanged; otherwise "->" removed,
// (...) and <...> groups removed, and the last space-separated token kept.
std::string shortenName(std::string_view name);

} // namespace ks::core
