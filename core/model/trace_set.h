#pragma once

#include "core/common/result.h"
#include "core/model/diagnostics.h"
#include "core/model/rank_trace.h"

#include <memory>
#include <string>
#include <vector>

namespace ks::core {

// A file in a folder that is not a Kineto trace (a PyTorch execution trace,
// any other JSON): not a rank, and not an error unless nothing else loads.
struct SkippedFile
{
    std::string path;
    std::string reason; // "no traceEvents: not a Kineto/Chrome trace"
};

// What a user opened: the ranks that loaded, sorted by rank, and what failed.
struct TraceSet
{
    std::vector<std::shared_ptr<const RankTrace>> ranks;
    std::vector<Error> failures; // one per file that could not be loaded
    Diagnostics folderDiagnostics; // duplicate ranks, skipped files, clock skew
    std::vector<std::string> notes; // human-readable notes (skipped files, rank fallbacks)
    std::vector<std::string> inputs; // the paths as given
    std::vector<SkippedFile> skipped; // in load order

    TimeNs startNs() const;
    TimeNs endNs() const;
};

// One line for a load that left nothing to analyse: which inputs, and what was
// skipped and why ("nothing to analyse in DIR: skipped DIR/et.json (no traceEvents: ...)").
std::string nothingToAnalyse(const std::vector<std::string>& inputs, const std::vector<SkippedFile>& skipped);

} // namespace ks::core
