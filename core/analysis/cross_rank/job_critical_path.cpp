#include "core/analysis/cross_rank/job_critical_path.h"

#include "core/analysis/cross_rank/stragglers.h"
#include "core/common/cancelled_error.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace ks::core {

namespace {

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
        job.notes.emplace_back("one rank only: the path is that rank's, no collective is joined");

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
    if (job.path.ok && !options.piecesForEveryEdge) {
        std::vector<EdgesToName> needed(job.ranks.size());
        for (std::size_t i = 0; i < job.ranks.size(); ++i)
            needed[i].pieces = pathEdgesOfRank(job.path, i);
        for (const RankEdge& e : stragglerEdges(job))
            needed[e.rankPos].nameTimes.push_back(e.edge);
        std::vector<char> resolved(job.ranks.size(), 1);
        parallelFor(job.ranks.size(), [&](std::size_t i) {
            if (timing && timing->graphs[i])
                resolved[i] = resolveTimedPieces(inputOf(i), *timing->graphs[i], job.ranks[i], needed[i]);
            else
                resolved[i] = resolveEdgePieces(inputOf(i), job.ranks[i], needed[i]);
            release();
        });
        if (options.cancel && options.cancel->isCancelled())
            return cancelledError();
        for (std::size_t i = 0; i < job.ranks.size(); ++i)
            if (!resolved[i])
                job.notes.push_back("rank " + std::to_string(job.ranks[i].rank)
                    + ": its event graph came out differently the second time; its path pieces are not "
                      "named");
    }
    if (job.path.ok)
        layOutSegments(job.ranks, job.path);
    job.notes.insert(job.notes.end(), job.path.notes.begin(), job.path.notes.end());
    if (timing)
        timing->collectives = std::move(collectives); // the inputs above point into it: moved last
    return job;
}

CrossRankPath retimedJobPath(const FrameSet& frames, const JobPathTiming& timing, const WhatIfScaling& whatIf,
    const ParallelFor& parallelFor)
{
    std::vector<CondensedRank> ranks(timing.graphs.size());
    parallelFor(ranks.size(), [&](std::size_t i) {
        const CondenseInput input = condenseInput(
            frames, timing.collectives, timing.rankPos[i], timing.windows[i], &whatIf, timing.cancel);
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
