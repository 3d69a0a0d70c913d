// The serial model of a rank without an event graph (CPU-only ranks, gloo
// jobs): between two collectives the rank's time is its main thread's, each
// moment attributed to the innermost op running then; and condenseRank, which
// picks the model.

#include "core/analysis/cross_rank/cross_rank_condense.h"
#include "core/analysis/hta/counters_support.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace ks::core {

namespace {

    // A stretch of the main thread and the innermost op running in it (nullptr: none).
    struct Stretch
    {
        TimeNs start = 0;
        TimeNs end = 0;
        const FrameRow* row = nullptr;
    };

    bool isStep(std::string_view name)
    {
        return name.substr(0, 13) == "ProfilerStep#";
    }

    // Wall time covered by a thread's rows (event order is start order per thread).
    TimeNs coveredTime(const std::vector<const FrameRow*>& rows)
    {
        TimeNs reach = std::numeric_limits<TimeNs>::min();
        TimeNs covered = 0;
        for (const FrameRow* row : rows) {
            covered += std::max<TimeNs>(0, row->end() - std::max(reach, row->ts));
            reach = std::max(reach, row->end());
        }
        return covered;
    }

    // The thread that runs the steps; without steps the one busy the longest.
    std::vector<const FrameRow*> mainThreadRows(const RankFrame& frame)
    {
        std::map<std::pair<std::int64_t, std::int64_t>, std::vector<const FrameRow*>> threads;
        for (const FrameRow& row : frame.rows)
            if (!row.device && row.dur > 0) {
                const ThreadKey& key = counters::threadKeyOf(frame, row);
                threads[{ key.pid, key.tid }].push_back(&row);
            }
        const std::vector<const FrameRow*>* best = nullptr;
        std::pair<bool, TimeNs> bestScore { false, -1 };
        for (const auto& [key, rows] : threads) {
            const bool steps = std::any_of(
                rows.begin(), rows.end(), [&frame](const FrameRow* r) { return isStep(frame.name(*r)); });
            const std::pair<bool, TimeNs> score { steps, coveredTime(rows) };
            if (score > bestScore) {
                bestScore = score;
                best = &rows;
            }
        }
        return best ? *best : std::vector<const FrameRow*> {};
    }

    std::vector<Stretch> stretches(std::vector<const FrameRow*> rows, TimeNs from, TimeNs to)
    {
        std::stable_sort(rows.begin(), rows.end(), [](const FrameRow* a, const FrameRow* b) {
            return a->ts != b->ts ? a->ts < b->ts : a->dur > b->dur;
        });
        std::vector<Stretch> out;
        auto emit = [&out, from, to](TimeNs a, TimeNs b, const FrameRow* row) {
            a = std::max(a, from);
            b = std::min(b, to);
            if (b > a)
                out.push_back({ a, b, row });
        };
        std::vector<std::pair<TimeNs, const FrameRow*>> open; // end (clipped to the parent's), row
        TimeNs cursor = from;
        for (const FrameRow* row : rows) {
            while (!open.empty() && open.back().first <= row->ts) {
                emit(cursor, open.back().first, open.back().second);
                cursor = std::max(cursor, open.back().first);
                open.pop_back();
            }
            emit(cursor, row->ts, open.empty() ? nullptr : open.back().second);
            cursor = std::max(cursor, row->ts);
            const TimeNs end = open.empty() ? row->end() : std::min(row->end(), open.back().first);
            open.emplace_back(end, row);
        }
        while (!open.empty()) {
            emit(cursor, open.back().first, open.back().second);
            cursor = std::max(cursor, open.back().first);
            open.pop_back();
        }
        emit(cursor, to, nullptr);
        return out;
    }

    std::vector<PathPiece> piecesBetween(const RankFrame& frame, const std::vector<Stretch>& all, TimeNs from,
        TimeNs to, const WhatIfScaling* whatIf, const RankEditedFactors* edits, PathNames& names)
    {
        std::vector<PathPiece> pieces;
        auto it = std::upper_bound(
            all.begin(), all.end(), from, [](TimeNs t, const Stretch& s) { return t < s.end; });
        for (; it != all.end() && it->start < to; ++it) {
            const TimeNs a = std::max(from, it->start);
            const TimeNs b = std::min(to, it->end);
            if (b <= a)
                continue;
            const std::string_view name = it->row ? frame.name(*it->row) : std::string_view {};
            const std::int64_t event = it->row ? static_cast<std::int64_t>(it->row->eventIndex) : -1;
            TimeNs d = b - a;
            if (whatIf) {
                const double rule = whatIf->factor(name, PathBound::Cpu);
                const auto row =
                    it->row ? static_cast<std::uint32_t>(it->row - frame.rows.data()) : TimedGraph::kNoRow;
                d = WhatIfScaling::scaledBy(
                    b - a, edits ? edits->factor(row, PathBound::Cpu, a, rule) : rule);
            }
            if (d <= 0)
                continue;
            if (!pieces.empty() && pieces.back().eventIndex == event) {
                pieces.back().duration += d;
                continue;
            }
            pieces.push_back({ it->row ? names.of(frame.trace->slices.name[it->row->slice]) : PathName(),
                PathBound::Cpu, a, d, event });
        }
        return pieces;
    }

    TimeNs sumOf(const std::vector<PathPiece>& pieces)
    {
        TimeNs sum = 0;
        for (const PathPiece& p : pieces)
            sum += p.duration;
        return sum;
    }

    // The job path's graph is re-timed (GraphPurpose); --hta-compat keeps HTA's.
    GraphPurpose graphPurposeOf(const FrameSet& frames)
    {
        return frames.mode == AnalysisMode::HtaCompat ? GraphPurpose::Analysis : GraphPurpose::Retiming;
    }

} // namespace

double collectiveScale(const CondenseInput& input, const RankCollective& c)
{
    if (!input.whatIf)
        return 1.0;
    return input.whatIf->factor(c.name, c.complete ? PathBound::Transfer : PathBound::GpuCommWait);
}

std::vector<RankCollective> collectivesInWindow(const CondenseInput& input)
{
    const RankFrame& frame = input.frames->ranks[input.rankPos];
    std::unordered_map<std::uint32_t, const FrameRow*> rowOfSlice;
    for (const FrameRow& row : frame.rows)
        rowOfSlice[row.slice] = &row;
    std::vector<RankCollective> out;
    for (const PathCollectiveSlice& c : *input.collectives) {
        const auto it = rowOfSlice.find(c.slice);
        if (it == rowOfSlice.end() || it->second->ts < input.window.start
            || it->second->ts > input.window.end)
            continue;
        const FrameRow& row = *it->second;
        out.push_back({ c.instance, (*input.instanceNames)[c.instance], row.ts, row.end(), row.eventIndex,
            row.iteration, c.complete });
        out.back().transferScale = collectiveScale(input, out.back());
    }
    std::stable_sort(out.begin(), out.end(),
        [](const RankCollective& a, const RankCollective& b) { return a.arrival < b.arrival; });
    return out;
}

CondensedRank condenseSerial(const CondenseInput& input)
{
    const RankFrame& frame = input.frames->ranks[input.rankPos];
    CondensedRank out;
    out.rank = frame.rank;
    out.serialModel = true;
    out.windowStart = input.window.start;
    out.windowEnd = input.window.end;
    out.collectives = collectivesInWindow(input);
    const std::vector<Stretch> all = stretches(mainThreadRows(frame), input.window.start, input.window.end);
    // Each arrival depends on the latest collective that had ended by then.
    auto boundaryBefore = [&out](TimeNs t, std::size_t limit) {
        std::uint32_t from = CondensedRank::kStart;
        TimeNs latest = out.windowStart;
        for (std::size_t j = 0; j < limit; ++j)
            if (out.collectives[j].end <= t && out.collectives[j].end >= latest) {
                latest = out.collectives[j].end;
                from = out.endOfCollective(j);
            }
        return std::make_pair(from, latest);
    };
    // A fix's edits of this rank's own events decide per stretch.
    std::optional<RankEditedFactors> edits;
    if (input.whatIf && input.whatIf->hasEditsFor(frame.rank))
        edits.emplace(*input.whatIf, frame.rank, frame.rows.size());
    PathNames names(*frame.trace);
    for (std::size_t k = 0; k <= out.collectives.size(); ++k) {
        const bool last = k == out.collectives.size();
        const TimeNs at = last ? out.windowEnd : out.collectives[k].arrival;
        const auto [from, since] = boundaryBefore(at, k);
        std::vector<PathPiece> pieces =
            piecesBetween(frame, all, since, at, input.whatIf, edits ? &*edits : nullptr, names);
        const TimeNs weight = sumOf(pieces);
        out.edges.push_back({ from, static_cast<std::uint32_t>(k), weight, std::move(pieces), {} });
    }
    return out;
}

CondensedRank condenseRank(const CondenseInput& input)
{
    const RankFrame& frame = input.frames->ranks[input.rankPos];
    const bool hasGpu =
        std::any_of(frame.rows.begin(), frame.rows.end(), [](const FrameRow& r) { return r.device; });
    std::string why = "it has no GPU events";
    if (hasGpu) {
        AnalysisOptions options;
        options.cancel = input.cancel;
        auto graph = buildCriticalPath(*input.frames, frame.rank, input.window, options,
            CriticalPathParts::GraphOnly, graphPurposeOf(*input.frames));
        if (options.cancelled())
            return CondensedRank {}; // the caller drops it
        if (graph && graph.value().success)
            return condenseGraph(input, graph.value());
        why = graph ? "its event graph is not valid" : graph.error().message;
    }
    CondensedRank out = condenseSerial(input);
    out.notes.push_back("rank " + std::to_string(frame.rank) + ": no event graph (" + why
        + "): the path counts its main thread's time between collectives");
    return out;
}

bool resolveEdgePieces(const CondenseInput& input, CondensedRank& rank, const EdgesToName& edges)
{
    if (rank.serialModel || edges.empty())
        return true; // the serial model names its pieces while condensing
    const RankFrame& frame = input.frames->ranks[input.rankPos];
    AnalysisOptions options;
    options.cancel = input.cancel;
    auto graph = buildCriticalPath(*input.frames, frame.rank, input.window, options,
        CriticalPathParts::GraphOnly, graphPurposeOf(*input.frames));
    return graph && graph.value().success
        && resolveTimedPieces(input, timedGraphOf(input, graph.value()), rank, edges);
}

} // namespace ks::core
