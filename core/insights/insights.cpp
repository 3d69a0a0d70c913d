#include "core/insights/insights.h"

#include "core/analysis/frame/frame_window.h"
#include "core/insights/rules_memory.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <set>

namespace ks::core {

namespace {

    // One rank of `frames` as a frame set of its own: the rank rules' critical
    // path and analyses then see that rank alone, as a summary's writer does.
    FrameSet singleRank(const FrameSet& frames, std::size_t rankPos)
    {
        FrameSet one = framesWithoutRanks(frames);
        one.ranks.push_back(frames.ranks[rankPos]);
        return one;
    }

    void runRule(const Rule& rule, InsightsContext& context, const InsightsOptions& options,
        std::vector<Finding>& findings, std::vector<RuleNotApplicable>& notApplicable)
    {
        RuleOutcome outcome = rule.run(context, RuleParams(rule.info, options.settings));
        if (outcome.notApplicable) {
            notApplicable.push_back({ std::string(rule.info.id), *outcome.notApplicable });
            return;
        }
        for (Finding& f : outcome.findings)
            findings.push_back(std::move(f));
    }

    // The rank rules on a context that holds one rank.
    RankInsights rankRulesOn(InsightsContext& context, const InsightsOptions& options)
    {
        context.roofline = options.roofline;
        context.device = options.device;
        RankInsights out;
        out.rank = context.frames().ranks.front().rank;
        for (const Rule& rule : insightRules())
            if (rule.scope == RuleScope::Rank && ruleSelected(options.rules, rule.info.id))
                runRule(rule, context, options, out.findings, out.notApplicable);
        out.measuredNs = context.measured();
        return out;
    }

    // The rank rules that read memoryOfRank.
    constexpr std::array<std::string_view, 4> kMemoryReaders { "memory_pressure", "memory_growth",
        "allocator_cache_overhead", "out_of_memory" };

    std::string twoDecimals(double v)
    {
        char text[32];
        std::snprintf(text, sizeof text, "%.2f", v);
        return text;
    }

    std::vector<std::int64_t> sortedUnique(std::vector<std::int64_t> v)
    {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
        return v;
    }

} // namespace

bool ruleSelected(const std::vector<std::string>& selected, std::string_view id)
{
    return selected.empty() || std::find(selected.begin(), selected.end(), id) != selected.end();
}

Result<std::vector<std::string>> parseRuleIds(std::string_view text)
{
    std::vector<std::string> ids;
    const std::vector<RuleInfo> infos = insightRuleInfos();
    for (std::size_t pos = 0; pos <= text.size();) {
        const std::size_t comma = std::min(text.find(',', pos), text.size());
        const std::string id(text.substr(pos, comma - pos));
        pos = comma + 1;
        if (id.empty())
            continue;
        if (std::none_of(infos.begin(), infos.end(), [&](const RuleInfo& r) { return r.id == id; }))
            return Error { ErrorCode::InvalidArgument, "no rule '" + id + "'", {}, {} };
        ids.push_back(id);
    }
    return ids;
}

void prepareRankAnalyses(const FrameSet& frames, const AnalysisOptions& analysis, InsightsOptions& options)
{
    if (frames.ranks.size() != 1)
        return;
    if (!options.roofline && !options.rooflines && ruleSelected(options.rules, "low_efficiency"))
        options.rooflines = std::make_shared<const FamilyRooflines>(
            rooflineOfFrames(frames, analysis.iterations, options.device));
    const bool memoryRules = std::any_of(kMemoryReaders.begin(), kMemoryReaders.end(),
        [&](std::string_view id) { return ruleSelected(options.rules, id); });
    if (!options.memory && memoryRules)
        options.memory = insightsMemoryOf(frames.ranks.front(), analysis);
}

RankInsights rankInsights(const FrameSet& frames, std::size_t rankPos, const AnalysisOptions& analysis,
    const InsightsOptions& options)
{
    return rankInsights(frames, rankPos, analysis, options, nullptr);
}

RankInsights rankInsights(const FrameSet& frames, std::size_t rankPos, const AnalysisOptions& analysis,
    const InsightsOptions& options, std::shared_ptr<const KeptJobPath> jobPath)
{
    if (frames.ranks.size() == 1) { // the rank alone already: no copy of its rows
        InsightsContext context(frames, analysis);
        context.rooflines = options.rooflines; // a one-rank job's analyses, where given
        context.memory = options.memory;
        return rankRulesOn(context, options);
    }
    const FrameSet one = singleRank(frames, rankPos);
    InsightsContext context(one, analysis);
    if (jobPath)
        context.deriveFrom(std::move(jobPath), rankPos);
    return rankRulesOn(context, options);
}

namespace {

    // The findings of one rule and subject on every rank that has one, as one finding.
    Finding mergedFinding(const std::vector<const Finding*>& found,
        const std::vector<std::int64_t>& foundRanks, std::size_t rankCount)
    {
        const Finding* best =
            *std::max_element(found.begin(), found.end(), [](const Finding* a, const Finding* b) {
                return a->gainPct < b->gainPct || (a->gainPct == b->gainPct && a->severity < b->severity);
            });
        Finding merged = *best;
        merged.ranks = sortedUnique(foundRanks);
        std::vector<std::int64_t> iterations;
        Severity severity = Severity::Info;
        double lowest = best->gainPct;
        // The best rank's places first, then the others'.
        merged.where = best->where;
        for (const Finding* f : found) {
            severity = std::max(severity, f->severity);
            lowest = std::min(lowest, f->gainPct);
            iterations.insert(iterations.end(), f->iterations.begin(), f->iterations.end());
            if (f != best && merged.where.size() < kMaxWhereRanks)
                merged.where.insert(merged.where.end(), f->where.begin(), f->where.end());
        }
        merged.severity = severity;
        merged.iterations = sortedUnique(iterations);
        if (merged.ranks.size() > 1) {
            merged.evidence.insert(merged.evidence.begin(),
                "on " + std::to_string(merged.ranks.size()) + " of " + std::to_string(rankCount)
                    + " ranks; the numbers below are rank " + std::to_string(best->ranks.front())
                    + "'s (gain " + twoDecimals(lowest) + " to " + twoDecimals(best->gainPct)
                    + " % over the ranks)");
        }
        return merged;
    }

} // namespace

void mergeRankInsights(
    const std::vector<RankInsights>& ranks, const std::vector<std::string>& selected, InsightsReport& report)
{
    for (const Rule& rule : insightRules()) {
        if (rule.scope != RuleScope::Rank || !ruleSelected(selected, rule.info.id))
            continue;
        // Per subject (most rules have one, ""), the findings and the ranks they are on.
        std::map<std::string, std::pair<std::vector<const Finding*>, std::vector<std::int64_t>>> bySubject;
        const RuleNotApplicable* firstReason = nullptr;
        std::size_t notApplicable = 0;
        for (const RankInsights& r : ranks) {
            for (const Finding& f : r.findings)
                if (f.rule == rule.info.id) {
                    auto& [found, foundRanks] = bySubject[f.subject];
                    found.push_back(&f);
                    foundRanks.push_back(r.rank);
                }
            for (const RuleNotApplicable& na : r.notApplicable)
                if (na.rule == rule.info.id) {
                    ++notApplicable;
                    if (!firstReason)
                        firstReason = &na;
                }
        }
        if (bySubject.empty()) {
            if (notApplicable == ranks.size() && firstReason)
                report.notApplicable.push_back({ firstReason->rule,
                    ranks.size() == 1 ? firstReason->reason : "on every rank: " + firstReason->reason });
            continue;
        }
        for (const auto& [subject, found] : bySubject)
            report.findings.push_back(mergedFinding(found.first, found.second, ranks.size()));
    }
}

InsightsReport runInsights(const FrameSet& frames, const AnalysisOptions& analysis,
    const InsightsOptions& options, const ParallelFor& parallelFor)
{
    InsightsReport report;
    const bool anyRankRule = std::any_of(insightRules().begin(), insightRules().end(),
        [&](const Rule& r) { return r.scope == RuleScope::Rank && ruleSelected(options.rules, r.info.id); });
    InsightsContext job(frames, analysis, parallelFor, options.jobPath);
    job.roofline = options.roofline;
    job.device = options.device;
    std::vector<RankInsights> perRank(anyRankRule ? frames.ranks.size() : 0);
    if (perRank.size() == 1) { // one rank: its context is the job's (one path, no copy of the rows)
        job.rooflines = options.rooflines;
        job.memory = options.memory;
        perRank[0] = rankRulesOn(job, options);
    } else {
        // Each rank's path alone comes from the job's graph of it where the job's path
        // is at hand (given, or needed by a job rule): its event graph is built once.
        const bool anyJobRule = std::any_of(insightRules().begin(), insightRules().end(), [&](const Rule& r) {
            return r.scope == RuleScope::Job && ruleSelected(options.rules, r.info.id);
        });
        std::shared_ptr<const KeptJobPath> jobPath;
        if (!perRank.empty() && (options.jobPath || anyJobRule))
            jobPath = job.keptPath();
        parallelFor(perRank.size(),
            [&](std::size_t p) { perRank[p] = rankInsights(frames, p, analysis, options, jobPath); });
    }
    mergeRankInsights(perRank, options.rules, report);

    for (const Rule& rule : insightRules())
        if (rule.scope == RuleScope::Job && ruleSelected(options.rules, rule.info.id))
            runRule(rule, job, options, report.findings, report.notApplicable);
    // Job rules' gains are shares of the job path's measured time; rank rules'
    // of their rank's own, which for one rank is the same.
    report.measuredNs =
        frames.ranks.size() > 1 ? job.measured() : (perRank.empty() ? job.measured() : perRank[0].measuredNs);
    report.measuredWhat = job.measuredWhat();
    if (job.hasPath()) {
        report.notes = job.path().value().notes;
        report.exposedCommPct = job.pctOfMeasured(job.pathTimeOf([](const PathSegment& s) {
            return s.piece.bound == PathBound::Transfer || s.piece.bound == PathBound::GpuCommWait;
        }));
    }
    orderReport(report);
    if (report.findings.size() >= 2 && job.hasPath())
        report.firstTwoGainPct = combinedGainPct(job, report.findings[0], report.findings[1]);
    return report;
}

namespace {

    bool hasRanges(const Finding& f)
    {
        return std::any_of(
            f.where.begin(), f.where.end(), [](const RankWhere& w) { return !w.ranges.empty(); });
    }

    // A where list at its cap may leave out places the gain counts.
    bool whereCapped(const Finding& f)
    {
        return std::any_of(f.where.begin(), f.where.end(),
            [](const RankWhere& w) { return w.ranges.size() >= kMaxWherePerRank; });
    }

    // The time in both merged, sorted interval lists.
    std::vector<Interval> intersection(const std::vector<Interval>& a, const std::vector<Interval>& b)
    {
        std::vector<Interval> out;
        for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
            const TimeNs from = std::max(a[i].start, b[j].start);
            const TimeNs to = std::min(a[i].end, b[j].end);
            if (to > from)
                out.push_back({ from, to });
            (a[i].end < b[j].end ? i : j) += 1;
        }
        return out;
    }

    // Path time inside every interval both gains were measured in, per rank.
    TimeNs sharedGainIntervals(InsightsContext& context, const Finding& a, const Finding& b)
    {
        TimeNs shared = 0;
        for (const RankGainIntervals& ga : a.gainIntervals)
            for (const RankGainIntervals& gb : b.gainIntervals)
                if (ga.rank == gb.rank)
                    shared += context.pathTimeWithin(
                        ga.rank, intersection(mergeIntervals(ga.intervals), mergeIntervals(gb.intervals)));
        return shared;
    }

    // Path time inside the places both findings show, per rank (frame time base).
    TimeNs sharedPlaces(InsightsContext& context, const Finding& a, const Finding& b)
    {
        TimeNs shared = 0;
        const TimeNs origin = context.frames().minTs;
        for (const RankWhere& wa : a.where)
            for (const RankWhere& wb : b.where) {
                if (wa.rank != wb.rank)
                    continue;
                std::vector<Interval> both;
                for (const TimeRange& ra : wa.ranges)
                    for (const TimeRange& rb : wb.ranges) {
                        const TimeNs from = std::max(ra.start, rb.start);
                        const TimeNs to = std::min(ra.end, rb.end);
                        if (to > from)
                            both.push_back({ from - origin, to - origin });
                    }
                shared += context.pathTimeWithin(wa.rank, std::move(both));
            }
        return shared;
    }

} // namespace

double combinedGainPct(InsightsContext& context, const Finding& a, const Finding& b)
{
    const double larger = std::max(a.gainPct, b.gainPct);
    double overlap = 0;
    if (a.hasWhatIf() && b.hasWhatIf()) {
        std::vector<std::string> rules = a.whatIf;
        rules.insert(rules.end(), b.whatIf.begin(), b.whatIf.end());
        std::vector<WhatIfRankEdits> edits = a.whatIfEdits;
        edits.insert(edits.end(), b.whatIfEdits.begin(), b.whatIfEdits.end());
        const auto wa = context.whatIfGainPct(a.whatIf, a.whatIfEdits);
        const auto wb = context.whatIfGainPct(b.whatIf, b.whatIfEdits);
        const auto both = context.whatIfGainPct(rules, edits);
        if (wa && wb && both)
            overlap = *wa + *wb - *both; // what the two what-ifs give back twice
    } else if (!a.gainIntervals.empty() && !b.gainIntervals.empty())
        overlap = context.pctOfMeasured(sharedGainIntervals(context, a, b));
    else if (hasRanges(a) && hasRanges(b) && !whereCapped(a) && !whereCapped(b))
        overlap = context.pctOfMeasured(sharedPlaces(context, a, b));
    else
        overlap = std::min(a.gainPct, b.gainPct); // where they are is unknown: assume the same time
    overlap = std::clamp(overlap, 0.0, std::min(a.gainPct, b.gainPct));
    return std::clamp(a.gainPct + b.gainPct - overlap, larger, 100.0);
}

void orderReport(InsightsReport& report)
{
    rankFindings(report.findings);
    std::vector<RuleNotApplicable> ordered; // not-applicable lines in rule order
    for (const Rule& rule : insightRules())
        for (const RuleNotApplicable& na : report.notApplicable)
            if (na.rule == rule.info.id)
                ordered.push_back(na);
    report.notApplicable = std::move(ordered);
}

} // namespace ks::core
