#include "app/cli/output/sync_deps_output.h"

#include "app/cli/output/cli_output.h"
#include "app/cli/output/json_out.h"
#include "core/report/table_text.h"

#include <ostream>

namespace ks::cli {

namespace {

    void printRefJson(std::ostream& out, const char* key, const core::SyncEventRef& ref)
    {
        out << ",\"" << key << "\":{\"event_index\":" << ref.eventIndex << ",\"name\":" << jsonQuote(ref.name)
            << ",\"external_id\":" << ref.externalId << '}';
    }

    // Ids are JSON integers; only the keys are strings, as JSON requires.
    void printChakraMap(std::ostream& out, const std::vector<core::SyncDependency>& deps)
    {
        out << '{';
        bool first = true;
        for (const auto& [end, starts] : core::chakraSyncMap(deps)) {
            out << (first ? "" : ",") << '"' << end << "\":[";
            for (std::size_t k = 0; k < starts.size(); ++k)
                out << (k ? "," : "") << starts[k];
            out << ']';
            first = false;
        }
        out << '}';
    }

    void printJson(const core::CriticalPathGraph& graph, core::SyncEdgeSelection selection,
        const std::vector<core::SyncDependency>& deps, std::ostream& out)
    {
        out << "{\"ok\":true,\"rank\":" << graph.rank
            << ",\"critical_path_found\":" << (graph.success ? "true" : "false") << ",\"sync_edges\":"
            << (selection == core::SyncEdgeSelection::All ? "\"all\"" : "\"critical_path\"")
            << ",\"sync_dependencies\":[";
        for (std::size_t i = 0; i < deps.size(); ++i) {
            const core::SyncDependency& d = deps[i];
            out << (i ? "," : "") << "{\"kind\":" << jsonQuote(core::syncKindName(d.kind))
                << ",\"inferred\":" << (d.inferred ? "true" : "false")
                << ",\"on_critical_path\":" << (d.onCriticalPath ? "true" : "false");
            printRefJson(out, "start", d.gpu);
            printRefJson(out, "end", d.waiter);
            printRefJson(out, "next_cpu_op", d.nextOp);
            out << '}';
        }
        out << "],\"problems\":[";
        for (std::size_t i = 0; i < graph.problems.size(); ++i)
            out << (i ? "," : "") << jsonQuote(graph.problems[i]);
        out << "],\"chakra_sync_deps\":";
        printChakraMap(out, deps);
        out << "}\n";
    }

} // namespace

void printSyncDependencies(const core::CriticalPathGraph& graph, core::SyncEdgeSelection selection,
    const std::string& format, std::ostream& out, std::ostream& err)
{
    const std::vector<core::SyncDependency> deps = core::syncDependencies(graph, selection);
    if (format == "json") {
        printJson(graph, selection, deps, out);
        return;
    }
    // An invalid graph has no critical path, so no dependency is on it (HTA's
    // critical_path_edges_set is empty then, and Chakra gets an empty map).
    for (const std::string& p : graph.problems)
        err << "problem: " << p << '\n';
    printResult(
        core::HtaResult::dataFrame(core::syncDependencyTable(deps)), format, "sync_dependencies", out);
}

void printSyncDependenciesNotApplicable(const std::string& why, const std::string& format, std::ostream& out)
{
    if (format == "json")
        out << "{\"ok\":false,\"error\":" << jsonQuote(why) << "}\n";
    else
        out << "sync dependencies: not applicable: " << why << '\n';
}

} // namespace ks::cli
