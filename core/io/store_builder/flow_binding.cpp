#include "core/io/store_builder/flow_binding.h"

#include "core/common/run_shares.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace ks::core {

namespace {

    // The position of the slice of one level containing ts; kNoRow when none.
    // It runs before the slice columns are permuted: position k of the final
    // order holds staged slice order[k].
    std::uint32_t levelSliceAt(const RankTrace& trace, const std::vector<std::uint32_t>& order,
        const Track& track, std::uint32_t level, std::int64_t ts)
    {
        const auto& start = trace.slices.start;
        const std::uint32_t first = track.levelBegin[level];
        std::uint32_t lo = first;
        std::uint32_t hi = track.levelBegin[level + 1];
        while (lo < hi) { // the first position starting after ts
            const std::uint32_t mid = lo + (hi - lo) / 2;
            if (start[order[mid]] <= ts)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == first || trace.slices.end(order[lo - 1]) < ts)
            return kNoRow;
        return lo - 1;
    }

    // The slices of the track containing ts, innermost first: visit(k)
    // returns true to stop. The one level walk both lookups below share.
    // Nesting levels go deepest first. The lanes past them hold slices that
    // overlap without nesting (a ProfilerStep user annotation opened inside
    // record_function's Python call): they are drawn below every nesting level
    // but are not inside those slices (a deepest-level-first walk bound every
    // launch of such a step to the step), so each goes before the first nesting
    // slice starting no later than it; at equal starts the nesting slice stays
    // first.
    template <typename Visit>
    void visitSlicesAt(const RankTrace& trace, const std::vector<std::uint32_t>& order,
        std::uint32_t trackIndex, std::int64_t ts, Visit visit)
    {
        if (trackIndex == kNoRow)
            return;
        const Track& track = trace.tracks[trackIndex];
        const std::uint32_t nesting = std::min(track.nestingLevels, track.levelCount());
        const auto& start = trace.slices.start;
        std::vector<std::uint32_t> lanes; // lane slices at ts, latest start first
        for (std::uint32_t level = nesting; level < track.levelCount(); ++level)
            if (const std::uint32_t k = levelSliceAt(trace, order, track, level, ts); k != kNoRow)
                lanes.push_back(k);
        std::stable_sort(lanes.begin(), lanes.end(),
            [&](std::uint32_t a, std::uint32_t b) { return start[order[a]] > start[order[b]]; });
        std::size_t lane = 0;
        for (std::uint32_t level = nesting; level-- > 0;) {
            const std::uint32_t k = levelSliceAt(trace, order, track, level, ts);
            if (k == kNoRow)
                continue;
            for (; lane < lanes.size() && start[order[lanes[lane]]] > start[order[k]]; ++lane)
                if (visit(lanes[lane]))
                    return;
            if (visit(k))
                return;
        }
        for (; lane < lanes.size(); ++lane)
            if (visit(lanes[lane]))
                return;
    }

    // The innermost slice of the track containing ts; kNoRow when none.
    std::uint32_t findSliceAt(const RankTrace& trace, const std::vector<std::uint32_t>& order,
        std::uint32_t trackIndex, std::int64_t ts)
    {
        std::uint32_t found = kNoRow;
        visitSlicesAt(trace, order, trackIndex, ts, [&found](std::uint32_t k) {
            found = k;
            return true;
        });
        return found;
    }

    // Kineto numbers a launch flow by its correlation id and ends it where the
    // GPU work starts, which can lie inside other work on the stream (a sync
    // during a kernel). So a launch flow ends on the slice at ts carrying its
    // correlation id, at any depth; failing that, the innermost one with no
    // correlation id. kNoRow when every slice there belongs to another launch:
    // linkByCorrelation then links that work to its own launch.
    std::uint32_t findLaunchedSliceAt(const RankTrace& trace, const std::vector<std::uint32_t>& order,
        std::uint32_t trackIndex, std::int64_t ts, std::int64_t correlation)
    {
        std::uint32_t matching = kNoRow;
        std::uint32_t uncorrelated = kNoRow;
        visitSlicesAt(trace, order, trackIndex, ts, [&](std::uint32_t k) {
            const std::int64_t c = trace.correlation(k); // the activity args are in final order already
            if (c == correlation) {
                matching = k;
                return true;
            }
            if (c < 0 && uncorrelated == kNoRow)
                uncorrelated = k;
            return false;
        });
        return matching != kNoRow ? matching : uncorrelated;
    }

    // Starts and ends of one id, in time order, so the k-th start pairs with the k-th end.
    bool pointLess(const FlowPoint& a, const FlowPoint& b)
    {
        if (a.id != b.id)
            return a.id < b.id;
        if (a.ts != b.ts)
            return a.ts < b.ts;
        return a.eventIndex < b.eventIndex;
    }

} // namespace

namespace {

    // A flow point that binds nothing, counted; only the first of its kind
    // builds the example's text.
    void noteOrphan(const RankTrace& trace, const FlowGroup& group, const FlowPoint& p, bool start,
        const char* why, Diagnostics& notes)
    {
        const DiagnosticKind kind = start ? DiagnosticKind::OrphanFlowStart : DiagnosticKind::OrphanFlowEnd;
        if (notes.count(kind) > 0) {
            notes.addCount(kind, 1, {}, p.eventIndex);
            return;
        }
        const std::string id = group.idIsName
            ? std::string(trace.strings.view(NameId { static_cast<std::uint32_t>(p.id) }))
            : std::to_string(p.id);
        notes.add(
            kind, "flow event #" + std::to_string(p.eventIndex) + " id=" + id + ": " + why, p.eventIndex);
    }

    // One flow group being bound to its slices: what every share reads.
    struct FlowBinding
    {
        const RankTrace& trace;
        const LayoutInput& input;
        const FlowGroup& group;
        bool launch = false; // ends bind to the slice carrying their correlation id
        LinkKind kind = LinkKind::OtherFlow;
    };

    // Binds the group's pairs [first, last): start k with end k (pairFlows
    // left the lists paired), appending links and notes to a share's own tables.
    void bindFlows(
        const FlowBinding& b, std::size_t first, std::size_t last, LinkTable& links, Diagnostics& notes)
    {
        const RankTrace& trace = b.trace;
        const std::vector<std::uint32_t>& order = b.input.order;
        const std::vector<std::uint32_t>& stagingToTrack = b.input.stagingToTrack;
        for (std::size_t k = first; k < last; ++k) {
            const FlowPoint& from = b.group.starts[k];
            const FlowPoint& to = b.group.ends[k];
            const std::uint32_t fromSlice =
                findSliceAt(trace, order, stagingToTrack[from.stagingTrack], from.ts);
            const std::uint32_t endTrack = stagingToTrack[to.stagingTrack];
            const std::uint32_t toSlice = b.launch ? findLaunchedSliceAt(trace, order, endTrack, to.ts, to.id)
                                                   : findSliceAt(trace, order, endTrack, to.ts);
            if (fromSlice == kNoRow) {
                noteOrphan(trace, b.group, from, true, "no slice at the flow start", notes);
                continue;
            }
            if (toSlice == kNoRow) {
                noteOrphan(trace, b.group, to, false, "no slice at the flow end", notes);
                continue;
            }
            links.from.push_back(fromSlice);
            links.to.push_back(toSlice);
            links.kind.push_back(b.kind);
        }
    }

    // Groups this small are bound on the calling thread alone.
    constexpr std::size_t kPointsWorthSharing = 1u << 14;

} // namespace

void pairFlows(RankTrace& trace, FlowPoints& flows, const std::vector<BackgroundWork*>& helpers)
{
    std::vector<FlowGroup>& groups = flows.groups();
    // Category by category, string ids before numbers, as the diagnostics always came.
    std::sort(groups.begin(), groups.end(), [](const FlowGroup& a, const FlowGroup& b) {
        return a.category != b.category ? a.category < b.category : a.idIsName > b.idIsName;
    });
    const std::vector<BackgroundWork*> none;
    for (FlowGroup& group : groups) {
        std::vector<FlowPoint>& starts = group.starts;
        std::vector<FlowPoint>& ends = group.ends;
        const bool share = starts.size() + ends.size() >= kPointsWorthSharing;
        const std::vector<BackgroundWork*>& sorters = share ? helpers : none;
        runShares(sorters, [&](std::size_t w) {
            for (std::size_t list = w; list < 2; list += sorters.size() + 1)
                std::sort(list == 0 ? starts.begin() : ends.begin(), list == 0 ? starts.end() : ends.end(),
                    pointLess);
        });
        // One id at a time: the k-th start pairs with the k-th end (robust to
        // clock skew between CPU and GPU); the rest are orphans, counted and dropped.
        std::size_t s = 0, e = 0, keptStarts = 0, keptEnds = 0;
        while (s < starts.size() || e < ends.size()) {
            const std::int64_t id = s == starts.size() ? ends[e].id
                : e == ends.size()                     ? starts[s].id
                                                       : std::min(starts[s].id, ends[e].id);
            std::size_t sEnd = s, eEnd = e;
            while (sEnd < starts.size() && starts[sEnd].id == id)
                ++sEnd;
            while (eEnd < ends.size() && ends[eEnd].id == id)
                ++eEnd;
            const std::size_t pairs = std::min(sEnd - s, eEnd - e);
            for (std::size_t k = s + pairs; k < sEnd; ++k)
                noteOrphan(trace, group, starts[k], true, "no matching flow end", trace.diagnostics);
            for (std::size_t k = e + pairs; k < eEnd; ++k)
                noteOrphan(trace, group, ends[k], false, "no matching flow start", trace.diagnostics);
            keptStarts =
                static_cast<std::size_t>(std::copy(starts.begin() + static_cast<std::ptrdiff_t>(s),
                                             starts.begin() + static_cast<std::ptrdiff_t>(s + pairs),
                                             starts.begin() + static_cast<std::ptrdiff_t>(keptStarts))
                    - starts.begin());
            keptEnds = static_cast<std::size_t>(std::copy(ends.begin() + static_cast<std::ptrdiff_t>(e),
                                                    ends.begin() + static_cast<std::ptrdiff_t>(e + pairs),
                                                    ends.begin() + static_cast<std::ptrdiff_t>(keptEnds))
                - ends.begin());
            s = sEnd;
            e = eEnd;
        }
        // Orphans can be half the points (an older Kineto's async_cpu_to_gpu
        // ends): their memory goes before the layout's peak, one list at a time.
        if (keptStarts < starts.size())
            std::vector<FlowPoint>(starts.begin(), starts.begin() + static_cast<std::ptrdiff_t>(keptStarts))
                .swap(starts);
        if (keptEnds < ends.size())
            std::vector<FlowPoint>(ends.begin(), ends.begin() + static_cast<std::ptrdiff_t>(keptEnds))
                .swap(ends);
    }
}

void resolveFlows(RankTrace& trace, FlowPoints& flows, const LayoutInput& input)
{
    const NameId ac2g = trace.strings.find("ac2g");
    const NameId fwdbwd = trace.strings.find("fwdbwd");
    const NameId asyncCpuToGpu = trace.strings.find("async_cpu_to_gpu"); // older Kineto
    const std::vector<BackgroundWork*> none;
    for (FlowGroup& group : flows.groups()) { // sorted and paired by pairFlows
        const bool launchCategory = group.category == ac2g || group.category == asyncCpuToGpu;
        const FlowBinding binding { trace, input, group, launchCategory && !group.idIsName,
            launchCategory                 ? LinkKind::LaunchFlow
                : group.category == fwdbwd ? LinkKind::ForwardBackward
                                           : LinkKind::OtherFlow };
        const bool share = group.starts.size() + group.ends.size() >= kPointsWorthSharing;
        const std::vector<BackgroundWork*>& helpers = share ? input.helpers : none;
        const std::size_t shares = helpers.size() + 1;
        // Pairs are independent: share w binds an even cut of them.
        const std::size_t pairs = group.starts.size();
        assert(group.ends.size() == pairs); // pairFlows left the lists paired
        // Share 0 appends to the trace's links; the others to their own, copied
        // after it in share order: as one thread would have.
        std::vector<LinkTable> links(shares - 1);
        std::vector<Diagnostics> notes(shares);
        runShares(helpers, [&](std::size_t w) {
            bindFlows(binding, pairs * w / shares, pairs * (w + 1) / shares,
                w == 0 ? trace.links : links[w - 1], notes[w]);
        });
        for (std::size_t w = 0; w < shares; ++w) {
            if (w > 0) {
                const LinkTable& part = links[w - 1];
                trace.links.from.insert(trace.links.from.end(), part.from.begin(), part.from.end());
                trace.links.to.insert(trace.links.to.end(), part.to.begin(), part.to.end());
                trace.links.kind.insert(trace.links.kind.end(), part.kind.begin(), part.kind.end());
            }
            trace.diagnostics.merge(notes[w]);
        }
        std::vector<FlowPoint>().swap(group.starts); // freed now: the permutation's copies come next
        std::vector<FlowPoint>().swap(group.ends);
    }
    flows.groups().clear();
}

} // namespace ks::core
