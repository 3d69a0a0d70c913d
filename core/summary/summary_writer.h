#pragma once

#include "core/analysis/frame/analysis_options.h"
#include "core/common/result.h"
#include "core/summary/rank_summary.h"
#include "core/summary/sqlite_db.h"
#include "core/summary/summary_reader.h"

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

struct RankProfile;

// What is known of the job before any rank is written.
struct SummaryJobInfo
{
    std::string jobId;
    AnalysisMode mode = AnalysisMode::Default;
    int bins = 2048;
    std::size_t filesTotal = 0;
    std::size_t shardCount = 1;
    std::vector<std::size_t> shards { 0 }; // the shards this file will hold
    double stragglerMargin = 0.10;
};

// Writes one .kssum: ranks are added one at a time (each summary can be
// dropped right after), then finish() derives what needs every rank (the
// stragglers, the job's utilisation bins), marks the file complete and renames
// it into place. Until then everything goes to "<out>.partial-<pid>", so a
// killed run never leaves a file that reads as a complete summary; a writer
// destroyed unfinished removes its partial file.
class SummaryWriter
{
public:
    static Result<std::unique_ptr<SummaryWriter>> create(
        const std::string& outPath, const SummaryJobInfo& job);
    ~SummaryWriter();

    std::optional<Error> add(const RankSummary& rank);
    // Copies every row of another complete summary of the same job (merge).
    std::optional<Error> addPart(const std::string& partPath, const SummaryMeta& meta);
    std::optional<Error> finish();

private:
    SummaryWriter(SqliteDb db, std::string outPath, std::string tempPath, SummaryJobInfo job);

    std::optional<Error> insertRows(const std::string& table, const std::vector<std::vector<Cell>>& rows);
    std::optional<Error> insertProfile(std::int64_t rank, const StreamProfile& profile);
    std::optional<Error> copyPartUtilisation(const SummaryMeta& meta);
    void finalizeStatements();
    std::optional<Error> insertRankProfile(const RankProfile& profile);
    // The part's columns of `table`, quoted and comma-separated ("" without the table).
    std::string partColumns(std::string_view table);
    std::optional<Error> markStragglers();
    std::optional<Error> deriveArrivalWaits();
    std::optional<Error> binUtilisation(std::int64_t& width, std::int64_t& origin);
    std::optional<Error> writeMeta(std::int64_t width, std::int64_t origin);
    void removeFiles();

    SqliteDb m_db;
    std::string m_out;
    std::string m_temp;
    SummaryJobInfo m_job;
    std::map<std::string, SqliteStatement> m_inserts;

    struct BatchInsert
    {
        SqliteStatement statement; // kRowsPerInsert rows of `columns` values
        std::size_t columns = 0;
    };

    std::map<std::string, BatchInsert> m_batchInserts;
    bool m_finished = false;
};

} // namespace ks::core
