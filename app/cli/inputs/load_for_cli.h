#pragma once

#include "app/cli/cli_args.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/model/trace_set.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ks::cli {

// Loads paths on all cores (or --threads N). Prints one line per failed file
// to `err`; returns nullopt when nothing loaded, after a line saying why (what
// was skipped as not a Kineto trace), so no command ends silently.
std::optional<core::TraceSet> loadForCli(
    const std::vector<std::string>& paths, const std::optional<std::string>& threads, std::ostream& err);

// The analysis rows of the loaded ranks, built on all cores. Prints the error
// to `err` (prefixed by `command`) and returns nullopt when it fails.
std::optional<core::FrameSet> framesForCli(const core::TraceSet& traces, const core::AnalysisOptions& options,
    const std::string& command, std::ostream& err);

// The command's --threads N, 0 (every core) when not given; loadForCli has
// already rejected one that is not a number.
unsigned threadsOption(const CliArgs& parsed);

// loadForCli over the command's PATHs and --threads, then framesForCli over
// what loaded: the frames, or nullopt after the reason was printed.
std::optional<core::FrameSet> loadFramesForCli(const CliArgs& parsed, const core::AnalysisOptions& options,
    const std::string& command, std::ostream& err);

} // namespace ks::cli
