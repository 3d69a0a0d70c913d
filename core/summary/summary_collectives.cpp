#include "core/summary/summary_collectives.h"

#include "core/summary/summary_schema.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace ks::core {

namespace {

    CollectiveBackend backendNamed(std::string_view name)
    {
        return name == collectiveBackendName(CollectiveBackend::Gloo) ? CollectiveBackend::Gloo
                                                                      : CollectiveBackend::Gpu;
    }

    std::optional<Error> readRankNumbers(SqliteDb& db, std::map<std::int64_t, RankCollectives>& byRank)
    {
        auto select = db.prepare("SELECT DISTINCT rank FROM ranks WHERE status = 'ok' AND rank IS NOT NULL");
        if (!select)
            return select.error();
        SqliteStatement& s = select.value();
        auto r = s.step();
        for (; r && r.value(); r = s.step())
            byRank[s.columnInt(0)].rank = s.columnInt(0);
        return r ? std::nullopt : std::optional<Error>(r.error());
    }

    std::optional<Error> readArrivals(SqliteDb& db, std::map<std::int64_t, RankCollectives>& byRank)
    {
        auto select =
            db.prepare("SELECT rank, position, backend, collective, process_group, seq, group_size, "
                       "message_bytes, start_ns, end_ns, iteration, compute_beside_ns FROM "
                + std::string(kCollectiveArrivalsTable) + " ORDER BY rank, position");
        if (!select)
            return select.error();
        SqliteStatement& s = select.value();
        auto r = s.step();
        for (; r && r.value(); r = s.step()) {
            RankCollectives& rank = byRank[s.columnInt(0)];
            rank.rank = s.columnInt(0);
            RankCollectiveSlice c;
            c.slice = static_cast<std::uint32_t>(s.columnInt(1));
            c.backend = backendNamed(s.columnText(2));
            c.name = s.columnText(3);
            c.group = s.columnIsNull(4) ? std::string() : s.columnText(4);
            c.sequence = s.columnIsNull(5) ? -1 : s.columnInt(5);
            c.groupSize = s.columnIsNull(6) ? 0 : s.columnInt(6);
            c.messageBytes = s.columnIsNull(7) ? -1 : s.columnInt(7);
            c.start = s.columnInt(8);
            c.end = s.columnInt(9);
            c.iteration = s.columnIsNull(10) ? -1 : s.columnInt(10);
            c.computeBeside = s.columnIsNull(11) ? 0 : s.columnInt(11);
            rank.slices.push_back(std::move(c));
        }
        return r ? std::nullopt : std::optional<Error>(r.error());
    }

    std::optional<Error> readGroups(SqliteDb& db, std::map<std::int64_t, RankCollectives>& byRank)
    {
        auto select = db.prepare("SELECT rank, source, backend, process_group, description, size, ranks FROM "
            + std::string(kCollectiveGroupsTable) + " ORDER BY rowid");
        if (!select)
            return select.error();
        SqliteStatement& s = select.value();
        auto r = s.step();
        for (; r && r.value(); r = s.step()) {
            RankCollectives& rank = byRank[s.columnInt(0)];
            std::string description = s.columnIsNull(4) ? std::string() : s.columnText(4);
            std::vector<std::int64_t> members = parseRankNumbers(s.columnIsNull(6) ? "" : s.columnText(6));
            if (s.columnText(1) == "pg_config") {
                ProcessGroupConfig pg;
                pg.name = s.columnText(3);
                pg.description = std::move(description);
                pg.size = s.columnIsNull(5) ? 0 : s.columnInt(5);
                pg.ranks = std::move(members);
                rank.processGroups.push_back(std::move(pg));
            } else {
                rank.groups.push_back({ backendNamed(s.columnText(2)), s.columnText(3), std::move(members),
                    std::move(description) });
            }
        }
        return r ? std::nullopt : std::optional<Error>(r.error());
    }

} // namespace

Result<SummaryCollectives> readSummaryCollectives(SqliteDb& db)
{
    std::map<std::int64_t, RankCollectives> byRank;
    for (auto* read : { readRankNumbers, readArrivals, readGroups })
        if (auto error = read(db, byRank))
            return *error;
    SummaryCollectives out;
    for (auto& [rank, collectives] : byRank) {
        out.rankNumbers.push_back(rank);
        out.ranks.push_back(std::move(collectives));
    }
    out.match = matchCollectives(out.ranks);
    return out;
}

std::string formatRankList(const std::vector<std::int64_t>& ranks)
{
    std::string text;
    for (const std::int64_t r : ranks)
        text += (text.empty() ? "" : ",") + std::to_string(r);
    return text;
}

std::vector<std::int64_t> parseRankNumbers(std::string_view text)
{
    std::vector<std::int64_t> ranks;
    while (!text.empty()) {
        const std::size_t comma = std::min(text.find(','), text.size());
        std::int64_t value = 0;
        const std::string_view item = text.substr(0, comma);
        if (std::from_chars(item.data(), item.data() + item.size(), value).ec == std::errc {})
            ranks.push_back(value);
        text.remove_prefix(std::min(comma + 1, text.size()));
    }
    return ranks;
}

} // namespace ks::core
