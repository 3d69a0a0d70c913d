#pragma once

#include "core/analysis/critical_path/critical_path.h"
#include "core/common/result.h"

#include <cstdint>
#include <string>

namespace ks::core {

struct CriticalPathTraceSummary
{
    std::uint64_t events = 0; // traceEvents copied from the input
    std::uint64_t markedEvents = 0; // events given args.critical = 1
    std::uint64_t flowEvents = 0; // flow events added (two per drawn edge)
    std::uint64_t bytesWritten = 0; // bytes that reached the file (compressed for .gz)
};

// Writes the rank's trace with the critical path overlaid, for Perfetto or
// chrome://tracing: every event on the path gets "critical": 1 in its args,
// and path edges become flow arrows. The arrows depend on the graph's mode:
// - HTA-compatible: exactly HTA 0.6.1's overlay_critical_path_analysis
//   (hta-semantics §11.7): dependency, launch-delay and sync-dependency edges
//   only, cat and name "critical_path", args {weight (int µs), critical: true,
//   type}, ids from 0, times in whole µs as HTA derives them from the raw event;
// - default: every edge between two different events but an operator's span
//   (kernel-kernel delays too), cat = the edge type, args weight_us (ns
//   precision), ids far above Kineto's correlation ids.
// The input is streamed and never modified; `outputPath` ending in ".gz" is
// gzip-compressed. Refuses to overwrite the input file.
Result<CriticalPathTraceSummary> writeCriticalPathTrace(
    const CriticalPathGraph& graph, const std::string& outputPath);

} // namespace ks::core
