#pragma once

#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/table.h"
#include "core/model/event_tables.h"
#include "core/model/trace_set.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

// Per-operator statistics with PyTorch's key_averages() rules
// (torch/autograd/profiler_util.py, PyTorch 1.13):
// - an op's children are the ops of its thread (and node) that start before
//   and end no later than it ends; self = total - children's totals;
// - spans PyTorch closes on another thread (RPC calls, gloo collectives) are
//   async: nobody's parent or child, self time 0;
// - "ProfilerStep#N" counts as "ProfilerStep*";
// - percentages are shares of the sum of every op's self CPU time.
// GPU time: kernels and memory work reached through launch links, attributed to
// the innermost op around the launch (self), and to its ancestors (total).
enum class OperatorGrouping : std::uint8_t
{
    Name, // name and node (PyTorch's default key)
    Shapes, // name, node and input shapes ("Input Dims")
    Node,
    Rank,
    Iteration,
};

// The grouping a user names: "name", "shapes", "node", "rank" or "iteration" (the CLI's
// --by and the Python module's group_by); nullopt for any other text.
std::optional<OperatorGrouping> operatorGroupingNamed(std::string_view text);

struct OperatorStatsOptions
{
    OperatorGrouping by = OperatorGrouping::Name;
    std::vector<std::int64_t> ranks; // empty: all
    // Only ops starting in [windowStart, windowEnd), in ns on the trace's clock.
    std::optional<TimeNs> windowStart;
    std::optional<TimeNs> windowEnd;
};

struct OperatorRow
{
    std::string name;
    std::int64_t node = -1; // RPC node the op ran on (the rank for local ops)
    std::int64_t rank = -1; // with OperatorGrouping::Rank, else -1
    std::int64_t iteration = -1; // with OperatorGrouping::Iteration: ProfilerStep number, -1 outside steps
    std::string inputShapes; // with OperatorGrouping::Shapes
    std::int64_t calls = 0;
    TimeNs cpuTotal = 0;
    TimeNs selfCpu = 0;
    TimeNs gpuTotal = 0;
    TimeNs gpuSelf = 0;
    std::int64_t kernels = 0;
    // key_averages' memory columns (profile_memory=True): bytes of the [memory]
    // records inside the op's span (CPU; CUDA and HIP as CUDA), self = minus its children's.
    std::int64_t cpuMem = 0;
    std::int64_t selfCpuMem = 0;
    std::int64_t cudaMem = 0;
    std::int64_t selfCudaMem = 0;
    bool async = false;
};

struct OperatorStats
{
    std::vector<OperatorRow> rows; // by self CPU time, largest first
    TimeNs selfCpuSum = 0; // the percentage base
    bool hasGpu = false;
    bool hasMemory = false; // a rank has [memory] events: the table has the memory columns
    std::vector<std::string> notes; // bad input met (unparsable shapes, no category)
    // Input shapes are re-read from the files: set when one changed since loading
    // (ErrorCode::FileChanged). The rows are then incomplete and must not be shown.
    std::optional<Error> error;
};

// Columns of operatorStatsTable (PyTorch has no HTA spelling: one name in both modes).
namespace operator_stats_columns {
    inline constexpr ColumnId kName { "name", "" };
    inline constexpr ColumnId kNode { "node", "" };
    inline constexpr ColumnId kRank { "rank", "" };
    inline constexpr ColumnId kIteration { "iteration", "" };
    inline constexpr ColumnId kInputShapes { "input_shapes", "" };
    inline constexpr ColumnId kCalls { "calls", "" };
    inline constexpr ColumnId kSelfCpuPct { "self_cpu_pct", "%" };
    inline constexpr ColumnId kSelfCpu { "self_cpu_us", "us" };
    inline constexpr ColumnId kCpuTotalPct { "cpu_total_pct", "%" };
    inline constexpr ColumnId kCpuTotal { "cpu_total_us", "us" };
    inline constexpr ColumnId kCpuAvg { "cpu_avg_us", "us" };
    inline constexpr ColumnId kGpuTotal { "gpu_total_us", "us" };
    inline constexpr ColumnId kGpuSelf { "gpu_self_us", "us" };
    inline constexpr ColumnId kKernels { "kernels", "" };
    inline constexpr ColumnId kCpuMem { "cpu_mem_b", "B" };
    inline constexpr ColumnId kSelfCpuMem { "self_cpu_mem_b", "B" };
    inline constexpr ColumnId kCudaMem { "cuda_mem_b", "B" };
    inline constexpr ColumnId kSelfCudaMem { "self_cuda_mem_b", "B" };
    inline constexpr ColumnId kAsync { "async", "" };
} // namespace operator_stats_columns

OperatorStats operatorStats(const TraceSet& set, const OperatorStatsOptions& options);
Table operatorStatsTable(const OperatorStats& stats, OperatorGrouping by);

} // namespace ks::core
