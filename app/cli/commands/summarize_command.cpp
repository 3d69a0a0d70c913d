// `kinetoscope-cli summarize`: a job's traces, or one shard of them, into one
// SQLite summary (.kssum) in bounded memory.

#include "app/cli/commands/commands.h"
#include "app/cli/commands/summary_cli.h"
#include "app/cli/inputs/load_settings.h"
#include "app/cli/mpi/mpi_launch.h"
#include "app/cli/output/cli_output.h"
#include "app/common/thread_pool_parallel_for.h"
#include "core/summary/summary_reader.h"

#include <charconv>
#include <cstdlib>
#include <ostream>

namespace ks::cli {

// Printed after a usage error and by `summarize --help`.
const char* const kSummarizeUsage =
    "usage: kinetoscope-cli summarize PATH... --out JOB.kssum [--jobs K] [--shard I/N] [--hta-compat]\n"
    "       [--bins N] [--margin F]\n"
    "       (--shard I/N, or a Slurm array, summarises share I of N; merge-summaries joins the shares;\n"
    "        under mpirun/srun use kinetoscope-cli-mpi summarize, package kinetoscope-mpi)\n";

namespace {

    constexpr const char* kCommand = "kinetoscope-cli summarize";

    bool parseCount(std::string_view text, std::size_t& value)
    {
        const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
        return r.ec == std::errc() && r.ptr == text.data() + text.size();
    }

    // "I/N", or Slurm's job array variables when --shard is absent.
    std::string parseShard(const CliArgs& args, SummarizeCli& cli)
    {
        std::size_t index = 0;
        std::size_t count = 1;
        if (const auto shard = args.value("--shard")) {
            const auto slash = shard->find('/');
            if (slash == std::string::npos || !parseCount(std::string_view(*shard).substr(0, slash), index)
                || !parseCount(std::string_view(*shard).substr(slash + 1), count) || count == 0
                || index >= count)
                return "--shard needs I/N with 0 <= I < N, got '" + *shard + "'";
            cli.shardGiven = true;
        } else if (const char* id = std::getenv("SLURM_ARRAY_TASK_ID")) {
            const char* total = std::getenv("SLURM_ARRAY_TASK_COUNT");
            const char* min = std::getenv("SLURM_ARRAY_TASK_MIN");
            std::size_t first = 0;
            if (!total || !parseCount(id, index) || !parseCount(total, count)
                || (min && !parseCount(min, first)) || index < first || count == 0 || index - first >= count)
                return "cannot use SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT as a shard (give --shard I/N)";
            index -= first; // arrays may start at 1 (--array=1-8)
            cli.shardGiven = true;
        }
        cli.options.shardIndex = index;
        cli.options.shardCount = count;
        return {};
    }

} // namespace

std::optional<SummarizeCli> parseSummarizeArguments(const std::vector<std::string>& arguments,
    const std::string& command, const char* usage, std::ostream& err)
{
    CliArgs args(arguments, { "--out", "--jobs", "--shard", "--bins", "--margin" }, { "--hta-compat" });
    SummarizeCli cli;
    cli.command = command;
    std::string problem;
    cli.options.analysis.mode =
        args.flag("--hta-compat") ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
    const auto out = args.value("--out");
    if (!out || out->empty())
        problem = "--out JOB.kssum is required";
    else
        cli.out = *out;
    std::size_t number = 0;
    if (const auto jobs = args.value("--jobs")) {
        if (!parseCount(*jobs, number) || number == 0 || number > 4096)
            problem = "--jobs needs a number of ranks from 1 to 4096";
        cli.jobs = static_cast<unsigned>(number);
    }
    if (const auto bins = args.value("--bins")) {
        if (!parseCount(*bins, number) || number == 0 || number > (1u << 20))
            problem = "--bins needs a number from 1 to 1048576";
        cli.options.bins = static_cast<int>(number);
    }
    if (const auto margin = args.value("--margin")) {
        double value = 0;
        const auto r = std::from_chars(margin->data(), margin->data() + margin->size(), value);
        if (r.ec != std::errc() || r.ptr != margin->data() + margin->size() || value < 0)
            problem = "--margin needs a fraction like 0.1";
        cli.options.stragglerMargin = value;
    }
    if (problem.empty())
        problem = parseShard(args, cli);
    if (const auto bad = applyLoadSettings(args, cli.options.load); bad && problem.empty())
        problem = *bad;
    if (rejectArguments(args, problem, command, usage, err))
        return std::nullopt;
    cli.paths = args.positional();
    return cli;
}

int summarizeToFile(const SummarizeCli& cli, const std::string& out, std::ostream& err)
{
    const unsigned jobs = cli.jobs;
    const std::string& command = cli.command;
    core::SummarizeOptions options = cli.options;
    // Progress for long jobs (Slurm logs too): a line at every tenth of the files.
    options.onFileDone = [&err, &command](std::size_t done, std::size_t total) {
        if (total >= 20 && done * 10 / total != (done - 1) * 10 / total)
            err << command << ": " << done << " of " << total << " files summarised\n";
    };
    auto report = core::summarizeJob(
        cli.paths, out, options, [jobs](std::size_t n, const std::function<void(std::size_t)>& body) {
            app::parallelForOnThreads(n, body, jobs);
        });
    if (!report) {
        err << command << ": " << report.error().describe() << '\n';
        return 1;
    }
    for (const auto& failure : report.value().failures)
        err << command << ": " << failure.describe() << '\n';
    if (report.value().ranksOk == 0 && report.value().failures.empty()
        && !report.value().skippedFiles.empty()) {
        err << command << ": " << core::nothingToAnalyse(cli.paths, report.value().skippedFiles) << '\n';
        return 1;
    }
    return 0;
}

int reportSummary(const std::string& path, const std::string& command, std::ostream& out, std::ostream& err)
{
    core::SummaryMeta meta;
    auto db = core::openSummary(path, meta);
    if (!db) {
        err << command << ": " << db.error().describe() << '\n';
        return 1;
    }
    auto counts = db.value().prepare("SELECT status, COUNT(*) FROM ranks GROUP BY status ORDER BY status");
    out << "wrote " << path << ':';
    std::int64_t ok = 0;
    if (counts) {
        for (auto r = counts.value().step(); r && r.value(); r = counts.value().step()) {
            out << ' ' << counts.value().columnInt(1) << ' ' << counts.value().columnText(0);
            if (counts.value().columnText(0) == "ok")
                ok = counts.value().columnInt(1);
        }
    }
    out << " (";
    if (meta.shards.size() < meta.shardCount)
        out << "shards " << core::formatShardList(meta.shards) << " of " << meta.shardCount << "; ";
    out << meta.filesTotal << " files in the job; " << meta.mode << " mode)\n";
    if (ok == 0) {
        err << command << ": " << path << ": no file could be summarised\n";
        return 1;
    }
    return 0;
}

int runSummarizeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const auto cli = parseSummarizeArguments(args, kCommand, kSummarizeUsage, err);
    if (!cli)
        return 2;
    // Started as one of several MPI processes, every one would summarise the
    // whole job into the same file; the MPI build shares the files out instead.
    if (const int processes = mpiProcessCount(); processes > 1 && !cli->shardGiven) {
        err << kCommand << ": started by mpirun/srun as one of " << processes
            << " processes, which would all write " << cli->out
            << ": use kinetoscope-cli-mpi summarize (package kinetoscope-mpi), or --shard I/N and "
               "merge-summaries\n";
        return 2;
    }
    if (const int status = summarizeToFile(*cli, cli->out, err))
        return status;
    return reportSummary(cli->out, kCommand, out, err);
}

} // namespace ks::cli
