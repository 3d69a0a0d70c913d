#include "app/cli/commands/memory_snapshot_cli.h"

#include "app/cli/commands/commands.h"
#include "app/cli/commands/memory_snapshot_output.h"
#include "app/cli/commands/snapshot_align_output.h"
#include "app/cli/output/cli_output.h"
#include "core/analysis/memory_snapshot/snapshot_reader.h"
#include "core/analysis/snapshot_align/rank_alignment.h"
#include "core/io/trace_set_loader.h"

#include <algorithm>
#include <optional>
#include <ostream>
#include <vector>

namespace ks::cli {

namespace {

    constexpr const char* kCommand = "kinetoscope-cli memory";

    struct LoadedSnapshot
    {
        core::MemorySnapshot snapshot;
        core::SnapshotSummary summary;
    };

    std::optional<LoadedSnapshot> load(const std::string& path, std::ostream& err)
    {
        auto snapshot = core::readMemorySnapshot(path);
        if (!snapshot) {
            err << kCommand << ": " << snapshot.error().describe() << '\n';
            return std::nullopt;
        }
        LoadedSnapshot loaded { std::move(snapshot).value(), {} };
        loaded.summary = core::summarizeSnapshot(loaded.snapshot);
        return loaded;
    }

    // A whole number option, or nullopt with `problem` set.
    std::optional<std::int64_t> numberOption(
        const CliArgs& args, const std::string& name, std::int64_t least, std::string& problem)
    {
        const auto text = args.value(name);
        if (!text)
            return std::nullopt;
        try {
            std::size_t used = 0;
            const long long v = std::stoll(*text, &used);
            if (used == text->size() && v >= least)
                return v;
        } catch (...) {
        }
        problem =
            name + " needs a whole number of at least " + std::to_string(least) + ", got \"" + *text + "\"";
        return std::nullopt;
    }

    // --trace: the snapshot on the clock of the Kineto trace of the same run.
    int runAlignment(const CliArgs& args, const LoadedSnapshot& snapshot, const std::string& format,
        std::optional<std::int64_t> device, std::size_t top, std::ostream& out, std::ostream& err)
    {
        const std::string tracePath = *args.value("--trace");
        auto loaded = core::loadTraceSet({ tracePath }, {}, nullptr, nullptr);
        if (!loaded) {
            err << kCommand << ": " << loaded.error().describe() << '\n';
            return 1;
        }
        const core::TraceSet& set = loaded.value();
        if (set.ranks.empty()) {
            err << kCommand << ": " << tracePath << ": "
                << (set.failures.empty() ? std::string("no trace loaded") : set.failures.front().describe())
                << '\n';
            return 1;
        }
        // Several ranks: the one whose steps fit the snapshot's (a snapshot is one process's).
        const core::RankAlignment aligned =
            core::alignWithRank(snapshot.snapshot, snapshot.summary, set, std::nullopt, top);
        if (set.ranks.size() > 1)
            err << kCommand << ": " << tracePath << " holds " << set.ranks.size()
                << " ranks: aligning with rank " << set.ranks[aligned.rankIndex]->rank
                << (aligned.choice.told
                           ? ", whose steps fit the snapshot's\n"
                           : ", though others fit the snapshot as well (give the rank's file)\n");
        const core::SnapshotAlignment& alignment = aligned.alignment;
        if (!alignment.error.empty()) {
            err << kCommand << ": cannot align: " << alignment.error << '\n';
            return 1;
        }
        const AlignmentReport report { snapshot.snapshot.path, tracePath, &alignment, device };
        if (format == "json")
            printAlignmentJson(report, out);
        else if (format == "csv")
            printAlignmentCsv(report, out);
        else
            printAlignmentTable(report, out);
        return 0;
    }

} // namespace

int runMemorySnapshotMode(const CliArgs& args, std::ostream& out, std::ostream& err)
{
    std::string problem;
    const std::string format = outputFormat(args, problem);
    const auto device = numberOption(args, "--device", 0, problem);
    const auto top = numberOption(args, "--top", 1, problem);
    if (problem.empty() && !args.positional().empty())
        problem = "--snapshot takes no PATH (got \"" + args.positional().front() + "\")";
    if (!problem.empty()) {
        err << kCommand << ": " << problem << '\n' << kMemoryUsage;
        return 2;
    }
    const auto before = load(*args.value("--snapshot"), err);
    if (!before)
        return 1;
    SnapshotReport report { &before->snapshot, &before->summary, device,
        static_cast<std::size_t>(top.value_or(10)) };
    const std::vector<std::int64_t> devices = before->snapshot.devices();
    if (device && std::find(devices.begin(), devices.end(), *device) == devices.end()) {
        err << kCommand << ": " << before->snapshot.path << ": no memory on device " << *device << '\n';
        return 1;
    }
    const auto otherPath = args.value("--compare");
    if (args.value("--trace")) {
        if (otherPath) {
            err << kCommand << ": --trace and --compare do not go together\n" << kMemoryUsage;
            return 2;
        }
        return runAlignment(args, *before, format, device, report.top, out, err);
    }
    if (!otherPath) {
        if (format == "json")
            printSnapshotJson(report, out);
        else if (format == "csv")
            printSnapshotCsv(report, out);
        else
            printSnapshotTable(report, out);
        return 0;
    }
    const auto after = load(*otherPath, err);
    if (!after)
        return 1;
    const SnapshotReport afterReport { &after->snapshot, &after->summary, device, report.top };
    const auto comparison =
        core::compareSnapshots(before->snapshot, before->summary, after->snapshot, after->summary);
    if (format == "json")
        printComparisonJson(report, afterReport, comparison, out);
    else if (format == "csv")
        printComparisonCsv(comparison, report.top, out);
    else
        printComparisonTable(report, afterReport, comparison, out);
    return 0;
}

} // namespace ks::cli
