#include "app/cli/output/cli_output.h"

#include "core/report/hta_json_writer.h"
#include "core/report/table_text.h"

#include <algorithm>
#include <fstream>
#include <ostream>

namespace ks::cli {

std::optional<std::vector<std::int64_t>> parseNumberList(
    const std::optional<std::string>& text, std::string& error)
{
    if (!text)
        return std::nullopt;
    std::vector<std::int64_t> values;
    for (std::size_t pos = 0; pos <= text->size();) {
        const std::size_t comma = std::min(text->find(',', pos), text->size());
        const std::string item = text->substr(pos, comma - pos);
        std::size_t used = 0;
        try {
            values.push_back(std::stoll(item, &used));
        } catch (...) {
            used = 0;
        }
        if (used == 0 || used != item.size()) {
            error = "not a number list: '" + *text + "'";
            return std::nullopt;
        }
        pos = comma + 1;
    }
    return values;
}

bool writeTextFile(
    const std::filesystem::path& path, const std::string& text, const std::string& command, std::ostream& err)
{
    std::ofstream file(path, std::ios::binary);
    file << text;
    if (!file) {
        err << command << ": cannot write " << path.string() << '\n';
        return false;
    }
    return true;
}

bool ensureDirectory(const std::filesystem::path& dir, const std::string& command, std::ostream& err)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        err << command << ": cannot create " << dir.string() << ": " << ec.message() << '\n';
        return false;
    }
    return true;
}

std::string outputFormat(const CliArgs& args, std::string& problem)
{
    std::string format = args.value("--format").value_or("table");
    if (format != "table" && format != "csv" && format != "json")
        problem = "unknown format '" + format + "'";
    return format;
}

bool rejectArguments(const CliArgs& args, const std::string& problem, const std::string& command,
    const char* usage, std::ostream& err)
{
    std::string what = !args.ok()   ? args.error()
        : args.positional().empty() ? "give at least one PATH"
                                    : problem;
    if (what.empty())
        return false;
    err << command << ": " << what << '\n' << usage;
    return true;
}

void printResult(
    const core::HtaResult& result, const std::string& format, const std::string& title, std::ostream& out)
{
    if (format == "json")
        out << core::htaResultJson(result) << '\n';
    else if (format == "csv")
        out << core::tableAsCsv(result.frame);
    else
        out << core::resultAsText(title, result);
}

} // namespace ks::cli
