#include "core/analysis/hta/cupti_counters.h"

#include "core/analysis/hta/counters_support.h"
#include "core/analysis/hta/frame_args.h"
#include "core/analysis/kernels/kernel_sequences_call_graph.h"
#include "core/analysis/tables/microseconds.h"
#include "core/common/json_text.h"
#include "core/io/json/args_reader.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace ks::core {

namespace {

    constexpr std::string_view kRangeCategory = "cuda_profiler_range";

    bool startsWith(std::string_view text, std::string_view prefix)
    {
        return text.substr(0, prefix.size()) == prefix;
    }

    // The counters of a range's args. Compat: every member, raw (HTA adds each key of the
    // ranges' args as a parser argument, trace_parser.py _compress_df); default: the numeric ones.
    std::map<std::string, Cell> countersOf(std::string_view args, bool compat)
    {
        std::map<std::string, Cell> out;
        for (const auto& [name, text] : frame_args::members(args)) {
            Cell value = frame_args::valueCell(text);
            if (compat || cellAsDouble(value))
                out[name] = std::move(value);
        }
        return out;
    }

    std::vector<const FrameRow*> sortedByTs(std::vector<const FrameRow*> rows)
    {
        std::stable_sort(
            rows.begin(), rows.end(), [](const FrameRow* a, const FrameRow* b) { return a->ts < b->ts; });
        return rows;
    }

    // The cpu_op names around a launch, outermost first (HTA's get_stack_of_node, cpu_op rows, by ts).
    std::vector<std::string> opStack(
        const RankFrame& frame, const sequences::CallGraph& graph, const FrameRow& launch)
    {
        std::vector<const FrameRow*> ops;
        auto node = graph.nodes.find(launch.eventIndex);
        while (node != graph.nodes.end() && node->second.parent >= 0) {
            const FrameRow* parent = frame.rowOfEvent(node->second.parent);
            if (parent && frame.category(*parent) == "cpu_op")
                ops.push_back(parent);
            node = graph.nodes.find(node->second.parent);
        }
        std::vector<std::string> names;
        for (const FrameRow* op : sortedByTs(ops))
            names.emplace_back(frame.name(*op));
        return names;
    }

    std::string joined(const std::vector<std::string>& names)
    {
        std::string out;
        for (const std::string& n : names)
            out += (out.empty() ? "" : " > ") + n;
        return out;
    }

    // HTA's op_stack: a Python list of the names, outermost first (stringify_op_stack).
    JsonText jsonList(const std::vector<std::string>& names)
    {
        std::string out = "[";
        for (const std::string& n : names) {
            if (out.size() > 1)
                out += ", ";
            appendJsonString(out, n);
        }
        return JsonText { out + "]" };
    }

    // The columns HTA's CallGraph adds to its frame (trace_call_graph.py), with the values
    // it leaves on rows outside every CPU stack: profiler ranges sit on a GPU-like track
    // (pid 0 / tid 0), which it skips.
    struct StackColumn
    {
        std::string_view name;
        Cell fallback;
    };

    const std::vector<StackColumn>& stackColumns()
    {
        static const std::vector<StackColumn> columns { { "parent", std::int64_t { -1 } },
            { "depth", std::int64_t { -1 } }, { "height", std::int64_t { -1 } },
            { "first_kernel_start", -1.0 }, { "last_kernel_end", -1.0 },
            { "num_kernels", std::int64_t { 0 } }, { "kernel_dur_sum", 0.0 }, { "kernel_span", 0.0 } };
        return columns;
    }

    // One rank's table; an empty optional with `problem` set where HTA skips the rank
    // (launch and range counts differ) or raises (a launch outside every operator).
    std::optional<Table> rankTable(
        const FrameSet& frames, const RankFrame& frame, AnalysisMode mode, std::string& problem)
    {
        const bool compat = mode == AnalysisMode::HtaCompat;
        std::vector<const FrameRow*> ranges;
        std::vector<const FrameRow*> launches;
        for (const FrameRow& row : frame.rows) {
            if (frame.category(row) == kRangeCategory)
                ranges.push_back(&row);
            else if (startsWith(frame.category(row), "cuda_runtime")
                && startsWith(frame.name(row), "cudaLaunchKernel"))
                launches.push_back(&row);
        }
        ranges = sortedByTs(std::move(ranges));
        launches = sortedByTs(std::move(launches));
        if (ranges.size() != launches.size()) {
            problem = "rank " + std::to_string(frame.rank) + ": " + std::to_string(launches.size())
                + " kernel launches but " + std::to_string(ranges.size()) + " counter ranges";
            return std::nullopt;
        }
        auto graph = sequences::buildCallGraph(frame, mode);
        if (!graph) {
            problem = graph.error().message;
            return std::nullopt;
        }
        std::vector<std::uint32_t> slices;
        slices.reserve(ranges.size());
        for (const FrameRow* r : ranges)
            slices.push_back(r->slice);
        std::map<std::uint32_t, std::map<std::string, Cell>> bySlice;
        if (auto error = forEachSliceArgs(
                *frame.trace, slices, [&bySlice, compat](std::uint32_t slice, std::string_view text) {
                    bySlice[slice] = countersOf(text, compat);
                })) {
            problem = error->message;
            return std::nullopt;
        }
        std::vector<std::string> counterNames;
        for (const auto& [slice, values] : bySlice)
            for (const auto& [name, value] : values)
                counterNames.push_back(name);
        std::sort(counterNames.begin(), counterNames.end());
        counterNames.erase(std::unique(counterNames.begin(), counterNames.end()), counterNames.end());
        // HTA's frame has the parser-argument columns only when the rank's file has args (frame_args.h).
        const bool withArgs = compat && frame_args::hasArgColumns(*frame.trace);
        std::map<std::uint32_t, std::vector<Cell>> args;
        if (withArgs) {
            auto read = frame_args::argCells(*frame.trace, slices, frame_args::defaultArgColumns());
            if (!read) {
                problem = read.error().describe();
                return std::nullopt;
            }
            args = std::move(read).value();
        }

        using namespace cupti_counters;
        Table t;
        t.name = "cupti_counters_rank_" + std::to_string(frame.rank);
        if (compat) {
            // Every column of HTA's frame (§19): the rows of the ranges with the parser
            // arguments and counters, the correlation and iteration, the call graph's columns,
            // then what the call adds.
            for (const ColumnId& c :
                { kIndex, kCategory, kName, kPid, kTid, kTs, kDur, kEnd, kStream, kCorrelation })
                t.columns.push_back(c.column(mode));
            if (withArgs)
                for (const frame_args::ArgColumn& a : frame_args::defaultArgColumns())
                    t.columns.push_back({ std::string(a.column), "" });
            for (const std::string& n : counterNames)
                t.columns.push_back({ n, "" });
            for (const ColumnId& c : { kIndexCorrelation, kIteration })
                t.columns.push_back(c.column(mode));
            for (const StackColumn& c : stackColumns())
                t.columns.push_back({ std::string(c.name), "" });
            for (const ColumnId& c : { kIndexRuntime, kOpStack, kTopLevelOp, kBottomLevelOp })
                t.columns.push_back(c.column(mode));
        } else {
            for (const ColumnId& c : { kIndex, kTs, kDur, kEnd, kName, kCategory, kIndexRuntime, kOpStack,
                     kTopLevelOp, kBottomLevelOp })
                t.columns.push_back(c.column(mode));
            for (const std::string& n : counterNames)
                t.columns.push_back({ n, "" });
        }
        const auto us = [compat](std::int64_t ns) -> Cell {
            return compat ? static_cast<double>(ns) / 1000.0 : microseconds(ns);
        };
        for (std::size_t i = 0; i < ranges.size(); ++i) {
            const FrameRow& r = *ranges[i];
            const std::vector<std::string> ops = opStack(frame, graph.value(), *launches[i]);
            if (ops.empty() && compat) {
                problem = "IndexError: list index out of range (a kernel launch outside every cpu_op)";
                return std::nullopt;
            }
            // Q18: HTA's `end` was computed before the timestamps were made relative.
            const std::int64_t endNs = compat ? frames.minTs + r.end() : r.end();
            // A counter the range lacks: HTA's default -1 (the counters are parser
            // arguments); default mode: null.
            const auto found = bySlice.find(r.slice);
            std::vector<Cell> counterCells;
            for (const std::string& n : counterNames) {
                if (found != bySlice.end() && found->second.count(n))
                    counterCells.push_back(found->second.at(n));
                else
                    counterCells.push_back(compat ? Cell { std::int64_t { -1 } } : Cell {});
            }
            const Cell top = ops.empty() ? std::string() : ops.front();
            const Cell bottom = ops.empty() ? std::string() : ops.back();
            std::vector<Cell> row;
            if (compat) {
                const ThreadKey& key = counters::threadKeyOf(frame, r);
                row = { static_cast<std::int64_t>(r.eventIndex), std::string(frame.category(r)),
                    std::string(frame.name(r)), counters::threadKeyCell(*frame.trace, key.pid, key.pidIsName),
                    counters::threadKeyCell(*frame.trace, key.tid, key.tidIsName), us(r.ts), us(r.dur),
                    us(endNs), r.stream, r.correlation };
                if (withArgs) {
                    const std::vector<Cell>& values = args.at(r.slice);
                    row.insert(row.end(), values.begin(), values.end());
                }
                row.insert(row.end(), counterCells.begin(), counterCells.end());
                row.emplace_back(r.indexCorrelation);
                row.push_back(r.iteration == kNoIteration ? Cell {} : Cell { r.iteration });
                for (const StackColumn& c : stackColumns())
                    row.push_back(c.fallback);
                row.insert(row.end(),
                    { static_cast<std::int64_t>(launches[i]->eventIndex), jsonList(ops), top, bottom });
            } else {
                row = { static_cast<std::int64_t>(r.eventIndex), us(r.ts), us(r.dur), us(endNs),
                    std::string(frame.name(r)), std::string(frame.category(r)),
                    static_cast<std::int64_t>(launches[i]->eventIndex), joined(ops), top, bottom };
                row.insert(row.end(), counterCells.begin(), counterCells.end());
            }
            t.addRow(row);
        }
        return t;
    }

} // namespace

// §19.
AnalysisOutput cuptiCounterData(const FrameSet& frames, const AnalysisOptions& options)
{
    const bool compat = options.mode == AnalysisMode::HtaCompat;
    HtaResult list;
    list.kind = HtaResult::Kind::List;
    const bool any = std::any_of(frames.ranks.begin(), frames.ranks.end(),
        [](const RankFrame& f) { return f.trace && f.trace->counts.byCategory.count(kRangeCategory) > 0; });
    if (!any) {
        if (compat) // HTA: a warning and []
            return AnalysisOutput::of(std::move(list));
        return AnalysisOutput::notApplicable(
            "the trace has no cuda_profiler_range events (record with CUPTI's range profiler)");
    }
    for (const RankFrame& frame : frames.ranks) {
        std::string problem;
        std::optional<Table> table = rankTable(frames, frame, options.mode, problem);
        if (table) {
            list.items.push_back(HtaResult::dataFrame(std::move(*table)));
            continue;
        }
        // HTA logs the count mismatch and leaves the rank out; anything else it raises.
        // Default mode says why instead of dropping a rank.
        if (!compat || problem.rfind("IndexError", 0) == 0
            || problem.find("counter ranges") == std::string::npos)
            return AnalysisOutput::notApplicable(problem);
    }
    return AnalysisOutput::of(std::move(list));
}

} // namespace ks::core
