#pragma once

#include "core/analysis/critical_path/critical_path.h"

#include <iosfwd>
#include <string>

namespace ks::cli {

// `critical-path --sync-deps`: the graph's synchronization dependencies for
// Chakra (seed 004). table/csv: one row each; json: the rows and the map
// {end External id: [start External id, ...]}.
void printSyncDependencies(
    const core::CriticalPathGraph& graph, const std::string& format, std::ostream& out);

} // namespace ks::cli
