#include "core/analysis/cross_rank/rank_overview.h"

#include "core/analysis/frame/data_loading.h"
#include "core/analysis/frame/frame_window.h"
#include "core/analysis/hta/comm_comp_overlap.h"
#include "core/analysis/hta/temporal_breakdown.h"
#include "core/analysis/kernels/tensor_cores.h"
#include "core/analysis/tables/microseconds.h"
#include "core/common/median.h"

#include <algorithm>
#include <map>
#include <optional>

namespace ks::core {

namespace {

    // rank -> the values of some columns of an analysis's table (found by `rankColumn`).
    std::map<std::int64_t, std::vector<std::optional<double>>> columnsByRank(
        const AnalysisOutput& output, const ColumnId& rankColumn, const std::vector<ColumnId>& columns)
    {
        std::map<std::int64_t, std::vector<std::optional<double>>> byRank;
        if (!output.ok || output.result.kind != HtaResult::Kind::DataFrame)
            return byRank;
        const Table& t = output.result.frame;
        const std::optional<std::size_t> rankAt = t.find(rankColumn);
        if (!rankAt)
            return byRank;
        for (const auto& row : t.rows) {
            const auto rank = cellAsDouble(row[*rankAt]);
            if (!rank)
                continue;
            auto& values = byRank[static_cast<std::int64_t>(*rank)];
            for (const ColumnId& c : columns) {
                const std::optional<std::size_t> i = t.find(c);
                values.push_back(i ? cellAsDouble(row[*i]) : std::nullopt);
            }
        }
        return byRank;
    }

    // The duration of the rank's ProfilerStep row of this iteration, in µs.
    std::optional<double> stepTimeUs(const RankFrame& frame, std::int64_t iteration)
    {
        const std::string name = "ProfilerStep#" + std::to_string(iteration);
        for (const FrameRow& row : frame.rows)
            if (row.iteration == iteration && frame.name(row) == name)
                return microseconds(row.dur);
        return std::nullopt;
    }

    Cell optionalCell(const std::optional<double>& v)
    {
        return v ? Cell { *v } : Cell {};
    }

    Cell loadingCell(const std::map<std::int64_t, double>& byIteration, std::int64_t iteration)
    {
        const auto it = byIteration.find(iteration);
        return it == byIteration.end() ? Cell {} : Cell { it->second };
    }

    Cell tensorCoreCell(const std::map<std::int64_t, TensorCoreShare>& byIteration, std::int64_t iteration)
    {
        const auto it = byIteration.find(iteration);
        return it == byIteration.end() ? Cell {} : optionalCell(it->second.pct());
    }

} // namespace

AnalysisOutput rankOverview(
    const FrameSet& frames, const AnalysisOptions& options, const RankOverviewOptions& overview)
{
    if (frames.iterations.empty())
        return AnalysisOutput::notApplicable("no ProfilerStep iterations in the selected ranks");
    Table t;
    t.name = "rank_overview";
    for (const ColumnId& c : rank_overview::kColumns)
        t.columns.push_back(c.column());
    // From each rank's whole frame: a loading span may cross into the next step.
    std::map<std::int64_t, std::map<std::int64_t, double>> loadingByRank;
    std::map<std::int64_t, std::map<std::int64_t, TensorCoreShare>> tensorCoresByRank;
    for (const RankFrame& frame : frames.ranks) {
        loadingByRank[frame.rank] = dataLoadingPctByIteration(frame);
        tensorCoresByRank[frame.rank] = tensorCoreShareByIteration(frame);
    }
    for (const std::int64_t iteration : frames.iterations) {
        const FrameSet one = narrowedFrames(frames, iteration, std::nullopt);
        const auto temporal = columnsByRank(temporalBreakdown(one, options), temporal_breakdown::kRank,
            { temporal_breakdown::kIdlePctg, temporal_breakdown::kComputePctg,
                temporal_breakdown::kNonComputePctg, temporal_breakdown::kComputeTime,
                temporal_breakdown::kNonComputeTime });
        const auto overlap = columnsByRank(
            commCompOverlap(one, options), comm_comp_overlap::kRank, { comm_comp_overlap::kOverlapPctg });
        std::map<std::int64_t, double> busy;
        for (const auto& [rank, v] : temporal)
            if (v[3] && v[4])
                busy[rank] = *v[3] + *v[4];
        std::vector<double> busyValues;
        busyValues.reserve(busy.size());
        for (const auto& [rank, b] : busy)
            busyValues.push_back(b);
        const std::optional<double> typical = busyValues.size() >= 2 ? median(busyValues) : std::nullopt;
        for (const RankFrame& frame : one.ranks) {
            const auto tv = temporal.find(frame.rank);
            const auto ov = overlap.find(frame.rank);
            const auto b = busy.find(frame.rank);
            const auto at = [&tv, &temporal](std::size_t i) {
                return tv == temporal.end() ? std::nullopt : tv->second[i];
            };
            const bool straggler =
                typical && b != busy.end() && b->second > *typical * (1.0 + overview.stragglerMargin);
            t.addRow({ frame.rank, iteration, optionalCell(stepTimeUs(frame, iteration)), optionalCell(at(0)),
                optionalCell(at(1)), optionalCell(at(2)),
                ov == overlap.end() ? Cell {} : optionalCell(ov->second[0]),
                b == busy.end() ? Cell {} : Cell { b->second }, std::int64_t { straggler ? 1 : 0 },
                loadingCell(loadingByRank[frame.rank], iteration),
                tensorCoreCell(tensorCoresByRank[frame.rank], iteration) });
        }
    }
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(t)));
}

} // namespace ks::core
