#pragma once

// The insights a job summary keeps: the rank rules' findings
// of each rank, computed when the rank is summarised with the rules' default
// thresholds, and read back as the report `insights` prints on the folder. The
// job rules need every rank's events at once; on a summary they say which
// ranks' traces to open.

#include "core/analysis/tables/table_rows.h"
#include "core/common/result.h"
#include "core/insights/insights.h"

#include <string>
#include <vector>

namespace ks::core {

// Rows of the `findings` table for one rank's results.
std::vector<std::vector<Cell>> findingRows(const RankInsights& insights);
// The analysis_status name of a rule that did not apply: "insights:RULE".
std::string insightsStatusName(std::string_view rule);

// The report of a summary: its stored rank findings merged as runInsights merges
// them, restricted to `options.rules` and `ranks` (empty: all); job rules are
// not applicable, naming the ranks whose traces answer them. An error when the
// file is no summary, or one written before findings were stored.
Result<InsightsReport> insightsFromSummary(
    const std::string& path, const InsightsOptions& options, const std::vector<std::int64_t>& ranks = {});

} // namespace ks::core
