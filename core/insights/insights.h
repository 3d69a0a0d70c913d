#pragma once

// The insights engine: runs the rules over loaded frames and ranks
// their findings by estimated gain. Rank rules run on each rank alone against
// its own critical path (so a job summary can store them per rank); job rules
// run once on every rank together.

#include "core/insights/efficiency_roofline.h"
#include "core/insights/efficiency_seam.h"
#include "core/insights/finding.h"
#include "core/insights/rule.h"
#include "core/insights/rule_settings.h"

#include <memory>
#include <string>
#include <vector>

namespace ks::core {

struct RankMemory; // core/analysis/memory/memory_report.h

struct InsightsOptions
{
    RuleSettings settings;
    std::vector<std::string> rules; // ids to run; empty: every rule
    // Per-family roofline results of the efficiency analysis, when it ran.
    std::optional<std::vector<OpFamilyRoofline>> roofline;
    RooflineDevice device; // what low_efficiency's roofline is drawn against (--device/--peaks)
    // The job's critical path over the same frames and selection (the single
    // selected iteration, else everything), computed before with its timing (a
    // session's): the job rules read it instead of computing their own. Null:
    // they compute it.
    std::shared_ptr<const KeptJobPath> jobPath;
    // A one-rank job's analyses its rank rules read besides the path, computed
    // beforehand (prepareRankAnalyses: beside the job path, on a core the path leaves
    // idle): low_efficiency's rooflines and the memory rules' analysis. Null: the
    // rules compute them. The same answers either way; a job of more ranks ignores them.
    std::shared_ptr<const FamilyRooflines> rooflines;
    std::shared_ptr<const RankMemory> memory;

    // Only the rules' choice and thresholds: what a kept report depends on besides the frames.
    bool isDefault() const
    {
        return rules.empty() && settings.empty() && !roofline && !device.name && !device.peaksFile;
    }
};

// For a one-rank job (else nothing): fills options.rooflines and options.memory for
// the rules `options` selects that read them, unless given. What runInsights then
// reads instead of computing them; a caller runs it beside the job path.
void prepareRankAnalyses(const FrameSet& frames, const AnalysisOptions& analysis, InsightsOptions& options);

// The ids in `text` ("a,b") checked against the rules; the error names an unknown id.
Result<std::vector<std::string>> parseRuleIds(std::string_view text);

// What the rank rules found on one rank: what a job summary stores.
struct RankInsights
{
    std::int64_t rank = 0;
    TimeNs measuredNs = 0;
    std::vector<Finding> findings;
    std::vector<RuleNotApplicable> notApplicable;
};

// The rank rules on one rank of `frames` (rankPos), against that rank's own critical path.
RankInsights rankInsights(const FrameSet& frames, std::size_t rankPos, const AnalysisOptions& analysis,
    const InsightsOptions& options);
// The same with that rank's path alone derived from `jobPath`, the job's path over
// `frames` kept with its graphs (InsightsContext::deriveFrom): the same answer, the
// rank's event graph not built again.
RankInsights rankInsights(const FrameSet& frames, std::size_t rankPos, const AnalysisOptions& analysis,
    const InsightsOptions& options, std::shared_ptr<const KeptJobPath> jobPath);

// Rank rules' results of many ranks as one report's findings: one finding per
// rule and subject (low_efficiency: per op family), on every rank that has it; its gain is the largest rank's
// (ranks run in step, so fixing it everywhere gives back about that), its evidence that rank's. A rule every
// rank found not applicable is not applicable with the first reason.
void mergeRankInsights(
    const std::vector<RankInsights>& ranks, const std::vector<std::string>& selected, InsightsReport& report);

// Every selected rule over the frames: rank rules per rank (through
// `parallelFor`), then job rules on the job's critical path.
InsightsReport runInsights(const FrameSet& frames, const AnalysisOptions& analysis,
    const InsightsOptions& options, const ParallelFor& parallelFor = runSequentially);

// What fixing `a` and `b` together gives back, in % of context.measured(): both
// fixes' what-ifs re-timed at once, so that the time both give back (the same
// idle time) counts once. A finding without a what-if overlaps the other by the
// path time inside both findings' places (all of the smaller gain when one
// names no time ranges). Never less than the larger gain.
double combinedGainPct(InsightsContext& context, const Finding& a, const Finding& b);

// How every report lists itself: findings ranked (rankFindings), not-applicable
// lines in rule order.
void orderReport(InsightsReport& report);

// True when `id` is selected by `selected` (empty: all).
bool ruleSelected(const std::vector<std::string>& selected, std::string_view id);

} // namespace ks::core
