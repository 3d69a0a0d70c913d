#include "widgets/timeline/model/job_path_marks.h"

#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/model/trace_set.h"

#include <algorithm>
#include <unordered_map>

namespace ks::widgets {

namespace {

    // What one rank needs found: traceEvents index -> (bound, time on the path).
    struct Wanted
    {
        core::PathBound bound = core::PathBound::Cpu;
        TimeNs time = 0;
        std::uint32_t slice = core::kNoRow;
    };

    using WantedByEvent = std::unordered_map<std::uint32_t, Wanted>;

    // One scan of the rank's slices fills in the slice of every wanted event.
    void findSlices(const core::RankTrace& trace, WantedByEvent& wanted)
    {
        if (wanted.empty())
            return;
        const auto& events = trace.slices.eventIndex;
        for (std::uint32_t i = 0; i < events.size(); ++i) {
            const auto it = wanted.find(events[i]);
            if (it != wanted.end() && it->second.slice == core::kNoRow)
                it->second.slice = i;
        }
    }

    using Positions = std::unordered_map<std::int64_t, int>; // rank number -> TraceSet position

    // The collective slice of `rank` at `instance`, or an invalid ref.
    SliceRef collectiveSlice(const core::JobCriticalPath& job, const Positions& positions,
        const std::vector<WantedByEvent>& wanted, std::int64_t rank, std::uint32_t instance)
    {
        if (instance >= job.path.collectives.size())
            return {};
        for (const core::JoinedCollective::Member& m : job.path.collectives[instance].members) {
            const core::CondensedRank& cr = job.ranks[m.rankPos];
            if (cr.rank != rank)
                continue;
            const auto at = positions.find(rank);
            const std::int64_t event = cr.collectives[m.local].eventIndex;
            if (at == positions.end() || event < 0)
                return {};
            const int pos = at->second;
            const auto it = wanted[static_cast<std::size_t>(pos)].find(static_cast<std::uint32_t>(event));
            if (it == wanted[static_cast<std::size_t>(pos)].end() || it->second.slice == core::kNoRow)
                return {};
            return { pos, it->second.slice };
        }
        return {};
    }

} // namespace

bool RankPathMarks::contains(std::uint32_t slice) const
{
    return std::binary_search(slices.begin(), slices.end(), slice);
}

std::optional<core::PathBound> RankPathMarks::boundIn(std::uint32_t first, std::uint32_t last) const
{
    const auto it = std::lower_bound(slices.begin(), slices.end(), first);
    if (it == slices.end() || *it >= last)
        return std::nullopt;
    return bounds[static_cast<std::size_t>(it - slices.begin())];
}

JobPathMarks computeJobPathMarks(const core::TraceSet& set, const core::JobCriticalPath& job)
{
    JobPathMarks marks;
    marks.length = job.path.length;
    marks.segments = job.path.segments.size();
    std::vector<WantedByEvent> wanted(set.ranks.size());
    Positions positions;
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        positions.emplace(set.ranks[r]->rank, static_cast<int>(r));
    // A slice several segments pass through takes the bound the path spent most time in it as.
    for (const core::PathSegment& s : job.path.segments) {
        const auto pos = positions.find(s.rank);
        if (pos == positions.end() || s.piece.eventIndex < 0) {
            ++marks.segmentsWithoutSlice;
            continue;
        }
        Wanted& w =
            wanted[static_cast<std::size_t>(pos->second)][static_cast<std::uint32_t>(s.piece.eventIndex)];
        if (s.piece.duration > w.time) {
            w.bound = s.piece.bound;
            w.time = s.piece.duration;
        }
    }
    // The hops' collective slices are looked up in the same pass (time 0: not path colour on their own).
    for (const core::PathHop& hop : job.path.hops) {
        if (hop.instance >= job.path.collectives.size())
            continue;
        for (const core::JoinedCollective::Member& m : job.path.collectives[hop.instance].members) {
            const core::CondensedRank& cr = job.ranks[m.rankPos];
            const auto pos = positions.find(cr.rank);
            const std::int64_t event = cr.collectives[m.local].eventIndex;
            if ((cr.rank == hop.fromRank || cr.rank == hop.toRank) && pos != positions.end() && event >= 0)
                wanted[static_cast<std::size_t>(pos->second)].try_emplace(static_cast<std::uint32_t>(event));
        }
    }
    marks.ranks.resize(set.ranks.size());
    for (std::size_t r = 0; r < set.ranks.size(); ++r) {
        findSlices(*set.ranks[r], wanted[r]);
        std::vector<std::pair<std::uint32_t, core::PathBound>> found;
        for (const auto& [event, w] : wanted[r]) {
            if (w.slice != core::kNoRow && w.time > 0)
                found.emplace_back(w.slice, w.bound);
        }
        std::sort(found.begin(), found.end());
        RankPathMarks& rank = marks.ranks[r];
        for (const auto& [slice, bound] : found) {
            rank.slices.push_back(slice);
            rank.bounds.push_back(bound);
        }
    }
    for (const core::PathHop& hop : job.path.hops) {
        PathHopMark mark;
        mark.from = collectiveSlice(job, positions, wanted, hop.fromRank, hop.instance);
        mark.to = collectiveSlice(job, positions, wanted, hop.toRank, hop.instance);
        mark.collective = QString::fromStdString(hop.collective);
        if (mark.from.valid() && mark.to.valid())
            marks.hops.push_back(std::move(mark));
    }
    return marks;
}

} // namespace ks::widgets
