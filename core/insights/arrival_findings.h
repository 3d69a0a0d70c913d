#pragma once

// The job rules a job summary answers without the events: `straggler`,
// `collective_skew` and `exposed_communication` from the collectives' arrivals (matched as on a folder,
// arrival_stragglers.h). On a folder the same rules read the job's critical
// path; from a summary their gains are arrival times, which the gain basis says.

#include "core/analysis/cross_rank/arrival_stragglers.h"
#include "core/analysis/cross_rank/rank_collectives.h"
#include "core/insights/finding.h"
#include "core/insights/insights.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ks::core {

struct ArrivalFindings
{
    std::vector<Finding> findings;
    std::vector<RuleNotApplicable> notApplicable;
};

// `straggler`: TraceLens's straggler, the rank that waits least at the collectives
// (it arrives last), when it arrived last at some and waits less than the median
// other rank; gain = where it came last, its lead over the median other member
// summed (what they stop waiting once it arrives as the median rank does). `collective_skew`: the instances
// whose skew / (skew + transfer) reaches min_wait_share_pct, gain = the union of their skew windows. Gains
// are shares of `measuredNs`. Only the rules `options.rules` selects.
// `exposed_communication`: the union of the instances' transfer windows (last
// arrival to first end), less `commOverlapPct` of it (the share of communication
// that overlaps compute, where the caller knows it): the high end; the gain (the low
// end) is that less what the members' own compute ran beside (`slices`: the ranks the
// match was made from, their computeBeside and iteration, where stored) and less the
// last bucket of each iteration (last_bucket.h), at most the time outside the transfer
// windows. Gains are shares of `measuredNs`.
ArrivalFindings arrivalFindings(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers,
    TimeNs measuredNs, const InsightsOptions& options, double commOverlapPct = 0,
    const std::vector<RankCollectives>* slices = nullptr);

// `unbalanced_compute` over each rank's GPU compute time (a summary's utilisation
// profiles: rank, ns): the busiest rank against the median; gain its excess, at
// most its lead over the next-latest member where it arrived last at the
// collectives (balanced, it arrives with the others and each collective waits for
// that member; the folder re-times its path). Not applicable with fewer than two
// ranks with compute.
ArrivalFindings unbalancedComputeFindings(const std::vector<std::pair<std::int64_t, TimeNs>>& compute,
    const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers, TimeNs measuredNs,
    const InsightsOptions& options);

} // namespace ks::core
