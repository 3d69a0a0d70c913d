#pragma once

// What `insights` and `check --max-gain` share: reading --rules and --set, and
// running the rules over loaded paths on all cores.

#include "app/cli/cli_args.h"
#include "core/insights/insights.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace ks::cli {

// --rules a,b and every --set RULE.PARAM=V; a problem (unknown rule or parameter) sets `problem`.
core::InsightsOptions insightsOptions(const CliArgs& args, std::string& problem);

// Loads the PATHs (traces, or job summaries: see summary_insights.h), selects
// --ranks/--iterations and runs the rules; prints why and returns nullopt when
// nothing could be loaded.
std::optional<core::InsightsReport> insightsForCli(
    const CliArgs& args, const core::InsightsOptions& options, const std::string& command, std::ostream& err);

} // namespace ks::cli
