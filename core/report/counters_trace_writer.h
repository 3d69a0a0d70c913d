#pragma once

// A5 augmented trace (hta-semantics.md §13): one rank's trace with its queue
// length and memory bandwidth series appended as Chrome-trace counter ("C") events.

#include "core/analysis/frame/hta_frame.h"
#include "core/report/trace_writer.h"

#include <string>
#include <vector>

namespace ks::core {

// The counter events HTA appends for a rank, in HTA's order and key order:
// queue length per stream ({"pid","ts","args":{"Queue Length":n},"ph":"C",
// "name":"Queue Length","id":stream}), then memory bandwidth per copy kind
// ({"pid","ts","args":{"Memcpy BW":gbps},"ph":"C","name":"Memcpy HtoD"}).
// Times are the trace's own (alignment undone).
std::vector<std::string> counterEvents(
    const FrameSet& frames, const AnalysisOptions& options, std::int64_t rank);

// HTA's output name next to the input: x.json.gz -> x_with_counters.json.gz.
std::string countersTracePath(const std::string& inputPath);

// Writes the rank's input trace with its counter events appended; gzip or plain as asked.
Result<TraceWriteSummary> writeCountersTrace(const FrameSet& frames, const AnalysisOptions& options,
    std::int64_t rank, const std::string& outputPath, bool gzip);

} // namespace ks::core
