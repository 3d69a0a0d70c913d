#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <cstdint>
#include <optional>

namespace ks::core {
class RankTrace;
}

namespace ks::widgets {

class TimelineData;

// D2: aligning a trace on an iteration. Two runs of one program start at
// unrelated wall-clock times; shifting each so that the same ProfilerStep
// starts at the ruler's 0 puts the same work under the same x.

// The raw start of `ProfilerStep#step` on a rank (its earliest instance);
// nullopt when the rank lacks it.
std::optional<TimeNs> iterationStart(const core::RankTrace& trace, std::int64_t step);

// The raw end of that step on a rank.
std::optional<TimeNs> iterationEnd(const core::RankTrace& trace, std::int64_t step);

// An alignment shifting each rank so its ProfilerStep#step starts at the
// trace start (ruler 0). Ranks without the step keep their recorded times.
Alignment iterationAlignment(const TimelineData& data, std::int64_t step);

} // namespace ks::widgets
