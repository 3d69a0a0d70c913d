#pragma once

#include "core/analysis/hta_frame.h"
#include "core/analysis/hta_result.h"

namespace ks::core {

// A5 queue length (§8): dict rank -> time series (index, ts, pid, tid, stream, queue_length).
AnalysisOutput queueLengthTimeSeries(const FrameSet& frames, const AnalysisOptions& options);
// describe() of queue_length per (rank, stream).
AnalysisOutput queueLengthSummary(const FrameSet& frames, const AnalysisOptions& options);
// Time each stream spent with a full queue (>= options.queue.maxQueueLength), absolute and relative.
AnalysisOutput timeBlockedOnFullQueue(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
