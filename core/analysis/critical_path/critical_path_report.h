#pragma once

// What the critical path's tables (critical_path_report.cpp) and HTA's JSON of
// the result (core/report/critical_path_json.cpp) both read off a graph.

#include "core/analysis/critical_path/critical_path.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

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
// HTA's get_critical_path_breakdown: one row per path edge, with the attributed event.
Table breakdownTable(const CriticalPathGraph& g);

} // namespace ks::core::cp_report
