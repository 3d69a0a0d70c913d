#include "core/insights/path_time_index.h"

#include <algorithm>

namespace ks::core {

namespace {

    std::vector<TimeNs> runningSums(const std::vector<TimeNs>& values)
    {
        std::vector<TimeNs> sums(values.size() + 1, 0);
        for (std::size_t i = 0; i < values.size(); ++i)
            sums[i + 1] = sums[i] + values[i];
        return sums;
    }

} // namespace

PathTimeIndex::PathTimeIndex(const std::vector<PathSegment>& segments)
{
    std::unordered_map<std::int64_t, TimeNs> bases;
    for (const PathSegment& s : segments) {
        if (s.piece.duration <= 0)
            continue;
        auto [it, added] = bases.try_emplace(s.rank, s.piece.start);
        if (!added)
            it->second = std::min(it->second, s.piece.start);
    }
    for (const PathSegment& s : segments) {
        if (s.piece.duration <= 0)
            continue;
        RankEnds& r = m_ranks[s.rank];
        r.base = bases[s.rank];
        r.starts.push_back(s.piece.start - r.base);
        r.ends.push_back(s.piece.start + s.piece.duration - r.base);
    }
    for (auto& [rank, r] : m_ranks) {
        std::sort(r.starts.begin(), r.starts.end());
        std::sort(r.ends.begin(), r.ends.end());
        r.startSums = runningSums(r.starts);
        r.endSums = runningSums(r.ends);
    }
}

TimeNs PathTimeIndex::timeBefore(const RankEnds& r, TimeNs t)
{
    const auto started =
        static_cast<std::size_t>(std::lower_bound(r.starts.begin(), r.starts.end(), t) - r.starts.begin());
    const auto ended =
        static_cast<std::size_t>(std::lower_bound(r.ends.begin(), r.ends.end(), t) - r.ends.begin());
    return (static_cast<TimeNs>(started) * t - r.startSums[started])
        - (static_cast<TimeNs>(ended) * t - r.endSums[ended]);
}

TimeNs PathTimeIndex::within(std::int64_t rank, const std::vector<Interval>& merged) const
{
    const auto it = m_ranks.find(rank);
    if (it == m_ranks.end())
        return 0;
    const RankEnds& r = it->second;
    const TimeNs first = r.starts.front();
    const TimeNs last = r.ends.back();
    TimeNs total = 0;
    for (const Interval& i : merged) {
        // Clamped to the rank's span: outside it the time before does not change,
        // and the products stay within the span times the segment count.
        const TimeNs a = std::clamp(i.start - r.base, first, last);
        const TimeNs b = std::clamp(i.end - r.base, first, last);
        if (b > a)
            total += timeBefore(r, b) - timeBefore(r, a);
    }
    return total;
}

} // namespace ks::core
