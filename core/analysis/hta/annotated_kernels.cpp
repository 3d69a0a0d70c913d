#include "core/analysis/hta/annotated_kernels.h"

#include "core/analysis/hta/counters_support.h"
#include "core/analysis/hta/frame_args.h"
#include "core/analysis/hta/name_stats.h"
#include "core/analysis/hta/trace_diff.h"
#include "core/analysis/tables/microseconds.h"
#include "core/analysis/tables/numpy_argsort.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>

namespace ks::core {

namespace {

    constexpr std::string_view kAnnotationCategory = "gpu_user_annotation";

    struct ThreadOrder
    {
        bool operator()(const ThreadKey& a, const ThreadKey& b) const
        {
            return std::tie(a.pid, a.tid, a.pidIsName, a.tidIsName)
                < std::tie(b.pid, b.tid, b.pidIsName, b.tidIsName);
        }
    };

    // HTA's GPUKernelFilter (§1.8) in compat mode; device activity otherwise (Q3).
    bool isKernelRow(const RankFrame& frame, const FrameRow& row, bool compat)
    {
        if (!compat)
            return row.device;
        const std::string_view name = frame.name(row);
        return (row.stream >= 0 && row.correlation >= 0) || name == "Event Sync" || name == "Context Sync";
    }

    // pandas' closed-left interval overlap: both strict.
    bool overlaps(const FrameRow& a, const FrameRow& b)
    {
        return a.ts < b.end() && b.ts < a.end();
    }

    // For each kernel (by position in `kernels`), the annotation row it is attributed to.
    // Compat (§17): annotations sorted by duration descending (numpy's unstable order), each
    // overwriting the kernels of its pid/tid it overlaps, so the last shortest wins. Default:
    // the shortest overlapping annotation, the later-starting one among equals.
    std::vector<const FrameRow*> attribute(const RankFrame& frame,
        const std::vector<const FrameRow*>& kernels, const std::vector<const FrameRow*>& annotations,
        bool compat)
    {
        std::map<ThreadKey, std::vector<std::size_t>, ThreadOrder> kernelsByThread;
        for (std::size_t k = 0; k < kernels.size(); ++k)
            kernelsByThread[counters::threadKeyOf(frame, *kernels[k])].push_back(k);
        std::vector<const FrameRow*> result(kernels.size(), nullptr);
        std::vector<double> durations;
        durations.reserve(annotations.size());
        for (const FrameRow* a : annotations)
            durations.push_back(static_cast<double>(a->dur));
        for (const std::size_t i : numpyArgsortDescending(durations)) {
            const FrameRow& a = *annotations[i];
            const auto it = kernelsByThread.find(counters::threadKeyOf(frame, a));
            if (it == kernelsByThread.end())
                continue;
            for (const std::size_t k : it->second) {
                if (!overlaps(*kernels[k], a))
                    continue;
                const FrameRow* current = result[k];
                if (compat || !current || a.dur < current->dur
                    || (a.dur == current->dur && a.ts > current->ts))
                    result[k] = &a;
            }
        }
        return result;
    }

    // One rank's kernels and annotations; false when a duration is negative (HTA raises).
    bool kernelsAndAnnotations(const RankFrame& frame, bool compat, std::vector<const FrameRow*>& kernels,
        std::vector<const FrameRow*>& annotations)
    {
        for (const FrameRow& row : frame.rows) {
            if (frame.category(row) == kAnnotationCategory)
                annotations.push_back(&row);
            else if (isKernelRow(frame, row, compat))
                kernels.push_back(&row);
            else
                continue;
            if (row.dur < 0)
                return false;
        }
        return true;
    }

    bool hasAnnotations(const FrameSet& frames)
    {
        return std::any_of(frames.ranks.begin(), frames.ranks.end(), [](const RankFrame& f) {
            return f.trace && f.trace->counts.byCategory.count(kAnnotationCategory) > 0;
        });
    }

    // `withArgs`: HTA's frame has its parser-argument columns (compat only; frame_args::hasArgColumns).
    Table emptyTable(AnalysisMode mode, bool withArgs)
    {
        using namespace annotated_kernels;
        const bool compat = mode == AnalysisMode::HtaCompat;
        Table t;
        t.name = "gpu_kernels_with_user_annotations";
        if (!compat)
            t.columns.push_back(kRank.column(mode));
        for (const ColumnId& c : { kIndex, kPid, kTid, kTs, kDur, kEnd, kStream, kCorrelation })
            t.columns.push_back(c.column(mode));
        if (withArgs) // every column of HTA's frame: its parser arguments
            for (const frame_args::ArgColumn& a : frame_args::defaultArgColumns())
                t.columns.push_back({ std::string(a.column), "" });
        t.columns.push_back(kIndexCorrelation.column(mode));
        if (compat)
            t.columns.push_back(kIteration.column(mode));
        for (const ColumnId& c : { kName, kCategory, kUserAnnotation })
            t.columns.push_back(c.column(mode));
        return t;
    }

    // HTA's `iteration`: NaN (null) where the row has none.
    Cell iterationCell(const FrameRow& row)
    {
        return row.iteration == kNoIteration ? Cell {} : Cell { row.iteration };
    }

    // One rank's rows; false when HTA would raise (a negative duration: pandas refuses the interval).
    Result<bool> addRank(Table& table, const RankFrame& frame, AnalysisMode mode, bool withArgs)
    {
        const bool compat = mode == AnalysisMode::HtaCompat;
        std::vector<const FrameRow*> kernels;
        std::vector<const FrameRow*> annotations;
        if (!kernelsAndAnnotations(frame, compat, kernels, annotations))
            return false;
        const std::vector<const FrameRow*> owner = attribute(frame, kernels, annotations, compat);
        std::map<std::uint32_t, std::vector<Cell>> args;
        if (withArgs) {
            std::vector<std::uint32_t> slices;
            slices.reserve(kernels.size());
            for (const FrameRow* k : kernels)
                slices.push_back(k->slice);
            auto read =
                frame_args::argCells(*frame.trace, std::move(slices), frame_args::defaultArgColumns());
            if (!read)
                return read.error();
            args = std::move(read).value();
        }
        const auto us = [compat](std::int64_t ns) -> Cell {
            return compat ? static_cast<double>(ns) / 1000.0 : microseconds(ns);
        };
        // HTA's shorten_names shortens its whole symbol table, so the annotation too (§17).
        const auto shown = [compat](std::string_view name) {
            return compat ? shortenName(name) : std::string(name);
        };
        for (std::size_t k = 0; k < kernels.size(); ++k) {
            const FrameRow& row = *kernels[k];
            const ThreadKey& key = counters::threadKeyOf(frame, row);
            std::vector<Cell> cells;
            if (!compat)
                cells.emplace_back(frame.rank);
            cells.insert(cells.end(),
                { static_cast<std::int64_t>(row.eventIndex),
                    counters::threadKeyCell(*frame.trace, key.pid, key.pidIsName),
                    counters::threadKeyCell(*frame.trace, key.tid, key.tidIsName), us(row.ts), us(row.dur),
                    us(row.end()), row.stream, row.correlation });
            if (withArgs) {
                const std::vector<Cell>& values = args.at(row.slice);
                cells.insert(cells.end(), values.begin(), values.end());
            }
            cells.emplace_back(row.indexCorrelation);
            if (compat)
                cells.push_back(iterationCell(row));
            cells.insert(cells.end(),
                { shown(frame.name(row)), shown(frame.category(row)),
                    owner[k] ? shown(frame.name(*owner[k])) : std::string() });
            table.addRow(cells);
        }
        return true;
    }

} // namespace

AnalysisOutput gpuKernelsWithUserAnnotations(
    const FrameSet& frames, const AnalysisOptions& options, std::int64_t rank)
{
    const AnalysisMode mode = options.mode;
    const bool compat = mode == AnalysisMode::HtaCompat;
    if (!hasAnnotations(frames)) {
        if (compat) // HTA: "Trace for rank N does not contain any GPU user annotations", None
            return AnalysisOutput::of(HtaResult::none());
        return AnalysisOutput::notApplicable("the trace has no gpu_user_annotation events");
    }
    // HTA reads one rank; its frame has the argument columns only when that rank's file has args.
    const bool withArgs =
        compat && std::any_of(frames.ranks.begin(), frames.ranks.end(), [rank](const RankFrame& f) {
            return f.rank == rank && f.trace && frame_args::hasArgColumns(*f.trace);
        });
    Table table = emptyTable(mode, withArgs);
    // One row a kernel of every rank: reserved at once, the rows' growth by
    // doubling left up to half of a large table unused.
    std::size_t kernelRows = 0;
    for (const RankFrame& frame : frames.ranks)
        if (!compat || frame.rank == rank)
            kernelRows += static_cast<std::size_t>(
                std::count_if(frame.rows.begin(), frame.rows.end(), [&](const FrameRow& row) {
                    return frame.category(row) != kAnnotationCategory && isKernelRow(frame, row, compat);
                }));
    table.rows.reserve(kernelRows, table.columns.size());
    for (const RankFrame& frame : frames.ranks) {
        if (compat && frame.rank != rank)
            continue;
        const Result<bool> added = addRank(table, frame, mode, withArgs);
        if (!added)
            return AnalysisOutput::notApplicable(added.error().describe());
        if (!added.value())
            return AnalysisOutput::notApplicable(
                "ValueError: left side of interval must be <= right side "
                "(HTA: a kernel or annotation with a negative duration, Q1)");
    }
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(table)));
}

AnalysisOutput kernelTimeByAnnotation(const FrameSet& frames, const AnalysisOptions& options)
{
    if (!hasAnnotations(frames))
        return AnalysisOutput::notApplicable(
            "the trace has no gpu_user_annotation events: kernels ran under no GPU annotation");
    const AnalysisMode mode = options.mode;
    const bool compat = mode == AnalysisMode::HtaCompat;
    using namespace kernels_by_annotation;
    Table table;
    table.name = "kernels_by_annotation";
    for (const ColumnId& c : { kName, kKernels, kSum, kMax, kMin, kStddev, kMean, kRank })
        table.columns.push_back(c.column(mode));
    // Every annotation listed: nothing folds into "others" (an annotation is a user's own label).
    const NameFolding all { 1.0, std::numeric_limits<int>::max(), {} };
    for (const RankFrame& frame : frames.ranks) {
        std::vector<const FrameRow*> kernels;
        std::vector<const FrameRow*> annotations;
        if (!kernelsAndAnnotations(frame, compat, kernels, annotations))
            return AnalysisOutput::notApplicable("rank " + std::to_string(frame.rank)
                + ": a kernel or annotation with a negative duration (Q1)");
        const std::vector<const FrameRow*> owner = attribute(frame, kernels, annotations, compat);
        std::map<std::string, std::vector<double>> byAnnotation;
        for (std::size_t k = 0; k < kernels.size(); ++k)
            byAnnotation[owner[k] ? std::string(frame.name(*owner[k])) : std::string(kNoAnnotation)]
                .push_back(static_cast<double>(kernels[k]->dur));
        // Default mode: each name's own statistics, largest sum first.
        for (const NameStats& s : aggregateByName(byAnnotation, all, AnalysisMode::Default))
            table.addRow({ s.name, static_cast<std::int64_t>(s.values.size()), s.sum / 1000.0, s.max / 1000.0,
                s.min / 1000.0, s.std / 1000.0, s.mean / 1000.0, frame.rank });
    }
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(table)));
}

} // namespace ks::core
