// `kinetoscope-cli summary-info`: checks a .kssum as every reader does and
// prints its meta data and the rows per table.

#include "app/cli/commands/commands.h"
#include "app/cli/output/cli_output.h"
#include "core/summary/summary_reader.h"
#include "core/summary/summary_schema.h"

#include <ostream>

namespace ks::cli {

const char* const kSummaryInfoUsage = "usage: kinetoscope-cli summary-info JOB.kssum...\n";

int runSummaryInfoCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    constexpr const char* kCommand = "kinetoscope-cli summary-info";
    CliArgs parsed(args, {}, {});
    if (rejectArguments(parsed, "", kCommand, kSummaryInfoUsage, err))
        return 2;
    int status = 0;
    for (const std::string& path : parsed.positional()) {
        core::SummaryMeta meta;
        auto db = core::openSummary(path, meta);
        if (!db) {
            err << kCommand << ": " << db.error().describe() << '\n';
            status = 1;
            continue;
        }
        out << "== " << path << " ==\n";
        for (const auto& [key, value] : meta.values)
            out << key << ": " << value << '\n';
        for (const core::SummaryTable& table : core::summaryTables()) {
            auto count = db.value().prepare("SELECT COUNT(*) FROM " + std::string(table.name));
            if (count && count.value().step().ok())
                out << "rows in " << table.name << ": " << count.value().columnInt(0) << '\n';
        }
    }
    return status;
}

} // namespace ks::cli
