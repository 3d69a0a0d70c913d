#pragma once

// HTA's call graph (hta/common/trace_call_graph.py, trace_call_stack.py) as the
// frequent-kernel-sequence analysis reads it: per CPU thread a stack of nested
// operators, GPU work hung under its launch, backward-thread operators moved
// under the main thread's annotations, then depth and kernel counts per row.

#include "core/analysis/frame/hta_frame.h"
#include "core/common/result.h"
#include "core/model/track.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ks::core::sequences {

enum class NodeDevice : std::uint8_t
{
    Cpu,
    Gpu,
    Unknown
};

// A node keyed by event index (>= 0) or by a thread root id (-|tid|).
struct CallNode
{
    std::int64_t parent = -1;
    std::int64_t depth = -1;
    NodeDevice device = NodeDevice::Cpu;
    std::vector<std::int64_t> children;
};

// One CPU thread's stack (HTA's CallStackGraph).
struct CallStack
{
    ThreadKey key;
    std::int64_t rootIndex = -1;
    NodeDevice device = NodeDevice::Cpu;
    std::string label; // "main", "bwd", or the first name
    std::vector<std::uint32_t> rows; // frame rows of the thread, frame order
};

// What HTA writes into the trace frame per event index.
struct RowStack
{
    std::int64_t depth = -1;
    std::int64_t numKernels = 0;
    std::int64_t kernelDurNs = 0;
};

class CallGraph
{
public:
    std::unordered_map<std::int64_t, CallNode> nodes;
    std::vector<CallStack> stacks;

    RowStack rowStack(std::int64_t eventIndex) const;

    bool contains(std::int64_t index) const { return nodes.count(index) != 0; }

    // Every node under `index`, itself included (HTA's get_descendants: empty
    // when the start node is not a CPU node).
    std::vector<std::int64_t> descendants(std::int64_t index) const;
    // The first stack of a thread (HTA's get_call_stacks(pid, tid)), or nullptr.
    const CallStack* stackOf(const ThreadKey& key) const;

    // Internals used while building.
    std::vector<std::int64_t> rootOrder; // roots in creation order (Python dict order)
    std::unordered_map<std::int64_t, RowStack> rowStacks;
};

// Builds the call graph of one rank. HTA-compatible mode reproduces HTA's
// construction and fails where HTA raises (ns-rounded negative durations,
// re-parenting cycles); default mode nests with exact times and never fails.
Result<CallGraph> buildCallGraph(const RankFrame& frame, AnalysisMode mode);

} // namespace ks::core::sequences
