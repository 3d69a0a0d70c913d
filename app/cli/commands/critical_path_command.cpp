// `kinetoscope-cli critical-path`: A8, the critical path of one rank over an
// annotation instance, with its synchronization dependencies; optionally the
// trace with the path overlaid.
#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/commands/job_path_cli.h"
#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/output/cli_output.h"
#include "app/cli/output/json_out.h"
#include "app/cli/output/sync_deps_output.h"
#include "core/analysis/critical_path/critical_path.h"
#include "core/report/critical_path_json.h"
#include "core/report/critical_path_trace_writer.h"
#include "core/report/hta_json_writer.h"
#include "core/report/table_text.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <ostream>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli critical-path PATH... [--rank R] [--annotation A] [--instance I|A:B]\n"
        "       [--hta-compat] [--write-trace FILE[.gz]] [--format table|csv|json] [--out DIR] [--threads "
        "N]\n"
        "       [--sync-deps [--all-sync-edges]]\n"
        "  --annotation: events whose name contains A bound the window (default \"\": the whole trace)\n"
        "  --instance:   which of them (0-based, HTA's row order in --hta-compat), or an inclusive range "
        "A:B\n"
        "  --sync-deps:  the GPU->CPU synchronization dependencies on the critical path, with External ids\n"
        "                and the next CPU operator to make wait; json adds the map {end External id:\n"
        "                [start ...]} Chakra's trace linker builds (same as Chakra: --hta-compat\n"
        "                --annotation ProfilerStep --instance 0)\n"
        "  --all-sync-edges: with --sync-deps, every sync dependency of the graph, on the path or not\n"
        "       kinetoscope-cli critical-path PATH... --all-ranks [--iteration I | --window A:B]\n"
        "       [--what-if REGEX=F]... [--write-trace FILE.json] [--format table|csv|json] [--threads N]\n"
        "  --all-ranks:  the job's path across ranks, joined at matched collectives\n"
        "  --iteration:  ProfilerStep#I on every rank (default: each rank's whole trace)\n"
        "  --window:     A:B in us from the job's start\n"
        "  --what-if:    ops/kernels matching REGEX (or kind:BOUND) take F times as long; repeatable\n"
        "  --write-trace (with --all-ranks): the path as a trace, one process per rank, hops as flows\n";

    bool parseInteger(const std::string& text, std::int64_t& value)
    {
        const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
        return r.ec == std::errc() && r.ptr == text.data() + text.size();
    }

    bool parseInstance(const std::string& text, core::CriticalPathInstance& instance)
    {
        const std::size_t colon = text.find(':');
        if (colon == std::string::npos) {
            if (!parseInteger(text, instance.first))
                return false;
            instance.last = instance.first;
            return true;
        }
        return parseInteger(text.substr(0, colon), instance.first)
            && parseInteger(text.substr(colon + 1), instance.last);
    }

    // HTA's keyword arguments, as the reference files record them.
    std::string argsJson(
        std::int64_t rank, const std::string& annotation, const core::CriticalPathInstance& instance)
    {
        std::string out = "{\"rank\":";
        out += std::to_string(rank);
        out += ",\"annotation\":";
        out += jsonQuote(annotation);
        out += ",\"instance_id\":";
        if (instance.first == instance.last) {
            out += std::to_string(instance.first);
        } else {
            out += '[';
            out += std::to_string(instance.first);
            out += ',';
            out += std::to_string(instance.last);
            out += ']';
        }
        out += '}';
        return out;
    }

    std::string callJson(const std::string& args, const core::Result<core::CriticalPathGraph>& graph)
    {
        std::string out = "{\"call\":\"critical_path_analysis\",\"args\":" + args;
        if (!graph)
            return out + ",\"ok\":false,\"error\":" + jsonQuote(graph.error().message)
                + ",\"result\":null}\n";
        std::string warnings;
        for (const std::string& w : graph.value().warnings) {
            if (!warnings.empty())
                warnings += ',';
            warnings += jsonQuote(w);
        }
        return out + ",\"ok\":true,\"warnings\":[" + warnings
            + "],\"result\":" + core::criticalPathResultJson(graph.value()) + "}\n";
    }

    // Everything but the per-edge breakdown, which is for csv/json.
    std::string tablesText(const core::HtaResult& result)
    {
        std::string text;
        for (const auto& [name, item] : result.entries)
            if (name != "breakdown")
                text += core::resultAsText(name, item);
        return text;
    }

    int emit(const std::string& format, const std::optional<std::string>& outDir, const std::string& args,
        const core::Result<core::CriticalPathGraph>& graph, std::ostream& out, std::ostream& err)
    {
        if (outDir && !ensureDirectory(*outDir, "kinetoscope-cli", err))
            return 1;
        const std::filesystem::path dir(outDir.value_or("."));
        if (format == "json")
            return outDir ? (writeTextFile(dir / "critical_path_analysis.json", callJson(args, graph),
                                 "kinetoscope-cli", err)
                           ? 0
                           : 1)
                          : (out << callJson(args, graph), 0);
        if (!graph) {
            out << "critical_path_analysis: not applicable: " << graph.error().message << '\n';
            return 0;
        }
        const core::AnalysisOutput tables = core::criticalPathTables(graph.value());
        if (format == "csv") {
            for (const auto& [name, item] : tables.result.entries) {
                const std::string csv = core::tableAsCsv(item.frame);
                if (!outDir)
                    out << "# critical_path_" << name << '\n' << csv << '\n';
                else if (!writeTextFile(
                             dir / ("critical_path_" + name + ".csv"), csv, "kinetoscope-cli", err))
                    return 1;
            }
            return 0;
        }
        std::string text = tablesText(tables.result);
        for (const std::string& p : graph.value().problems)
            text += "problem: " + p + '\n';
        for (const std::string& w : graph.value().warnings)
            text += "warning: " + w + '\n';
        if (outDir)
            return writeTextFile(dir / "critical_path_analysis.txt", text, "kinetoscope-cli", err) ? 0 : 1;
        out << text;
        return 0;
    }

} // namespace

const char* const kCriticalPathUsage = kUsage;

int runCriticalPathCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CliArgs parsed(args,
        { "--rank", "--annotation", "--instance", "--write-trace", "--format", "--out", "--threads",
            "--iteration", "--window", "--what-if" },
        { "--hta-compat", "--all-ranks", "--sync-deps", "--all-sync-edges" });
    if (parsed.ok() && parsed.flag("--all-ranks"))
        return runAllRanksCriticalPath(parsed, kUsage, out, err);
    if (parsed.ok()) {
        for (const char* option : { "--iteration", "--window", "--what-if" })
            if (parsed.value(option)) {
                err << "kinetoscope-cli critical-path: " << option << " needs --all-ranks\n" << kUsage;
                return 2;
            }
    }
    if (!parsed.ok() || parsed.positional().empty()) {
        err << "kinetoscope-cli critical-path: " << (parsed.ok() ? "give at least one PATH" : parsed.error())
            << '\n'
            << kUsage;
        return 2;
    }
    core::AnalysisOptions options;
    options.mode = parsed.flag("--hta-compat") ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
    const std::string annotation = parsed.value("--annotation").value_or("");
    const std::string format = parsed.value("--format").value_or("table");
    core::CriticalPathInstance instance;
    std::optional<std::int64_t> rank;
    std::string problem;
    if (auto text = parsed.value("--instance"); text && !parseInstance(*text, instance))
        problem = "--instance needs I or A:B, got '" + *text + "'";
    if (auto text = parsed.value("--rank")) {
        std::int64_t value = 0;
        if (parseInteger(*text, value))
            rank = value;
        else
            problem = "--rank needs a number, got '" + *text + "'";
    }
    if (format != "table" && format != "csv" && format != "json")
        problem = "unknown format '" + format + "'";
    if (parsed.flag("--all-sync-edges") && !parsed.flag("--sync-deps"))
        problem = "--all-sync-edges needs --sync-deps";
    if (!problem.empty()) {
        err << "kinetoscope-cli critical-path: " << problem << '\n' << kUsage;
        return 2;
    }

    auto frames = loadFramesForCli(parsed, options, "kinetoscope-cli", err);
    if (!frames)
        return 1;
    if (!rank)
        rank = frames.value().ranks.empty() ? 0 : frames.value().ranks.front().rank;
    const auto graph = core::buildCriticalPath(frames.value(), *rank, annotation, instance, options);
    if (parsed.flag("--sync-deps")) {
        if (!graph) {
            printSyncDependenciesNotApplicable(graph.error().message, format, out);
            return 0;
        }
        printSyncDependencies(graph.value(),
            parsed.flag("--all-sync-edges") ? core::SyncEdgeSelection::All
                                            : core::SyncEdgeSelection::CriticalPath,
            format, out, err);
        return 0;
    }
    if (const int rc =
            emit(format, parsed.value("--out"), argsJson(*rank, annotation, instance), graph, out, err))
        return rc;
    if (auto tracePath = parsed.value("--write-trace")) {
        if (!graph) {
            err << "kinetoscope-cli: no trace written: " << graph.error().message << '\n';
            return 1;
        }
        auto written = core::writeCriticalPathTrace(graph.value(), *tracePath);
        if (!written) {
            err << "kinetoscope-cli: " << written.error().describe() << '\n';
            return 1;
        }
        err << "wrote " << *tracePath << ": " << written.value().events << " events, "
            << written.value().markedEvents << " on the critical path, " << written.value().flowEvents / 2
            << " path edges as flow arrows\n";
    }
    return 0;
}

} // namespace ks::cli
