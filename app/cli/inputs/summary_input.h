#pragma once

// Job-level commands on a job summary: `insights`, `overview`,
// `stragglers` and `collectives` read a .kssum as they read a folder, and say
// which ranks' traces to open where the summary lacks what they need.

#include "app/cli/cli_args.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace ks::cli {

// The one PATH when it is a job summary (an SQLite file), else nullopt.
std::optional<std::string> summaryArgument(const CliArgs& args);

// Each prints what the summary holds in `format` and returns the exit code
// (1 when the summary cannot be read, having said why).
int overviewFromSummary(
    const std::string& path, const std::string& format, std::ostream& out, std::ostream& err);
int collectivesFromSummary(const std::string& path, std::size_t top, const std::string& format,
    std::ostream& out, std::ostream& err);
int stragglersFromSummary(
    const std::string& path, const std::string& format, std::ostream& out, std::ostream& err);

} // namespace ks::cli
