// The critical path's outputs: tables for the CLI and the app and HTA's
// breakdown by bound type (the JSON object of ../shared/reference is
// core/report/critical_path_json.cpp, over the same helpers).

#include "core/analysis/critical_path/critical_path_report.h"

#include "core/analysis/frame/kernel_type.h"
#include "core/analysis/hta/counters_support.h"
#include "core/analysis/tables/microseconds.h"
#include "core/analysis/tables/table_dict.h"
#include "core/common/json_text.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace ks::core {

namespace cp_report {

    bool compatOf(const CriticalPathGraph& g)
    {
        return g.mode == AnalysisMode::HtaCompat;
    }

    // A weight in µs: integral in HTA-compatible mode when whole (HTA's int64 columns).
    Cell weightCell(const CriticalPathGraph& g, std::int64_t ns)
    {
        return microsecondsCell(ns, !compatOf(g));
    }

    const FrameRow& rowOfNode(const CriticalPathGraph& g, std::uint32_t node)
    {
        return g.frame->rows[g.nodes[node].row];
    }

    std::string_view nodeName(const CriticalPathGraph& g, std::uint32_t node)
    {
        return g.frame->name(rowOfNode(g, node));
    }

    // HTA's bound_by: delays by kind, dependencies nowhere, spans by where the event ran.
    std::string boundBy(const CriticalPathGraph& g, const CpEdge& e)
    {
        switch (e.type) {
        case CpEdgeType::KernelKernelDelay:
            return "gpu_kernel_kernel_overhead";
        case CpEdgeType::KernelLaunchDelay:
            return "gpu_kernel_launch_overhead";
        case CpEdgeType::Dependency:
        case CpEdgeType::SyncDependency:
            return "";
        case CpEdgeType::Operator:
            break;
        }
        const FrameRow* row = e.attributedEvent >= 0 ? g.frame->rowOfEvent(e.attributedEvent) : nullptr;
        if (!row)
            return "";
        const std::string_view name = g.frame->name(*row);
        if (compatOf(g)) {
            if (row->stream < 0)
                return "cpu_bound";
            // HTA tests the shortened name against its communication pattern (§2 rule 1).
            return classifyKernelHta(shortenNameHta(name)) == KernelType::Communication
                ? "gpu_communication_bound"
                : "gpu_compute_bound";
        }
        if (!row->device)
            return "cpu_bound";
        return classifyKernelDefault(g.frame->category(*row), name) == KernelType::Communication
            ? "gpu_communication_bound"
            : "gpu_compute_bound";
    }

    // A path edge's duration in the breakdown: HTA takes the edge object's
    // weight, negative where the graph counts 0; default mode takes the graph's,
    // so that the bound types add up to the path's length.
    std::int64_t breakdownWeight(const CriticalPathGraph& g, const CpEdge& e)
    {
        return compatOf(g) ? e.weight : e.graphWeight;
    }

    // Σ durations per bound type (ns), in groupby order (sorted by name).
    std::map<std::string, std::int64_t> durationByBoundType(const CriticalPathGraph& g)
    {
        std::map<std::string, std::int64_t> sums;
        for (const std::uint32_t id : g.pathEdges)
            sums[boundBy(g, g.edges[id])] += breakdownWeight(g, g.edges[id]);
        return sums;
    }

    std::int64_t totalDuration(const CriticalPathGraph& g)
    {
        std::int64_t total = 0;
        for (const std::uint32_t id : g.pathEdges)
            total += breakdownWeight(g, g.edges[id]);
        return total;
    }

    double percentOf(std::int64_t part, std::int64_t total)
    {
        return microseconds(part) / microseconds(total) * 100.0;
    }

    // HTA's get_critical_path_breakdown: one row per path edge, with the attributed event.
    Table breakdownTable(const CriticalPathGraph& g)
    {
        Table t;
        t.name = "breakdown";
        t.columns = { { "event_idx", "" }, { "duration", "us" }, { "type", "" }, { "s_name", "" },
            { "cat", "" }, { "pid", "" }, { "tid", "" }, { "stream", "" }, { "index", "" },
            { "bound_by", "" } };
        const RankTrace& trace = *g.frame->trace;
        // pandas' left merge: the id columns stay integers unless some edge has no event.
        const bool allAttributed = std::all_of(g.pathEdges.begin(), g.pathEdges.end(),
            [&g](std::uint32_t id) { return g.edges[id].attributedEvent >= 0; });
        auto idCell = [allAttributed](
                          std::int64_t v) { return allAttributed ? Cell(v) : Cell(static_cast<double>(v)); };
        t.rows.reserve(g.pathEdges.size());
        for (const std::uint32_t id : g.pathEdges) {
            const CpEdge& e = g.edges[id];
            const FrameRow* row = e.attributedEvent >= 0 ? g.frame->rowOfEvent(e.attributedEvent) : nullptr;
            std::vector<Cell> cells;
            cells.reserve(t.columns.size());
            cells.emplace_back(e.attributedEvent >= 0 ? idCell(e.attributedEvent) : Cell {});
            cells.emplace_back(microseconds(breakdownWeight(g, e)));
            cells.emplace_back(std::string(cpEdgeTypeName(e.type)));
            if (row) {
                const ThreadKey& key = counters::threadKeyOf(*g.frame, *row);
                cells.emplace_back(shortenNameHta(g.frame->name(*row)));
                cells.emplace_back(std::string(g.frame->category(*row)));
                cells.emplace_back(counters::threadKeyCell(trace, key.pid, key.pidIsName));
                cells.emplace_back(counters::threadKeyCell(trace, key.tid, key.tidIsName));
                cells.emplace_back(idCell(row->stream));
                cells.emplace_back(idCell(row->eventIndex));
            } else {
                cells.resize(cells.size() + 6);
            }
            cells.emplace_back(boundBy(g, e));
            t.addRow(cells);
        }
        return t;
    }

    // Edge types in order of first appearance in the graph, with count and Σ
    // weight in the graph (negative weights counted as 0 are 0 here, as in HTA).
    std::vector<std::pair<CpEdgeType, std::pair<std::int64_t, std::int64_t>>> edgeTypeStats(
        const CriticalPathGraph& g)
    {
        std::vector<std::pair<CpEdgeType, std::pair<std::int64_t, std::int64_t>>> stats;
        for (const std::uint32_t id : g.edgesInGraphOrder()) {
            const CpEdge& e = g.edges[id];
            auto it =
                std::find_if(stats.begin(), stats.end(), [&e](const auto& s) { return s.first == e.type; });
            if (it == stats.end())
                it = stats.insert(stats.end(), { e.type, { 0, 0 } });
            it->second.first += 1;
            it->second.second += e.graphWeight;
        }
        return stats;
    }

} // namespace cp_report

namespace {

    using namespace cp_report;

    Table summaryTable(const CriticalPathGraph& g)
    {
        Table t;
        t.name = "summary";
        t.columns = { { "rank", "" }, { "success", "" }, { "clipped_trace_rows", "" }, { "n_nodes", "" },
            { "n_edges", "" }, { "critical_path_n_nodes", "" }, { "critical_path_total_weight", "us" },
            { "critical_path_first_ts", "us" }, { "critical_path_last_ts", "us" }, { "problems", "" } };
        std::string problems;
        for (const std::string& p : g.problems) {
            if (!problems.empty())
                problems += "; ";
            problems += p;
        }
        const bool path = !g.pathNodes.empty();
        t.addRow({ g.rank, std::int64_t { g.success ? 1 : 0 }, static_cast<std::int64_t>(g.clippedRows),
            static_cast<std::int64_t>(g.nodes.size()), static_cast<std::int64_t>(g.edges.size()),
            static_cast<std::int64_t>(g.pathNodes.size()), path ? weightCell(g, g.pathWeight) : Cell {},
            path ? Cell(microseconds(g.nodes[g.pathNodes.front()].ts)) : Cell {},
            path ? Cell(microseconds(g.nodes[g.pathNodes.back()].ts)) : Cell {}, problems });
        return t;
    }

    Table edgeTypesTable(const CriticalPathGraph& g)
    {
        Table t;
        t.name = "edge_types";
        t.columns = { { "type", "" }, { "count", "" }, { "weight_sum", "us" } };
        for (const auto& [type, stat] : edgeTypeStats(g))
            t.addRow({ std::string(cpEdgeTypeName(type)), stat.first, weightCell(g, stat.second) });
        return t;
    }

    Table boundTypeTable(const CriticalPathGraph& g)
    {
        Table t;
        t.name = "summary_pct_by_bound_type";
        t.columns = { { "bound_by", "" }, { "duration", "%" }, { "duration_us", "us" } };
        t.indexColumns = { "bound_by" };
        const std::int64_t total = totalDuration(g);
        for (const auto& [bound, ns] : durationByBoundType(g))
            t.addRow({ bound, percentOf(ns, total), microseconds(ns) });
        return t;
    }

    // HTA's two edge tables: one row per edge of `ids`. Each end of an edge gives
    // "<end>_event", "<end>_is_start", "<end>_ts", "<end>_name" and, with
    // `withStream`, "<end>_stream"; `tail` gives the cells of `tailColumns`.
    template <typename Tail>
    Table edgeTable(const CriticalPathGraph& g, std::string name, const std::vector<std::uint32_t>& ids,
        bool withStream, const std::vector<Column>& tailColumns, Tail tail)
    {
        Table t;
        t.name = std::move(name);
        for (const std::string end : { "src", "dst" }) {
            t.columns.insert(t.columns.end(),
                { { end + "_event", "" }, { end + "_is_start", "" }, { end + "_ts", "us" },
                    { end + "_name", "" } });
            if (withStream)
                t.columns.push_back({ end + "_stream", "" });
        }
        t.columns.insert(t.columns.end(), tailColumns.begin(), tailColumns.end());
        for (const std::uint32_t id : ids) {
            const CpEdge& e = g.edges[id];
            std::vector<Cell> row;
            for (const std::uint32_t node : { e.src, e.dst }) {
                const CpNode& n = g.nodes[node];
                row.insert(row.end(),
                    { n.eventIndex, std::int64_t { n.isStart }, microseconds(n.ts),
                        std::string(nodeName(g, node)) });
                if (withStream)
                    row.emplace_back(rowOfNode(g, node).stream);
            }
            const std::vector<Cell> more = tail(id, e);
            row.insert(row.end(), more.begin(), more.end());
            t.addRow(row);
        }
        return t;
    }

    Table pathEdgesTable(const CriticalPathGraph& g)
    {
        return edgeTable(g, "critical_path_edges", g.pathEdges, false,
            { { "type", "" }, { "weight", "us" }, { "edge_object_weight", "us" },
                { "attributed_event", "" } },
            [&g](std::uint32_t, const CpEdge& e) {
                return std::vector<Cell> { std::string(cpEdgeTypeName(e.type)), weightCell(g, e.graphWeight),
                    weightCell(g, e.weight), e.attributedEvent >= 0 ? Cell(e.attributedEvent) : Cell {} };
            });
    }

    Table syncEdgesTable(const CriticalPathGraph& g)
    {
        return edgeTable(g, "sync_dependency_edges", g.syncEdges(), true,
            { { "on_critical_path", "" }, { "inferred", "" } }, [&g](std::uint32_t id, const CpEdge& e) {
                return std::vector<Cell> { std::int64_t { g.onPath(id) }, std::int64_t { e.inferred } };
            });
    }

} // namespace

std::string shortenNameHta(std::string_view name)
{
    // Observed in HTA 0.6.1's outputs: memory names and names without template
    // or call brackets are kept whole ("## forward ##", "Memset (Device)").
    if (classifyKernelHta(name) == KernelType::Memory || name.find_first_of("(<") == std::string_view::npos)
        return std::string(name);
    return shortenBracketedName(name);
}

AnalysisOutput criticalPathTables(const CriticalPathGraph& g)
{
    return AnalysisOutput::of(
        dictOfTables({ { "summary", summaryTable(g) }, { "edge_types", edgeTypesTable(g) },
            { "summary_pct_by_bound_type", boundTypeTable(g) }, { "critical_path_edges", pathEdgesTable(g) },
            { "sync_dependency_edges", syncEdgesTable(g) }, { "breakdown", breakdownTable(g) } }));
}

} // namespace ks::core
