#pragma once

#include "core/analysis/critical_path/critical_path.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/table.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ks::core {

// GPU->CPU (and GPU->GPU stream wait) synchronization dependencies of a
// critical-path graph, in the form Chakra's trace linker consumes (seed 004):
// both events' External id, and the CPU operator a simulator must make wait.
enum class SyncKind : std::uint8_t
{
    StreamSync, // cudaStreamSynchronize
    EventSync, // cudaEventSynchronize, cudaEventQuery
    DeviceSync, // cudaDeviceSynchronize
    StreamWait, // cudaStreamWaitEvent: a GPU stream waits
    Other, // another blocking call (a synchronous memcpy, ...)
};

std::string_view syncKindName(SyncKind kind); // "stream_sync", ...

struct SyncEventRef
{
    std::int64_t eventIndex = -1; // position in traceEvents; -1 when none
    std::string name;
    std::int64_t externalId = -1; // "External id" arg; -1 when absent
};

struct SyncDependency
{
    SyncKind kind = SyncKind::Other;
    bool inferred = false; // found without a cuda_sync record (default mode)
    SyncEventRef gpu; // the GPU work waited for (its end is the edge's start)
    SyncEventRef waiter; // the runtime call (or GPU work) that waits
    // The nearest CPU operator on the waiting thread starting at or after the
    // waiter's end: runtime calls are not simulated, so this op carries the dependency.
    SyncEventRef nextOp;
    // The edge is on the graph's critical path: the only ones Chakra's trace
    // linker takes (it reads HTA's critical_path_edges_set).
    bool onCriticalPath = false;
};

// Which sync edges syncDependencies lists.
enum class SyncEdgeSelection : std::uint8_t
{
    CriticalPath, // only those on the critical path, as Chakra's trace linker takes them
    All, // every SYNC_DEPENDENCY edge of the graph
};

// In graph order (node order, then insertion order).
std::vector<SyncDependency> syncDependencies(
    const CriticalPathGraph& graph, SyncEdgeSelection selection = SyncEdgeSelection::CriticalPath);

// Columns of syncDependencyTable.
namespace sync_dependency_columns {
    inline constexpr ColumnId kKind { "kind", "" };
    inline constexpr ColumnId kInferred { "inferred", "" };
    inline constexpr ColumnId kGpuEvent { "start_event", "" };
    inline constexpr ColumnId kGpuName { "start_name", "" };
    inline constexpr ColumnId kGpuExternalId { "start_external_id", "" };
    inline constexpr ColumnId kWaiterEvent { "end_event", "" };
    inline constexpr ColumnId kWaiterName { "end_name", "" };
    inline constexpr ColumnId kWaiterExternalId { "end_external_id", "" };
    inline constexpr ColumnId kOpEvent { "next_cpu_op_event", "" };
    inline constexpr ColumnId kOpName { "next_cpu_op_name", "" };
    inline constexpr ColumnId kOpExternalId { "next_cpu_op_external_id", "" };
    inline constexpr ColumnId kOnCriticalPath { "on_critical_path", "" };
} // namespace sync_dependency_columns

Table syncDependencyTable(const std::vector<SyncDependency>& deps);

// The map Chakra's TraceLinker.load_sync_dependencies builds from HTA's graph
// (seed 004; mlcommons/chakra 21585d8): {end External id: [start External id,
// ...]}, the end being the waiting event itself, one entry per dependency given
// (Chakra appends without merging repeats). Pairs with an absent External id,
// or the same id on both sides, are left out, as there. Chakra passes only the
// critical-path edges (SyncEdgeSelection::CriticalPath); its lists follow
// Python's set order, ours the order of `deps`.
std::map<std::int64_t, std::vector<std::int64_t>> chakraSyncMap(const std::vector<SyncDependency>& deps);

} // namespace ks::core
