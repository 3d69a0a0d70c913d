#include "widgets/timeline/model/range_aggregation.h"

#include "core/model/rank_trace.h"
#include "widgets/common/format.h"
#include "widgets/timeline/model/timeline_data.h"

#include <QHash>

#include <algorithm>

namespace ks::widgets {

namespace {

    struct Acc
    {
        std::uint64_t count = 0;
        TimeNs total = 0;
        TimeNs inRange = 0;
        TimeNs max = 0;
    };

    // Accumulates one track of one rank into acc (indexed by NameId).
    std::uint64_t addTrack(
        const core::RankTrace& t, std::uint32_t track, TimeRange raw, std::vector<Acc>& acc)
    {
        std::uint64_t n = 0;
        const core::Track& tr = t.tracks[track];
        for (std::uint32_t level = 0; level < tr.levelCount(); ++level) {
            const std::uint32_t end = tr.levelBegin[level + 1];
            for (std::uint32_t i = t.firstEndingAtOrAfter(tr, level, raw.start); i < end; ++i) {
                const TimeNs s = t.slices.start[i];
                if (s >= raw.end)
                    break;
                const TimeNs d = t.slices.duration(i);
                const bool inside = d > 0 ? (s + d > raw.start) : (s >= raw.start);
                if (!inside)
                    continue;
                Acc& a = acc[t.slices.name[i].value];
                ++a.count;
                a.total += d;
                a.max = std::max(a.max, d);
                a.inRange += std::min(s + d, raw.end) - std::max(s, raw.start);
                ++n;
            }
        }
        return n;
    }

} // namespace

RangeAggregate aggregateRange(const TimelineData& data, TimeRange range, const Alignment& alignment,
    const std::function<bool(TrackKey)>& include)
{
    RangeAggregate result;
    result.range = range;
    // name -> row, per track kind, merged over ranks by text.
    QHash<QString, std::size_t> index[2];
    for (int r = 0; r < data.rankCount(); ++r) {
        const core::RankTrace& t = data.trace(r);
        const TimeNs off = data.offset(r, alignment);
        const TimeRange raw { range.start + off, range.end + off };
        std::vector<Acc> acc[2];
        acc[0].resize(t.strings.size());
        acc[1].resize(t.strings.size());
        std::uint64_t n = 0;
        for (std::uint32_t track = 0; track < t.tracks.size(); ++track) {
            if (include && !include({ r, RowKind::Slices, track }))
                continue;
            n += addTrack(t, track, raw, acc[t.tracks[track].kind == core::TrackKind::GpuStream ? 1 : 0]);
        }
        if (n == 0)
            continue;
        ++result.ranks;
        result.slices += n;
        for (int gpu = 0; gpu < 2; ++gpu) {
            for (std::uint32_t name = 0; name < acc[gpu].size(); ++name) {
                const Acc& a = acc[gpu][name];
                if (a.count == 0)
                    continue;
                const QString text = toQString(t.strings.view(core::NameId(name)));
                auto it = index[gpu].find(text);
                if (it == index[gpu].end()) {
                    it = index[gpu].insert(text, result.rows.size());
                    result.rows.push_back({ text, gpu == 1 });
                }
                AggregateRow& row = result.rows[*it];
                row.count += a.count;
                row.total += a.total;
                row.inRange += a.inRange;
                row.max = std::max(row.max, a.max);
            }
        }
    }
    std::stable_sort(result.rows.begin(), result.rows.end(),
        [](const AggregateRow& a, const AggregateRow& b) { return a.inRange > b.inRange; });
    return result;
}

} // namespace ks::widgets
