#include "core/analysis/cross_rank/stragglers.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <unordered_map>

namespace ks::core {

namespace {

    struct Member
    {
        std::size_t rankPos = 0;
        std::size_t local = 0;
        TimeNs duration = 0;
    };

    const CondensedEdge* arrivalSegment(const JobCriticalPath& job, std::size_t rankPos, std::size_t local)
    {
        const auto& edges = job.path.arrivalEdge;
        if (rankPos >= edges.size() || local >= edges[rankPos].size() || edges[rankPos][local] < 0)
            return nullptr;
        return &job.ranks[rankPos].edges[static_cast<std::size_t>(edges[rankPos][local])];
    }

    // "+14.2 ms", or "+45.0 us" below a millisecond.
    std::string deltaText(TimeNs ns)
    {
        char text[32];
        if (ns >= 1'000'000 || ns <= -1'000'000)
            std::snprintf(text, sizeof text, "%+.1f ms", static_cast<double>(ns) / 1e6);
        else
            std::snprintf(text, sizeof text, "%+.1f us", static_cast<double>(ns) / 1e3);
        return text;
    }

    struct Pick
    {
        Straggler straggler; // all but the comparison
        Member late;
        std::optional<Member> median; // the upper median other member with a path segment
    };

    std::vector<Member> membersOf(const JobCriticalPath& job, const JoinedCollective& c)
    {
        std::vector<Member> members;
        for (const JoinedCollective::Member& m : c.members) {
            const RankCollective& rc = job.ranks[m.rankPos].collectives[m.local];
            members.push_back({ m.rankPos, m.local, rc.end - rc.arrival });
        }
        return members;
    }

    // The upper median (never overstates the excess) of the other members'
    // segments before the collective, by weight: no pieces needed.
    std::optional<Member> medianOther(
        const JobCriticalPath& job, const std::vector<Member>& members, const Member& late)
    {
        std::vector<std::pair<TimeNs, const Member*>> others;
        for (const Member& m : members)
            if (m.rankPos != late.rankPos)
                if (const CondensedEdge* e = arrivalSegment(job, m.rankPos, m.local))
                    others.emplace_back(e->weight, &m);
        if (others.empty())
            return std::nullopt;
        std::sort(
            others.begin(), others.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        return *others[others.size() / 2].second;
    }

    // Per iteration, the rank whose late arrivals caused the most wait, and where.
    std::vector<Pick> pick(const JobCriticalPath& job)
    {
        struct Caused
        {
            TimeNs total = 0;
            std::size_t count = 0;
            TimeNs best = -1;
            std::uint32_t instance = 0;
        };

        // iteration -> rank position -> the wait it caused
        std::map<std::int64_t, std::map<std::size_t, Caused>> perIteration;
        const auto& instances = job.path.collectives;
        for (std::uint32_t i = 0; i < instances.size(); ++i) {
            const JoinedCollective& c = instances[i];
            if (!c.joined)
                continue;
            const std::vector<Member> members = membersOf(job, c);
            const Member* late = nullptr;
            TimeNs wait = 0;
            for (const Member& m : members) {
                wait += m.duration - c.transfer;
                if (!late || m.duration < late->duration)
                    late = &m;
            }
            Caused& caused = perIteration[c.iteration][late->rankPos];
            caused.total += wait;
            ++caused.count;
            if (wait > caused.best) {
                caused.best = wait;
                caused.instance = i;
            }
        }
        std::vector<Pick> out;
        for (const auto& [iteration, ranks] : perIteration) {
            const auto top = std::max_element(ranks.begin(), ranks.end(),
                [](const auto& a, const auto& b) { return a.second.total < b.second.total; });
            Pick p;
            Straggler& s = p.straggler;
            s.iteration = iteration;
            s.rank = job.ranks[top->first].rank;
            s.waitCaused = top->second.total;
            s.collectives = top->second.count;
            s.instance = top->second.instance;
            s.collective = instances[s.instance].name;
            const std::vector<Member> members = membersOf(job, instances[s.instance]);
            for (const Member& m : members)
                if (m.rankPos == top->first)
                    p.late = m;
            TimeNs next = -1; // the shortest other duration: the next-latest arrival
            for (const Member& m : members)
                if (m.rankPos != p.late.rankPos && (next < 0 || m.duration < next))
                    next = m.duration;
            s.aheadOfNext = next < 0 ? 0 : std::max<TimeNs>(0, next - p.late.duration);
            p.median = medianOther(job, members, p.late);
            out.push_back(std::move(p));
        }
        return out;
    }

    // Compares the straggler's segment before its collective with the median other member's.
    void explain(const JobCriticalPath& job, const Pick& p, Straggler& s)
    {
        const CondensedEdge* own = arrivalSegment(job, p.late.rankPos, p.late.local);
        const std::string who = "rank " + std::to_string(s.rank) + ": ";
        if (!own || !p.median) {
            s.why = who + "arrived last at " + s.collective + " (no path segment to compare)";
            return;
        }
        const CondensedEdge& theirs = *arrivalSegment(job, p.median->rankPos, p.median->local);
        s.medianRank = job.ranks[p.median->rankPos].rank;
        s.segment = own->weight;
        s.medianSegment = theirs.weight;
        const std::vector<NameTime> ownTimes = nameTimesOf(*own);
        std::unordered_map<std::string, TimeNs> mine;
        for (const NameTime& t : ownTimes)
            mine[t.name] += t.total;
        for (const NameTime& t : nameTimesOf(theirs))
            mine[t.name] -= t.total;
        for (const auto& [name, d] : mine)
            if (d > 0)
                s.reasons.push_back({ name, d });
        std::sort(s.reasons.begin(), s.reasons.end(), [](const NameDelta& a, const NameDelta& b) {
            return a.delta != b.delta ? a.delta > b.delta : a.name < b.name;
        });
        if (s.reasons.size() > 3)
            s.reasons.resize(3);
        for (const NameTime& t : ownTimes)
            if (!s.reasons.empty() && t.name == s.reasons.front().name && t.longest > 0)
                s.reasonEvent = t.longestEvent;
        s.why = who + deltaText(own->weight - theirs.weight) + " before " + s.collective + " vs rank "
            + std::to_string(s.medianRank);
        for (std::size_t i = 0; i < s.reasons.size(); ++i)
            s.why += (i == 0 ? ": " : ", ") + deltaText(s.reasons[i].delta) + " in " + s.reasons[i].name;
    }

} // namespace

std::vector<Straggler> findStragglers(const JobCriticalPath& job)
{
    std::vector<Straggler> out;
    for (Pick& p : pick(job)) {
        explain(job, p, p.straggler);
        out.push_back(std::move(p.straggler));
    }
    return out;
}

std::vector<RankEdge> stragglerEdges(const JobCriticalPath& job)
{
    std::vector<RankEdge> out;
    auto add = [&](const Member& m) {
        const auto& edges = job.path.arrivalEdge;
        if (m.rankPos < edges.size() && m.local < edges[m.rankPos].size() && edges[m.rankPos][m.local] >= 0)
            out.push_back({ m.rankPos, static_cast<std::uint32_t>(edges[m.rankPos][m.local]) });
    };
    for (const Pick& p : pick(job)) {
        add(p.late);
        if (p.median)
            add(*p.median);
    }
    return out;
}

AnalysisOutput stragglersTable(const JobCriticalPath& job)
{
    const std::vector<Straggler> found = findStragglers(job);
    if (found.empty())
        return AnalysisOutput::notApplicable(job.ranks.size() < 2
                ? "stragglers need at least two ranks"
                : "no collective could be matched across ranks");
    using namespace stragglers;
    Table t;
    t.name = "stragglers";
    t.columns = { { kIteration, "" }, { kRank, "" }, { kWaitCausedMs, "ms" }, { kCollectives, "" },
        { kCollective, "" }, { kMedianRank, "" }, { kSegmentMs, "ms" }, { kMedianSegmentMs, "ms" },
        { kWhy, "" } };
    for (const Straggler& s : found)
        t.addRow({ s.iteration, s.rank, static_cast<double>(s.waitCaused) / 1e6,
            static_cast<std::int64_t>(s.collectives), s.collective, s.medianRank,
            static_cast<double>(s.segment) / 1e6, static_cast<double>(s.medianSegment) / 1e6, s.why });
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(t)));
}

} // namespace ks::core
