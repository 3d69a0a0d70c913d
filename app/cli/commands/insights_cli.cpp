#include "app/cli/commands/insights_cli.h"

#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/inputs/summary_input.h"
#include "app/cli/output/cli_output.h"
#include "core/summary/summary_insights.h"

#include <ostream>

namespace ks::cli {

core::InsightsOptions insightsOptions(const CliArgs& args, std::string& problem)
{
    core::InsightsOptions options;
    if (const auto ids = args.value("--rules")) {
        auto parsed = core::parseRuleIds(*ids);
        if (!parsed)
            problem = "--rules: " + parsed.error().message;
        else
            options.rules = std::move(parsed).value();
    }
    const std::vector<core::RuleInfo> infos = core::insightRuleInfos();
    for (const std::string& assignment : args.values("--set")) {
        const auto set = options.settings.set(assignment, infos);
        if (!set)
            problem = "--set: " + set.error().message;
    }
    return options;
}

std::optional<core::InsightsReport> insightsForCli(
    const CliArgs& args, const core::InsightsOptions& options, const std::string& command, std::ostream& err)
{
    core::AnalysisOptions analysis;
    std::string problem;
    analysis.ranks = parseNumberList(args.value("--ranks"), problem);
    analysis.iterations = parseNumberList(args.value("--iterations"), problem);
    if (!problem.empty()) {
        err << command << ": " << problem << '\n';
        return std::nullopt;
    }
    if (const auto summary = summaryArgument(args)) {
        if (analysis.iterations)
            err << "note: --iterations does not apply to a summary: its findings cover each rank's traced "
                   "time\n";
        if (options.device.name || options.device.peaksFile)
            err << "note: --device and --peaks do not apply to a summary: summarize stored low_efficiency's "
                   "findings against each trace's own device\n";
        if (!options.settings.empty())
            err << "note: --set does not apply to a summary: summarize stored the findings with the default "
                   "thresholds (run insights on the traces to change them)\n";
        auto report = core::insightsFromSummary(
            *summary, options, analysis.ranks.value_or(std::vector<std::int64_t> {}));
        if (!report) {
            err << command << ": " << report.error().describe() << '\n';
            return std::nullopt;
        }
        return std::move(report).value();
    }
    const auto session = loadSessionForCli(args, err);
    if (!session)
        return std::nullopt;
    // The session's insights: the job rules read its job path, as the app's Overview does.
    auto report =
        session->insights(core::FrameScope { analysis, std::nullopt }, options, cliWork(threadsOption(args)));
    if (!report) {
        err << command << ": " << report.error().describe() << '\n';
        return std::nullopt;
    }
    return *report.value();
}

} // namespace ks::cli
