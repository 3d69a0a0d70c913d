#include "widgets/timeline/model/draw_list.h"

#include "widgets/timeline/model/counter_track.h"
#include "widgets/timeline/model/critical_path_marks.h"
#include "widgets/timeline/model/job_path_marks.h"
#include "widgets/timeline/model/time_axis.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_search.h"

#include <algorithm>
#include <cmath>

namespace ks::widgets {

namespace {

    std::uint8_t shadeOf(TimeNs busy, TimeNs extent)
    {
        const double occupancy = extent > 0 ? static_cast<double>(busy) / static_cast<double>(extent) : 1.0;
        if (occupancy >= 0.85)
            return 3;
        if (occupancy >= 0.5)
            return 2;
        if (occupancy >= 0.2)
            return 1;
        return 0;
    }

    float clampX(double x, double width)
    {
        return static_cast<float>(std::clamp(x, -2.0, width + 2.0));
    }

    // Walks one level of one track and appends its items.
    class LevelWalker
    {
    public:
        LevelWalker(const RankTimeline& rank, std::uint32_t track, const SliceDrawParams& p,
            std::vector<SliceDrawItem>& out)
            : m_rank(rank)
            , m_slices(rank.trace->slices)
            , m_track(track)
            , m_p(p)
            , m_axis(p.raw, p.width)
            , m_out(out)
        {
            // Time spanned by kMergePx pixels, at least 1 ns so every step advances.
            m_mergeNs = std::max<TimeNs>(1, static_cast<TimeNs>(std::ceil(m_axis.nsForPixels(kMergePx))));
        }

        void walk(std::uint32_t level)
        {
            const core::Track& tr = m_rank.trace->tracks[m_track];
            const std::size_t firstItem = m_out.size();
            std::uint32_t i = m_rank.trace->firstEndingAtOrAfter(tr, level, m_p.raw.start);
            // One past the last slice starting in view: runs never reach beyond it.
            const auto first = m_slices.start.begin();
            const auto end = static_cast<std::uint32_t>(
                std::upper_bound(first + i, first + tr.levelBegin[level + 1], m_p.raw.end) - first);
            while (i < end) {
                const double x0 = m_axis.x(m_slices.start[i]);
                const double x1 = m_axis.x(m_slices.end(i));
                if (x1 - x0 >= kMergePx) {
                    emitSingle(i, level, x0, x1);
                    ++i;
                    continue;
                }
                i = emitRun(i, end, level, x0);
            }
            coalesce(firstItem);
        }

    private:
        void emitSingle(std::uint32_t i, std::uint32_t level, double x0, double x1)
        {
            SliceDrawItem item;
            item.x0 = clampX(x0, m_p.width);
            item.x1 = clampX(std::max(x1, x0 + 1.0), m_p.width);
            item.slice = i;
            item.lane = static_cast<std::uint16_t>(level);
            item.colorKey = keyOf(i, i, i + 1);
            if (m_p.matches && m_p.matches->matches(i))
                item.flags |= kDrawMatch;
            m_out.push_back(item);
        }

        // A run of narrow slices starting at i: every slice starting less than
        // kMergePx after it. Returns the index after the run.
        std::uint32_t emitRun(std::uint32_t i, std::uint32_t end, std::uint32_t level, double x0)
        {
            const TimeNs limit = m_slices.start[i] + m_mergeNs;
            auto j = firstStartingAtOrAfter(i + 1, end, limit);
            // Slices in a level never overlap, so only the last slice of the
            // run can be wide (it would end past the window); draw it alone.
            if (j - 1 > i && m_axis.x(m_slices.end(j - 1)) - m_axis.x(m_slices.start[j - 1]) >= kMergePx)
                --j;
            const double x1 = m_axis.x(m_slices.end(j - 1));
            if (j - i == 1) {
                emitSingle(i, level, x0, x1);
                return j;
            }
            SliceSummaryNode summary;
            m_rank.summarize(m_track, level, i, j, summary);
            SliceDrawItem item;
            item.x0 = clampX(x0, m_p.width);
            item.x1 = clampX(std::max(x1, x0 + 1.0), m_p.width);
            item.slice = summary.longest;
            item.count = j - i;
            item.lane = static_cast<std::uint16_t>(level);
            item.colorKey = keyOf(summary.longest, i, j);
            item.shade = shadeOf(summary.busy, m_slices.end(j - 1) - m_slices.start[i]);
            item.flags = kDrawMerged;
            if (m_p.matches && m_p.matches->countIn(i, j) > 0)
                item.flags |= kDrawMatch;
            m_out.push_back(item);
            return j;
        }

        // The first slice in [from, end) starting at or after `limit`, else end.
        // A run is nearly always short and its slices sit next to each other in
        // memory: galloping from `from` reads a cache line or two, where a binary
        // search over the rest of the level missed the cache at every step (60 %
        // of a zoomed-out frame's draw-list time went to those loads).
        std::uint32_t firstStartingAtOrAfter(std::uint32_t from, std::uint32_t end, TimeNs limit) const
        {
            std::uint32_t lo = from; // every slice in [from, lo) starts before limit
            std::uint32_t hi = from;
            std::uint32_t step = 1;
            while (hi < end && m_slices.start[hi] < limit) {
                lo = hi + 1;
                hi = end - hi > step ? hi + step : end;
                step *= 2;
            }
            const auto first = m_slices.start.begin();
            return static_cast<std::uint32_t>(std::lower_bound(first + lo, first + hi, limit) - first);
        }

        // The colour of an item drawing slices [first, last), `shown` the one it names.
        std::uint8_t keyOf(std::uint32_t shown, std::uint32_t first, std::uint32_t last) const
        {
            if (m_p.mode == ColorMode::Diff)
                return diffKeyOf(shown);
            if (m_p.mode == ColorMode::JobPath)
                return m_p.jobPath ? jobPathKey(m_rank.sliceKind[shown], m_p.jobPath->boundIn(first, last))
                                   : m_rank.sliceKind[shown];
            if (m_p.mode != ColorMode::CriticalPath)
                return m_rank.colorKey(shown, m_p.mode);
            if (!m_p.criticalPath)
                return m_rank.sliceKind[shown];
            // A block is on the path when any slice in it is: short path kernels stay visible zoomed out.
            return criticalPathKey(m_rank.sliceKind[shown], m_p.criticalPath->anyIn(first, last));
        }

        // A block takes the diff class of the slice it names (its longest), like name colours do.
        std::uint8_t diffKeyOf(std::uint32_t shown) const
        {
            const std::uint32_t name = m_slices.name[shown].value;
            const auto diff = m_p.nameClasses && name < m_p.nameClasses->size()
                ? static_cast<DiffClass>((*m_p.nameClasses)[name])
                : DiffClass::Unchanged;
            return diffColorKey(m_rank.sliceKind[shown], diff);
        }

        // Adjacent blocks of the same look become one rectangle: fewer fillRects.
        void coalesce(std::size_t firstItem)
        {
            std::size_t w = firstItem;
            for (std::size_t r = firstItem; r < m_out.size(); ++r) {
                SliceDrawItem& cur = m_out[r];
                if (w > firstItem) {
                    SliceDrawItem& prev = m_out[w - 1];
                    if ((prev.flags & kDrawMerged) && (cur.flags & kDrawMerged)
                        && prev.colorKey == cur.colorKey && prev.shade == cur.shade && prev.flags == cur.flags
                        && cur.x0 - prev.x1 < 1.0f) {
                        prev.x1 = std::max(prev.x1, cur.x1);
                        prev.count += cur.count;
                        if (m_slices.duration(cur.slice) > m_slices.duration(prev.slice))
                            prev.slice = cur.slice;
                        continue;
                    }
                }
                m_out[w++] = cur;
            }
            m_out.resize(w);
        }

        const RankTimeline& m_rank;
        const core::SliceTable& m_slices;
        std::uint32_t m_track;
        const SliceDrawParams& m_p;
        TimeAxis m_axis;
        std::vector<SliceDrawItem>& m_out;
        TimeNs m_mergeNs = 1;
    };

} // namespace

std::vector<SliceDrawItem> buildSliceDrawList(
    const RankTimeline& rank, std::uint32_t track, const SliceDrawParams& params)
{
    std::vector<SliceDrawItem> items;
    if (track >= rank.trace->tracks.size() || params.raw.isEmpty())
        return items;
    LevelWalker walker(rank, track, params, items);
    for (std::uint32_t level = 0; level < rank.trace->tracks[track].levelCount(); ++level)
        walker.walk(level);
    return items;
}

std::vector<CounterDrawItem> buildCounterDrawList(const CounterTrack& c, TimeRange raw, double width)
{
    std::vector<CounterDrawItem> out;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(c.size());
    if (n == 0 || raw.isEmpty())
        return out;
    const TimeAxis axis(raw, width);
    std::ptrdiff_t cur = c.pointAtOrBefore(raw.start);
    if (cur < 0)
        cur = 0;
    while (cur < n && c.ts[static_cast<std::size_t>(cur)] <= raw.end) {
        const auto ci = static_cast<std::size_t>(cur);
        const double xa = std::max(axis.x(c.ts[ci]), 0.0);
        const bool last = cur + 1 >= n;
        const double xb = last ? width : std::min(axis.x(c.ts[ci + 1]), width + 1.0);
        if (xb - xa >= 1.0 || last) {
            out.push_back({ static_cast<float>(xa), static_cast<float>(xb), c.value[ci], c.value[ci] });
            ++cur;
            continue;
        }
        // Several points within one pixel column: one item with their range.
        const double column = std::floor(xb);
        const TimeNs columnEnd = axis.timeAt(column + 1.0);
        // At least one point: rounding of columnEnd must not stall the walk.
        const auto k = std::max<std::ptrdiff_t>(
            cur + 2, std::lower_bound(c.ts.begin() + cur + 1, c.ts.end(), columnEnd) - c.ts.begin());
        CounterTrack::MinMax mm =
            c.rangeMinMax(static_cast<std::uint32_t>(cur + 1), static_cast<std::uint32_t>(k));
        mm.min = std::min(mm.min, c.value[ci]);
        mm.max = std::max(mm.max, c.value[ci]);
        if (xa < column)
            out.push_back({ static_cast<float>(xa), static_cast<float>(column), c.value[ci], c.value[ci] });
        out.push_back({ static_cast<float>(column), static_cast<float>(column + 1.0), mm.min, mm.max });
        cur = k - 1;
        if (k >= n) {
            // The last value holds to the right edge.
            out.push_back({ static_cast<float>(column + 1.0), static_cast<float>(width), c.value.back(),
                c.value.back() });
            break;
        }
    }
    return out;
}

} // namespace ks::widgets
