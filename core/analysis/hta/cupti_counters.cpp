#include "core/analysis/hta/cupti_counters.h"

#include "core/analysis/kernels/kernel_sequences_call_graph.h"
#include "core/analysis/tables/microseconds.h"
#include "core/io/json/args_reader.h"
#include "core/io/json/json_scan.h"

#include <algorithm>
#include <charconv>
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

    // The numeric members of an args object: the counters.
    std::map<std::string, double> countersOf(std::string_view args)
    {
        std::map<std::string, double> out;
        std::size_t pos = json::skipWhitespace(args, 0);
        if (pos >= args.size() || args[pos] != '{')
            return out;
        ++pos;
        while (true) {
            pos = json::skipWhitespace(args, pos);
            if (pos >= args.size() || args[pos] != '"')
                return out;
            const json::ScanResult key = json::scanString(args, pos);
            if (key.status != json::ScanStatus::Complete)
                return out;
            const auto name = json::unescapeString(args.substr(pos, key.end - pos));
            pos = json::skipWhitespace(args, key.end);
            if (pos >= args.size() || args[pos] != ':')
                return out;
            const std::size_t valueStart = json::skipWhitespace(args, pos + 1);
            const json::ScanResult value = json::scanValue(args, valueStart);
            if (value.status != json::ScanStatus::Complete)
                return out;
            const std::string_view text = args.substr(valueStart, value.end - valueStart);
            double number = 0.0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
            if (name && ec == std::errc() && end == text.data() + text.size())
                out[*name] = number;
            pos = json::skipWhitespace(args, value.end);
            if (pos >= args.size() || args[pos] != ',')
                return out;
            ++pos;
        }
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
        std::map<std::uint32_t, std::map<std::string, double>> bySlice;
        if (auto error = forEachSliceArgs(
                *frame.trace, slices, [&bySlice](std::uint32_t slice, std::string_view text) {
                    bySlice[slice] = countersOf(text);
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

        using namespace cupti_counters;
        Table t;
        t.name = "cupti_counters_rank_" + std::to_string(frame.rank);
        for (const ColumnId& c : { kIndex, kTs, kDur, kEnd, kName, kCategory, kIndexRuntime, kOpStack,
                 kTopLevelOp, kBottomLevelOp })
            t.columns.push_back(c.column(mode));
        for (const std::string& n : counterNames)
            t.columns.push_back({ n, "" });
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
            std::vector<Cell> row { static_cast<std::int64_t>(r.eventIndex), us(r.ts), us(r.dur), us(endNs),
                std::string(frame.name(r)), std::string(frame.category(r)),
                static_cast<std::int64_t>(launches[i]->eventIndex), joined(ops),
                ops.empty() ? std::string() : ops.front(), ops.empty() ? std::string() : ops.back() };
            const auto found = bySlice.find(r.slice);
            for (const std::string& n : counterNames) {
                if (found != bySlice.end() && found->second.count(n))
                    row.emplace_back(found->second.at(n));
                else
                    row.emplace_back(std::monostate {});
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
