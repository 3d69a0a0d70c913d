// `kinetoscope-cli counters PATH --write-trace`: A5's augmented trace, the input
// with its queue length and memory bandwidth counters appended (HTA's
// generate_trace_with_counters).
#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/output/cli_output.h"
#include "core/report/counters_trace_writer.h"

#include <filesystem>
#include <ostream>
#include <set>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli counters PATH... --write-trace [--out FILE|DIR] [--ranks R,..] "
        "[--hta-compat]\n"
        "       [--gzip|--plain] [--threads N]\n"
        "  Writes each rank's trace with queue length and memory bandwidth counter events appended,\n"
        "  next to the input as <name>_with_counters.json[.gz] unless --out says otherwise.\n"
        "  Compressed when the output name ends in .gz (or with --gzip / --plain).\n";

    std::optional<std::set<std::int64_t>> rankSet(const CliArgs& args, std::ostream& err)
    {
        std::string problem;
        const auto list = parseNumberList(args.value("--ranks"), problem);
        if (!problem.empty()) {
            err << "kinetoscope-cli counters: --ranks: " << problem << '\n' << kUsage;
            return std::nullopt;
        }
        return list ? std::set<std::int64_t>(list->begin(), list->end()) : std::set<std::int64_t> {};
    }

    bool isDirectoryTarget(const std::string& out)
    {
        std::error_code ec;
        return std::filesystem::is_directory(out, ec) || out.back() == '/';
    }

} // namespace

const char* const kCountersUsage = kUsage;

int runCountersCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CliArgs parsed(
        args, { "--out", "--ranks", "--threads" }, { "--write-trace", "--hta-compat", "--gzip", "--plain" });
    if (!parsed.ok() || parsed.positional().empty() || !parsed.flag("--write-trace")
        || (parsed.flag("--gzip") && parsed.flag("--plain"))) {
        err << "kinetoscope-cli counters: "
            << (!parsed.ok()                           ? parsed.error()
                       : parsed.positional().empty()   ? std::string("give at least one PATH")
                       : !parsed.flag("--write-trace") ? std::string("--write-trace is required")
                                                       : std::string("--gzip and --plain exclude each other"))
            << '\n'
            << kUsage;
        return 2;
    }
    const auto wanted = rankSet(parsed, err);
    if (!wanted)
        return 2;
    core::AnalysisOptions options;
    options.mode = parsed.flag("--hta-compat") ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
    // All ranks: HTA's times are relative to the earliest event of every rank.
    auto frames = loadFramesForCli(parsed, options, "kinetoscope-cli", err);
    if (!frames)
        return 1;
    std::vector<const core::RankFrame*> selected;
    for (const core::RankFrame& f : frames.value().ranks)
        if (wanted->empty() || wanted->count(f.rank))
            selected.push_back(&f);
    const std::optional<std::string> outArg = parsed.value("--out");
    const bool outIsDir = outArg && isDirectoryTarget(*outArg);
    if (outArg && !outIsDir && selected.size() > 1) {
        err << "kinetoscope-cli counters: --out names one file but " << selected.size()
            << " ranks are selected: give a directory or --ranks\n";
        return 2;
    }
    if (outIsDir) {
        std::error_code ec;
        std::filesystem::create_directories(*outArg, ec);
    }
    int status = 0;
    for (const core::RankFrame* frame : selected) {
        std::string target = core::countersTracePath(frame->trace->path);
        if (outIsDir)
            target = (std::filesystem::path(*outArg) / std::filesystem::path(target).filename()).string();
        else if (outArg)
            target = *outArg;
        const bool gzip = parsed.flag("--gzip") || (!parsed.flag("--plain") && core::isGzipPath(target));
        if (const auto parent = std::filesystem::path(target).parent_path(); !parent.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(parent, ec);
        }
        core::TraceWriteRequest request;
        request.inputPath = frame->trace->path;
        request.outputPath = target;
        request.gzip = gzip;
        request.appended = core::counterEvents(frames.value(), options, frame->rank);
        if (request.appended.empty()) { // HTA writes no file either
            out << "rank " << frame->rank
                << ": no queue length or memory bandwidth counters: nothing written\n";
            continue;
        }
        auto written = core::writeTrace(request);
        if (!written) {
            err << "kinetoscope-cli counters: " << written.error().describe() << '\n';
            status = 1;
            continue;
        }
        out << "rank " << frame->rank << ": wrote " << target << " (" << written.value().inputEvents
            << " events + " << written.value().appendedEvents << " counter events" << (gzip ? ", gzip" : "")
            << ")\n";
    }
    return status;
}

} // namespace ks::cli
