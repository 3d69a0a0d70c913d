#pragma once

#include "core/analysis/critical_path/critical_path.h"
#include "core/analysis/critical_path/sync_dependencies.h"

#include <iosfwd>
#include <string>

namespace ks::cli {

// `critical-path --sync-deps`: the graph's synchronization dependencies for
// Chakra (seed 004), by default only those on the critical path (what Chakra's
// trace linker takes). table/csv: one row each; json: {"ok": true, the rows and
// the map {end External id: [start External id, ...]} under "chakra_sync_deps"}.
void printSyncDependencies(const core::CriticalPathGraph& graph, core::SyncEdgeSelection selection,
    const std::string& format, std::ostream& out, std::ostream& err);

// "Not applicable" (no graph: a CPU-only trace, no such annotation, ...): JSON
// {"ok": false, "error": why} with --format json, one line of text otherwise.
void printSyncDependenciesNotApplicable(const std::string& why, const std::string& format, std::ostream& out);

} // namespace ks::cli
