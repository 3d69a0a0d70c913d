#include "app/cli/command_table.h"

#include "app/cli/commands/commands.h"
#include "app/cli/inputs/load_settings.h"
#include "app/cli/output/nearest_name.h"
#include "app/cli/output/troff_text.h"

#include <array>
#include <ostream>

namespace ks::cli {

namespace {

    const std::array kCommands {
        CommandSpec { "info", "files, ranks, events by phase and category, tracks, diagnostics", &kInfoUsage,
            runInfoCommand },
        CommandSpec { "analyze",
            "HTA's analyses: temporal, idle, kernels, overlap, memory-bw, queue-length, launch-stats, "
            "steps, kernel sequences",
            &kAnalyzeUsage, runAnalyzeCommand },
        CommandSpec { "critical-path",
            "critical path of one rank or, with --all-ranks, of the job across ranks; what-if scaling",
            &kCriticalPathUsage, runCriticalPathCommand },
        CommandSpec { "insights",
            "what limits the job: findings ranked by the share of step time fixing them gives back",
            &kInsightsUsage, runInsightsCommand },
        CommandSpec { "stragglers", "per iteration the rank the others waited for, and why",
            &kStragglersUsage, runStragglersCommand },
        CommandSpec { "overview",
            "per rank and iteration: step time, idle/compute/overlap %, GPU busy time, stragglers",
            &kOverviewUsage, runOverviewCommand },
        CommandSpec { "ops",
            "per operator: calls, self and total CPU (and GPU) time, as PyTorch's key_averages", &kOpsUsage,
            runOpsCommand },
        CommandSpec { "memory",
            "per device the peak memory and the op there, allocations and leaks, growth per step, per-op "
            "memory; --snapshot: a PyTorch memory snapshot, two compared",
            &kMemoryUsage, runMemoryCommand },
        CommandSpec { "roofline",
            "per op and shape: FLOPs, bytes, kernel time, TFLOP/s, TB/s, % of the device's roofline; MFU",
            &kRooflineUsage, runRooflineCommand },
        CommandSpec { "collectives", "the same collective on every rank: arrival skew, last rank, transfer",
            &kCollectivesUsage, runCollectivesCommand },
        CommandSpec { "diff", "trace diff: op/kernel counts and durations, ops added and deleted",
            &kDiffUsage, runDiffCommand },
        CommandSpec { "counters", "trace with queue length and memory bandwidth counters", &kCountersUsage,
            runCountersCommand },
        CommandSpec { "check", "exit 1 when a rank crosses a limit (for CI)", &kCheckUsage, runCheckCommand },
        CommandSpec { "summarize",
            "job summary in SQLite, K ranks in memory at once; --shard for Slurm arrays (MPI: "
            "kinetoscope-cli-mpi)",
            &kSummarizeUsage, runSummarizeCommand },
        CommandSpec { "merge-summaries", "the parts of a sharded summarize as one summary",
            &kMergeSummariesUsage, runMergeSummariesCommand },
        CommandSpec { "summary-info", "check a summary, print its meta data and row counts",
            &kSummaryInfoUsage, runSummaryInfoCommand },
        CommandSpec { "synth", "write realistic synthetic Kineto traces", &kSynthUsage, runSynthCommand },
    };

    // "usage: kinetoscope-cli info PATH..." -> "info PATH..." and the
    // continuation lines, without the explanations that follow the synopsis.
    std::string_view synopsisOf(std::string_view usage)
    {
        constexpr std::string_view kPrefix = "usage: kinetoscope-cli ";
        if (usage.substr(0, kPrefix.size()) == kPrefix)
            usage.remove_prefix(kPrefix.size());
        std::size_t end = 0;
        // The synopsis is the first line and the lines indented like it ("       [...").
        while (end < usage.size()) {
            const std::size_t lineEnd = usage.find('\n', end);
            if (lineEnd == std::string_view::npos)
                return usage;
            end = lineEnd + 1;
            if (usage.substr(end, 7) != "       ")
                break;
        }
        return usage.substr(0, end);
    }

} // namespace

std::span<const CommandSpec> commandTable()
{
    return kCommands;
}

const CommandSpec* findCommand(std::string_view name)
{
    for (const CommandSpec& command : kCommands)
        if (command.name == name)
            return &command;
    return nullptr;
}

std::string unknownCommandText(std::string_view name)
{
    std::vector<std::string> names;
    names.reserve(kCommands.size());
    for (const CommandSpec& command : kCommands)
        names.emplace_back(command.name);
    std::string text = "kinetoscope-cli: unknown command '" + std::string(name) + "'";
    if (const auto near = nearestName(name, names))
        text += " (did you mean '" + *near + "'?)";
    return text;
}

void printOverview(std::ostream& out)
{
    out << "usage: kinetoscope-cli <command> [options]\n"
           "       kinetoscope-cli <command> --help     that command's options\n"
           "       kinetoscope-cli --version\n\n"
           "commands:\n";
    for (const CommandSpec& command : kCommands) {
        out << "  " << synopsisOf(*command.usage);
        out << "      " << command.summary << "\n";
    }
    out << "\n" << kLoadSettingsUsage << "\n";
}

void printManPage(std::ostream& out, std::string_view version)
{
    out << ".TH KINETOSCOPE-CLI 1 \"\" \"kinetoscope " << version << "\" \"User Commands\"\n"
        << ".SH NAME\nkinetoscope\\-cli \\- analyse PyTorch profiler (Kineto) traces from the command line\n"
        << ".SH SYNOPSIS\n.B kinetoscope\\-cli\n.I command\n[\\fIoptions\\fR] \\fIPATH\\fR...\n"
        << ".SH DESCRIPTION\nReads Kineto Chrome\\-trace JSON (.json or .json.gz, one file per rank, a "
           "folder "
           "per job) and prints Holistic Trace Analysis' analyses and Kinetoscope's own. Each command "
           "answers "
           "\\fB\\-\\-help\\fR with its options. Exit status: 0 success, 1 a file or analysis failed, 2 a "
           "usage "
           "error.\n"
        << ".SH COMMANDS\n";
    for (const CommandSpec& command : kCommands) {
        out << ".SS " << command.name << "\n";
        writeTroffText(out, command.summary);
        out << "\n.PP\n.nf\n";
        writeTroffText(out, *command.usage);
        out << ".fi\n";
    }
    out << ".SH LOAD OPTIONS\n";
    writeTroffText(out, kLoadSettingsUsage);
    out << "\n.SH SEE ALSO\n.BR kinetoscope (1),\n.BR kinetoscope\\-cli\\-mpi (1)\n";
}

} // namespace ks::cli
