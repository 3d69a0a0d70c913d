#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <memory>
#include <vector>

namespace ks::core {
class RankTrace;
}

namespace ks::widgets {

class TimelineData;

// T8 / X2: aligning ranks on a chosen collective. Ranks of one job record
// with clocks that drift, and they reach a collective at different times;
// lining up the same instance of the same kernel on every rank shows who
// waited for whom.

// Slices of the GPU streams of one rank named `name`, in start order (ties in
// slice order): the n-th element is that rank's n-th instance.
std::vector<std::uint32_t> gpuInstancesOfName(const core::RankTrace& trace, std::string_view name);

// The anchor that shifts every member of ref's collective instance so that its
// slice of the instance starts where ref does. Instances are core's matched
// ones (TimelineData::collectives: group + Seq, group + order, name + order),
// so a collective of a sub-group moves its members only. Other GPU work is
// paired by name and order. nullptr when ref can anchor nothing. Ranks without
// the instance keep their recorded times (offset 0).
std::shared_ptr<const CollectiveAnchor> collectiveAnchor(const TimelineData& data, SliceRef ref);

// Whether ref can anchor an alignment: a slice on a GPU stream or a matched collective (gloo).
bool canAlignOn(const TimelineData& data, SliceRef ref);

} // namespace ks::widgets
