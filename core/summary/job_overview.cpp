#include "core/summary/job_overview.h"

#include "core/analysis/cross_rank/collective_skew.h"
#include "core/analysis/cross_rank/rank_overview.h"
#include "core/summary/rank_profile.h"
#include "core/summary/summary_schema.h"

#include <algorithm>
#include <limits>
#include <map>

namespace ks::core {

namespace {

    Error damaged(const std::string& path, const Error& why)
    {
        return Error { ErrorCode::WrongType, "damaged summary: " + why.message, path, {} };
    }

    std::optional<Error> readRanks(SqliteDb& db, std::vector<JobRank>& ranks)
    {
        auto select = db.prepare("SELECT rank, file_index, file, status, error, size_bytes, events, start_ns,"
                                 " end_ns FROM ranks ORDER BY rank, file_index");
        if (!select)
            return select.error();
        SqliteStatement& s = select.value();
        auto r = s.step();
        for (; r && r.value(); r = s.step())
            ranks.push_back({ s.columnInt(0), s.columnInt(1), s.columnText(2), s.columnText(3),
                s.columnText(4), s.columnInt(5), s.columnInt(6), s.columnInt(7), s.columnInt(8) });
        return r ? std::nullopt : std::optional<Error>(r.error());
    }

    // Adds one bin's ns to a rank's row of shares.
    void addBin(JobProfiles& profiles, std::size_t row, std::int64_t bin, const KindBusy& busy)
    {
        if (bin < 0 || static_cast<std::size_t>(bin) >= profiles.bins)
            return;
        KindShares& cell = profiles.shares[row * profiles.bins + static_cast<std::size_t>(bin)];
        const auto width = static_cast<float>(profiles.binWidthNs);
        for (std::size_t k = 0; k < busy.size(); ++k)
            cell[k] += static_cast<float>(busy[k]) / width;
    }

    std::optional<Error> readProfileBlobs(
        SqliteDb& db, JobProfiles& profiles, const std::map<std::int64_t, std::size_t>& rowOfRank)
    {
        auto select =
            db.prepare("SELECT rank, streams, first_bin, profile FROM " + std::string(kRankProfilesTable));
        if (!select)
            return select.error();
        SqliteStatement& s = select.value();
        std::vector<KindBusy> bins;
        auto r = s.step();
        for (; r && r.value(); r = s.step()) {
            const auto row = rowOfRank.find(s.columnInt(0));
            if (row == rowOfRank.end())
                continue;
            if (!decodeProfileBins(s.columnBlob(3), bins))
                return Error { ErrorCode::WrongType, "a rank_profiles blob is not a whole number of bins",
                    db.path(), {} };
            profiles.streams[row->second] = s.columnInt(1);
            const std::int64_t first = s.columnInt(2);
            for (std::size_t b = 0; b < bins.size(); ++b)
                addBin(profiles, row->second, first + static_cast<std::int64_t>(b), bins[b]);
        }
        return r ? std::nullopt : std::optional<Error>(r.error());
    }

    // Summaries written before rank_profiles existed: the same sums, row by row.
    std::optional<Error> sumStreamUtilisation(
        SqliteDb& db, JobProfiles& profiles, const std::map<std::int64_t, std::size_t>& rowOfRank)
    {
        auto select = db.prepare("SELECT rank, stream, bin, computation_ns, communication_ns, memory_ns,"
                                 " other_ns FROM stream_utilisation ORDER BY rank, stream");
        if (!select)
            return select.error();
        SqliteStatement& s = select.value();
        std::pair<std::int64_t, std::int64_t> last { -1, -1 };
        auto r = s.step();
        for (; r && r.value(); r = s.step()) {
            const auto row = rowOfRank.find(s.columnInt(0));
            if (row == rowOfRank.end())
                continue;
            const std::pair<std::int64_t, std::int64_t> stream { s.columnInt(0), s.columnInt(1) };
            if (stream != last)
                ++profiles.streams[row->second];
            last = stream;
            addBin(profiles, row->second, s.columnInt(2),
                { s.columnInt(3), s.columnInt(4), s.columnInt(5), s.columnInt(6) });
        }
        return r ? std::nullopt : std::optional<Error>(r.error());
    }

    std::optional<Error> readRankOverview(SqliteDb& db, Table& t)
    {
        // The columns rankOverview() gives its table, so its charts draw either;
        // the SELECT below reads them in the same order.
        t.name = "rank_overview";
        for (const ColumnId& c : rank_overview::kColumns)
            t.columns.push_back(c.column());
        // dataloader_pct and tensor_core_pct came later within version 3: an older file
        // lacks them, and its rows leave them empty.
        const std::string columns = "SELECT rank, iteration, step_time_us, idle_pct, compute_pct, "
                                    "non_compute_pct, overlap_pct, gpu_busy_us, straggler";
        const std::string from = " FROM rank_iterations ORDER BY iteration, rank";
        std::size_t stored = t.columns.size();
        auto select = db.prepare(columns + ", dataloader_pct, tensor_core_pct" + from);
        if (!select) {
            stored = 9;
            select = db.prepare(columns + from);
        }
        if (!select)
            return select.error();
        SqliteStatement& s = select.value();
        std::vector<Cell> row(t.columns.size());
        auto r = s.step();
        for (; r && r.value(); r = s.step()) {
            for (std::size_t c = 0; c < stored; ++c)
                row[c] = s.column(static_cast<int>(c));
            t.addRow(row);
        }
        return r ? std::nullopt : std::optional<Error>(r.error());
    }

} // namespace

Result<JobOverview> readJobOverview(const std::string& path, std::size_t skewTop)
{
    JobOverview job;
    job.path = path;
    auto opened = openSummary(path, job.meta);
    if (!opened)
        return opened.error();
    SqliteDb& db = opened.value();
    if (auto error = readRanks(db, job.ranks))
        return damaged(path, *error);

    JobProfiles& profiles = job.profiles;
    profiles.binWidthNs = job.meta.binWidthNs;
    profiles.binOriginNs = job.meta.binOriginNs;
    std::int64_t end = profiles.binOriginNs;
    std::map<std::int64_t, std::size_t> rowOfRank;
    for (std::size_t i = 0; i < job.ranks.size(); ++i) {
        if (!job.ranks[i].ok())
            continue;
        end = std::max(end, job.ranks[i].endNs);
        rowOfRank.emplace(job.ranks[i].rank, i); // a rank given twice: its first file
    }
    profiles.bins = static_cast<std::size_t>((end - profiles.binOriginNs) / profiles.binWidthNs + 1);
    profiles.bins = std::min(profiles.bins, static_cast<std::size_t>(std::max(job.meta.bins, 1)) + 1);
    profiles.streams.assign(job.ranks.size(), 0);
    profiles.shares.assign(job.ranks.size() * profiles.bins, KindShares {});
    auto error = db.hasTable(kRankProfilesTable) ? readProfileBlobs(db, profiles, rowOfRank)
                                                 : sumStreamUtilisation(db, profiles, rowOfRank);
    if (error)
        return damaged(path, *error);
    if (auto overview = readRankOverview(db, job.rankOverview))
        return damaged(path, *overview);
    auto collectives = readSummaryCollectives(db);
    if (!collectives)
        return damaged(path, collectives.error());
    job.collectives = std::move(collectives).value();
    auto memory = readSummaryMemory(db);
    if (!memory)
        return memory.error();
    job.memory = std::move(memory).value();
    // First arrivals from the job's first event, as collectiveSkew counts them on a folder.
    std::int64_t start = std::numeric_limits<std::int64_t>::max();
    for (const JobRank& r : job.ranks)
        if (r.ok())
            start = std::min(start, r.startNs);
    CollectiveSkewOptions skewOptions;
    skewOptions.top = skewTop;
    job.collectiveSkew =
        collectiveSkewOf(job.collectives.match, job.collectives.rankNumbers, start, skewOptions);
    job.arrivals = summarizeArrivals(job.collectives.match, job.collectives.rankNumbers);
    return job;
}

std::vector<std::size_t> computeOutlierRows(const JobProfiles& profiles, double factor)
{
    const std::size_t rows = profiles.bins > 0 ? profiles.shares.size() / profiles.bins : 0;
    std::vector<double> compute(rows, 0.0);
    for (std::size_t r = 0; r < rows; ++r)
        for (const KindShares& bin : profiles.row(r))
            compute[r] += bin[0]; // kind 0: computation
    std::vector<std::size_t> outliers;
    if (rows < 3) // no median to stand out from
        return outliers;
    std::vector<double> sorted = compute;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(rows / 2), sorted.end());
    const double median = sorted[rows / 2];
    for (std::size_t r = 0; r < rows; ++r)
        if (median > 0 && compute[r] > factor * median)
            outliers.push_back(r);
    return outliers;
}

} // namespace ks::core
