#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ks::widgets {

// A summary tree over a sorted array, fan-out 16: level 0 combines leaves in
// blocks of 16, each next level combines 16 nodes of the one below. Only full
// blocks get a node, which is all a query needs. A query over [a, b) visits
// at most 2 * 15 items per level, so O(16 log16 n) whatever the range size:
// this is what keeps a zoomed-out frame O(pixels) instead of O(events).
// About n / 15 nodes in all.
template <typename Node>
class IndexPyramid
{
public:
    static constexpr std::uint32_t kFanout = 16;

    // leaf(i) -> Node for i in [0, count); combine(Node&, const Node&) folds in place.
    template <typename LeafFn, typename CombineFn>
    void build(std::uint32_t count, LeafFn leaf, CombineFn combine, Node identity)
    {
        m_levels.clear();
        std::uint32_t blocks = count / kFanout;
        if (blocks == 0)
            return;
        std::vector<Node> level(blocks, identity);
        for (std::uint32_t k = 0; k < blocks; ++k) {
            for (std::uint32_t i = k * kFanout; i < (k + 1) * kFanout; ++i)
                combine(level[k], leaf(i));
        }
        m_levels.push_back(std::move(level));
        while (m_levels.back().size() >= kFanout) {
            const std::vector<Node>& below = m_levels.back();
            blocks = static_cast<std::uint32_t>(below.size()) / kFanout;
            std::vector<Node> up(blocks, identity);
            for (std::uint32_t k = 0; k < blocks; ++k) {
                for (std::uint32_t i = k * kFanout; i < (k + 1) * kFanout; ++i)
                    combine(up[k], below[i]);
            }
            m_levels.push_back(std::move(up));
        }
    }

    // Folds every leaf in [a, b) into `acc`.
    template <typename LeafFn, typename CombineFn>
    void query(std::uint32_t a, std::uint32_t b, LeafFn leaf, CombineFn combine, Node& acc) const
    {
        // Leaves first: the partial blocks at both ends.
        if (b - a <= 2 * kFanout || m_levels.empty()) {
            for (std::uint32_t i = a; i < b; ++i)
                combine(acc, leaf(i));
            return;
        }
        std::uint32_t lo = (a + kFanout - 1) / kFanout;
        std::uint32_t hi = b / kFanout;
        for (std::uint32_t i = a; i < lo * kFanout; ++i)
            combine(acc, leaf(i));
        for (std::uint32_t i = hi * kFanout; i < b; ++i)
            combine(acc, leaf(i));
        for (std::size_t level = 0; level < m_levels.size(); ++level) {
            const std::vector<Node>& nodes = m_levels[level];
            const bool top = level + 1 == m_levels.size();
            const std::uint32_t upLo = (lo + kFanout - 1) / kFanout;
            const std::uint32_t upHi = hi / kFanout;
            if (top || hi - lo <= 2 * kFanout || upLo >= upHi) {
                for (std::uint32_t i = lo; i < hi; ++i)
                    combine(acc, nodes[i]);
                return;
            }
            for (std::uint32_t i = lo; i < upLo * kFanout; ++i)
                combine(acc, nodes[i]);
            for (std::uint32_t i = upHi * kFanout; i < hi; ++i)
                combine(acc, nodes[i]);
            lo = upLo;
            hi = upHi;
        }
    }

    std::size_t nodeCount() const
    {
        std::size_t n = 0;
        for (const auto& level : m_levels)
            n += level.size();
        return n;
    }

    std::size_t bytesUsed() const { return nodeCount() * sizeof(Node); }

private:
    std::vector<std::vector<Node>> m_levels;
};

} // namespace ks::widgets
