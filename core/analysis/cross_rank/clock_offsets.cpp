#include "core/analysis/cross_rank/clock_offsets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ks::core {

namespace {

    // MAD x 1.4826 estimates a normal standard deviation; 3 of them is the cut.
    constexpr double kOutlierSigmas = 3.0 * 1.4826;
    // Never cut closer than this: ends agree only to a few microseconds.
    constexpr TimeNs kMinimumCut = 2'000;

    TimeNs medianOf(std::vector<TimeNs> values)
    {
        const std::size_t mid = values.size() / 2;
        std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
        const TimeNs upper = values[mid];
        if (values.size() % 2 == 1)
            return upper;
        const TimeNs lower =
            *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
        return lower + (upper - lower) / 2;
    }

    // Robust offset of one rank from its per-instance differences.
    RankClockOffset robustOffset(std::int64_t rank, const std::vector<TimeNs>& samples)
    {
        RankClockOffset out;
        out.rank = rank;
        out.estimated = true;
        const TimeNs median = medianOf(samples);
        std::vector<TimeNs> deviations;
        deviations.reserve(samples.size());
        for (const TimeNs s : samples)
            deviations.push_back(s > median ? s - median : median - s);
        const TimeNs mad = medianOf(deviations);
        const auto cut =
            std::max<TimeNs>(kMinimumCut, std::llround(kOutlierSigmas * static_cast<double>(mad)));
        std::vector<TimeNs> kept;
        for (const TimeNs s : samples)
            if ((s > median ? s - median : median - s) <= cut)
                kept.push_back(s);
        out.offset = medianOf(kept);
        out.samples = kept.size();
        out.rejected = samples.size() - kept.size();
        for (const TimeNs s : kept)
            out.spread = std::max(out.spread, s > out.offset ? s - out.offset : out.offset - s);
        return out;
    }

} // namespace

std::vector<TimeNs> ClockOffsets::offsets() const
{
    std::vector<TimeNs> out;
    for (const RankClockOffset& r : ranks)
        out.push_back(r.offset);
    return out;
}

ClockOffsets estimateClockOffsets(const std::vector<std::int64_t>& rankNumbers, const CollectiveMatch& match)
{
    ClockOffsets out;
    for (const std::int64_t rank : rankNumbers)
        out.ranks.push_back({ .rank = rank });
    if (rankNumbers.empty())
        return out;
    out.ranks[0].estimated = true;
    // Rounds: each places the ranks that share instances with ranks already placed.
    for (bool progress = true; progress;) {
        progress = false;
        std::vector<std::vector<TimeNs>> samples(rankNumbers.size());
        for (const CollectiveInstance& inst : match.instances) {
            std::vector<TimeNs> placedEnds;
            for (const CollectiveMember& m : inst.members)
                if (out.ranks[m.rankIndex].estimated)
                    placedEnds.push_back(m.end + out.ranks[m.rankIndex].offset);
            if (placedEnds.empty())
                continue;
            const TimeNs commonEnd = medianOf(placedEnds);
            for (const CollectiveMember& m : inst.members)
                if (!out.ranks[m.rankIndex].estimated)
                    samples[m.rankIndex].push_back(commonEnd - m.end);
        }
        for (std::size_t r = 0; r < rankNumbers.size(); ++r) {
            if (samples[r].empty())
                continue;
            out.ranks[r] = robustOffset(rankNumbers[r], samples[r]);
            progress = true;
        }
    }
    for (const RankClockOffset& r : out.ranks) {
        if (!r.estimated)
            out.notes.push_back("rank " + std::to_string(r.rank)
                + ": no collective shared with the other ranks; its clock is left as recorded");
        else if (&r != &out.ranks[0] && r.samples < 3)
            out.notes.push_back("rank " + std::to_string(r.rank) + ": offset from only "
                + std::to_string(r.samples) + " collective(s); treat it as rough");
    }
    return out;
}

ClockOffsets estimateClockOffsets(const std::vector<const RankTrace*>& ranks, const CollectiveMatch& match)
{
    std::vector<std::int64_t> rankNumbers;
    for (const RankTrace* t : ranks)
        rankNumbers.push_back(t->rank);
    return estimateClockOffsets(rankNumbers, match);
}

CollectiveMatch onEstimatedClocks(CollectiveMatch match, const ClockOffsets& clocks)
{
    bool moved = false;
    for (CollectiveInstance& inst : match.instances)
        for (CollectiveMember& m : inst.members) {
            const TimeNs offset = m.rankIndex < clocks.ranks.size() ? clocks.ranks[m.rankIndex].offset : 0;
            m.start += offset;
            m.end += offset;
            moved = moved || offset != 0;
        }
    if (moved)
        std::stable_sort(match.instances.begin(), match.instances.end(),
            [](const CollectiveInstance& a, const CollectiveInstance& b) {
                return a.firstArrival() < b.firstArrival();
            });
    return match;
}

std::string clockOffsetsNote(const ClockOffsets& clocks, TimeNs notable)
{
    std::vector<const RankClockOffset*> moved;
    for (const RankClockOffset& r : clocks.ranks)
        if (r.estimated && std::abs(r.offset) >= notable)
            moved.push_back(&r);
    if (moved.empty())
        return {};
    std::stable_sort(moved.begin(), moved.end(), [](const RankClockOffset* a, const RankClockOffset* b) {
        return std::abs(a->offset) > std::abs(b->offset);
    });
    std::string line = "arrivals compared on the clocks estimated from the collectives' common ends (rank "
        + std::to_string(clocks.ranks[clocks.referenceIndex].rank) + "'s is the reference):";
    for (std::size_t i = 0; i < moved.size() && i < 3; ++i) {
        char text[96];
        std::snprintf(text, sizeof text, " rank %lld %+.3f ms (spread %.3f ms)%s",
            static_cast<long long>(moved[i]->rank), static_cast<double>(moved[i]->offset) / 1e6,
            static_cast<double>(moved[i]->spread) / 1e6,
            i + 1 < std::min<std::size_t>(moved.size(), 3) ? ";" : "");
        line += text;
    }
    if (moved.size() > 3)
        line += "; " + std::to_string(moved.size() - 3) + " more";
    return line;
}

ClockOffsets estimateClockOffsets(const TraceSet& traces, const CollectiveMatch& match)
{
    std::vector<const RankTrace*> ranks;
    for (const auto& r : traces.ranks)
        ranks.push_back(r.get());
    return estimateClockOffsets(ranks, match);
}

} // namespace ks::core
