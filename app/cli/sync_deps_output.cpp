#include "app/cli/sync_deps_output.h"

#include "app/cli/cli_output.h"
#include "app/cli/json_out.h"
#include "core/analysis/critical_path/sync_dependencies.h"
#include "core/report/table_text.h"

#include <ostream>

namespace ks::cli {

namespace {

    void printRefJson(std::ostream& out, const char* key, const core::SyncEventRef& ref)
    {
        out << ",\"" << key << "\":{\"event_index\":" << ref.eventIndex << ",\"name\":" << jsonQuote(ref.name)
            << ",\"external_id\":" << ref.externalId << '}';
    }

} // namespace

void printSyncDependencies(const core::CriticalPathGraph& graph, const std::string& format, std::ostream& out)
{
    const std::vector<core::SyncDependency> deps = core::syncDependencies(graph);
    const auto map = core::chakraSyncMap(deps);
    if (format == "json") {
        out << "{\"rank\":" << graph.rank << ",\"sync_dependencies\":[";
        for (std::size_t i = 0; i < deps.size(); ++i) {
            const core::SyncDependency& d = deps[i];
            out << (i ? "," : "") << "{\"kind\":" << jsonQuote(core::syncKindName(d.kind))
                << ",\"inferred\":" << (d.inferred ? "true" : "false");
            printRefJson(out, "start", d.gpu);
            printRefJson(out, "end", d.waiter);
            printRefJson(out, "next_cpu_op", d.nextOp);
            out << '}';
        }
        out << "],\"chakra_sync_deps\":{";
        bool first = true;
        for (const auto& [end, starts] : map) {
            out << (first ? "" : ",") << '"' << end << "\":[";
            for (std::size_t k = 0; k < starts.size(); ++k)
                out << (k ? "," : "") << starts[k];
            out << ']';
            first = false;
        }
        out << "}}\n";
        return;
    }
    printResult(
        core::HtaResult::dataFrame(core::syncDependencyTable(deps)), format, "sync_dependencies", out);
}

} // namespace ks::cli
