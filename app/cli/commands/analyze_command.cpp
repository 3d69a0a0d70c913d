#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/output/cli_output.h"
#include "app/cli/output/json_out.h"
#include "core/analysis/kernels/kernel_sequences.h"
#include "core/report/hta_json_writer.h"
#include "core/report/sequences_trace_writer.h"
#include "core/report/table_text.h"
#include "core/session/analysis_catalog.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>

namespace ks::cli {

namespace {

    std::string stem(const std::string& fileName)
    {
        return fileName.substr(0, fileName.size() - 5); // drop ".json"
    }

    // A7 (--kernel-sequences OP): HTA's get_frequent_cuda_kernel_sequences on the
    // first rank; the annotated trace goes to --out DIR, else next to the input.
    core::AnalysisCall kernelSequencesCall(const std::string& op, const core::KernelSequenceOptions& seq,
        std::int64_t rank, const std::optional<std::string>& outDir, std::ostream& err)
    {
        const std::string args = R"({"operator_name":)" + jsonQuote(op) + R"(,"output_dir":"<tmp>","rank":)"
            + std::to_string(rank) + R"(,"visualize":false})";
        auto run = [op, seq, rank, outDir, &err](const core::FrameSet& frames, const core::AnalysisOptions&) {
            const core::KernelSequences result = core::kernelSequences(frames, rank, op, seq);
            for (const core::RankFrame& frame : frames.ranks) {
                if (frame.rank != rank || result.patterns.empty())
                    continue;
                const std::string dir =
                    outDir ? *outDir : std::filesystem::path(frame.trace->path).parent_path().string();
                const std::string path = core::sequencesTracePath(frame.trace->path, dir);
                core::SequencesTraceOptions writeOptions;
                writeOptions.topK = seq.topK;
                writeOptions.compressOtherEvents = seq.mode == core::AnalysisMode::HtaCompat;
                if (auto written =
                        core::writeSequencesTrace(frame, result, path, core::isGzipPath(path), writeOptions))
                    err << "kinetoscope-cli: annotated trace: " << path << '\n';
                else
                    err << "kinetoscope-cli: " << written.error().describe() << '\n';
            }
            return result.output;
        };
        return { core::OutputKey::KernelSequences, "sequences", "get_frequent_cuda_kernel_sequences",
            core::kernelSequencesFileName(op), args, {}, run };
    }

    // One call's outcome, formatted: file name (as under --out) -> text.
    struct RenderedCall
    {
        std::string notApplicable;
        std::vector<std::pair<std::string, std::string>> parts;
    };

    RenderedCall renderCall(
        const core::AnalysisCall& call, const core::AnalysisOutput& result, const std::string& format)
    {
        RenderedCall r;
        if (!result.ok)
            r.notApplicable = result.error;
        if (format == "json") {
            r.parts.emplace_back(call.fileName, core::htaCallJson(call.htaCall, call.argsJson, result));
        } else if (result.ok && format == "csv") {
            for (const auto& [suffix, table] : core::framesOf(result.result))
                r.parts.emplace_back(stem(call.fileName) + suffix + ".csv", core::tableAsCsv(*table));
        } else if (result.ok) {
            r.parts.emplace_back(
                stem(call.fileName) + ".txt", core::resultAsText(stem(call.fileName), result.result));
        }
        return r;
    }

} // namespace

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli analyze PATH... [--hta-compat] [--ranks R,..] [--iterations I,..]\n"
        "       [--only temporal,idle,kernels,overlap,memory-bw,queue-length,launch-stats,steps,\n"
        "               user-annotations,annotated-kernels,queue-blocked,potential-stragglers,\n"
        "               cupti-counters,aten-op-delay]\n"
        "       [--format table|csv|json] [--out DIR] [--threads N]\n"
        "       [--kernel-sequences OP [--sequences-regex] [--sequences-top-k K]]\n"
        "         (frequent kernel sequences of OP; --only id: sequences)\n"
        "       [--use-cpu-annotation] [--duration-ratio R] [--num-kernels N] [--allowlist REGEX]...\n"
        "         (user-annotations: CPU time only; the share of time listed before `others`;\n"
        "          at most N annotations listed; annotations never folded into `others`)\n"
        "       [--max-queue-length N] (queue-blocked: a queue this long is full; default 1024)\n"
        "       [--num-candidates K] (potential-stragglers: ranks reported; default 2)\n"
        "       [--sort-by occurrence_count|avg_aten_op_launch_delay|avg_runtime_delay|aten_op_name]\n"
        "         (aten-op-delay: row order, largest first; default occurrence_count)\n";

    // HTA's arguments of the calls, as options; a problem is reported in `problem`.
    void readCallArguments(const CliArgs& parsed, core::AnalysisOptions& options, std::string& problem)
    {
        core::UserAnnotationOptions& ua = options.annotations;
        ua.useGpuAnnotation = !parsed.flag("--use-cpu-annotation");
        ua.allowlist = parsed.values("--allowlist");
        try {
            if (const auto r = parsed.value("--duration-ratio")) {
                std::size_t used = 0;
                ua.durationRatio = std::stod(*r, &used);
                if (used != r->size() || !(ua.durationRatio >= 0.0 && ua.durationRatio <= 1.0))
                    problem = "--duration-ratio needs a number between 0 and 1";
            }
            if (const auto n = parsed.value("--num-kernels")) {
                std::size_t used = 0;
                ua.numKernels = std::stoi(*n, &used);
                if (used != n->size() || ua.numKernels < 0)
                    problem = "--num-kernels needs a whole number >= 0";
            }
            if (const auto q = parsed.value("--max-queue-length")) {
                std::size_t used = 0;
                options.queue.maxQueueLength = std::stoll(*q, &used);
                if (used != q->size() || options.queue.maxQueueLength < 1)
                    problem = "--max-queue-length needs a whole number >= 1";
            }
            if (const auto sort = parsed.value("--sort-by")) {
                if (*sort == "occurrence_count")
                    options.atenOps.sortBy = core::AtenOpSort::OccurrenceCount;
                else if (*sort == "avg_aten_op_launch_delay")
                    options.atenOps.sortBy = core::AtenOpSort::LaunchDelay;
                else if (*sort == "avg_runtime_delay")
                    options.atenOps.sortBy = core::AtenOpSort::RuntimeDelay;
                else if (*sort == "aten_op_name")
                    options.atenOps.sortBy = core::AtenOpSort::Name;
                else
                    problem = "unknown --sort-by '" + *sort + "'";
            }
            if (const auto k = parsed.value("--num-candidates")) {
                std::size_t used = 0;
                options.stragglers.numCandidates = std::stoi(*k, &used);
                if (used != k->size() || options.stragglers.numCandidates < 1)
                    problem = "--num-candidates needs a whole number >= 1";
            }
        } catch (...) {
            problem = "--duration-ratio, --num-kernels, --max-queue-length and --num-candidates need numbers";
        }
    }

} // namespace

const char* const kAnalyzeUsage = kUsage;

int runAnalyzeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CliArgs parsed(args,
        { "--ranks", "--iterations", "--only", "--format", "--out", "--threads", "--kernel-sequences",
            "--sequences-top-k", "--duration-ratio", "--num-kernels", "--allowlist", "--max-queue-length",
            "--num-candidates", "--sort-by" },
        { "--hta-compat", "--sequences-regex", "--use-cpu-annotation" });
    if (!parsed.ok() || parsed.positional().empty()) {
        err << "kinetoscope-cli analyze: " << (parsed.ok() ? "give at least one PATH" : parsed.error())
            << '\n'
            << kUsage;
        return 2;
    }
    core::AnalysisOptions options;
    options.mode = parsed.flag("--hta-compat") ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
    std::string listError;
    options.ranks = parseNumberList(parsed.value("--ranks"), listError);
    options.iterations = parseNumberList(parsed.value("--iterations"), listError);
    const std::string format = parsed.value("--format").value_or("table");
    readCallArguments(parsed, options, listError);
    if (!listError.empty() || (format != "table" && format != "csv" && format != "json")) {
        err << "kinetoscope-cli analyze: "
            << (listError.empty() ? "unknown format '" + format + "'" : listError) << '\n'
            << kUsage;
        return 2;
    }
    std::set<std::string> only;
    if (auto o = parsed.value("--only")) {
        const auto ids = core::analysisIds();
        std::size_t pos = 0;
        while (pos <= o->size()) {
            const std::size_t comma = std::min(o->find(',', pos), o->size());
            const std::string id = o->substr(pos, comma - pos);
            if (std::find(ids.begin(), ids.end(), id) == ids.end() && id != "sequences") {
                err << "kinetoscope-cli analyze: unknown analysis '" << id << "'\n" << kUsage;
                return 2;
            }
            only.insert(id);
            pos = comma + 1;
        }
    }

    const auto session = loadSessionForCli(parsed, err);
    if (!session)
        return 1;
    const core::SessionWork work = cliWork(threadsOption(parsed));
    auto frames = sessionFramesForCli(*session, options, work, "kinetoscope-cli", err);
    if (!frames)
        return 1;
    std::vector<std::int64_t> rankList;
    for (const auto& f : frames->ranks)
        rankList.push_back(f.rank);

    const std::optional<std::string> outDir = parsed.value("--out");
    if (outDir && !ensureDirectory(*outDir, "kinetoscope-cli", err))
        return 1;
    std::vector<core::AnalysisCall> calls = core::analysisCalls(options, rankList);
    if (const auto op = parsed.value("--kernel-sequences")) {
        core::KernelSequenceOptions seq;
        seq.mode = options.mode;
        seq.regex = parsed.flag("--sequences-regex");
        try {
            seq.topK = std::stoi(parsed.value("--sequences-top-k").value_or("5"));
        } catch (...) {
            err << "kinetoscope-cli analyze: --sequences-top-k needs a number\n" << kUsage;
            return 2;
        }
        calls.push_back(kernelSequencesCall(*op, seq, rankList.empty() ? 0 : rankList.front(), outDir, err));
        calls.back().options = options;
    }
    std::vector<const core::AnalysisCall*> selected;
    std::vector<core::OutputKey> keys;
    for (const core::AnalysisCall& call : calls)
        if (only.empty() || only.count(call.id)) {
            selected.push_back(&call);
            if (call.key != core::OutputKey::KernelSequences)
                keys.push_back(call.key);
        }
    // The session computes the catalog's outputs on all cores (as the app's
    // views get them); they are formatted on all cores too, then written in the
    // catalog's order. The sequences call reports to `err` as it goes, so it
    // runs alone, after.
    auto outputs = session->outputs(core::FrameScope { options, std::nullopt }, keys, work);
    if (!outputs) {
        err << "kinetoscope-cli: " << outputs.error().describe() << '\n';
        return 1;
    }
    // The frames are about half the peak: once the outputs are computed only the
    // sequences call reads them again, so without it they go before the formatting.
    if (std::none_of(selected.begin(), selected.end(),
            [](const core::AnalysisCall* c) { return c->key == core::OutputKey::KernelSequences; }))
        frames.reset();
    // With --out each call's files are written as soon as they are formatted and
    // the text freed: a per-kernel table's text is tens of MB a rank, and holding
    // every call's at once doubled the peak. On stdout they wait, to keep the order.
    std::vector<std::optional<RenderedCall>> rendered(selected.size());
    std::vector<std::string> writeErrors(selected.size());
    const auto writeParts = [&outDir](RenderedCall& r, std::string& problem) {
        std::ostringstream why;
        for (const auto& [name, text] : r.parts)
            if (!writeTextFile(std::filesystem::path(*outDir) / name, text, "kinetoscope-cli", why)) {
                problem = why.str();
                break;
            }
        r.parts.clear();
        r.parts.shrink_to_fit();
    };
    work.parallelFor(selected.size(), [&](std::size_t i) {
        if (selected[i]->key == core::OutputKey::KernelSequences)
            return;
        rendered[i] = renderCall(*selected[i], *outputs.value().at(selected[i]->key), format);
        if (outDir)
            writeParts(*rendered[i], writeErrors[i]);
    });
    for (std::size_t i = 0; i < selected.size(); ++i) {
        if (!rendered[i]) {
            rendered[i] = renderCall(*selected[i], selected[i]->run(*frames, selected[i]->options), format);
            if (outDir)
                writeParts(*rendered[i], writeErrors[i]);
        }
        if (!rendered[i]->notApplicable.empty())
            out << selected[i]->htaCall << ": not applicable: " << rendered[i]->notApplicable << '\n';
        if (!writeErrors[i].empty()) {
            err << writeErrors[i];
            return 1;
        }
        for (const auto& [name, text] : rendered[i]->parts) {
            if (format == "csv")
                out << "# " << name.substr(0, name.size() - 4) << '\n' << text << '\n'; // name without ".csv"
            else
                out << text;
        }
        rendered[i].reset();
    }
    return 0;
}

} // namespace ks::cli
