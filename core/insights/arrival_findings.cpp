#include "core/insights/arrival_findings.h"

#include "core/analysis/cross_rank/clock_offsets.h"
#include "core/analysis/frame/intervals.h"
#include "core/common/median.h"
#include "core/insights/last_bucket.h"
#include "core/insights/rule_support.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace ks::core {

namespace {

    const RuleInfo* ruleInfo(std::string_view id)
    {
        for (const Rule& rule : insightRules())
            if (rule.info.id == id)
                return &rule.info;
        return nullptr;
    }

    double pctOf(TimeNs part, TimeNs whole)
    {
        return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
    }

    // Calls visit(instance, index of its last member) for each instance of two members
    // or more where `rank` arrived last, in the match's order.
    template <typename Visit>
    void forEachArrivedLast(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers,
        std::int64_t rank, Visit&& visit)
    {
        for (const CollectiveInstance& inst : match.instances) {
            if (inst.members.size() < 2)
                continue;
            const std::size_t last = inst.lastArrivingMember();
            if (rankNumbers[inst.members[last].rankIndex] == rank)
                visit(inst, last);
        }
    }

    // Where `rank` arrived last: from the next latest member's arrival to its own, on
    // that rank's recorded clock (the timeline's): `match` is on the estimated clocks.
    RankWhere lateWindows(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers,
        std::int64_t rank, const ClockOffsets& clocks)
    {
        RankWhere w;
        w.rank = rank;
        TimeNs offset = 0;
        for (const RankClockOffset& r : clocks.ranks)
            if (r.rank == rank)
                offset = r.offset;
        forEachArrivedLast(match, rankNumbers, rank, [&](const CollectiveInstance& inst, std::size_t last) {
            if (w.ranges.size() == kMaxWherePerRank)
                return;
            TimeNs next = inst.firstArrival();
            for (std::size_t m = 0; m < inst.members.size(); ++m)
                if (m != last)
                    next = std::max(next, inst.members[m].start);
            w.ranges.push_back({ next - offset, inst.members[last].start - offset });
        });
        return w;
    }

    // Where `rank` arrived last, its arrival minus the median other member's, summed.
    TimeNs leadOverMedian(
        const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers, std::int64_t rank)
    {
        TimeNs lead = 0;
        forEachArrivedLast(match, rankNumbers, rank, [&](const CollectiveInstance& inst, std::size_t last) {
            std::vector<double> others;
            for (std::size_t m = 0; m < inst.members.size(); ++m)
                if (m != last)
                    others.push_back(static_cast<double>(inst.members[m].start));
            lead += inst.members[last].start - static_cast<TimeNs>(median(others).value_or(0));
        });
        return lead;
    }

    // Where `rank` arrived last, its arrival minus the next-latest member's, summed: the
    // most that making it arrive with the others gives back (the collective then waits
    // for that member).
    TimeNs leadOverNextLatest(
        const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers, std::int64_t rank)
    {
        TimeNs lead = 0;
        forEachArrivedLast(match, rankNumbers, rank, [&](const CollectiveInstance& inst, std::size_t last) {
            TimeNs next = inst.firstArrival();
            for (std::size_t m = 0; m < inst.members.size(); ++m)
                if (m != last)
                    next = std::max(next, inst.members[m].start);
            lead += inst.members[last].start - next;
        });
        return lead;
    }

    // Where `rank` arrived last, what the folder's balanced model gives back: its way to
    // the collective (from its previous collective's end, on its own clock) made the median
    // other member's, the collective then starting when the next-latest member arrives:
    // its excess over the median member's way, at most its lead over the next latest.
    struct BalancedGain
    {
        TimeNs givenBack = 0;
        TimeNs excess = 0; // its way's excess over the median member's, summed
        std::size_t unknownWay = 0; // instances where a member's way is unknown: its median excess counts
    };

    BalancedGain balancedGain(
        const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers, std::int64_t rank)
    {
        // Each rank's collectives by start, with the latest end so far: the end of a
        // member's previous collective on its rank (any group), found by binary search.
        struct Span
        {
            TimeNs start = 0;
            TimeNs latestEnd = 0; // of this and every earlier one
        };

        std::vector<std::vector<Span>> spans(rankNumbers.size());
        for (const CollectiveInstance& inst : match.instances)
            for (const CollectiveMember& m : inst.members)
                if (m.rankIndex < spans.size())
                    spans[m.rankIndex].push_back({ m.start, m.end });
        for (auto& list : spans) {
            std::sort(
                list.begin(), list.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
            for (std::size_t k = 1; k < list.size(); ++k)
                list[k].latestEnd = std::max(list[k].latestEnd, list[k - 1].latestEnd);
        }
        const auto way = [&spans](const CollectiveMember& m) -> std::optional<TimeNs> {
            const auto& list = spans[m.rankIndex];
            const auto it = std::lower_bound(
                list.begin(), list.end(), m.start, [](const Span& s, TimeNs t) { return s.start < t; });
            // Its first collective, or one arriving while an earlier one still runs (another
            // group, or gloo's work queued behind it): where its way began is unknown.
            if (it == list.begin() || std::prev(it)->latestEnd > m.start)
                return std::nullopt;
            return m.start - std::prev(it)->latestEnd;
        };
        BalancedGain out;
        std::vector<double> excesses;
        std::vector<TimeNs> unknownWay; // leads where its or every other member's way is unknown
        forEachArrivedLast(match, rankNumbers, rank, [&](const CollectiveInstance& inst, std::size_t last) {
            TimeNs next = inst.firstArrival();
            std::vector<double> others;
            for (std::size_t m = 0; m < inst.members.size(); ++m) {
                if (m == last)
                    continue;
                next = std::max(next, inst.members[m].start);
                if (const auto w = way(inst.members[m]))
                    others.push_back(static_cast<double>(*w));
            }
            const TimeNs lead = inst.members[last].start - next;
            const auto own = way(inst.members[last]);
            if (!own || others.empty()) {
                unknownWay.push_back(lead);
                return;
            }
            const TimeNs excess = std::max<TimeNs>(0, *own - static_cast<TimeNs>(median(others).value_or(0)));
            excesses.push_back(static_cast<double>(excess));
            out.excess += excess;
            out.givenBack += std::min(lead, excess);
        });
        // Where its way is unknown (the trace's first collective, or one still running before), its typical
        // excess elsewhere: a rank late by the same work each step keeps its lead, a balanced job's noise
        // does not.
        const std::optional<double> typical = median(excesses);
        for (const TimeNs lead : unknownWay) {
            const TimeNs excess = typical ? static_cast<TimeNs>(*typical) : lead;
            out.excess += excess;
            ++out.unknownWay;
            out.givenBack += std::min(lead, excess);
        }
        return out;
    }

    // TraceLens's reading: the straggler is the rank that waits least (it arrives last,
    // so it rarely waits). Where it came last, the median other member waited its lead
    // over them: fixing it (arriving as the median member does) gives that back.
    void stragglerFindings(const CollectiveMatch& match, const ClockOffsets& clocks,
        const std::vector<std::int64_t>& rankNumbers, TimeNs measuredNs, const RuleInfo& rule,
        const InsightsOptions& options, ArrivalFindings& out)
    {
        const ArrivalSummary arrivals = summarizeArrivalsOnOneClock(match, rankNumbers);
        if (arrivals.instances == 0) {
            out.notApplicable.push_back({ std::string(rule.id), "no collective appears on two ranks" });
            return;
        }
        if (arrivals.ranks.size() < 2)
            return;
        const RankArrivalStats& s = arrivals.ranks.front();
        std::vector<double> others;
        for (std::size_t r = 1; r < arrivals.ranks.size(); ++r)
            others.push_back(static_cast<double>(arrivals.ranks[r].totalWait));
        const auto typical = static_cast<TimeNs>(median(others).value_or(0));
        const TimeNs lead = leadOverMedian(match, rankNumbers, s.rank);
        // Balanced, its way to each collective is the median member's: the fix gives back
        // its excess there, never more than its lead over the next-latest member (lastBy).
        // A balanced job's alternating leads are its noise, not a way longer than the others'.
        const BalancedGain balanced = balancedGain(match, rankNumbers, s.rank);
        const TimeNs givenBack = std::min(balanced.givenBack, measuredNs);
        const double gain = pctOf(givenBack, measuredNs);
        if (s.timesLast == 0 || s.totalWait >= typical || gain < options.settings.value(rule, "min_gain_pct"))
            return;
        Finding f = newFinding(rule,
            "rank " + std::to_string(s.rank) + " is the straggler the others wait for", gain, { s.rank });
        f.evidence.push_back("arrived last at " + std::to_string(s.timesLast) + " of "
            + std::to_string(s.collectives) + " collectives ("
            + formatPct(100.0 * static_cast<double>(s.timesLast) / static_cast<double>(s.collectives)) + "), "
            + formatMs(lead) + " after the median other member in all, " + formatMs(s.lastBy)
            + " after the next latest");
        f.evidence.push_back("model: balanced, its way to each collective it came last at (from its previous "
                             "collective's end) becomes the median member's: "
            + formatMs(balanced.excess) + " longer than theirs in all (at "
            + std::to_string(balanced.unknownWay)
            + " where its way is unknown (its first, or one still running before), its median excess "
              "elsewhere), at most its lead over the next "
              "latest member there: gain "
            + formatMs(givenBack));
        f.evidence.push_back("it waited " + formatMs(s.totalWait) + " in all, the median other rank "
            + formatMs(typical) + "; wait it caused on the other ranks: " + formatMs(s.waitCaused));
        std::string waited = "waited for it most:";
        for (const auto& [rank, wait] : s.waitedBy)
            waited += " rank " + std::to_string(rank) + " " + formatMs(wait) + ";";
        if (!s.waitedBy.empty())
            f.evidence.push_back(waited.substr(0, waited.size() - 1));
        if (const std::string note = clockOffsetsNote(clocks); !note.empty())
            f.evidence.push_back(note);
        f.where.push_back(lateWindows(match, rankNumbers, s.rank, clocks));
        f.suggestion = "Make rank " + std::to_string(s.rank)
            + "'s work match the others': balance the data (batch sizes, sequence lengths), the model "
              "partition, or the host (CPU threads, data loading) it runs on; `stragglers` on its traces "
              "names what its path spends longer in.";
        f.gainBasis =
            "from the collectives' arrivals and ends: where it came last, its way to the collective "
            "(from its previous collective's end) above the median member's, at most its lead over "
            "the next latest member (the collective still waits for that one)";
        out.findings.push_back(std::move(f));
    }

    void skewFindings(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers,
        TimeNs measuredNs, const RuleInfo& rule, const InsightsOptions& options, ArrivalFindings& out)
    {
        std::vector<Interval> windows;
        std::map<std::string, std::size_t> names;
        std::set<std::int64_t> lastRanks;
        std::size_t instances = 0;
        TimeNs worst = 0;
        for (const CollectiveInstance& inst : match.instances) {
            if (inst.members.size() < 2)
                continue;
            ++instances;
            const TimeNs first = inst.firstArrival();
            const TimeNs last = inst.lastArrival();
            const TimeNs skew = last - first;
            const TimeNs transfer = std::max<TimeNs>(0, inst.firstEnd() - last);
            const double share = skew + transfer > 0
                ? 100.0 * static_cast<double>(skew) / static_cast<double>(skew + transfer)
                : 0.0;
            if (share < options.settings.value(rule, "min_wait_share_pct"))
                continue;
            windows.push_back({ first, last });
            ++names[inst.name];
            lastRanks.insert(rankNumbers[inst.members[inst.lastArrivingMember()].rankIndex]);
            worst = std::max(worst, skew);
        }
        if (instances == 0) {
            out.notApplicable.push_back({ std::string(rule.id), "no collective appears on two ranks" });
            return;
        }
        const std::size_t dominated = windows.size();
        const TimeNs waiting = totalLength(mergeIntervals(std::move(windows)));
        const double gain = pctOf(waiting, measuredNs);
        if (dominated == 0 || gain < options.settings.value(rule, "min_gain_pct"))
            return;
        Finding f = newFinding(rule,
            std::to_string(dominated) + " collectives spend most of their time waiting for a late member",
            gain, std::vector<std::int64_t>(lastRanks.begin(), lastRanks.end()));
        f.evidence.push_back(std::to_string(dominated) + " of " + std::to_string(instances)
            + " instances with skew >= " + formatPct(options.settings.value(rule, "min_wait_share_pct"))
            + " of their time; worst skew " + formatMs(worst));
        for (const auto& [n, k] : names)
            f.evidence.push_back(std::to_string(k) + " x " + n);
        f.evidence.push_back(kSkewModel);
        f.suggestion = kSkewSuggestion;
        f.gainBasis = "from the collectives' arrivals: the time between the first and the last arrival of "
                      "those instances (their union): every member arriving with the first";
        out.findings.push_back(std::move(f));
    }

    // The stored slice of a member, where the caller gave the ranks' slices.
    const RankCollectiveSlice* memberSlice(
        const std::vector<RankCollectives>* slices, const CollectiveMember& m)
    {
        if (!slices || m.rankIndex >= slices->size())
            return nullptr;
        const std::vector<RankCollectiveSlice>& list = (*slices)[m.rankIndex].slices;
        if (m.slice < list.size() && list[m.slice].slice == m.slice)
            return &list[m.slice]; // a summary's: slice = position
        const auto it = std::find_if(
            list.begin(), list.end(), [&m](const RankCollectiveSlice& c) { return c.slice == m.slice; });
        return it == list.end() ? nullptr : &*it;
    }

    // The collectives' transfer: each instance from its last arrival to its first end (every
    // member inside), their union over the job; what overlaps compute is hidden (the
    // members' own compute beside them, as the summary stored it, and the share the
    // utilisation bins show beside GPU compute), the rest is exposed, which overlapping
    // it with compute gives back at most, less the last bucket of each iteration.
    void exposedFindings(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers,
        TimeNs measuredNs, double overlapPct, const std::vector<RankCollectives>* slices,
        const RuleInfo& rule, const InsightsOptions& options, ArrivalFindings& out)
    {
        std::vector<Interval> transfers;
        std::vector<PathCollective> weighed;
        std::map<std::string, std::pair<std::size_t, TimeNs>> byGroup;
        for (const CollectiveInstance& inst : match.instances) {
            if (inst.members.size() < 2)
                continue;
            const TimeNs from = inst.lastArrival();
            const TimeNs to = std::max(from, inst.firstEnd());
            transfers.push_back({ from, to });
            auto& [count, time] = byGroup[match.group(inst.group).label()];
            ++count;
            time += to - from;
            // The share of the instance its members' compute ran beside, the median member's:
            // where the path crosses the instance is not known here, the typical member is.
            PathCollective pc;
            pc.onPath = pc.transfer = to - from;
            std::vector<double> shares;
            for (const CollectiveMember& m : inst.members) {
                const RankCollectiveSlice* c = memberSlice(slices, m);
                if (!c || c->end <= c->start)
                    continue;
                shares.push_back(
                    static_cast<double>(c->computeBeside) / static_cast<double>(c->end - c->start));
                if (pc.iteration < 0)
                    pc.iteration = c->iteration;
            }
            pc.hidden = static_cast<TimeNs>(
                static_cast<double>(pc.onPath) * std::min(1.0, median(shares).value_or(0.0)));
            weighed.push_back(pc);
        }
        if (transfers.empty()) {
            out.notApplicable.push_back({ std::string(rule.id), "no collective appears on two ranks" });
            return;
        }
        const std::vector<Interval> merged = mergeIntervals(std::move(transfers));
        const TimeNs transfer = totalLength(merged);
        TimeNs hidden = 0;
        for (const PathCollective& pc : weighed)
            hidden += pc.hidden;
        hidden = std::min(hidden, transfer);
        const double open = 1.0 - overlapPct / 100.0;
        // The bins and the stored compute see the same GPU overlap: the larger counts.
        const auto exposed =
            std::min(transfer - hidden, static_cast<TimeNs>(static_cast<double>(transfer) * open));
        const LastBucket last = lastBucketLeft(weighed);
        const TimeNs left = std::min(exposed, last.left);
        // Overlapped, the collectives run while the rest of the step runs: they leave the
        // path (the high end) but hide behind no more than the time outside their transfer
        // windows (the low end), as the folder bounds them by the compute on its path; the
        // last bucket of each iteration, ready when the backward ends, stays.
        const double high = pctOf(
            std::min(static_cast<TimeNs>(static_cast<double>(transfer) * open), measuredNs), measuredNs);
        const TimeNs outside = measuredNs > transfer ? measuredNs - transfer : 0;
        const double gain = std::min(pctOf(exposed - left, measuredNs), pctOf(outside, measuredNs));
        if (gain < options.settings.value(rule, "min_gain_pct"))
            return;
        Finding f = newFinding(
            rule, "communication on the critical path is not hidden behind compute", gain, rankNumbers);
        f.gainHighPct = high;
        f.evidence.push_back("model: overlapped, the collectives run while the rest of the step runs; they "
                             "hide behind no more than the time outside their transfer windows ("
            + formatMs(outside) + "), less the last bucket of each iteration: gain " + formatPct(gain)
            + " to " + formatPct(high));
        f.evidence.push_back("collectives' transfer (every member inside): " + formatMs(transfer)
            + ", of which " + formatMs(hidden)
            + " ran while their members computed (hidden already); overlapped with GPU compute "
            + formatPct(overlapPct) + " (the median rank's utilisation bins)");
        if (last.bucket)
            f.evidence.push_back(
                "the last bucket stays exposed: it is ready when the backward ends; a bucket "
                "costs "
                + formatMs(*last.bucket) + " here (the median transfer of the "
                + std::to_string(last.overlapped) + " collective(s) that ran hidden), " + formatMs(left)
                + " over " + std::to_string(last.iterations) + " iteration(s)");
        for (const auto& [group, g] : byGroup)
            f.evidence.push_back("process group " + group + ": " + std::to_string(g.first)
                + " collectives, transfer " + formatMs(g.second));
        RankWhere w;
        w.rank = rankNumbers.front();
        for (const Interval& i : merged)
            if (w.ranges.size() < kMaxWherePerRank)
                w.ranges.push_back({ i.start, i.end });
        f.where.push_back(std::move(w));
        f.suggestion = "Overlap communication with compute: DDP bucketing (bucket_cap_mb), FSDP prefetch "
                       "(forward_prefetch, backward_prefetch), gradient accumulation with no_sync(), or "
                       "compress gradients; check the interconnect's bandwidth (collectives' bus_bw).";
        f.gainBasis = "from the collectives' arrivals: their transfer windows' union, less what their "
                      "members' compute ran beside and the share the utilisation bins show overlapped with "
                      "GPU compute, less the last bucket of each iteration";
        out.findings.push_back(std::move(f));
    }

} // namespace

ArrivalFindings arrivalFindings(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers,
    TimeNs measuredNs, const InsightsOptions& options, double commOverlapPct,
    const std::vector<RankCollectives>* slices)
{
    ArrivalFindings out;
    const RuleInfo* straggler = ruleInfo("straggler");
    const RuleInfo* skew = ruleInfo("collective_skew");
    const RuleInfo* exposed = ruleInfo("exposed_communication");
    if (rankNumbers.size() < 2) {
        for (const RuleInfo* rule : { exposed, straggler, skew })
            if (rule && ruleSelected(options.rules, rule->id))
                out.notApplicable.push_back({ std::string(rule->id), "needs at least two ranks" });
        return out;
    }
    // Arrivals and transfer windows compare ranks' times: on one clock, the estimated one.
    const ClockOffsets clocks = estimateClockOffsets(rankNumbers, match);
    const CollectiveMatch aligned = onEstimatedClocks(match, clocks);
    if (exposed && ruleSelected(options.rules, exposed->id))
        exposedFindings(aligned, rankNumbers, measuredNs, commOverlapPct, slices, *exposed, options, out);
    if (straggler && ruleSelected(options.rules, straggler->id))
        stragglerFindings(aligned, clocks, rankNumbers, measuredNs, *straggler, options, out);
    if (skew && ruleSelected(options.rules, skew->id))
        skewFindings(aligned, rankNumbers, measuredNs, *skew, options, out);
    return out;
}

ArrivalFindings unbalancedComputeFindings(const std::vector<std::pair<std::int64_t, TimeNs>>& compute,
    const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers, TimeNs measuredNs,
    const InsightsOptions& options)
{
    ArrivalFindings out;
    const RuleInfo* rule = ruleInfo("unbalanced_compute");
    if (!rule || !ruleSelected(options.rules, rule->id))
        return out;
    std::vector<std::pair<std::int64_t, TimeNs>> ranks;
    for (const auto& rc : compute)
        if (rc.second > 0)
            ranks.push_back(rc);
    if (ranks.size() < 2) {
        out.notApplicable.push_back(
            { std::string(rule->id), "needs GPU compute kernels on at least two ranks" });
        return out;
    }
    std::vector<double> values;
    for (const auto& rc : ranks)
        values.push_back(static_cast<double>(rc.second));
    const double typical = median(values).value_or(0);
    std::stable_sort(
        ranks.begin(), ranks.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    const auto& [rank, busiest] = ranks.front();
    const double spread = typical > 0 ? 100.0 * (static_cast<double>(busiest) - typical) / typical : 0;
    if (spread < options.settings.value(*rule, "max_spread_pct"))
        return out;
    const auto excess = static_cast<TimeNs>(static_cast<double>(busiest) - typical);
    const ClockOffsets clocks = estimateClockOffsets(rankNumbers, match);
    const CollectiveMatch aligned = onEstimatedClocks(match, clocks);
    const TimeNs waitedFor = leadOverMedian(aligned, rankNumbers, rank);
    const TimeNs aheadOfNext = leadOverNextLatest(aligned, rankNumbers, rank);
    Finding f = newFinding(*rule,
        "rank " + std::to_string(rank) + " computes " + formatPct(spread) + " longer than the median rank",
        pctOf(std::min({ excess, aheadOfNext, measuredNs }), measuredNs), { rank });
    f.evidence.push_back("GPU compute: rank " + std::to_string(rank) + " " + formatMs(busiest) + ", median "
        + formatMs(static_cast<TimeNs>(typical)) + " over " + std::to_string(ranks.size())
        + " ranks (the summary's utilisation bins)");
    std::string next = "next busiest:";
    for (std::size_t i = 1; i < std::min<std::size_t>(4, ranks.size()); ++i)
        next += (i > 1 ? "," : "") + std::string(" rank ") + std::to_string(ranks[i].first) + " "
            + formatMs(ranks[i].second);
    f.evidence.push_back(next);
    f.evidence.push_back("the others wait for it (its lead over the median member where it arrived last): "
        + formatMs(waitedFor)
        + "; its lead over the next-latest member there, what balancing it gives back at most: "
        + formatMs(aheadOfNext));
    f.where.push_back(lateWindows(aligned, rankNumbers, rank, clocks));
    f.suggestion =
        "Balance the work per rank: equal batch sizes and sequence lengths (or bucketing by "
        "length), an even split of layers or experts, the same GPU model and clocks on every rank.";
    f.gainBasis =
        "from the summary's utilisation bins: the busiest rank's compute above the median rank's, at "
        "most its lead over the next-latest member where it arrived last (the collectives then wait "
        "for that member)";
    out.findings.push_back(std::move(f));
    return out;
}

} // namespace ks::core
