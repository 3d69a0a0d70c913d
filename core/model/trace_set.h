#pragma once

#include "core/common/result.h"
#include "core/model/diagnostics.h"
#include "core/model/rank_trace.h"

#include <memory>
#include <string>
#include <vector>

namespace ks::core {

// What a user opened: the ranks that loaded, sorted by rank, and what failed.
struct TraceSet
{
    std::vector<std::shared_ptr<const RankTrace>> ranks;
    std::vector<Error> failures; // one per file that could not be loaded
    Diagnostics folderDiagnostics; // duplicate ranks, skipped files, clock skew
    std::vector<std::string> notes; // human-readable notes (skipped files, rank fallbacks)
    std::vector<std::string> inputs; // the paths as given

    TimeNs startNs() const;
    TimeNs endNs() const;
};

} // namespace ks::core
