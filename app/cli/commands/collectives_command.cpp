// `kinetoscope-cli collectives`: X2 for a script or a person: the collectives
// whose member ranks arrived furthest apart, matched by process group
// (core/analysis/cross_rank/collective_match.h), with the last rank, the transfer time and,
// where sizes are known, message size and bus bandwidth. --estimated-clocks
// first puts every rank on the reference rank's clock.

#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/inputs/summary_input.h"
#include "app/cli/output/cli_output.h"
#include "app/cli/output/clock_offsets_output.h"
#include "core/analysis/cross_rank/clock_offsets.h"
#include "core/analysis/cross_rank/collective_skew.h"

#include <ostream>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli collectives PATH... [--top N] [--estimated-clocks]\n"
        "                                   [--format table|csv|json] [--threads N]\n";

} // namespace

const char* const kCollectivesUsage = kUsage;

int runCollectivesCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CliArgs parsed(args, { "--top", "--format", "--threads" }, { "--estimated-clocks" });
    std::string problem;
    core::CollectiveSkewOptions options;
    try {
        if (const auto n = parsed.value("--top"))
            options.top = static_cast<std::size_t>(std::stoul(*n));
    } catch (...) {
        problem = "--top needs a number";
    }
    const std::string format = outputFormat(parsed, problem);
    if (rejectArguments(parsed, problem, "kinetoscope-cli collectives", kUsage, err))
        return 2;
    if (const auto summary = summaryArgument(parsed))
        return collectivesFromSummary(*summary, options.top, format, out, err);
    auto loaded = loadForCli(parsed.positional(), parsed, err);
    if (!loaded)
        return 1;
    const core::CollectiveMatch match = core::matchCollectives(*loaded);
    // Notes go with a table; beside CSV or JSON they go to stderr so the output stays parseable.
    std::ostream& notes = format == "table" ? out : err;
    for (const std::string& note : match.notes)
        notes << "note: " << note << '\n';
    if (parsed.flag("--estimated-clocks") && loaded->ranks.size() >= 2) {
        const core::ClockOffsets offsets = core::estimateClockOffsets(*loaded, match);
        printClockOffsetsText(notes, offsets);
        options.clockOffsets = offsets.offsets();
    }
    const core::AnalysisOutput result = core::collectiveSkew(*loaded, match, options);
    if (!result.ok) {
        out << "collective skew: not applicable: " << result.error << '\n';
        return 0;
    }
    printResult(result.result, format, "collective_skew", out);
    return 0;
}

} // namespace ks::cli
