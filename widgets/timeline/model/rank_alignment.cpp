#include "widgets/timeline/model/rank_alignment.h"

#include "core/model/rank_trace.h"
#include "widgets/common/format.h"
#include "widgets/timeline/model/timeline_data.h"

#include <algorithm>

namespace ks::widgets {

std::vector<std::uint32_t> gpuInstancesOfName(const core::RankTrace& trace, std::string_view name)
{
    std::vector<std::uint32_t> out;
    // Each rank interns its own strings: the name is looked up, not its id reused.
    const core::NameId id = trace.strings.find(name);
    if (!id.valid())
        return out;
    for (const core::Track& track : trace.tracks) {
        if (track.kind != core::TrackKind::GpuStream)
            continue;
        for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            if (trace.slices.name[i] == id)
                out.push_back(i);
        }
    }
    // Streams are concatenated: one stable sort puts the instances in time order.
    std::stable_sort(out.begin(), out.end(),
        [&](std::uint32_t a, std::uint32_t b) { return trace.slices.start[a] < trace.slices.start[b]; });
    return out;
}

namespace {

    // The matched instance holding ref (core::matchCollectives: group + Seq,
    // group + order, else name + order), or null.
    const core::CollectiveInstance* matchedInstance(const TimelineData& data, SliceRef ref)
    {
        if (!data.collectives)
            return nullptr;
        const auto index = data.collectives->instanceOf(static_cast<std::size_t>(ref.rank), ref.slice);
        return index ? &data.collectives->instances[*index] : nullptr;
    }

    // Kernels that are no collective: the same instance of the same name on every rank.
    std::shared_ptr<CollectiveAnchor> anchorByNameAndOrder(const TimelineData& data, SliceRef ref)
    {
        const core::RankTrace& refTrace = data.trace(ref.rank);
        const std::string_view name = refTrace.sliceName(ref.slice);
        const std::vector<std::uint32_t> own = gpuInstancesOfName(refTrace, name);
        const auto at = std::find(own.begin(), own.end(), ref.slice);
        if (at == own.end())
            return nullptr;
        auto anchor = std::make_shared<CollectiveAnchor>();
        anchor->name = toQString(name);
        anchor->ordinal = static_cast<int>(at - own.begin());
        anchor->referenceRank = ref.rank;
        anchor->offsets.assign(static_cast<std::size_t>(data.rankCount()), 0);
        const TimeNs target = refTrace.slices.start[ref.slice];
        for (int r = 0; r < data.rankCount(); ++r) {
            const core::RankTrace& t = data.trace(r);
            const std::vector<std::uint32_t> instances = r == ref.rank ? own : gpuInstancesOfName(t, name);
            if (static_cast<std::size_t>(anchor->ordinal) >= instances.size())
                continue;
            anchor->offsets[static_cast<std::size_t>(r)] =
                t.slices.start[instances[static_cast<std::size_t>(anchor->ordinal)]] - target;
            ++anchor->ranksFound;
        }
        return anchor;
    }

} // namespace

bool canAlignOn(const TimelineData& data, SliceRef ref)
{
    if (!ref.valid() || ref.rank >= data.rankCount())
        return false;
    const core::RankTrace& t = data.trace(ref.rank);
    if (ref.slice >= t.slices.size())
        return false;
    // GPU work, or a matched collective on a CPU thread (gloo).
    return t.tracks[t.trackOf(ref.slice).value].kind == core::TrackKind::GpuStream
        || matchedInstance(data, ref) != nullptr;
}

std::shared_ptr<const CollectiveAnchor> collectiveAnchor(const TimelineData& data, SliceRef ref)
{
    if (!canAlignOn(data, ref))
        return nullptr;
    const core::CollectiveInstance* instance = matchedInstance(data, ref);
    if (!instance)
        return anchorByNameAndOrder(data, ref);
    // Only the members of the instance's group move: a sub-group's collective
    // says nothing about the clocks of ranks outside it.
    auto anchor = std::make_shared<CollectiveAnchor>();
    anchor->name = toQString(data.trace(ref.rank).sliceName(ref.slice));
    anchor->ordinal = static_cast<int>(instance->ordinal);
    anchor->referenceRank = ref.rank;
    anchor->group = QString::fromStdString(data.collectives->group(instance->group).label());
    anchor->offsets.assign(static_cast<std::size_t>(data.rankCount()), 0);
    const TimeNs target = data.trace(ref.rank).slices.start[ref.slice];
    for (const core::CollectiveMember& m : instance->members) {
        anchor->offsets[m.rankIndex] = m.start - target;
        ++anchor->ranksFound;
    }
    return anchor;
}

} // namespace ks::widgets
