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
// and every path edge between two different events becomes a flow arrow
// (name "critical_path", category = the edge type, args weight in µs).
// The input is streamed and never modified; `outputPath` ending in ".gz" is
// gzip-compressed. Refuses to overwrite the input file.
Result<CriticalPathTraceSummary> writeCriticalPathTrace(
    const CriticalPathGraph& graph, const std::string& outputPath);

} // namespace ks::core
