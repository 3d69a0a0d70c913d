#pragma once

// A job summary's collectives as the folder's: the collective_arrivals and
// collective_groups tables read back into what matchCollectives reads of each
// rank (rank_collectives.h), matched by the same code, so `collectives`,
// `stragglers` and the job insights give the folder's answers.

#include "core/analysis/cross_rank/rank_collectives.h"
#include "core/common/result.h"
#include "core/summary/sqlite_db.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

struct SummaryCollectives
{
    std::vector<RankCollectives> ranks; // ascending rank, as a folder's TraceSet orders them
    std::vector<std::int64_t> rankNumbers; // rank of each entry of `ranks`
    CollectiveMatch match; // members' rankIndex refers to `ranks`
};

// Reads and matches the collectives of every rank of the summary, the ranks
// without collectives included (they are in `rankNumbers` as a folder lists them).
Result<SummaryCollectives> readSummaryCollectives(SqliteDb& db);

// "0,1,2" <-> {0, 1, 2} (the collective_groups.ranks column); empty for an empty list.
std::string formatRankList(const std::vector<std::int64_t>& ranks);
std::vector<std::int64_t> parseRankNumbers(std::string_view text);

} // namespace ks::core
