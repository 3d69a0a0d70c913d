#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace ks::cli {

// Each subcommand: args after the subcommand name; returns the exit code.
// Errors go to `err` as one line naming the file and what is wrong.
int runInfoCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runDiffCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runCountersCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runAnalyzeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runCriticalPathCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runCheckCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runOverviewCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runCollectivesCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runSummarizeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runMergeSummariesCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runSummaryInfoCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runInsightsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runStragglersCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runMemoryCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runOpsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runRooflineCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runSynthCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

// Each subcommand's usage text, defined beside the command: printed after a
// usage error, by `kinetoscope-cli COMMAND --help` and into the man page.
extern const char* const kInfoUsage;
extern const char* const kDiffUsage;
extern const char* const kCountersUsage;
extern const char* const kAnalyzeUsage;
extern const char* const kCriticalPathUsage;
extern const char* const kCheckUsage;
extern const char* const kOverviewUsage;
extern const char* const kCollectivesUsage;
extern const char* const kInsightsUsage;
extern const char* const kStragglersUsage;
extern const char* const kMemoryUsage;
extern const char* const kOpsUsage;
extern const char* const kRooflineUsage;
extern const char* const kSynthUsage;
extern const char* const kSummarizeUsage;
extern const char* const kMergeSummariesUsage;
extern const char* const kSummaryInfoUsage;

} // namespace ks::cli
