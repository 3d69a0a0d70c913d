// `kinetoscope-cli insights`: what limits this job, findings ranked by how much
// of the step (or traced) time fixing them would give back.

#include "app/cli/commands/commands.h"
#include "app/cli/commands/insights_cli.h"
#include "app/cli/inputs/device_peaks_cli.h"
#include "app/cli/output/cli_output.h"
#include "core/insights/insights_format.h"

#include <ostream>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli insights PATH... [--ranks R,..] [--iterations I,..] [--rules a,b]\n"
        "       [--set RULE.PARAM=V]... [--device NAME] [--peaks FILE] [--format table|markdown|json|csv]\n"
        "       [--threads N]\n"
        "  PATH:        trace files, folders, or a job summary (.kssum)\n"
        "  --rules:     run only these rules (default: all; --list-rules prints them)\n"
        "  --set:       change a rule's threshold, e.g. --set gpu_idle_sync.min_gain_pct=2\n"
        "  --device, --peaks: the GPU low_efficiency draws the roofline against, as for roofline\n"
        "               (default: the one the trace's deviceProperties name)\n"
        "  --format:    table (default), markdown (a report for a ticket), json (a list of findings), csv\n"
        "  --list-rules print every rule with its thresholds and defaults\n";

    void listRules(std::ostream& out)
    {
        for (const core::RuleInfo& r : core::insightRuleInfos()) {
            out << r.id << ": " << r.title << '\n';
            for (const core::RuleParam& p : r.params)
                out << "    " << r.id << '.' << p.name << " = " << p.defaultValue << "  (" << p.meaning
                    << ")\n";
        }
    }

} // namespace

const char* const kInsightsUsage = kUsage;

int runInsightsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string command = "kinetoscope-cli insights";
    CliArgs parsed(args,
        { "--ranks", "--iterations", "--rules", "--set", kDeviceOption, kPeaksOption, "--format",
            "--threads" },
        { "--list-rules" });
    if (parsed.ok() && parsed.flag("--list-rules")) {
        listRules(out);
        return 0;
    }
    std::string problem;
    core::InsightsOptions options = insightsOptions(parsed, problem);
    const std::string format = parsed.value("--format").value_or("table");
    if (format != "table" && format != "markdown" && format != "json" && format != "csv")
        problem = "--format must be table, markdown, json or csv, got '" + format + "'";
    if (rejectArguments(parsed, problem, command, kUsage, err))
        return 2;
    const std::optional<core::RooflineDevice> device = deviceArguments(parsed, err);
    if (!device)
        return 2;
    options.device = *device;
    const auto report = insightsForCli(parsed, options, command, err);
    if (!report)
        return 1;
    if (format == "json" || format == "csv") {
        out << (format == "json" ? core::insightsJson(*report) : core::insightsCsv(*report));
        // The list holds findings only; what could not run goes beside it.
        for (const core::RuleNotApplicable& na : report->notApplicable)
            err << "note: " << na.rule << ": not applicable: " << na.reason << '\n';
    } else
        out << (format == "markdown" ? core::insightsMarkdown(*report) : core::insightsTable(*report));
    return 0;
}

} // namespace ks::cli
