#include "widgets/memory_snapshot/band_layout.h"

#include <algorithm>

namespace ks::widgets {

namespace {

    struct Action
    {
        std::uint32_t allocation = 0;
        bool start = true;
    };

    // The actions in order, from each allocation's start and end action.
    std::vector<Action> actionsOf(const core::ActiveMemoryTimeline& t)
    {
        std::vector<Action> actions(t.actions);
        for (std::uint32_t i = 0; i < t.allocations.size(); ++i) {
            const core::TimelineAllocation& a = t.allocations[i];
            if (a.startAction >= 0 && std::uint64_t(a.startAction) < t.actions)
                actions[std::size_t(a.startAction)] = { i, true };
            if (a.endAction >= 0 && std::uint64_t(a.endAction) < t.actions)
                actions[std::size_t(a.endAction)] = { i, false };
        }
        return actions;
    }

    // memory_viz's stack replayed: the bands live now, bottom first, each with
    // its bottom offset and the corners collected so far.
    class Replay
    {
    public:
        Replay(const core::ActiveMemoryTimeline& timeline, std::size_t maxPoints)
            : m_timeline(timeline)
            , m_maxPoints(maxPoints)
            , m_bandOf(timeline.allocations.size(), -1)
        {
        }

        void push(std::uint32_t allocation, std::int64_t step)
        {
            const double size = double(m_timeline.allocations[allocation].size);
            m_bandOf[allocation] = std::int64_t(m_bands.size());
            m_bands.push_back({ allocation, size, step, -1, 0, 0 });
            m_corners.push_back({});
            addCorner(m_bands.size() - 1, { step, m_top });
            m_live.push_back(std::uint32_t(m_bands.size() - 1));
            m_top += size;
        }

        // Ends the allocation's band at `step`; true when bands above it slid down.
        bool remove(std::uint32_t allocation, std::int64_t step)
        {
            const std::int64_t band = m_bandOf[allocation];
            if (band < 0)
                return false;
            m_bandOf[allocation] = -1;
            SnapshotBand& b = m_bands[std::size_t(band)];
            b.endStep = step;
            addCorner(std::size_t(band), { step, m_offset[std::size_t(band)] });
            const auto it = std::find(m_live.begin(), m_live.end(), std::uint32_t(band));
            const bool top = it + 1 == m_live.end();
            const auto above = m_live.erase(it);
            m_top -= b.size;
            if (top)
                return false;
            // The bands above slide down by its height over 3 steps, as memory_viz animates it.
            for (auto i = above; i != m_live.end(); ++i) {
                const double offset = m_offset[*i];
                addCorner(*i, { step, offset });
                addCorner(*i, { step + 3, offset - b.size });
            }
            return true;
        }

        bool overBudget() const { return m_points > m_maxPoints; }

        void addCorner(std::size_t band, BandPoint p)
        {
            if (m_offset.size() <= band)
                m_offset.resize(band + 1);
            m_offset[band] = p.offset;
            if (overBudget())
                return; // the bands are dropped anyway: stop growing
            m_corners[band].push_back(p);
            if (++m_points > m_maxPoints)
                m_corners.assign(m_corners.size(), {}); // give their memory back now
        }

        double top() const { return m_top; }

        void finish(BandLayout& layout, std::int64_t steps)
        {
            for (std::size_t i = 0; i < m_bands.size(); ++i) {
                SnapshotBand b = m_bands[i];
                if (b.endStep < 0)
                    b.endStep = steps;
                b.firstPoint = std::uint32_t(layout.points.size());
                b.pointCount = std::uint32_t(m_corners[i].size());
                layout.points.insert(layout.points.end(), m_corners[i].begin(), m_corners[i].end());
                layout.bands.push_back(b);
            }
        }

    private:
        const core::ActiveMemoryTimeline& m_timeline;
        std::size_t m_maxPoints;
        std::vector<std::int64_t> m_bandOf; // allocation -> band while live, else -1
        std::vector<SnapshotBand> m_bands;
        std::vector<std::vector<BandPoint>> m_corners;
        std::vector<double> m_offset; // each band's bottom now
        std::vector<std::uint32_t> m_live; // bands, bottom first
        std::size_t m_points = 0;
        double m_top = 0;
    };

} // namespace

double BandLayout::offsetAt(const SnapshotBand& band, double step) const
{
    const auto first = points.begin() + band.firstPoint;
    const auto last = first + band.pointCount;
    // The last corner at or before `step`; between two corners the edge is a straight line.
    auto it =
        std::upper_bound(first, last, step, [](double s, const BandPoint& p) { return s < double(p.step); });
    if (it == first)
        return first->offset;
    const BandPoint& a = *(it - 1);
    if (it == last || it->step == a.step)
        return a.offset;
    const double f = (step - double(a.step)) / double(it->step - a.step);
    return a.offset + f * (it->offset - a.offset);
}

std::int64_t BandLayout::bandAt(double step, double bytes) const
{
    for (std::size_t i = 0; i < bands.size(); ++i) {
        const SnapshotBand& b = bands[i];
        if (step < double(b.startStep) || step > double(b.endStep))
            continue;
        const double offset = offsetAt(b, step);
        if (bytes >= offset && bytes <= offset + b.size)
            return std::int64_t(i);
    }
    return -1;
}

BandLayout buildBandLayout(const core::ActiveMemoryTimeline& timeline, std::size_t maxPoints)
{
    BandLayout layout;
    Replay replay(timeline, maxPoints);
    double total = 0;
    // memory_viz pushes the allocations live from the start last-found first.
    for (std::size_t i = timeline.allocations.size(); i-- > 0;) {
        const core::TimelineAllocation& a = timeline.allocations[i];
        if (a.startAction >= 0)
            continue;
        total += double(a.size);
        if (a.drawn)
            replay.push(std::uint32_t(i), 0);
    }
    layout.totals.push_back({ 0, replay.top(), total });
    std::int64_t step = 0;
    for (const Action& action : actionsOf(timeline)) {
        const core::TimelineAllocation& a = timeline.allocations[action.allocation];
        if (action.start) {
            total += double(a.size);
            if (a.drawn)
                replay.push(action.allocation, step);
            layout.totals.push_back({ step, replay.top(), total });
            step += 1;
        } else {
            step += 1;
            total -= double(a.size);
            const bool slid = a.drawn && replay.remove(action.allocation, step);
            layout.totals.push_back({ step, replay.top(), total });
            if (slid)
                step += 3;
        }
        layout.maxTotal = std::max(layout.maxTotal, total);
        if (replay.overBudget())
            layout.truncated = true;
    }
    layout.maxTotal = std::max(layout.maxTotal, layout.totals.front().total);
    layout.steps = std::max<std::int64_t>(1, std::max(step, timeline.timesteps));
    if (!layout.truncated)
        replay.finish(layout, layout.steps);
    return layout;
}

} // namespace ks::widgets
