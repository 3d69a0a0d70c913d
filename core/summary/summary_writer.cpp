#include "core/summary/summary_writer.h"

#include "core/common/median.h"
#include "core/summary/rank_profile.h"
#include "core/summary/summary_schema.h"
#include "core/summary/utilisation_profile.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace ks::core {

namespace {

    std::string scratchPath(const std::string& temp)
    {
        return temp + ".scratch";
    }

    std::string placeholders(std::size_t n)
    {
        std::string text;
        for (std::size_t i = 0; i < n; ++i)
            text += i ? ",?" : "?";
        return text;
    }

} // namespace

Result<std::unique_ptr<SummaryWriter>> SummaryWriter::create(
    const std::string& outPath, const SummaryJobInfo& job)
{
    const std::string temp = outPath + ".partial-" + std::to_string(::getpid());
    std::remove(temp.c_str()); // left by an earlier run with the same pid
    std::remove(scratchPath(temp).c_str());
    auto opened = SqliteDb::open(temp, SqliteDb::Mode::Create);
    if (!opened)
        return Error { ErrorCode::Unreadable, "cannot create the summary: " + opened.error().message, outPath,
            {} };
    std::unique_ptr<SummaryWriter> writer(new SummaryWriter(std::move(opened).value(), outPath, temp, job));
    SqliteDb& db = writer->m_db;
    // No journal: an interrupted write is thrown away whole (it never gets
    // renamed), so crash safety inside the file buys nothing. The scratch
    // table lives in a file of its own so that dropping it leaves no free
    // pages in the summary.
    if (auto error = db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=FILE;"))
        return *error;
    auto attach = db.prepare("ATTACH DATABASE ? AS scratch"); // bound: paths may hold quotes
    if (!attach)
        return attach.error();
    attach.value().bind(1, std::string_view(scratchPath(temp)));
    if (auto error = attach.value().run())
        return *error;
    if (auto error = db.exec("PRAGMA scratch.journal_mode=OFF; PRAGMA scratch.synchronous=OFF;"))
        return *error;
    std::string schema = summarySchemaSql();
    const std::string scratchName = std::string(kUtilisationScratchTable);
    schema.replace(schema.find("CREATE TABLE " + scratchName), 13 + scratchName.size(),
        "CREATE TABLE scratch." + scratchName);
    if (auto error = db.exec(schema))
        return *error;
    if (auto error = db.exec("BEGIN"))
        return *error;
    return writer;
}

SummaryWriter::SummaryWriter(SqliteDb db, std::string outPath, std::string tempPath, SummaryJobInfo job)
    : m_db(std::move(db))
    , m_out(std::move(outPath))
    , m_temp(std::move(tempPath))
    , m_job(std::move(job))
{
}

SummaryWriter::~SummaryWriter()
{
    if (!m_finished)
        removeFiles();
}

void SummaryWriter::removeFiles()
{
    m_inserts.clear();
    m_db.close();
    std::remove(m_temp.c_str());
    std::remove(scratchPath(m_temp).c_str());
}

std::optional<Error> SummaryWriter::insertRows(
    const std::string& table, const std::vector<std::vector<Cell>>& rows)
{
    if (rows.empty())
        return std::nullopt;
    auto it = m_inserts.find(table);
    if (it == m_inserts.end()) {
        const auto& tables = summaryTables();
        const auto def = std::find_if(
            tables.begin(), tables.end(), [&table](const SummaryTable& t) { return t.name == table; });
        if (def == tables.end())
            return Error { ErrorCode::InvalidArgument, "internal error: no summary table " + table, m_out,
                {} };
        auto statement =
            m_db.prepare("INSERT INTO " + table + " VALUES (" + placeholders(def->columns.size()) + ")");
        if (!statement)
            return statement.error();
        it = m_inserts.emplace(table, std::move(statement).value()).first;
    }
    SqliteStatement& insert = it->second;
    for (const auto& row : rows) {
        for (std::size_t c = 0; c < row.size(); ++c)
            insert.bind(static_cast<int>(c + 1), row[c]);
        if (auto error = insert.run())
            return error;
    }
    return std::nullopt;
}

std::optional<Error> SummaryWriter::insertProfile(std::int64_t rank, const StreamProfile& profile)
{
    std::vector<std::vector<Cell>> rows;
    for (std::size_t b = 0; b < profile.busy.size(); ++b) {
        const auto& busy = profile.busy[b];
        if (busy[0] == 0 && busy[1] == 0 && busy[2] == 0 && busy[3] == 0)
            continue; // idle bins are implied
        rows.push_back({ rank, profile.stream, profile.widthNs,
            profile.firstBin + static_cast<std::int64_t>(b), busy[0], busy[1], busy[2], busy[3] });
    }
    auto it = m_inserts.find("scratch");
    if (it == m_inserts.end()) {
        auto statement = m_db.prepare("INSERT INTO scratch." + std::string(kUtilisationScratchTable)
            + " VALUES (" + placeholders(8) + ")");
        if (!statement)
            return statement.error();
        it = m_inserts.emplace("scratch", std::move(statement).value()).first;
    }
    for (const auto& row : rows) {
        for (std::size_t c = 0; c < row.size(); ++c)
            it->second.bind(static_cast<int>(c + 1), row[c]);
        if (auto error = it->second.run())
            return error;
    }
    return std::nullopt;
}

std::optional<Error> SummaryWriter::add(const RankSummary& rank)
{
    for (const auto& [table, rows] : rank.rows)
        if (auto error = insertRows(table, rows))
            return error;
    for (const StreamProfile& profile : rank.profiles)
        if (auto error = insertProfile(rank.rank, profile))
            return error;
    return std::nullopt;
}

std::string SummaryWriter::partColumns(std::string_view table)
{
    std::string columns;
    auto select = m_db.prepare("SELECT name FROM pragma_table_info(?, 'part')");
    if (!select)
        return columns;
    select.value().bind(1, table);
    for (auto row = select.value().step(); row && row.value(); row = select.value().step())
        columns += (columns.empty() ? "\"" : ", \"") + select.value().columnText(0) + "\"";
    return columns;
}

std::optional<Error> SummaryWriter::addPart(const std::string& partPath, const SummaryMeta& meta)
{
    // ATTACH is refused inside a transaction.
    m_inserts.clear();
    if (auto error = m_db.exec("COMMIT"))
        return error;
    auto attach = m_db.prepare("ATTACH DATABASE ? AS part");
    if (!attach)
        return attach.error();
    attach.value().bind(1, std::string_view(partPath));
    if (auto error = attach.value().run())
        return error;
    std::string copy = "BEGIN;";
    for (const SummaryTable& table : summaryTables())
        if (table.name != "meta" && table.name != "stream_utilisation" && table.name != kRankProfilesTable) {
            // By name, not position: a part written before a column was added within the
            // version (findings' `subject`) lacks it, and the merged row leaves it empty.
            const std::string columns = partColumns(table.name);
            if (columns.empty())
                continue; // a table the part does not have
            copy += "INSERT INTO main." + std::string(table.name) + " (" + columns + ") SELECT " + columns
                + " FROM part." + std::string(table.name) + ";";
        }
    // The part's bins back to absolute bin numbers at its own width.
    copy += "INSERT INTO scratch." + std::string(kUtilisationScratchTable) + " SELECT rank, stream, "
        + std::to_string(meta.binWidthNs) + ", bin + "
        + std::to_string(floorDiv(meta.binOriginNs, meta.binWidthNs))
        + ", computation_ns, communication_ns, memory_ns, other_ns FROM part.stream_utilisation;COMMIT;";
    auto copied = m_db.exec(copy);
    auto detached = m_db.exec("DETACH DATABASE part");
    if (copied)
        return Error { ErrorCode::Unreadable, "cannot merge: " + copied->message, partPath, {} };
    if (detached)
        return detached;
    return m_db.exec("BEGIN");
}

// Straggler: GPU busy time above the median of the ranks in that iteration by
// more than the margin, as rankOverview flags it over ranks held in memory.
std::optional<Error> SummaryWriter::markStragglers()
{
    auto select = m_db.prepare("SELECT rowid, iteration, gpu_busy_us FROM rank_iterations");
    if (!select)
        return select.error();
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, double>>> byIteration;
    for (auto r = select.value().step(); r && r.value(); r = select.value().step())
        if (!select.value().columnIsNull(2))
            byIteration[select.value().columnInt(1)].emplace_back(
                select.value().columnInt(0), select.value().columnDouble(2));
    auto update = m_db.prepare("UPDATE rank_iterations SET straggler = ? WHERE rowid = ?");
    if (!update)
        return update.error();
    if (auto error = m_db.exec("UPDATE rank_iterations SET straggler = 0"))
        return error;
    for (const auto& [iteration, rows] : byIteration) {
        if (rows.size() < 2)
            continue;
        std::vector<double> values;
        for (const auto& row : rows)
            values.push_back(row.second);
        const double typical = *median(values);
        for (const auto& [rowid, busy] : rows) {
            if (!(busy > typical * (1.0 + m_job.stragglerMargin)))
                continue;
            update.value().bind(1, std::int64_t { 1 });
            update.value().bind(2, rowid);
            if (auto error = update.value().run())
                return error;
        }
    }
    return std::nullopt;
}

// Sums every rank's bins into the job's width, streaming in time order per
// rank and stream (SQLite sorts on disk: memory stays flat with the job size).
std::optional<Error> SummaryWriter::binUtilisation(std::int64_t& width, std::int64_t& origin)
{
    auto span = m_db.prepare("SELECT MIN(start_ns), MAX(end_ns) FROM ranks WHERE status = 'ok'");
    auto widest = m_db.prepare("SELECT MAX(width_ns) FROM scratch." + std::string(kUtilisationScratchTable));
    if (!span || !widest)
        return m_db.error("cannot read the job's span");
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::int64_t minWidth = 1;
    if (auto r = span.value().step(); r && r.value() && !span.value().columnIsNull(0)) {
        start = span.value().columnInt(0);
        end = span.value().columnInt(1);
    }
    if (auto r = widest.value().step(); r && r.value() && !widest.value().columnIsNull(0))
        minWidth = widest.value().columnInt(0);
    width = binWidthFor(start, end, m_job.bins, minWidth);
    const std::int64_t originBin = floorDiv(start, width);
    origin = originBin * width;

    auto select =
        m_db.prepare("SELECT rank, stream, width_ns, bin, computation_ns, communication_ns, memory_ns,"
                     " other_ns FROM scratch."
            + std::string(kUtilisationScratchTable) + " ORDER BY rank, stream, bin * width_ns");
    if (!select)
        return select.error();
    std::vector<std::vector<Cell>> pending;
    std::optional<std::array<std::int64_t, 3>> key; // rank, stream, job bin
    std::array<std::int64_t, 4> sum {};
    std::optional<RankProfile> profile; // the rank being read, over all its streams
    std::int64_t profileStream = 0;
    auto flush = [&]() -> std::optional<Error> {
        if (key) {
            pending.push_back({ (*key)[0], (*key)[1], (*key)[2], sum[0], sum[1], sum[2], sum[3] });
            if (profile && profile->rank != (*key)[0]) {
                if (auto error = insertRankProfile(*profile))
                    return error;
                profile.reset();
            }
            if (!profile) {
                profile = RankProfile { (*key)[0], 0, 0, {} };
                profileStream = (*key)[1] - 1;
            }
            if ((*key)[1] != profileStream) {
                profileStream = (*key)[1];
                ++profile->streams;
            }
            profile->add((*key)[2], sum);
        }
        if (pending.size() < 4096)
            return std::nullopt;
        auto error = insertRows("stream_utilisation", pending);
        pending.clear();
        return error;
    };
    SqliteStatement& s = select.value();
    auto r = s.step();
    for (; r && r.value(); r = s.step()) {
        const std::int64_t absoluteStart = s.columnInt(3) * s.columnInt(2);
        const std::array<std::int64_t, 3> k { s.columnInt(0), s.columnInt(1),
            floorDiv(absoluteStart, width) - originBin };
        if (key != k) {
            if (auto error = flush())
                return error;
            key = k;
            sum = {};
        }
        for (int i = 0; i < 4; ++i)
            sum[static_cast<std::size_t>(i)] += s.columnInt(4 + i);
    }
    if (!r)
        return r.error();
    if (auto error = flush())
        return error;
    if (profile)
        if (auto error = insertRankProfile(*profile))
            return error;
    return insertRows("stream_utilisation", pending);
}

std::optional<Error> SummaryWriter::insertRankProfile(const RankProfile& profile)
{
    auto it = m_inserts.find(std::string(kRankProfilesTable));
    if (it == m_inserts.end()) {
        auto prepared =
            m_db.prepare("INSERT INTO " + std::string(kRankProfilesTable) + " VALUES (?,?,?,?,?)");
        if (!prepared)
            return prepared.error();
        it = m_inserts.emplace(std::string(kRankProfilesTable), std::move(prepared).value()).first;
    }
    SqliteStatement& insert = it->second;
    insert.bind(1, profile.rank);
    insert.bind(2, profile.streams);
    insert.bind(3, profile.firstBin);
    insert.bind(4, static_cast<std::int64_t>(profile.busy.size()));
    const std::vector<std::byte> blob = encodeProfileBins(profile.busy);
    insert.bindBlob(5, blob);
    return insert.run();
}

std::optional<Error> SummaryWriter::writeMeta(std::int64_t width, std::int64_t origin)
{
    std::sort(m_job.shards.begin(), m_job.shards.end());
    const std::vector<std::pair<std::string, std::string>> meta {
        { "schema_version", std::to_string(kSummarySchemaVersion) },
        { "job_id", m_job.jobId },
        { "mode", m_job.mode == AnalysisMode::HtaCompat ? "hta-compat" : "default" },
        { "bins", std::to_string(m_job.bins) },
        { "bin_width_ns", std::to_string(width) },
        { "bin_origin_ns", std::to_string(origin) },
        { "files_total", std::to_string(m_job.filesTotal) },
        { "shard_count", std::to_string(m_job.shardCount) },
        { "shards", formatShardList(m_job.shards) },
        { "straggler_margin", std::to_string(m_job.stragglerMargin) },
        { "created_by", "kinetoscope-cli 0.1.0" },
        { "complete", "1" },
    };
    std::vector<std::vector<Cell>> rows;
    rows.reserve(meta.size());
    for (const auto& [key, value] : meta)
        rows.push_back({ key, value });
    return insertRows("meta", rows);
}

std::optional<Error> SummaryWriter::finish()
{
    std::int64_t width = 1;
    std::int64_t origin = 0;
    if (auto error = markStragglers())
        return error;
    if (auto error = binUtilisation(width, origin))
        return error;
    // The meta rows, "complete" among them, are the last thing written.
    if (auto error = writeMeta(width, origin))
        return error;
    m_inserts.clear();
    if (auto error = m_db.exec("COMMIT; DETACH DATABASE scratch;"))
        return error;
    m_db.close();
    std::remove(scratchPath(m_temp).c_str());
    std::error_code ec;
    std::filesystem::rename(m_temp, m_out, ec);
    if (ec)
        return Error { ErrorCode::Unreadable, "cannot rename " + m_temp + " into place: " + ec.message(),
            m_out, {} };
    m_finished = true;
    return std::nullopt;
}

} // namespace ks::core
