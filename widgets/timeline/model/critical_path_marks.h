#pragma once

#include "core/common/progress.h"
#include "widgets/timeline/model/timeline_types.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace ks::core {
struct TraceSet;
}

namespace ks::widgets {

// T10: the slices of one rank on its critical path (A8: core's analysis in
// default mode over the whole trace), for colouring the timeline.
struct CriticalPathMarks
{
    std::vector<std::uint32_t> slices; // on the path, ascending slice index
    TimeNs pathWeight = 0; // length of the path
    QString problem; // why the rank has no path (empty when it has one)

    bool contains(std::uint32_t slice) const;
    // Whether a slice in [first, last) is on the path: a merged block of
    // sub-pixel slices shows the path when any of its slices is on it.
    bool anyIn(std::uint32_t first, std::uint32_t last) const;
};

// Builds the rank's analysis rows and its critical path graph: seconds on
// ranks of millions of slices, so call it off the GUI thread. `rankIndex` is
// the position in set.ranks. Stops early when `cancel` fires (the marks then
// hold only a problem and must not be shown).
CriticalPathMarks computeCriticalPathMarks(
    const core::TraceSet& set, int rankIndex, const core::CancelToken* cancel = nullptr);

} // namespace ks::widgets
