// The critical path's outputs: tables for the CLI and the app, HTA's
// breakdown by bound type, and the JSON object of ../shared/reference.

#include "core/analysis/critical_path/critical_path.h"
#include "core/analysis/frame/kernel_type.h"
#include "core/analysis/hta/counters_support.h"
#include "core/analysis/tables/microseconds.h"
#include "core/analysis/tables/table_dict.h"
#include "core/common/json_text.h"
#include "core/report/hta_json_writer.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace ks::core {

namespace {

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

    // --- JSON in the encoding of ../shared/reference -------------------------------

    void appendKey(std::string& out, std::string_view key)
    {
        if (out.back() != '{')
            out += ',';
        appendJsonString(out, key);
        out += ':';
    }

    void appendEventInfo(std::string& out, const CriticalPathGraph& g, std::uint32_t node)
    {
        const FrameRow& row = rowOfNode(g, node);
        const ThreadKey& key = counters::threadKeyOf(*g.frame, row);
        out += '{';
        appendKey(out, "name");
        appendJsonString(out, g.frame->name(row));
        appendKey(out, "cat");
        appendJsonString(out, g.frame->category(row));
        appendKey(out, "stream");
        out += std::to_string(row.stream);
        appendKey(out, "pid");
        appendCellJson(out, counters::threadKeyCell(*g.frame->trace, key.pid, key.pidIsName));
        appendKey(out, "tid");
        appendCellJson(out, counters::threadKeyCell(*g.frame->trace, key.tid, key.tidIsName));
        out += '}';
    }

    // "<side>_event", "<side>_is_start" and "<side>_ts" of one end of an edge.
    void appendEdgeEnd(
        std::string& out, const CriticalPathGraph& g, std::uint32_t node, std::string_view side)
    {
        const std::string prefix(side);
        appendKey(out, prefix + "_event");
        out += std::to_string(g.nodes[node].eventIndex);
        appendKey(out, prefix + "_is_start");
        out += g.nodes[node].isStart ? "true" : "false";
        appendKey(out, prefix + "_ts");
        out += pythonFloatText(microseconds(g.nodes[node].ts));
    }

    void appendPathEdges(std::string& out, const CriticalPathGraph& g)
    {
        out += '[';
        for (std::size_t i = 0; i < g.pathEdges.size(); ++i) {
            const CpEdge& e = g.edges[g.pathEdges[i]];
            out += i ? ",{" : "{";
            appendEdgeEnd(out, g, e.src, "src");
            appendKey(out, "src_name");
            appendJsonString(out, nodeName(g, e.src));
            appendEdgeEnd(out, g, e.dst, "dst");
            appendKey(out, "dst_name");
            appendJsonString(out, nodeName(g, e.dst));
            appendKey(out, "type");
            appendJsonString(out, cpEdgeTypeName(e.type));
            appendKey(out, "weight");
            appendCellJson(out, weightCell(g, e.graphWeight));
            appendKey(out, "edge_object_weight");
            appendCellJson(out, weightCell(g, e.weight));
            appendKey(out, "attributed_event");
            out += e.attributedEvent >= 0 ? std::to_string(e.attributedEvent) : "null";
            out += '}';
        }
        out += ']';
    }

    void appendSyncEdges(std::string& out, const CriticalPathGraph& g)
    {
        out += '[';
        bool first = true;
        for (const std::uint32_t id : g.syncEdges()) {
            const CpEdge& e = g.edges[id];
            out += first ? "{" : ",{";
            first = false;
            appendEdgeEnd(out, g, e.src, "src");
            appendEdgeEnd(out, g, e.dst, "dst");
            appendKey(out, "src");
            appendEventInfo(out, g, e.src);
            appendKey(out, "dst");
            appendEventInfo(out, g, e.dst);
            appendKey(out, "weight");
            appendCellJson(out, weightCell(g, e.weight));
            appendKey(out, "on_critical_path");
            out += g.onPath(id) ? "true" : "false";
            if (!compatOf(g)) {
                appendKey(out, "inferred");
                out += e.inferred ? "true" : "false";
            }
            out += '}';
        }
        out += ']';
    }

    void appendAllEdges(std::string& out, const CriticalPathGraph& g)
    {
        out +=
            R"(["src_event","src_is_start","dst_event","dst_is_start","type","weight_in_graph","weight_in_edge_object"])";
        out += R"(,"all_edges":[)";
        bool first = true;
        for (const std::uint32_t id : g.edgesInGraphOrder()) {
            const CpEdge& e = g.edges[id];
            out += first ? "[" : ",[";
            first = false;
            out +=
                std::to_string(g.nodes[e.src].eventIndex) + (g.nodes[e.src].isStart ? ",true," : ",false,");
            out +=
                std::to_string(g.nodes[e.dst].eventIndex) + (g.nodes[e.dst].isStart ? ",true," : ",false,");
            appendJsonString(out, cpEdgeTypeName(e.type).substr(std::string_view("critical_path_").size()));
            out += ',';
            appendCellJson(out, weightCell(g, e.graphWeight));
            out += ',';
            appendCellJson(out, weightCell(g, e.weight));
            out += ']';
        }
        out += ']';
    }

    void appendEdgeTypeStats(std::string& out, const CriticalPathGraph& g)
    {
        const auto stats = edgeTypeStats(g);
        appendKey(out, "edge_type_counts");
        out += '{';
        for (const auto& [type, stat] : stats) {
            appendKey(out, cpEdgeTypeName(type));
            out += std::to_string(stat.first);
        }
        out += '}';
        appendKey(out, "edge_type_weight_sum");
        out += '{';
        for (const auto& [type, stat] : stats) {
            appendKey(out, cpEdgeTypeName(type));
            appendCellJson(out, weightCell(g, stat.second));
        }
        out += '}';
    }

    void appendBoundTypes(std::string& out, const CriticalPathGraph& g)
    {
        const auto sums = durationByBoundType(g);
        const std::int64_t total = totalDuration(g);
        appendKey(out, "summary_pct_by_bound_type");
        out += R"({"type":"series","columns":["bound_by","duration"],"index_columns":["bound_by"],"n_rows":)";
        out += std::to_string(sums.size()) + R"(,"records":[)";
        bool first = true;
        for (const auto& [bound, ns] : sums) {
            out += first ? "{" : ",{";
            first = false;
            appendKey(out, "bound_by");
            appendJsonString(out, bound);
            appendKey(out, "duration");
            out += pythonFloatText(percentOf(ns, total));
            out += '}';
        }
        out += "]}";
        appendKey(out, "duration_sum_by_bound_type");
        out += '{';
        for (const auto& [bound, ns] : sums) {
            appendKey(out, bound);
            out += pythonFloatText(microseconds(ns));
        }
        out += '}';
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

std::string criticalPathResultJson(const CriticalPathGraph& g)
{
    std::string out;
    // About 60 bytes per edge, 600 per path edge (two names, the breakdown row).
    out.reserve(4096 + g.edges.size() * 60 + g.pathEdges.size() * 600);
    out += '{';
    appendKey(out, "success");
    out += g.success ? "true" : "false";
    appendKey(out, "rank");
    out += std::to_string(g.rank);
    appendKey(out, "clipped_trace_rows");
    out += std::to_string(g.clippedRows);
    appendKey(out, "n_nodes");
    out += std::to_string(g.nodes.size());
    appendKey(out, "n_edges");
    out += std::to_string(g.edges.size());
    appendEdgeTypeStats(out, g);
    const bool path = !g.pathNodes.empty();
    appendKey(out, "critical_path_n_nodes");
    out += std::to_string(g.pathNodes.size());
    appendKey(out, "critical_path_total_weight");
    appendCellJson(out, path ? weightCell(g, g.pathWeight) : Cell {});
    appendKey(out, "critical_path_first_ts");
    out += path ? pythonFloatText(microseconds(g.nodes[g.pathNodes.front()].ts)) : "null";
    appendKey(out, "critical_path_last_ts");
    out += path ? pythonFloatText(microseconds(g.nodes[g.pathNodes.back()].ts)) : "null";
    appendKey(out, "critical_path_edges");
    appendPathEdges(out, g);
    appendKey(out, "sync_dependency_edges");
    appendSyncEdges(out, g);
    appendKey(out, "all_edges_columns");
    appendAllEdges(out, g);
    appendKey(out, "breakdown");
    out += path ? htaResultJson(HtaResult::dataFrame(breakdownTable(g))) : "null";
    appendBoundTypes(out, g);
    appendKey(out, "problems");
    out += '[';
    for (std::size_t i = 0; i < g.problems.size(); ++i) {
        if (i)
            out += ',';
        appendJsonString(out, g.problems[i]);
    }
    out += "]}";
    return out;
}

} // namespace ks::core
