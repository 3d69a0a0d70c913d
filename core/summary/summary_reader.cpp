#include "core/summary/summary_reader.h"

#include "core/summary/summary_schema.h"

#include <cstdio>
#include <cstring>
#include <sstream>

namespace ks::core {

namespace {

    Error refused(const std::string& path, const std::string& why)
    {
        return Error { ErrorCode::WrongType, why, path, {} };
    }

    // SQLite files start with this 16-byte string (sqlite.org/fileformat.html).
    bool hasSqliteHeader(const std::string& path, bool& readable)
    {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        readable = f != nullptr;
        if (!f)
            return false;
        char header[16] = {};
        const std::size_t n = std::fread(header, 1, sizeof header, f);
        std::fclose(f);
        return n == sizeof header && std::memcmp(header, "SQLite format 3", 16) == 0;
    }

    std::int64_t toInt(const std::map<std::string, std::string>& values, const std::string& key)
    {
        const auto it = values.find(key);
        if (it == values.end())
            return 0;
        try {
            return std::stoll(it->second);
        } catch (...) {
            return 0;
        }
    }

} // namespace

std::string formatShardList(const std::vector<std::size_t>& shards)
{
    std::string text;
    for (const std::size_t s : shards)
        text += (text.empty() ? "" : ",") + std::to_string(s);
    return text;
}

std::vector<std::size_t> parseShardList(const std::string& text)
{
    std::vector<std::size_t> shards;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty())
            shards.push_back(static_cast<std::size_t>(std::stoull(item)));
    return shards;
}

namespace {

    // quick_check answers with one line per damaged page (hundreds for a file
    // cut mid-write) under a "*** in database main ***" heading: the first
    // problem and how many more keep the refusal one line.
    std::string firstProblem(const std::string& report)
    {
        std::vector<std::string> problems;
        std::stringstream lines(report);
        for (std::string line; std::getline(lines, line);)
            if (!line.empty() && line.rfind("***", 0) != 0)
                problems.push_back(line);
        if (problems.empty())
            return report;
        return problems.front()
            + (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more problems)" : "");
    }

} // namespace

Result<SqliteDb> openSummary(const std::string& path, SummaryMeta& meta)
{
    bool readable = false;
    if (!hasSqliteHeader(path, readable))
        return readable ? refused(path, "not a Kinetoscope summary: not an SQLite database")
                        : Error { ErrorCode::Unreadable, "cannot open the file", path, {} };
    auto opened = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
    if (!opened)
        return opened.error();
    SqliteDb db = std::move(opened).value();
    // quick_check reads every page: a truncated copy fails here rather than
    // on some later query.
    auto check = db.prepare("PRAGMA quick_check");
    if (!check)
        return refused(path, "damaged or truncated summary: " + check.error().message);
    auto row = check.value().step();
    if (!row || !row.value() || check.value().columnText(0) != "ok")
        return refused(path,
            "damaged or truncated summary: "
                + (row && row.value() ? firstProblem(check.value().columnText(0))
                                      : (row ? "no answer" : row.error().message)));
    auto select = db.prepare("SELECT key, value FROM meta");
    if (!select)
        return refused(path, "not a Kinetoscope summary: no meta table");
    for (auto r = select.value().step(); r && r.value(); r = select.value().step())
        meta.values[select.value().columnText(0)] = select.value().columnText(1);
    meta.schemaVersion = static_cast<int>(toInt(meta.values, "schema_version"));
    if (meta.values.count("schema_version") == 0)
        return refused(path, "not a Kinetoscope summary: no schema_version in its meta table");
    if (meta.schemaVersion != kSummarySchemaVersion)
        return refused(path,
            "summary schema version " + meta.values["schema_version"]
                + " is not supported (this build reads version " + std::to_string(kSummarySchemaVersion)
                + (meta.schemaVersion > 0 && meta.schemaVersion < kSummarySchemaVersion
                        ? "): written by an older Kinetoscope, without the collectives' arrivals or the "
                          "compute beside them; summarise the traces again"
                        : "): written by a newer Kinetoscope or damaged"));
    if (meta.values["complete"] != "1")
        return refused(path, "incomplete summary: its writer did not finish");
    meta.jobId = meta.values["job_id"];
    meta.mode = meta.values["mode"];
    meta.bins = static_cast<int>(toInt(meta.values, "bins"));
    meta.binWidthNs = toInt(meta.values, "bin_width_ns");
    meta.binOriginNs = toInt(meta.values, "bin_origin_ns");
    meta.filesTotal = static_cast<std::size_t>(toInt(meta.values, "files_total"));
    meta.shardCount = static_cast<std::size_t>(toInt(meta.values, "shard_count"));
    try {
        meta.shards = parseShardList(meta.values["shards"]);
    } catch (...) {
        return refused(path, "damaged summary: unreadable shard list '" + meta.values["shards"] + "'");
    }
    if (meta.bins <= 0 || meta.binWidthNs <= 0 || meta.shardCount == 0)
        return refused(path, "damaged summary: meta table lacks bins, bin_width_ns or shard_count");
    return db;
}

} // namespace ks::core
