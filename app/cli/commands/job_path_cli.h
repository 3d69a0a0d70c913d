#pragma once

// What `critical-path --all-ranks` and `stragglers` share: their options, the
// load, and printing a result with its notes.

#include "app/cli/cli_args.h"
#include "core/analysis/cross_rank/arrival_stragglers.h"
#include "core/analysis/cross_rank/job_critical_path.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace ks::cli {

// --iteration I, --window A:B (us) and every --what-if; a problem sets `problem`.
core::JobPathOptions jobPathOptions(const CliArgs& args, std::string& problem);

// The job's path over loaded frames; prints the reason when there is none.
// The ranks are condensed on --threads N threads (default: every core), one
// rank's event graph alive on each.
std::optional<core::JobCriticalPath> jobPathOf(const core::FrameSet& frames,
    const core::JobPathOptions& options, const CliArgs& args, const std::string& command, std::ostream& err);

// Prints a result (table: every table; csv: each table after "# name"; json:
// the dict) followed by the notes ("note: ..." lines, or a "notes" table).
void printWithNotes(core::AnalysisOutput output, const std::vector<std::string>& notes,
    const std::string& format, const std::string& title, std::ostream& out);

// `stragglers`' result: `stragglers` (its first table, or why it does not apply)
// and `arrival_stragglers` (who arrived last at the job's collectives), as one dict.
core::AnalysisOutput withArrivalStragglers(
    core::AnalysisOutput stragglers, const core::ArrivalSummary& arrivals);

// `critical-path --all-ranks`, after its arguments were parsed.
int runAllRanksCriticalPath(const CliArgs& args, const char* usage, std::ostream& out, std::ostream& err);

} // namespace ks::cli
