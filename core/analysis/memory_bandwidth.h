#pragma once

#include "core/analysis/hta_frame.h"
#include "core/analysis/hta_result.h"

namespace ks::core {

// A5 memory bandwidth counters (§7): dict rank -> time series (ts, pid, name, memory_bw_gbps).
AnalysisOutput memoryBwTimeSeries(const FrameSet& frames, const AnalysisOptions& options);
// describe() of the positive series values per (rank, copy kind).
AnalysisOutput memoryBwSummary(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
