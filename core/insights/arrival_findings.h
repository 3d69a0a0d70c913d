#pragma once

// The job rules a job summary answers without the events: `straggler` and
// `collective_skew` from the collectives' arrivals (matched as on a folder,
// arrival_stragglers.h). On a folder the same rules read the job's critical
// path; from a summary their gains are arrival times, which the gain basis says.

#include "core/analysis/cross_rank/arrival_stragglers.h"
#include "core/insights/finding.h"
#include "core/insights/insights.h"

#include <cstdint>
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
ArrivalFindings arrivalFindings(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers,
    TimeNs measuredNs, const InsightsOptions& options);

} // namespace ks::core
