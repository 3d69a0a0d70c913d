#include "core/summary/summary_writer.h"

#include "core/analysis/cross_rank/clock_offsets.h"
#include "core/common/median.h"
#include "core/summary/rank_profile.h"
#include "core/summary/summary_collectives.h"
#include "core/summary/summary_schema.h"
#include "core/summary/utilisation_profile.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace ks::core {

namespace {

    constexpr std::size_t kRowsPerInsert = 64;

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
    finalizeStatements();
    m_db.close();
    std::remove(m_temp.c_str());
    std::remove(scratchPath(m_temp).c_str());
}

// Prepared statements must be finalised before ATTACH, DETACH or closing the database.
void SummaryWriter::finalizeStatements()
{
    m_inserts.clear();
    m_batchInserts.clear();
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
        // Whole batches of rows in one statement: a statement per row spent most of a
        // 300-rank job's serial finish (600 k utilisation rows) in SQLite's per-statement
        // work. Where the batch cannot be prepared, rows go one at a time.
        const std::size_t columns = def->columns.size();
        std::string batch = "INSERT INTO " + table + " VALUES ";
        for (std::size_t r = 0; r < kRowsPerInsert; ++r)
            batch += (r ? ",(" : "(") + placeholders(columns) + ")";
        if (auto prepared = m_db.prepare(batch))
            m_batchInserts.emplace(table, BatchInsert { std::move(prepared).value(), columns });
    }
    SqliteStatement& insert = it->second;
    std::size_t next = 0;
    if (const auto batch = m_batchInserts.find(table); batch != m_batchInserts.end()) {
        BatchInsert& b = batch->second;
        const auto whole = [&b](const std::vector<Cell>& row) { return row.size() == b.columns; };
        for (; next + kRowsPerInsert <= rows.size(); next += kRowsPerInsert) {
            const auto first = rows.begin() + static_cast<std::ptrdiff_t>(next);
            // A short row keeps one row's statement (and its earlier bindings) as before.
            if (!std::all_of(first, first + static_cast<std::ptrdiff_t>(kRowsPerInsert), whole))
                break;
            int parameter = 1;
            for (auto row = first; row != first + static_cast<std::ptrdiff_t>(kRowsPerInsert); ++row)
                for (const Cell& cell : *row)
                    b.statement.bind(parameter++, cell);
            if (auto error = b.statement.run())
                return error;
        }
    }
    for (; next < rows.size(); ++next) {
        const auto& row = rows[next];
        for (std::size_t c = 0; c < row.size(); ++c)
            insert.bind(static_cast<int>(c + 1), row[c]);
        if (auto error = insert.run())
            return error;
    }
    return std::nullopt;
}

std::optional<Error> SummaryWriter::insertProfile(std::int64_t rank, const StreamProfile& profile)
{
    const auto idle = [](const KindBusy& b) { return b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0; };
    if (std::all_of(profile.busy.begin(), profile.busy.end(), idle))
        return std::nullopt; // a stream without work is not in the profiles (idle bins are implied)
    auto it = m_inserts.find("scratch");
    if (it == m_inserts.end()) {
        auto statement = m_db.prepare("INSERT INTO scratch." + std::string(kUtilisationScratchTable)
            + " VALUES (" + placeholders(5) + ")");
        if (!statement)
            return statement.error();
        it = m_inserts.emplace("scratch", std::move(statement).value()).first;
    }
    SqliteStatement& insert = it->second;
    insert.bind(1, rank);
    insert.bind(2, profile.stream);
    insert.bind(3, profile.widthNs);
    insert.bind(4, profile.firstBin);
    insert.bindBlob(5, encodeProfileBins(profile.busy));
    return insert.run();
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
    finalizeStatements();
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
    std::optional<Error> copied = m_db.exec(copy);
    if (!copied)
        copied = copyPartUtilisation(meta);
    if (!copied)
        copied = m_db.exec("COMMIT");
    else
        (void)m_db.exec("ROLLBACK");
    finalizeStatements(); // DETACH is refused while statements on the part are open
    auto detached = m_db.exec("DETACH DATABASE part");
    if (copied)
        return Error { ErrorCode::Unreadable, "cannot merge: " + copied->message, partPath, {} };
    if (detached)
        return detached;
    return m_db.exec("BEGIN");
}

// A part's job bins, back to absolute bins at its own width, as one scratch
// profile per rank and stream (what insertProfile writes for a rank summarised here).
std::optional<Error> SummaryWriter::copyPartUtilisation(const SummaryMeta& meta)
{
    auto select =
        m_db.prepare("SELECT rank, stream, bin, computation_ns, communication_ns, memory_ns, other_ns"
                     " FROM part.stream_utilisation ORDER BY rank, stream, bin");
    if (!select)
        return select.error();
    const std::int64_t originBin = floorDiv(meta.binOriginNs, meta.binWidthNs);
    std::optional<std::pair<std::int64_t, std::int64_t>> key; // rank, stream
    StreamProfile profile;
    profile.widthNs = meta.binWidthNs;
    SqliteStatement& s = select.value();
    auto r = s.step();
    for (; r && r.value(); r = s.step()) {
        const std::pair<std::int64_t, std::int64_t> k { s.columnInt(0), s.columnInt(1) };
        const std::int64_t bin = s.columnInt(2) + originBin;
        if (key != k) {
            if (key)
                if (auto error = insertProfile(key->first, profile))
                    return error;
            key = k;
            profile.stream = k.second;
            profile.firstBin = bin;
            profile.busy.clear();
        }
        const auto index = static_cast<std::size_t>(bin - profile.firstBin);
        if (index >= profile.busy.size())
            profile.busy.resize(index + 1, KindBusy {});
        for (int i = 0; i < 4; ++i)
            profile.busy[index][static_cast<std::size_t>(i)] += s.columnInt(3 + i);
    }
    if (!r)
        return r.error();
    if (key)
        return insertProfile(key->first, profile);
    return std::nullopt;
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

// Each member's wait at each collective instance: from its arrival to the last
// member's, matched as readSummaryCollectives (and a folder) matches them, on the
// clocks estimated from their common ends (as arrival_stragglers compares them). NULL
// where the instance has no other member.
std::optional<Error> SummaryWriter::deriveArrivalWaits()
{
    auto read = readSummaryCollectives(m_db);
    if (!read)
        return read.error();
    const SummaryCollectives& c = read.value();
    const std::string table(kCollectiveArrivalsTable);
    if (auto error = m_db.exec("UPDATE " + table
            + " SET wait_ns = NULL; CREATE INDEX arrivals_by_position ON " + table + " (rank, position)"))
        return error;
    {
        auto update = m_db.prepare("UPDATE " + table + " SET wait_ns = ? WHERE rank = ? AND position = ?");
        if (!update)
            return update.error();
        const CollectiveMatch aligned =
            onEstimatedClocks(c.match, estimateClockOffsets(c.rankNumbers, c.match));
        for (const CollectiveInstance& inst : aligned.instances) {
            if (inst.members.size() < 2)
                continue;
            const TimeNs last = inst.lastArrival();
            for (const CollectiveMember& m : inst.members) {
                update.value().bind(1, std::int64_t { last - m.start });
                update.value().bind(2, c.rankNumbers[m.rankIndex]);
                update.value().bind(3, static_cast<std::int64_t>(m.slice));
                if (auto error = update.value().run())
                    return error;
            }
        }
    } // the statement is finalised before its index goes
    return m_db.exec("DROP INDEX arrivals_by_position");
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

    auto select = m_db.prepare("SELECT rank, stream, width_ns, first_bin, bins FROM scratch."
        + std::string(kUtilisationScratchTable) + " ORDER BY rank, stream");
    if (!select)
        return select.error();
    // One rank and stream at a time (a rank claimed by two files has two rows):
    // its bins summed into job bins, relative to the job's first bin.
    std::vector<KindBusy> sums;
    std::vector<bool> touched;
    std::vector<KindBusy> bins; // one row's, decoded
    std::vector<std::vector<Cell>> pending;
    std::optional<std::pair<std::int64_t, std::int64_t>> key; // rank, stream
    std::optional<RankProfile> profile; // the rank being read, over all its streams
    auto flushStream = [&]() -> std::optional<Error> {
        if (!key)
            return std::nullopt;
        if (profile && profile->rank != key->first) {
            if (auto error = insertRankProfile(*profile))
                return error;
            profile.reset();
        }
        if (!profile)
            profile = RankProfile { key->first, 0, 0, {} };
        ++profile->streams;
        for (std::size_t b = 0; b < sums.size(); ++b) {
            if (!touched[b])
                continue;
            const auto bin = static_cast<std::int64_t>(b);
            pending.push_back(
                { key->first, key->second, bin, sums[b][0], sums[b][1], sums[b][2], sums[b][3] });
            profile->add(bin, sums[b]);
            sums[b] = {};
            touched[b] = false;
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
        const std::pair<std::int64_t, std::int64_t> k { s.columnInt(0), s.columnInt(1) };
        if (key != k) {
            if (auto error = flushStream())
                return error;
            key = k;
        }
        const std::int64_t rowWidth = s.columnInt(2);
        const std::int64_t firstBin = s.columnInt(3);
        if (!decodeProfileBins(s.columnBlob(4), bins))
            return Error { ErrorCode::Unreadable, "internal error: a damaged utilisation scratch row", m_out,
                {} };
        for (std::size_t i = 0; i < bins.size(); ++i) {
            const KindBusy& busy = bins[i];
            if (busy[0] == 0 && busy[1] == 0 && busy[2] == 0 && busy[3] == 0)
                continue; // idle bins are implied
            const std::int64_t absoluteStart = (firstBin + static_cast<std::int64_t>(i)) * rowWidth;
            const std::int64_t jobBin = floorDiv(absoluteStart, width) - originBin;
            if (jobBin < 0) // the span is the ranks' own: no bin lies before it
                return Error { ErrorCode::Unreadable, "internal error: GPU work before the job's start",
                    m_out, {} };
            const auto b = static_cast<std::size_t>(jobBin);
            if (b >= sums.size()) {
                sums.resize(b + 1, KindBusy {});
                touched.resize(b + 1, false);
            }
            for (std::size_t c = 0; c < 4; ++c)
                sums[b][c] += busy[c];
            touched[b] = true;
        }
    }
    if (!r)
        return r.error();
    if (auto error = flushStream())
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
    if (auto error = deriveArrivalWaits())
        return error;
    if (auto error = binUtilisation(width, origin))
        return error;
    // The meta rows, "complete" among them, are the last thing written.
    if (auto error = writeMeta(width, origin))
        return error;
    finalizeStatements();
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
