#include "core/analysis/cross_rank/cross_rank_collectives.h"

#include "core/analysis/cross_rank/collective_match.h"

namespace ks::core {

// The process-group matcher decides which slices are one collective; an
// instance with a group member missing (or without the collective) is not
// complete, so the join keeps it on its rank instead of joining a part.
PathCollectives pathCollectives(const FrameSet& frames)
{
    std::vector<const RankTrace*> traces;
    traces.reserve(frames.ranks.size());
    for (const RankFrame& frame : frames.ranks)
        traces.push_back(frame.trace.get());
    return pathCollectives(frames, matchCollectives(traces));
}

bool matchCoversFrames(const FrameSet& frames, const std::vector<const RankTrace*>& matchedTraces)
{
    if (frames.ranks.size() != matchedTraces.size())
        return false;
    for (std::size_t i = 0; i < matchedTraces.size(); ++i)
        if (frames.ranks[i].trace.get() != matchedTraces[i])
            return false;
    return true;
}

PathCollectives pathCollectives(const FrameSet& frames, const CollectiveMatch& match)
{
    PathCollectives out;
    out.byRank.resize(frames.ranks.size());
    out.notes = match.notes;
    for (std::size_t i = 0; i < match.instances.size(); ++i) {
        const CollectiveInstance& instance = match.instances[i];
        const auto id = static_cast<std::uint32_t>(i);
        out.names.push_back(instance.name);
        const bool complete = instance.missingRanks.empty();
        for (const CollectiveMember& m : instance.members)
            out.byRank[m.rankIndex].push_back({ m.slice, id, complete });
    }
    return out;
}

} // namespace ks::core
