#include "core/analysis/cross_rank/iteration_stragglers.h"

#include "core/analysis/cross_rank/stragglers.h"

#include <algorithm>
#include <map>

namespace ks::core {

namespace {

    std::int64_t iterationOf(const std::vector<RankCollectives>& ranks, const CollectiveMember& m)
    {
        if (m.rankIndex >= ranks.size())
            return -1;
        const std::vector<RankCollectiveSlice>& slices = ranks[m.rankIndex].slices;
        if (m.slice < slices.size() && slices[m.slice].slice == m.slice)
            return slices[m.slice].iteration; // a summary's: slice = position
        const auto it = std::find_if(
            slices.begin(), slices.end(), [&m](const RankCollectiveSlice& s) { return s.slice == m.slice; });
        return it == slices.end() ? -1 : it->iteration;
    }

    struct Caused
    {
        TimeNs total = 0;
        std::size_t count = 0;
        TimeNs best = -1;
        std::size_t instance = 0;
        TimeNs aheadOfNext = 0;
    };

} // namespace

std::vector<IterationStraggler> iterationStragglers(const CollectiveMatch& match,
    const std::vector<RankCollectives>& ranks, const std::vector<std::int64_t>& rankNumbers)
{
    // iteration -> rank index -> the wait it caused (rank index order: ties go to the lowest)
    std::map<std::int64_t, std::map<std::size_t, Caused>> perIteration;
    for (std::size_t i = 0; i < match.instances.size(); ++i) {
        const CollectiveInstance& inst = match.instances[i];
        if (inst.members.size() < 2)
            continue;
        const CollectiveMember* late = nullptr;
        TimeNs transfer = 0;
        for (const CollectiveMember& m : inst.members)
            if (!late || m.end - m.start < late->end - late->start) {
                late = &m;
                transfer = m.end - m.start;
            }
        TimeNs wait = 0;
        TimeNs next = -1; // the shortest other duration: the next-latest arrival
        for (const CollectiveMember& m : inst.members) {
            wait += m.end - m.start - transfer;
            if (&m != late && (next < 0 || m.end - m.start < next))
                next = m.end - m.start;
        }
        Caused& caused = perIteration[iterationOf(ranks, inst.members.front())][late->rankIndex];
        caused.total += wait;
        ++caused.count;
        if (wait > caused.best) {
            caused.best = wait;
            caused.instance = i;
            caused.aheadOfNext = std::max<TimeNs>(0, next - transfer);
        }
    }
    std::vector<IterationStraggler> out;
    for (const auto& [iteration, byRank] : perIteration) {
        const auto top = std::max_element(byRank.begin(), byRank.end(),
            [](const auto& a, const auto& b) { return a.second.total < b.second.total; });
        IterationStraggler s;
        s.iteration = iteration;
        s.rank = top->first < rankNumbers.size() ? rankNumbers[top->first] : -1;
        s.waitCaused = top->second.total;
        s.collectives = top->second.count;
        s.collective = match.instances[top->second.instance].name;
        s.aheadOfNext = top->second.aheadOfNext;
        out.push_back(std::move(s));
    }
    return out;
}

AnalysisOutput iterationStragglersTable(const std::vector<IterationStraggler>& found)
{
    if (found.empty())
        return AnalysisOutput::notApplicable("no collective appears on two ranks");
    using namespace stragglers;
    Table t;
    t.name = "stragglers";
    t.columns = { { kIteration, "" }, { kRank, "" }, { kWaitCausedMs, "ms" }, { kCollectives, "" },
        { kCollective, "" }, { "ahead_of_next_ms", "ms" } };
    for (const IterationStraggler& s : found)
        t.addRow({ s.iteration, s.rank, static_cast<double>(s.waitCaused) / 1e6,
            static_cast<std::int64_t>(s.collectives), s.collective,
            static_cast<double>(s.aheadOfNext) / 1e6 });
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(t)));
}

} // namespace ks::core
