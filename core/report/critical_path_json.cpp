// HTA's JSON of one rank's critical path: the `result` object of
// ../shared/reference/*/critical_path_analysis__*.json.

#include "core/report/critical_path_json.h"

#include "core/analysis/critical_path/critical_path_report.h"
#include "core/analysis/hta/counters_support.h"
#include "core/analysis/tables/microseconds.h"
#include "core/common/json_text.h"
#include "core/report/hta_json_writer.h"

#include <string>

namespace ks::core {

namespace {

    using namespace cp_report;

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
