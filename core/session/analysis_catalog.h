#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/hta_result.h"
#include "core/session/output_key.h"

#include <functional>
#include <string>
#include <vector>

namespace ks::core {

// One HTA call Kinetoscope reproduces: its output's key, the CLI id that
// selects it, HTA's call name, the file it is written to (as in
// ../shared/reference), its arguments as HTA's JSON, and the function that
// computes it.
struct AnalysisCall
{
    OutputKey key;
    std::string id; // temporal, idle, kernels, overlap, memory-bw, queue-length, launch-stats, steps
    std::string htaCall; // get_temporal_breakdown, ...
    std::string fileName; // get_temporal_breakdown.json, ...
    std::string argsJson;
    AnalysisOptions options; // the options this call runs with (e.g. num_kernels 5)
    std::function<AnalysisOutput(const FrameSet&, const AnalysisOptions&)> run;
};

// The calls for the given options, in a stable order. `rankList` is the ranks
// analysed (HTA's `ranks=` argument where the call takes one).
std::vector<AnalysisCall> analysisCalls(
    const AnalysisOptions& options, const std::vector<std::int64_t>& rankList);

// The ids accepted by --only.
std::vector<std::string> analysisIds();

// A6 extra: the ProfilerStep numbers present (HTA's get_profiler_steps).
AnalysisOutput profilerSteps(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
