// `kinetoscope-cli collectives`: X2 for a script or a person: the collectives
// whose ranks arrived furthest apart, with the last rank and the transfer time.

#include "app/cli/cli_args.h"
#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/load_for_cli.h"
#include "core/analysis/collective_skew.h"

#include <ostream>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli collectives PATH... [--top N] [--format table|csv|json] [--threads N]\n";

} // namespace

const char* const kCollectivesUsage = kUsage;

int runCollectivesCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CliArgs parsed(args, { "--top", "--format", "--threads" }, {});
    std::string problem;
    std::size_t top = 20;
    try {
        if (const auto n = parsed.value("--top"))
            top = static_cast<std::size_t>(std::stoul(*n));
    } catch (...) {
        problem = "--top needs a number";
    }
    const std::string format = outputFormat(parsed, problem);
    if (rejectArguments(parsed, problem, "kinetoscope-cli collectives", kUsage, err))
        return 2;
    auto loaded = loadForCli(parsed.positional(), parsed.value("--threads"), err);
    if (!loaded)
        return 1;
    const core::AnalysisOutput result = core::collectiveSkew(*loaded, top);
    if (!result.ok) {
        out << "collective skew: not applicable: " << result.error << '\n';
        return 0;
    }
    printResult(result.result, format, "collective_skew", out);
    return 0;
}

} // namespace ks::cli
