#pragma once

#include "app/cli/cli_args.h"
#include "core/summary/job_summarizer.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ks::cli {

// Options of `summarize` other than the shard, parsed; nullopt after
// writing the problem to `err`.
struct SummarizeCli
{
    std::string
        command; // "kinetoscope-cli summarize" or "kinetoscope-cli-mpi summarize": starts every message
    std::vector<std::string> paths;
    std::string out;
    core::SummarizeOptions options;
    unsigned jobs = 0; // ranks in memory at once; 0 = all cores
    bool shardGiven = false; // --shard or Slurm's array variables
};

// `command` and `usage` name the executable the arguments came to.
std::optional<SummarizeCli> parseSummarizeArguments(const std::vector<std::string>& arguments,
    const std::string& command, const char* usage, std::ostream& err);

// Summarises options.shardIndex/shardCount of the job into `out` on `jobs`
// threads; prints each failed file on `err`. Returns the exit code.
int summarizeToFile(const SummarizeCli& cli, const std::string& out, std::ostream& err);

// Opens a finished summary and prints "wrote PATH: N ranks summarised, ...";
// problems start with `command`.
int reportSummary(const std::string& path, const std::string& command, std::ostream& out, std::ostream& err);

} // namespace ks::cli
