// `kinetoscope-cli merge-summaries`: the parts of a sharded summarize (Slurm
// array tasks, separate machines) into one summary of the whole job.

#include "app/cli/commands/commands.h"
#include "app/cli/commands/summary_cli.h"
#include "app/cli/output/cli_output.h"
#include "core/summary/job_summarizer.h"
#include "core/summary/summary_reader.h"

#include <ostream>

namespace ks::cli {

const char* const kMergeSummariesUsage =
    "usage: kinetoscope-cli merge-summaries PART.kssum... --out JOB.kssum\n";

int runMergeSummariesCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    constexpr const char* kCommand = "kinetoscope-cli merge-summaries";
    CliArgs parsed(args, { "--out" }, {});
    const auto outPath = parsed.value("--out");
    if (rejectArguments(parsed, outPath && !outPath->empty() ? "" : "--out JOB.kssum is required", kCommand,
            kMergeSummariesUsage, err))
        return 2;
    auto merged = core::mergeSummaries(parsed.positional(), *outPath);
    if (!merged) {
        err << kCommand << ": " << merged.error().describe() << '\n';
        return 1;
    }
    if (!merged.value().missingShards.empty())
        err << kCommand << ": warning: shards " << core::formatShardList(merged.value().missingShards)
            << " of " << merged.value().shardCount << " are missing: their files are not in " << *outPath
            << '\n';
    return reportSummary(*outPath, kCommand, out, err);
}

} // namespace ks::cli
