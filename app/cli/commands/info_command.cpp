#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/inputs/load_settings.h"
#include "app/cli/output/clock_offsets_output.h"
#include "app/cli/output/json_out.h"
#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "core/analysis/cross_rank/clock_offsets.h"
#include "core/analysis/cross_rank/collective_match.h"
#include "core/io/json/parser_kernel.h"
#include "core/io/trace_set_loader.h"

#include <charconv>
#include <cstdio>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

namespace ks::cli {

namespace {

    using core::DiagnosticKind;
    using core::RankTrace;
    using core::TraceSet;

    struct TrackCounts
    {
        std::size_t gpu = 0;
        std::size_t cpu = 0;
    };

    TrackCounts countTracks(const RankTrace& r)
    {
        TrackCounts c;
        for (const auto& t : r.tracks)
            (t.kind == core::TrackKind::GpuStream ? c.gpu : c.cpu) += 1;
        return c;
    }

    std::string formatDuration(core::TimeNs ns)
    {
        char buf[64];
        if (ns >= 1'000'000'000)
            std::snprintf(buf, sizeof buf, "%.3f s", static_cast<double>(ns) / 1e9);
        else if (ns >= 1'000'000)
            std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(ns) / 1e6);
        else
            std::snprintf(buf, sizeof buf, "%.3f us", static_cast<double>(ns) / 1e3);
        return buf;
    }

    void printDiagnostics(std::ostream& out, const core::Diagnostics& d, const char* indent)
    {
        for (std::size_t k = 0; k < core::kDiagnosticKindCount; ++k) {
            const auto kind = static_cast<DiagnosticKind>(k);
            const auto& e = d.entry(kind);
            if (e.count == 0)
                continue;
            out << indent << std::left << std::setw(22) << core::diagnosticName(kind) << std::right
                << std::setw(9) << e.count << "  e.g. " << e.example << '\n';
        }
    }

    // RPC nodes whose remote ops this worker recorded: one line each.
    void printRpcNodes(std::ostream& out, const RankTrace& r)
    {
        std::map<std::int64_t, std::pair<std::string, std::pair<int, std::uint32_t>>> nodes;
        for (const auto& t : r.tracks) {
            if (t.rpcNode < 0)
                continue;
            auto& node = nodes[t.rpcNode];
            node.first = std::string(r.name(t.processName));
            ++node.second.first;
            node.second.second += t.sliceCount();
        }
        if (nodes.empty())
            return;
        out << "  RPC nodes: node " << r.rank << " (this worker, the caller)\n";
        for (const auto& [id, node] : nodes)
            out << "    " << node.first << ": " << node.second.first << " threads, " << node.second.second
                << " remote ops\n";
    }

    void printRankText(std::ostream& out, const RankTrace& r)
    {
        const TrackCounts tracks = countTracks(r);
        out << "rank " << r.rank << "  (" << core::rankSourceName(r.rankSource) << ")  " << r.path << '\n';
        out << "  file: " << r.counts.fileBytes << " bytes" << (r.counts.gzip ? " gzip" : "") << ", JSON "
            << r.counts.jsonBytes << " bytes, " << r.counts.events << " events\n";
        out << "  phases:";
        for (std::size_t p = 0; p < core::kPhaseCount; ++p)
            if (r.counts.byPhase[p])
                out << ' ' << core::phaseName(static_cast<core::Phase>(p)) << '=' << r.counts.byPhase[p];
        out << '\n';
        out << "  categories:\n";
        for (const auto& [cat, phases] : r.counts.byCategory) {
            std::uint64_t total = 0;
            for (auto n : phases)
                total += n;
            if (total == 0)
                continue;
            out << "    " << std::left << std::setw(28) << (cat.empty() ? "(none)" : cat) << std::right
                << std::setw(10) << total << '\n';
        }
        out << "  tracks: " << tracks.gpu << " GPU streams, " << tracks.cpu << " CPU threads\n";
        printRpcNodes(out, r);
        for (const auto& t : r.tracks)
            out << "    " << (t.kind == core::TrackKind::GpuStream ? "gpu " : "cpu ") << r.name(t.name)
                << ": " << t.sliceCount() << " slices, " << t.levelCount() << " levels\n";
        out << "  slices " << r.slices.size() << ", instants " << r.instants.size() << ", memory events "
            << r.memory.size() << ", counter series " << r.counters.size() << ", links " << r.links.size()
            << '\n';
        // The reader keeps times within ±2^62 ns (core/io/store_builder/time_range.h): the span fits.
        out << "  time: " << r.startNs << " .. " << r.endNs << " ns (" << formatDuration(r.endNs - r.startNs)
            << ")\n";
        if (r.diagnostics.total() == 0) {
            out << "  diagnostics: none\n";
        } else {
            out << "  diagnostics:\n";
            printDiagnostics(out, r.diagnostics, "    ");
        }
    }

    void printDiagnosticsJson(std::ostream& out, const core::Diagnostics& d)
    {
        out << '{';
        bool first = true;
        for (std::size_t k = 0; k < core::kDiagnosticKindCount; ++k) {
            const auto kind = static_cast<DiagnosticKind>(k);
            const auto& e = d.entry(kind);
            if (e.count == 0)
                continue;
            out << (first ? "" : ",") << jsonQuote(core::diagnosticName(kind)) << ":{\"count\":" << e.count
                << ",\"example\":" << jsonQuote(e.example) << ",\"event_index\":" << e.exampleEventIndex
                << '}';
            first = false;
        }
        out << '}';
    }

    void printRankJson(std::ostream& out, const RankTrace& r)
    {
        const TrackCounts tracks = countTracks(r);
        out << "{\"file\":" << jsonQuote(r.path) << ",\"rank\":" << r.rank
            << ",\"rank_source\":" << jsonQuote(core::rankSourceName(r.rankSource))
            << ",\"gzip\":" << (r.counts.gzip ? "true" : "false") << ",\"file_bytes\":" << r.counts.fileBytes
            << ",\"json_bytes\":" << r.counts.jsonBytes << ",\"events\":" << r.counts.events
            << ",\"by_phase\":{";
        bool first = true;
        for (std::size_t p = 0; p < core::kPhaseCount; ++p) {
            out << (first ? "" : ",") << jsonQuote(core::phaseName(static_cast<core::Phase>(p))) << ':'
                << r.counts.byPhase[p];
            first = false;
        }
        out << "},\"by_category\":{";
        first = true;
        for (const auto& [cat, phases] : r.counts.byCategory) {
            out << (first ? "" : ",") << jsonQuote(cat) << ":{";
            bool firstPhase = true;
            for (std::size_t p = 0; p < core::kPhaseCount; ++p) {
                if (!phases[p])
                    continue;
                out << (firstPhase ? "" : ",") << jsonQuote(core::phaseName(static_cast<core::Phase>(p)))
                    << ':' << phases[p];
                firstPhase = false;
            }
            out << '}';
            first = false;
        }
        out << "},\"gpu_streams\":" << tracks.gpu << ",\"cpu_threads\":" << tracks.cpu << ",\"tracks\":[";
        for (std::size_t i = 0; i < r.tracks.size(); ++i) {
            const auto& t = r.tracks[i];
            out << (i ? "," : "") << "{\"kind\":" << jsonQuote(core::trackKindName(t.kind))
                << ",\"name\":" << jsonQuote(r.name(t.name)) << ",\"slices\":" << t.sliceCount()
                << ",\"levels\":" << t.levelCount();
            if (t.rpcNode >= 0)
                out << ",\"rpc_node\":" << t.rpcNode << ",\"rpc_group\":" << jsonQuote(r.name(t.processName));
            out << '}';
        }
        out << "],\"slices\":" << r.slices.size() << ",\"instants\":" << r.instants.size()
            << ",\"memory_events\":" << r.memory.size() << ",\"counter_series\":" << r.counters.size()
            << ",\"links\":" << r.links.size() << ",\"start_ns\":" << r.startNs << ",\"end_ns\":" << r.endNs
            << ",\"kept_events\":" << r.keptEvents() << ",\"bytes_in_memory\":" << r.bytesUsed()
            << ",\"diagnostics\":";
        printDiagnosticsJson(out, r.diagnostics);
        out << '}';
    }

    void printSetJson(std::ostream& out, const TraceSet& set)
    {
        out << "{\"ranks\":[";
        for (std::size_t i = 0; i < set.ranks.size(); ++i) {
            out << (i ? "," : "");
            printRankJson(out, *set.ranks[i]);
        }
        out << "],\"failures\":[";
        for (std::size_t i = 0; i < set.failures.size(); ++i)
            out << (i ? "," : "") << "{\"file\":" << jsonQuote(set.failures[i].path)
                << ",\"error\":" << jsonQuote(set.failures[i].describe())
                << ",\"code\":" << jsonQuote(core::errorCodeName(set.failures[i].code)) << '}';
        out << "],\"notes\":[";
        for (std::size_t i = 0; i < set.notes.size(); ++i)
            out << (i ? "," : "") << jsonQuote(set.notes[i]);
        out << "],\"diagnostics\":";
        printDiagnosticsJson(out, set.folderDiagnostics);
        if (set.ranks.size() >= 2) {
            out << ",\"clock_offsets\":";
            printClockOffsetsJson(out, core::estimateClockOffsets(set, core::matchCollectives(set)));
        }
        out << "}\n";
    }

} // namespace

const char* const kInfoUsage =
    "usage: kinetoscope-cli info PATH... [--json] [--zlib] [--threads N] [--verbose]\n"
    "       --verbose: also say which parser kernel ran (on stderr; "
    "KS_PARSER_KERNEL=baseline forces the baseline one)\n";

int runInfoCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CliArgs parsed(args, { "--threads" }, { "--json", "--zlib", "--verbose" });
    if (!parsed.ok() || parsed.positional().empty()) {
        err << "kinetoscope-cli info: " << (parsed.ok() ? "give at least one PATH" : parsed.error()) << '\n'
            << kInfoUsage;
        return 2;
    }
    unsigned threads = 0;
    if (auto t = parsed.value("--threads")) {
        const auto r = std::from_chars(t->data(), t->data() + t->size(), threads);
        if (r.ec != std::errc() || r.ptr != t->data() + t->size()) {
            err << "kinetoscope-cli info: --threads needs a number, not '" << *t << "'\n" << kInfoUsage;
            return 2;
        }
    }
    core::LoadOptions options;
    options.preferZlib = parsed.flag("--zlib");
    options.background = app::makeThreadBackgroundWork;
    options.releaseFreedMemory = app::releaseFreedMemory;
    options.parseWorkers = app::parseWorkersForOneRank(threads);
    if (const auto bad = applyLoadSettings(parsed, options)) {
        err << "kinetoscope-cli info: " << *bad << '\n' << kInfoUsage;
        return 2;
    }
    auto result = core::loadTraceSet(parsed.positional(), options, nullptr, nullptr,
        [threads](std::size_t n, const std::function<void(std::size_t)>& body) {
            app::parallelForOnThreads(n, body, threads);
        });
    if (!result) {
        err << "kinetoscope-cli: " << result.error().describe() << '\n';
        return 1;
    }
    const TraceSet& set = result.value();
    if (parsed.flag("--verbose"))
        err << "kinetoscope-cli info: parser kernel " << core::parserKernelName(core::activeParserKernel())
            << '\n';
    if (parsed.flag("--json")) {
        printSetJson(out, set);
    } else {
        for (const auto& r : set.ranks)
            printRankText(out, *r);
        for (const auto& note : set.notes)
            out << "note: " << note << '\n';
        if (set.folderDiagnostics.total()) {
            out << "folder diagnostics:\n";
            printDiagnostics(out, set.folderDiagnostics, "  ");
        }
        if (set.ranks.size() >= 2)
            printClockOffsetsText(out, core::estimateClockOffsets(set, core::matchCollectives(set)));
    }
    for (const auto& f : set.failures)
        err << "kinetoscope-cli: " << f.describe() << '\n';
    if (set.ranks.empty()) {
        err << "kinetoscope-cli: " << core::nothingToAnalyse(set.inputs, set.skipped) << '\n';
        return 1;
    }
    return set.failures.empty() ? 0 : 1;
}

} // namespace ks::cli
