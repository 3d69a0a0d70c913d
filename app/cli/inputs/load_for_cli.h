#pragma once

#include "app/cli/cli_args.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/model/trace_set.h"
#include "core/session/trace_analyses.h"

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks::cli {

// Loads paths on all cores (or the command's --threads N), with its load settings
// (--max-event-duration). Prints one line per failed file to `err`; returns nullopt
// when nothing loaded, after a line saying why (what was skipped as not a Kineto
// trace), so no command ends silently.
std::optional<core::TraceSet> loadForCli(
    const std::vector<std::string>& paths, const CliArgs& parsed, std::ostream& err);

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

// loadForCli over the command's PATHs and --threads, as the session every
// analysis of the command is asked from: null after the reason was printed.
std::shared_ptr<core::TraceAnalyses> loadSessionForCli(const CliArgs& parsed, std::ostream& err);

// How a command's requests run: on every core, or on --threads N; never cancelled.
core::SessionWork cliWork(unsigned threads = 0);

// The session's frames of `options`, or nullopt after printing the error
// (prefixed by `command`), as framesForCli.
std::shared_ptr<const core::FrameSet> sessionFramesForCli(core::TraceAnalyses& session,
    const core::AnalysisOptions& options, const core::SessionWork& work, const std::string& command,
    std::ostream& err);

} // namespace ks::cli
