#include "core/analysis/cross_rank/job_critical_path.h"

#include "core/analysis/cross_rank/stragglers.h"
#include "core/common/cancelled_error.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <unordered_map>

namespace ks::core {

namespace {

    constexpr const char* kOneRankNote = "one rank only: the path is that rank's, no collective is joined";

    Error notApplicable(std::string message)
    {
        return Error { ErrorCode::NotApplicable, std::move(message), {}, {} };
    }

    // The rank's window: its ProfilerStep#I, the given range, or all of its events.
    std::optional<CriticalPathWindow> rankWindow(const RankFrame& frame, const JobPathOptions& options)
    {
        if (options.window)
            return options.window;
        if (options.iteration) {
            const std::string step = "ProfilerStep#" + std::to_string(*options.iteration);
            for (const FrameRow& row : frame.rows)
                if (!row.device && frame.name(row) == step)
                    return CriticalPathWindow { row.ts, row.end() };
            return std::nullopt;
        }
        if (frame.rows.empty())
            return std::nullopt;
        CriticalPathWindow w { std::numeric_limits<TimeNs>::max(), std::numeric_limits<TimeNs>::min() };
        for (const FrameRow& row : frame.rows) {
            w.start = std::min(w.start, row.ts);
            w.end = std::max(w.end, row.end());
        }
        return w;
    }

    CondenseInput condenseInput(const FrameSet& frames, const PathCollectives& collectives,
        std::size_t rankPos, CriticalPathWindow window, const WhatIfScaling* whatIf,
        const CancelToken* cancel)
    {
        CondenseInput input;
        input.frames = &frames;
        input.rankPos = rankPos;
        input.collectives = &collectives.byRank[rankPos];
        input.instanceNames = &collectives.names;
        input.window = window;
        input.whatIf = whatIf;
        input.cancel = cancel;
        return input;
    }

    // After the join: names the pieces of the edges the path and the straggler
    // explanations use (`resolve` per rank), lays out the segments and gathers the
    // notes. False when cancelled.
    bool nameAndLayOut(JobCriticalPath& job, const JobPathOptions& options,
        const std::function<bool(std::size_t, const EdgesToName&)>& resolve, const ParallelFor& parallelFor)
    {
        if (job.path.ok && !options.piecesForEveryEdge) {
            std::vector<EdgesToName> needed(job.ranks.size());
            for (std::size_t i = 0; i < job.ranks.size(); ++i)
                needed[i].pieces = pathEdgesOfRank(job.path, i);
            for (const RankEdge& e : stragglerEdges(job))
                needed[e.rankPos].nameTimes.push_back(e.edge);
            std::vector<char> resolved(job.ranks.size(), 1);
            parallelFor(job.ranks.size(), [&](std::size_t i) { resolved[i] = resolve(i, needed[i]); });
            if (options.cancel && options.cancel->isCancelled())
                return false;
            for (std::size_t i = 0; i < job.ranks.size(); ++i)
                if (!resolved[i])
                    job.notes.push_back("rank " + std::to_string(job.ranks[i].rank)
                        + ": its event graph came out differently the second time; its path pieces are not "
                          "named");
        }
        if (job.path.ok)
            layOutSegments(job.ranks, job.path);
        job.notes.insert(job.notes.end(), job.path.notes.begin(), job.path.notes.end());
        return true;
    }

} // namespace

Result<JobCriticalPath> jobCriticalPath(
    const FrameSet& frames, const JobPathOptions& options, const ParallelFor& parallelFor)
{
    if (frames.ranks.empty())
        return notApplicable("no rank loaded");
    if (options.window && options.window->end <= options.window->start)
        return notApplicable("the window's end is not after its start");
    PathCollectives collectives =
        options.collectives ? pathCollectives(frames, *options.collectives) : pathCollectives(frames);

    JobCriticalPath job;
    job.notes = collectives.notes;
    std::vector<std::optional<CriticalPathWindow>> windows;
    std::vector<std::size_t> included; // rank positions with a window
    for (std::size_t p = 0; p < frames.ranks.size(); ++p) {
        windows.push_back(rankWindow(frames.ranks[p], options));
        if (windows.back())
            included.push_back(p);
        else
            job.notes.emplace_back("rank " + std::to_string(frames.ranks[p].rank) + ": "
                + (options.iteration ? "has no ProfilerStep#" + std::to_string(*options.iteration)
                                     : std::string("has no events"))
                + "; left out");
    }
    if (included.empty())
        return notApplicable(options.iteration
                ? "iteration " + std::to_string(*options.iteration) + " is on no rank"
                : std::string("no rank has events"));
    if (frames.ranks.size() == 1)
        job.notes.emplace_back(kOneRankNote);

    JobPathTiming* const timing = options.keepTiming;
    if (timing) {
        *timing = JobPathTiming {};
        timing->graphs.resize(included.size());
        timing->cancel = options.cancel;
        for (const std::size_t p : included) {
            timing->rankPos.push_back(p);
            timing->windows.push_back(*windows[p]);
        }
    }
    auto inputOf = [&](std::size_t i) {
        CondenseInput input = condenseInput(
            frames, collectives, included[i], *windows[included[i]], &options.whatIf, options.cancel);
        input.piecesForEveryEdge = options.piecesForEveryEdge;
        if (timing)
            input.keepTimed = &timing->graphs[i];
        return input;
    };
    job.ranks.resize(included.size());
    auto release = [&options] {
        if (options.releaseFreedMemory)
            options.releaseFreedMemory();
    };
    parallelFor(included.size(), [&](std::size_t i) {
        job.ranks[i] = condenseRank(inputOf(i));
        release();
    });
    if (options.cancel && options.cancel->isCancelled())
        return cancelledError();
    for (const CondensedRank& r : job.ranks) {
        job.notes.insert(job.notes.end(), r.notes.begin(), r.notes.end());
        job.measuredTime = std::max(job.measuredTime, r.windowEnd - r.windowStart);
    }
    job.path = findJoinedPath(job.ranks);
    const auto resolve = [&](std::size_t i, const EdgesToName& needed) {
        const bool ok = timing && timing->graphs[i]
            ? resolveTimedPieces(inputOf(i), *timing->graphs[i], job.ranks[i], needed)
            : resolveEdgePieces(inputOf(i), job.ranks[i], needed);
        release();
        return ok;
    };
    if (!nameAndLayOut(job, options, resolve, parallelFor))
        return cancelledError();
    if (timing)
        timing->collectives = std::move(collectives); // the inputs above point into it: moved last
    return job;
}

std::optional<Result<JobCriticalPath>> rankAlonePath(
    const FrameSet& one, const JobPathTiming& job, std::size_t rankPos, const JobPathOptions& options)
{
    if (one.ranks.size() != 1 || options.window)
        return std::nullopt;
    const auto at = std::find(job.rankPos.begin(), job.rankPos.end(), rankPos);
    if (at == job.rankPos.end())
        return std::nullopt;
    const auto i = static_cast<std::size_t>(at - job.rankPos.begin());
    const std::shared_ptr<const TimedGraph> graph = job.graphs[i];
    const RankFrame& frame = one.ranks.front();
    const std::optional<CriticalPathWindow> window = rankWindow(frame, options);
    if (!graph || !window || window->start != job.windows[i].start || window->end != job.windows[i].end
        || rankPos >= job.collectives.byRank.size())
        return std::nullopt;
    PathCollectives collectives =
        options.collectives ? pathCollectives(one, *options.collectives) : pathCollectives(one);
    // The graph was cut at the job match's collective slices of this rank: the rank
    // alone must have the same ones, which then stand for its own instances.
    const std::vector<PathCollectiveSlice>& alone = collectives.byRank.front();
    const std::vector<PathCollectiveSlice>& inJob = job.collectives.byRank[rankPos];
    if (alone.size() != inJob.size())
        return std::nullopt;
    std::unordered_map<std::uint32_t, const PathCollectiveSlice*> bySlice;
    for (const PathCollectiveSlice& c : alone)
        bySlice.emplace(c.slice, &c);
    for (const PathCollectiveSlice& c : inJob)
        if (!bySlice.contains(c.slice))
            return std::nullopt;
    std::vector<RankCollective> relabelled = graph->collectives;
    for (RankCollective& c : relabelled) {
        const FrameRow* row = c.eventIndex >= 0 ? frame.rowOfEvent(c.eventIndex) : nullptr;
        const auto it = row ? bySlice.find(row->slice) : bySlice.end();
        if (it == bySlice.end())
            return std::nullopt;
        c.instance = it->second->instance;
        c.name = collectives.names[c.instance];
        c.complete = it->second->complete;
    }

    JobCriticalPath path;
    path.notes = collectives.notes;
    path.notes.emplace_back(kOneRankNote);
    CondenseInput input = condenseInput(one, collectives, 0, *window, &options.whatIf, options.cancel);
    input.piecesForEveryEdge = options.piecesForEveryEdge;
    input.relabelled = &relabelled;
    path.ranks.push_back(condenseTimed(input, *graph));
    const CondensedRank& r = path.ranks.front();
    path.notes.insert(path.notes.end(), r.notes.begin(), r.notes.end());
    path.measuredTime = r.windowEnd - r.windowStart;
    path.path = findJoinedPath(path.ranks);
    const auto resolve = [&](std::size_t, const EdgesToName& needed) {
        return resolveTimedPieces(input, *graph, path.ranks.front(), needed);
    };
    if (!nameAndLayOut(path, options, resolve, runSequentially))
        return Result<JobCriticalPath>(cancelledError());
    if (JobPathTiming* keep = options.keepTiming) {
        *keep = JobPathTiming {};
        keep->rankPos = { 0 };
        keep->windows = { *window };
        keep->graphs = { graph };
        keep->relabelled.push_back(std::move(relabelled));
        keep->cancel = options.cancel;
        keep->collectives = std::move(collectives); // the input above points into it: moved last
    }
    return Result<JobCriticalPath>(std::move(path));
}

CrossRankPath retimedJobPath(const FrameSet& frames, const JobPathTiming& timing, const WhatIfScaling& whatIf,
    const ParallelFor& parallelFor)
{
    std::vector<CondensedRank> ranks(timing.graphs.size());
    parallelFor(ranks.size(), [&](std::size_t i) {
        CondenseInput input = condenseInput(
            frames, timing.collectives, timing.rankPos[i], timing.windows[i], &whatIf, timing.cancel);
        if (i < timing.relabelled.size() && !timing.relabelled[i].empty())
            input.relabelled = &timing.relabelled[i];
        ranks[i] = timing.graphs[i] ? condenseTimed(input, *timing.graphs[i]) : condenseSerial(input);
    });
    return findJoinedPath(ranks);
}

std::uint64_t jobCriticalPathMemoryEstimate(
    const FrameSet& frames, const JobPathOptions& options, std::size_t concurrentRanks)
{
    // One rank's event graph over its window is alive per condensing thread:
    // nodes, edges, their adjacency and the build's lookups per row in the window.
    constexpr std::uint64_t kGraphBytesPerRow = 480; // measured 370-470 (kinetoscope-bench-job-path)
    std::vector<std::uint64_t> rowsPerRank;
    for (const RankFrame& frame : frames.ranks) {
        const std::optional<CriticalPathWindow> w = rankWindow(frame, options);
        std::uint64_t rows = 0;
        if (w)
            for (const FrameRow& row : frame.rows)
                rows += row.ts >= w->start && row.ts <= w->end ? 1 : 0;
        rowsPerRank.push_back(rows);
    }
    std::sort(rowsPerRank.begin(), rowsPerRank.end(), std::greater<>());
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < rowsPerRank.size() && i < std::max<std::size_t>(1, concurrentRanks); ++i)
        bytes += rowsPerRank[i] * kGraphBytesPerRow;
    return bytes;
}

} // namespace ks::core
