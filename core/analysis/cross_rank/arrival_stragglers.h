#pragma once

// Who arrives last at the job's collectives and who waits for it, from the
// matched instances alone (no event graph): TraceLens's straggler summary
// (times_arrived_last, total_wait_time). Every member of an instance waits from
// its own arrival to the last member's; the member that arrived last waits
// nothing and caused the others' waits. A job summary answers it as a folder
// does: both match with matchCollectives (rank_collectives.h).

#include "core/analysis/cross_rank/collective_match.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"
#include "core/model/trace_set.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ks::core {

namespace arrival_stragglers {
    inline constexpr ColumnId kRank { "rank", "" };
    inline constexpr ColumnId kCollectives { "collectives", "" }; // instances it took part in (2+ members)
    inline constexpr ColumnId kTimesLast { "times_arrived_last", "" };
    inline constexpr ColumnId kTimesFirst { "times_arrived_first", "" };
    inline constexpr ColumnId kPctLast { "pct_arrived_last", "%" };
    inline constexpr ColumnId kTotalWait { "total_wait_time_us", "us" }; // it waited
    inline constexpr ColumnId kMeanWait { "mean_wait_time_us", "us" };
    inline constexpr ColumnId kWaitCaused { "wait_caused_us", "us" }; // others waited for it
    inline constexpr ColumnId kLastBy { "last_by_us", "us" }; // its lead over the next latest
    inline constexpr ColumnId kWaitedBy { "waited_by", "" }; // "3 (1.2 ms), 5 (0.8 ms)": who waited most
} // namespace arrival_stragglers

// One rank's arrivals over every instance it took part in.
struct RankArrivalStats
{
    std::int64_t rank = 0;
    std::size_t collectives = 0;
    std::size_t timesLast = 0;
    std::size_t timesFirst = 0;
    TimeNs totalWait = 0; // from its arrival to the last member's, summed
    TimeNs waitCaused = 0; // the other members' waits where it arrived last
    TimeNs lastBy = 0; // where it arrived last: its arrival minus the next latest member's, summed
    // Ranks that waited for it, most first: (rank, wait); at most kWaitedByShown.
    std::vector<std::pair<std::int64_t, TimeNs>> waitedBy;
};

struct ArrivalSummary
{
    std::size_t instances = 0; // instances with two members or more
    std::vector<RankArrivalStats> ranks; // ascending total wait (the straggler first), then rank
    // Which ranks' clocks the estimate moved before comparing arrivals (clock_offsets.h);
    // empty when none moved by 10 us or more.
    std::string clockNote;
};

inline constexpr std::size_t kWaitedByShown = 3;

// Ties: the lowest rankIndex counts as last (first) among members that arrived
// at the same time, as CollectiveInstance::lastArrivingMember takes it. rankIndex i
// of the match is rank rankNumbers[i]. The match's times must be on one clock.
ArrivalSummary summarizeArrivalsOnOneClock(
    const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers);

// The ranks' clocks estimated from the collectives' common ends and the match
// moved onto them (clock_offsets.h), then the above: recorded clocks that start
// at each rank's own profiler start would otherwise name the rank whose clock
// runs behind as the one that arrives last.
ArrivalSummary summarizeArrivals(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers);

// Over a folder's ranks (ascending rank, as loaded): matchCollectives, then the above.
ArrivalSummary summarizeArrivals(const TraceSet& traces);

// The per-rank table of summarizeArrivals (its order); not applicable with no
// instance on two ranks.
AnalysisOutput arrivalStragglersTable(const ArrivalSummary& summary);

} // namespace ks::core
