#include "core/analysis/cross_rank_collectives.h"

#include "core/analysis/kernel_type.h"

#include <algorithm>
#include <map>

namespace ks::core {

namespace {

    bool isCollectiveRow(const RankFrame& frame, const FrameRow& row)
    {
        if (row.device)
            return row.kernelType == KernelType::Communication;
        return frame.name(row).substr(0, 5) == "gloo:";
    }

} // namespace

// Until the process-group matcher is merged: the n-th collective of a name on
// each rank is one instance (collectives of one group run in the same order on
// every member).
PathCollectives pathCollectives(const FrameSet& frames)
{
    PathCollectives out;
    out.byRank.resize(frames.ranks.size());
    std::map<std::pair<std::string, std::int64_t>, std::uint32_t> ids;
    std::vector<std::size_t> memberCount;
    for (std::size_t p = 0; p < frames.ranks.size(); ++p) {
        const RankFrame& frame = frames.ranks[p];
        std::vector<const FrameRow*> rows;
        for (const FrameRow& row : frame.rows)
            if (isCollectiveRow(frame, row))
                rows.push_back(&row);
        std::stable_sort(
            rows.begin(), rows.end(), [](const FrameRow* a, const FrameRow* b) { return a->ts < b->ts; });
        std::map<std::string, std::int64_t, std::less<>> seen;
        for (const FrameRow* row : rows) {
            std::string name(frame.name(*row));
            const std::int64_t ordinal = seen[name]++;
            auto [it, inserted] =
                ids.try_emplace({ name, ordinal }, static_cast<std::uint32_t>(out.names.size()));
            if (inserted) {
                out.names.push_back(name);
                memberCount.push_back(0);
            }
            ++memberCount[it->second];
            out.byRank[p].push_back({ row->slice, it->second, true });
        }
    }
    std::size_t incomplete = 0;
    for (auto& rank : out.byRank)
        for (CollectiveSlice& c : rank)
            if (memberCount[c.instance] != frames.ranks.size()) {
                c.complete = false;
                ++incomplete;
            }
    if (!out.names.empty())
        out.notes.push_back("collectives matched by name and order (no process-group information used)");
    if (incomplete)
        out.notes.push_back(std::to_string(incomplete)
            + " collective slice(s) have no partner on some rank (counts differ between ranks)");
    return out;
}

} // namespace ks::core
