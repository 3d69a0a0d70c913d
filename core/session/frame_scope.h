#pragma once

// What a request of TraceAnalyses covers: the frames (mode, ranks, iterations,
// a time window) and, for the catalog's outputs, the calls' arguments. Two
// requests of equal scopes share one result.

#include "core/analysis/frame/analysis_options.h"
#include "core/model/event_tables.h"

#include <optional>

namespace ks::core {

// A window of the trace the analyses are restricted to: absolute ns, [start, end)
// (the events starting in it).
struct AnalysisWindow
{
    TimeNs start = 0;
    TimeNs end = 0;

    bool operator==(const AnalysisWindow&) const = default;
};

struct FrameScope
{
    // Mode, ranks and iterations select the frames; the rest are the calls'
    // arguments. Its cancel token is ignored (the request's own is used).
    AnalysisOptions options;
    std::optional<AnalysisWindow> window;

    // The same frames: what buildFrames and the window read.
    bool sameFrames(const FrameScope& other) const
    {
        return options.mode == other.options.mode && options.ranks == other.options.ranks
            && options.iterations == other.options.iterations
            && options.includeLastProfilerStep == other.options.includeLastProfilerStep
            && options.diffLoading == other.options.diffLoading && window == other.window;
    }

    // The same frames and the same calls' arguments.
    bool operator==(const FrameScope& other) const
    {
        return options == other.options && window == other.window;
    }
};

// The job's critical path is a default-mode analysis: the scope's frames in
// default mode, whatever the scope's mode.
inline FrameScope defaultModeScope(FrameScope scope)
{
    scope.options.mode = AnalysisMode::Default;
    return scope;
}

} // namespace ks::core
