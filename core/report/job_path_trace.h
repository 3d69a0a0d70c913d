#pragma once

// The job's critical path across ranks as a Chrome/Perfetto trace of its own:
// one process per rank ("rank R: critical path") whose slices are the path's
// segments at their times on that rank's recorded clock, and a flow arrow per
// hop from the rank the path left to the rank it continued on. Opened next to
// (or merged with) the ranks' traces it overlays them.

#include "core/analysis/cross_rank/job_critical_path.h"

#include <string>

namespace ks::core {

// `minTs`: FrameSet::minTs, added back to the frame time base (ns).
std::string jobPathTraceJson(const JobCriticalPath& job, TimeNs minTs);

} // namespace ks::core
