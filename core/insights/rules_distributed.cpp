// Rules that compare ranks: exposed_communication, straggler, collective_skew,
// unbalanced_compute. They read the job's critical path across ranks and the
// collectives matched across ranks, so they need every rank at once.

#include "core/analysis/cross_rank/collective_skew.h"
#include "core/analysis/cross_rank/collective_slices.h"
#include "core/analysis/hta/comm_comp_overlap.h"
#include "core/common/median.h"
#include "core/insights/arrive_with_first.h"
#include "core/insights/balance_straggler.h"
#include "core/insights/last_bucket.h"
#include "core/insights/rank_compute.h"
#include "core/insights/rule_support.h"

#include <algorithm>
#include <map>
#include <unordered_set>

namespace ks::core {

namespace {

    std::optional<std::string> needsJob(InsightsContext& c)
    {
        if (c.frames().ranks.size() < 2)
            return std::string("needs at least two ranks");
        if (!c.hasPath())
            return "no critical path across ranks: " + c.path().error().message;
        return std::nullopt;
    }

    TraceSet traceSetOf(const FrameSet& frames)
    {
        TraceSet set;
        for (const RankFrame& f : frames.ranks)
            set.ranks.push_back(f.trace);
        return set;
    }

    // ---- exposed_communication -----------------------------------------------

    const RuleInfo kExposed { "exposed_communication", "communication not overlapped with compute",
        { { "min_gain_pct", 1.0, "report when hiding communication gives back at least this %" } },
        "overlap" };

    bool isCommSegment(const PathSegment& s)
    {
        return s.piece.bound == PathBound::Transfer || s.piece.bound == PathBound::GpuCommWait;
    }

    // The path's communication per collective and rank: its path time, the part its
    // rank computed beside, its instance's transfer and iteration. Communication the
    // join did not see as a collective (a comm kernel inside a rank's own edge) keeps
    // its path time as its transfer and its row's iteration.
    std::vector<PathCollective> pathCollectives(
        InsightsContext& c, const std::map<std::int64_t, std::vector<Interval>>& computeOf)
    {
        const JobCriticalPath& job = c.path().value();
        std::map<std::pair<std::int64_t, std::int64_t>, const RankCollective*> joined;
        for (const CondensedRank& r : job.ranks)
            for (const RankCollective& rc : r.collectives)
                joined[{ r.rank, rc.eventIndex }] = &rc;
        std::map<std::pair<std::int64_t, std::int64_t>, PathCollective> byEvent;
        for (const PathSegment& s : job.path.segments) {
            if (!isCommSegment(s))
                continue;
            PathCollective& pc = byEvent[{ s.rank, s.piece.eventIndex }];
            pc.onPath += s.piece.duration;
            const auto compute = computeOf.find(s.rank);
            if (compute != computeOf.end())
                pc.hidden += coveredWithin(compute->second, s.piece.start, s.piece.start + s.piece.duration);
        }
        std::map<std::int64_t, std::map<std::int64_t, std::int64_t>>
            rowIteration; // rank -> event -> iteration
        for (auto& [key, pc] : byEvent) {
            const auto it = joined.find(key);
            if (it != joined.end()) {
                pc.iteration = it->second->iteration;
                const std::uint32_t instance = it->second->instance;
                pc.transfer = instance < job.path.collectives.size() ? job.path.collectives[instance].transfer
                                                                     : pc.onPath;
            } else {
                pc.transfer = pc.onPath;
                rowIteration[key.first][key.second] = -1;
            }
        }
        for (const RankFrame& frame : c.frames().ranks) {
            auto wanted = rowIteration.find(frame.rank);
            if (wanted == rowIteration.end())
                continue;
            for (const FrameRow& row : frame.rows) {
                auto it = wanted->second.find(row.eventIndex);
                if (it != wanted->second.end())
                    it->second = row.iteration;
            }
            for (const auto& [event, iteration] : wanted->second)
                byEvent[{ frame.rank, event }].iteration = iteration;
        }
        std::vector<PathCollective> out;
        out.reserve(byEvent.size());
        for (const auto& [key, pc] : byEvent)
            out.push_back(pc);
        return out;
    }

    RuleOutcome exposedCommunication(InsightsContext& c, const RuleParams& p)
    {
        if (auto why = needsJob(c))
            return RuleOutcome::na(*why);
        // Overlapped, a collective runs while compute runs: the path loses its exposed
        // communication but no more than the compute it could hide behind, the compute on
        // the path. Exposed is what ran while its rank computed nothing: a collective the
        // path counts while the rank's own compute ran beside it (gloo's worker thread
        // reducing DDP's first bucket under the main thread's backward, which the serial
        // model of a CPU-only rank still puts on the path; a comm kernel beside compute
        // kernels) is hidden already, and overlapping gives nothing back for it. The
        // what-if that removes all the path's communication is the high end.
        const std::vector<std::string> whatIf { "kind:transfer=0", "kind:gpu_comm_wait=0" };
        const double removed = c.whatIfGainPct(whatIf).value_or(0);
        const double compute = c.pctOfMeasured(c.pathTimeOf([](const PathSegment& s) {
            return s.piece.bound == PathBound::GpuCompute || s.piece.bound == PathBound::Cpu;
        }));
        std::map<std::int64_t, std::vector<Interval>> computeOf;
        for (const RankFrame& frame : c.frames().ranks)
            computeOf[frame.rank] = rankCompute(frame);
        const std::vector<PathCollective> collectives = pathCollectives(c, computeOf);
        TimeNs comm = 0;
        TimeNs hidden = 0;
        for (const PathCollective& pc : collectives) {
            comm += pc.onPath;
            hidden += pc.hidden;
        }
        // The fix leaves the last bucket of each iteration exposed: it is ready when
        // the backward ends, and no compute follows it to hide behind.
        const LastBucket last = lastBucketLeft(collectives);
        const double exposed = c.pctOfMeasured(comm - hidden);
        const double gain = std::min({ c.pctOfMeasured(comm - hidden - last.left), compute, removed });
        const double high = removed;
        if (gain < p["min_gain_pct"])
            return RuleOutcome::none();
        const auto isComm = isCommSegment;
        std::vector<std::int64_t> ranks;
        Finding f =
            newFinding(kExposed, "communication on the critical path is not hidden behind compute", gain, {});
        f.gainHighPct = high;
        f.evidence.push_back("collectives on the critical path: " + formatMs(comm) + " ("
            + formatPct(c.pctOfMeasured(comm)) + " of " + c.measuredWhat() + "), of which " + formatMs(hidden)
            + " ran while their rank computed (hidden already)");
        f.evidence.push_back("model: overlapped, the collectives run while compute runs; the path loses "
                             "their exposed time, the part no compute of their rank ran beside ("
            + formatPct(exposed)
            + "), less the last bucket of each iteration, but no more than the compute on the path ("
            + formatPct(compute) + "): gain " + formatPct(gain)
            + "; removing all their path time (re-timed) gives " + formatPct(removed) + " (high end)");
        if (last.bucket)
            f.evidence.push_back(
                "the last bucket stays exposed: it is ready when the backward ends; a bucket "
                "costs "
                + formatMs(*last.bucket) + " here (the median transfer of the "
                + std::to_string(last.overlapped) + " collective(s) that ran hidden), " + formatMs(last.left)
                + " over " + std::to_string(last.iterations) + " iteration(s)");
        else
            f.evidence.push_back("no collective ran hidden to measure a bucket's cost: the last bucket, "
                                 "which stays exposed after the fix, is not subtracted");
        // Per process group: the instances and their transfer (X2's table, every instance).
        const TraceSet set = traceSetOf(c.frames());
        CollectiveSkewOptions skewOptions;
        skewOptions.top = std::numeric_limits<std::size_t>::max();
        const AnalysisOutput skew = collectiveSkew(set, skewOptions);
        if (skew.ok) {
            const Table& t = skew.result.frame;
            const auto group = t.find(collective_skew_columns::kGroup);
            const auto transfer = t.find(collective_skew_columns::kTransfer);
            std::map<std::string, std::pair<std::size_t, double>> byGroup;
            if (group && transfer)
                for (const auto& row : t.rows) {
                    auto& g = byGroup[cellAsText(row[*group])];
                    ++g.first;
                    g.second += cellAsDouble(row[*transfer]).value_or(0);
                }
            for (const auto& [name, g] : byGroup)
                f.evidence.push_back("process group " + (name.empty() ? std::string("(unnamed)") : name)
                    + ": " + std::to_string(g.first) + " collectives, transfer "
                    + formatMs(static_cast<TimeNs>(g.second * 1000)));
        }
        const AnalysisOutput overlap = commCompOverlap(c.frames(), c.options());
        if (overlap.ok) {
            const Table& t = overlap.result.frame;
            const auto rank = t.find(comm_comp_overlap::kRank);
            const auto pct = t.find(comm_comp_overlap::kOverlapPctg);
            if (rank && pct)
                for (const auto& row : t.rows)
                    f.evidence.push_back("rank " + cellAsText(row[*rank])
                        + ": communication overlapped with compute "
                        + formatPct(cellAsDouble(row[*pct]).value_or(0)));
        }
        for (const RankFrame& frame : c.frames().ranks) {
            RankWhere w = pathWhere(c, frame.rank, isComm);
            if (!w.ranges.empty()) {
                ranks.push_back(frame.rank);
                f.where.push_back(std::move(w));
            }
        }
        f.ranks = ranks;
        f.suggestion =
            "Overlap communication with compute: DDP bucketing (bucket_cap_mb), FSDP prefetch "
            "(forward_prefetch, backward_prefetch), gradient accumulation with no_sync(), or compress "
            "gradients; check the interconnect's bandwidth (collectives' bus_bw).";
        f.gainBasis = "collectives' time on the critical path while their rank computed nothing, bounded by "
                      "the compute on the path; what-if (high end): their transfer and unmatched "
                      "communication removed";
        f.whatIf = whatIf;
        return { { f }, std::nullopt };
    }

    // ---- straggler -----------------------------------------------------------

    const RuleInfo kStraggler { "straggler", "the rank the others wait for",
        { { "min_gain_pct", 1.0, "report a straggler whose extra path time is at least this %" } },
        "jobPath" };

    RuleOutcome straggler(InsightsContext& c, const RuleParams& p)
    {
        if (auto why = needsJob(c))
            return RuleOutcome::na(*why);
        std::map<std::int64_t, std::vector<const Straggler*>> byRank;
        for (const Straggler& s : c.stragglers())
            if (s.medianRank >= 0 && s.segment > s.medianSegment)
                byRank[s.rank].push_back(&s);
        std::vector<Finding> out;
        for (const auto& [rank, list] : byRank) {
            // Per iteration the fix gives back its excess over the median member, but
            // no more than its lead over the next-latest member: the collective
            // still waits for that one (four ranks, two slow: fixing the slowest
            // gives back its lead over the second, not over the median).
            TimeNs excess = 0;
            TimeNs extra = 0;
            TimeNs wait = 0;
            for (const Straggler* s : list) {
                excess += s->segment - s->medianSegment;
                extra += std::min(s->segment - s->medianSegment, s->aheadOfNext);
                wait += s->waitCaused;
            }
            extra = std::min(extra, c.path().value().path.length);
            // The fix re-timed: the straggler balanced (its work before each collective
            // it arrived last at takes the median member's time). Two estimates of what
            // comes back: the job's path re-timed with it balanced, which finds the job's
            // other waits, and its lead over the next-latest member, which holds each
            // collective to that member's arrival as the recorded waits show it. They agree
            // on the recorded pairs (two_stragglers: 17.2 % and 18.4 %, 17.2 % realized) and
            // on the synthetic 64-rank job (4.3 % and 4.4 %, 4.4 % realized; 11.5 % re-timed
            // when the path left each thread's time between ops out); the gain is the
            // lower, the high end the other. The edits are the finding's what-if only where the
            // re-timing is the gain, so that re-timing two fixes together never gives back more than each
            // says.
            WhatIfRankEdits fix = balanceStraggler(c.frames(), c.path().value(), list);
            const double lead = c.pctOfMeasured(extra);
            const double retimed = fix.empty() ? lead : c.whatIfGainPct({}, { fix }).value_or(lead);
            const double gain = std::min(retimed, lead);
            if (gain < p["min_gain_pct"])
                continue;
            Finding f = newFinding(kStraggler,
                "rank " + std::to_string(rank) + " is the straggler the others wait for", gain, { rank });
            f.gainHighPct = std::max(retimed, lead);
            f.evidence.push_back("its path to the collectives it arrived last at is " + formatMs(excess)
                + " longer than the median member's (" + std::to_string(list.size()) + " iteration(s))");
            f.evidence.push_back("wait it caused on the other ranks: " + formatMs(wait));
            f.evidence.push_back("model: balanced, its work before each collective it arrived last at takes "
                                 "the median member's time (shortened by "
                + formatMs(excess)
                + "), so the collective starts when the next-latest member arrives: its lead over the "
                  "next-latest member gives back "
                + formatPct(lead) + " (" + formatMs(extra) + "), the job's path re-timed with it balanced "
                + formatPct(retimed) + "; the gain is the lower, each bounds what the fix gives back");
            RankWhere w;
            w.rank = rank;
            std::size_t whys = 0;
            for (const Straggler* s : list) {
                if (!s->why.empty() && whys++ < 3) // the first iterations' reasons; the rest say the same
                    f.evidence.push_back(s->why);
                if (s->iteration >= 0)
                    f.iterations.push_back(s->iteration);
                if (s->reasonEvent >= 0 && w.events.size() < kMaxWherePerRank)
                    w.events.push_back(s->reasonEvent);
            }
            f.where.push_back(std::move(w));
            f.suggestion = "Make rank " + std::to_string(rank)
                + "'s work match the others': balance the data "
                  "(batch sizes, sequence lengths), the model partition, or the host (CPU threads, data "
                  "loading) "
                  "it runs on; the reasons name what its path spends longer in.";
            f.gainBasis = "the straggler's work before the collectives it arrived last at shortened to the "
                          "median member's: the lower of its lead over the next-latest member and the job's "
                          "critical path re-timed with it";
            if (!fix.empty() && retimed <= lead + 1e-9)
                f.whatIfEdits.push_back(std::move(fix));
            out.push_back(std::move(f));
        }
        return { out, std::nullopt };
    }

    // ---- collective_skew -----------------------------------------------------

    const RuleInfo kSkew { "collective_skew", "arrival skew dominating collectives",
        { { "min_wait_share_pct", 50,
              "a collective is dominated when skew / (skew + transfer) reaches this %" },
            { "min_gain_pct", 0.5,
                "report when the skew windows hold at least this % of the critical path" } },
        "jobPath" };

    RuleOutcome collectiveSkewRule(InsightsContext& c, const RuleParams& p)
    {
        if (auto why = needsJob(c))
            return RuleOutcome::na(*why);
        const TraceSet set = traceSetOf(c.frames());
        const CollectiveMatch match = matchCollectives(set);
        std::vector<std::size_t> dominated;
        std::map<std::int64_t, std::vector<Interval>> windows; // last rank -> its skew windows
        std::map<std::string, std::size_t> names;
        TimeNs worst = 0;
        std::size_t matched = 0;
        for (std::size_t i = 0; i < match.instances.size(); ++i) {
            const CollectiveInstance& inst = match.instances[i];
            if (inst.members.size() < 2)
                continue;
            ++matched;
            if (waitSharePct(inst) < p["min_wait_share_pct"])
                continue;
            dominated.push_back(i);
            ++names[inst.name];
            worst = std::max(worst, inst.lastArrival() - inst.firstArrival());
            const CollectiveMember& last = inst.members[inst.lastArrivingMember()];
            windows[c.frames().ranks[last.rankIndex].rank].push_back(
                { inst.firstArrival() - c.frames().minTs, inst.lastArrival() - c.frames().minTs });
        }
        if (matched == 0)
            return RuleOutcome::na("no collectives matched across ranks: no collective appears on two ranks");
        if (dominated.empty())
            return RuleOutcome::none();
        // The fix re-timed: every late member arrives with the first. The last
        // arriving ranks' path time between the first and the last arrival, the old
        // measure, is the high end: the re-timed path may find other waits.
        std::vector<WhatIfRankEdits> fix = arriveWithTheFirst(c.frames(), match, dominated);
        const double gain = c.whatIfGainPct({}, fix).value_or(0);
        TimeNs onPath = 0;
        for (const auto& [rank, w] : windows)
            onPath += c.pathTimeWithin(rank, w);
        if (gain < p["min_gain_pct"])
            return RuleOutcome::none();
        Finding f = newFinding(kSkew,
            std::to_string(dominated.size())
                + " collectives spend most of their time waiting for "
                  "a late member",
            gain, {});
        f.gainHighPct = std::max(gain, c.pctOfMeasured(onPath));
        f.evidence.push_back(std::to_string(dominated.size()) + " of " + std::to_string(matched)
            + " instances with skew >= " + formatPct(p["min_wait_share_pct"]) + " of their time; worst skew "
            + formatMs(worst));
        for (const auto& [n, k] : names)
            f.evidence.push_back(std::to_string(k) + " x " + n);
        f.evidence.push_back(kSkewModel);
        f.evidence.push_back("re-timed: on " + std::to_string(fix.size())
            + " late rank(s) the work since each left its previous collective shortened by how late it "
              "arrived (transfers kept), the job's path rebuilt: gain "
            + formatPct(gain) + "; the last arrivals' path time between the first and the last arrival (high "
            + "end): " + formatPct(f.gainHighPct));
        for (const auto& [rank, w] : windows) {
            f.ranks.push_back(rank);
            RankWhere where;
            where.rank = rank;
            for (const Interval& i : w)
                if (where.ranges.size() < kMaxWherePerRank)
                    where.ranges.push_back(c.absoluteRange(i.start, i.end));
            f.where.push_back(std::move(where));
        }
        f.suggestion = kSkewSuggestion;
        f.gainBasis = "what-if: every late member arrives with the first (its work before the collective "
                      "shortened by its lateness), re-timed on the job's critical path";
        f.whatIfEdits = std::move(fix);
        return { { f }, std::nullopt };
    }

    // ---- unbalanced_compute --------------------------------------------------

    const RuleInfo kUnbalanced { "unbalanced_compute", "GPU compute time spread across ranks",
        { { "max_spread_pct", 10,
            "report when the busiest rank computes this % longer than the median rank" } },
        "rankOverview" };

    RuleOutcome unbalancedCompute(InsightsContext& c, const RuleParams& p)
    {
        if (c.frames().ranks.size() < 2)
            return RuleOutcome::na("needs at least two ranks");
        std::vector<std::pair<std::int64_t, TimeNs>> compute; // rank -> merged compute kernel time
        std::map<std::int64_t, const RankFrame*> frameOf;
        for (const RankFrame& frame : c.frames().ranks) {
            std::vector<Interval> k;
            for (const FrameRow& row : frame.rows)
                if (row.device && row.kernelType == KernelType::Computation)
                    k.push_back({ row.ts, row.end() });
            if (!k.empty()) {
                compute.emplace_back(frame.rank, totalLength(mergeIntervals(std::move(k))));
                frameOf[frame.rank] = &frame;
            }
        }
        if (compute.size() < 2)
            return RuleOutcome::na("needs GPU compute kernels on at least two ranks");
        std::vector<double> values;
        values.reserve(compute.size());
        for (const auto& [r, t] : compute)
            values.push_back(static_cast<double>(t));
        const double median = ks::core::median(values).value_or(0);
        const auto busiest = std::max_element(
            compute.begin(), compute.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        const double spread =
            median > 0 ? 100.0 * (static_cast<double>(busiest->second) - median) / median : 0;
        if (spread < p["max_spread_pct"])
            return RuleOutcome::none();
        const auto rank = busiest->first;
        const auto isCompute = [rank](const PathSegment& s) {
            return s.rank == rank && s.piece.bound == PathBound::GpuCompute;
        };
        const TimeNs excess = busiest->second - static_cast<TimeNs>(median);
        // The fix, balanced work: the busiest rank's compute kernels take the median rank's
        // share of their time, re-timed on the job's path (the ranks that waited for it at
        // the collectives stop waiting, as far as the next busiest lets them). The bound of
        // the old model, the excess capped by its compute on the path, is the high end.
        const RankFrame& busiestFrame = *frameOf.at(rank);
        std::vector<const FrameRow*> kernels;
        for (const FrameRow& row : busiestFrame.rows)
            if (row.device && row.kernelType == KernelType::Computation)
                kernels.push_back(&row);
        const std::vector<WhatIfRankEdits> fix { scaledRows(
            rank, busiestFrame, kernels, median / static_cast<double>(busiest->second)) };
        const double gain = c.whatIfGainPct({}, fix).value_or(0);
        const TimeNs onPath = std::min(excess, c.pathTimeOf(isCompute));
        Finding f = newFinding(kUnbalanced,
            "rank " + std::to_string(rank) + " computes " + formatPct(spread)
                + " longer than the median rank",
            gain, { rank });
        f.gainHighPct = std::max(gain, c.pctOfMeasured(onPath));
        f.evidence.push_back("GPU compute: rank " + std::to_string(rank) + " " + formatMs(busiest->second)
            + ", median " + formatMs(static_cast<TimeNs>(median)) + " over " + std::to_string(compute.size())
            + " ranks");
        // The next busiest ranks: one slow rank or a slow group.
        std::vector<std::pair<std::int64_t, TimeNs>> byTime = compute;
        std::sort(
            byTime.begin(), byTime.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        std::string next = "next busiest:";
        for (std::size_t i = 1; i < std::min<std::size_t>(4, byTime.size()); ++i)
            next += (i > 1 ? "," : "") + std::string(" rank ") + std::to_string(byTime[i].first) + " "
                + formatMs(byTime[i].second);
        f.evidence.push_back(next);
        f.where.push_back(pathWhere(c, rank, isCompute));
        f.suggestion =
            "Balance the work per rank: equal batch sizes and sequence lengths (or bucketing by "
            "length), an even split of layers or experts, the same GPU model and clocks on every rank.";
        f.evidence.push_back("model: its compute kernels take the median rank's share of their time ("
            + formatPct(100.0 * median / static_cast<double>(busiest->second))
            + "), the job's path re-timed: gain " + formatPct(gain) + "; its excess, at most its compute "
            + "on the path (high end): " + formatPct(f.gainHighPct));
        f.gainBasis = "what-if: the busiest rank's compute kernels scaled to the median rank's compute, "
                      "re-timed on the job's critical path";
        f.whatIfEdits = fix;
        return { { f }, std::nullopt };
    }

} // namespace

std::vector<Rule> distributedRules()
{
    return { { kExposed, RuleScope::Job, exposedCommunication }, { kStraggler, RuleScope::Job, straggler },
        { kSkew, RuleScope::Job, collectiveSkewRule }, { kUnbalanced, RuleScope::Job, unbalancedCompute } };
}

} // namespace ks::core
