#pragma once

// What the critical path's tables (critical_path_report.cpp) and HTA's JSON of
// the result (core/report/critical_path_json.cpp) both read off a graph.

#include "core/analysis/critical_path/critical_path.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ks::core::cp_report {

bool compatOf(const CriticalPathGraph& g);
// A weight in µs: integral in HTA-compatible mode when whole (HTA's int64 columns).
Cell weightCell(const CriticalPathGraph& g, std::int64_t ns);
const FrameRow& rowOfNode(const CriticalPathGraph& g, std::uint32_t node);
std::string_view nodeName(const CriticalPathGraph& g, std::uint32_t node);
// HTA's bound_by: delays by kind, dependencies nowhere, spans by where the event ran.
std::string boundBy(const CriticalPathGraph& g, const CpEdge& e);
// A path edge's duration in the breakdown (HTA's edge object weight, or the graph's).
std::int64_t breakdownWeight(const CriticalPathGraph& g, const CpEdge& e);
// Σ durations per bound type (ns), in groupby order (sorted by name).
std::map<std::string, std::int64_t> durationByBoundType(const CriticalPathGraph& g);
std::int64_t totalDuration(const CriticalPathGraph& g);
double percentOf(std::int64_t part, std::int64_t total);
// Edge types in order of first appearance in the graph, with count and Σ
// weight in the graph (negative weights counted as 0 are 0 here, as in HTA).
std::vector<std::pair<CpEdgeType, std::pair<std::int64_t, std::int64_t>>> edgeTypeStats(
    const CriticalPathGraph& g);
// HTA's get_critical_path_breakdown: one row per path edge, with the attributed event.
Table breakdownTable(const CriticalPathGraph& g);

} // namespace ks::core::cp_report
