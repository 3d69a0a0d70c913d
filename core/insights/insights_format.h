#pragma once

// An insights report as text: a table for the terminal, Markdown a user pastes
// into a ticket, JSON (a list of findings, largest gain first) and CSV.

#include "core/insights/finding.h"

#include <string>

namespace ks::core {

// JSON array of the findings: rule, title, gain_pct, severity, ranks, iterations,
// evidence, suggestion, where ([{rank, events, ranges: [{start_us, end_us}]}],
// absolute µs as in the trace), gain_basis, what_if.
std::string insightsJson(const InsightsReport& report);
std::string insightsMarkdown(const InsightsReport& report);
std::string insightsTable(const InsightsReport& report);
// One row per finding: rule, gain_pct, severity, ranks, iterations, title, evidence (joined by " | "),
// suggestion.
std::string insightsCsv(const InsightsReport& report);

// "0-3,7,9-12": ranks with runs collapsed.
std::string rankRuns(const std::vector<std::int64_t>& ranks);

// "rank 0: 12 events, 3 ranges" style one-liner of where a finding shows, for tables.
std::string whereSummary(const Finding& finding);

} // namespace ks::core
