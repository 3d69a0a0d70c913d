#pragma once

// A7's annotated trace (hta-semantics.md §10): the input trace with the top-k
// frequent kernel sequences marked on their events (args.Patterns), so that a
// search for "Patterns" in Perfetto or chrome://tracing highlights them.

#include "core/analysis/kernels/kernel_sequences.h"
#include "core/report/trace_writer.h"

#include <string>

namespace ks::core {

struct SequencesTraceOptions
{
    int topK = 5;
    // HTA's compress_other_kernels: every other complete event loses its args
    // and its name becomes a symbol id; the "PyTorch Profiler" span event gets
    // the id -> name table as args. Ids are Kinetoscope's (HTA's depend on
    // Python's set order).
    bool compressOtherEvents = false;
};

// HTA's output name: <directory>/overlaid_<input file name>.
std::string sequencesTracePath(const std::string& inputPath, const std::string& directory);

// Writes the rank's input trace with the patterns of `sequences` marked.
Result<TraceWriteSummary> writeSequencesTrace(const RankFrame& frame, const KernelSequences& sequences,
    const std::string& outputPath, bool gzip, const SequencesTraceOptions& options);

} // namespace ks::core
