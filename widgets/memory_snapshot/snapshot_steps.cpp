#include "widgets/memory_snapshot/snapshot_steps.h"

#include "core/analysis/snapshot_align/range_rows.h"
#include "core/analysis/snapshot_align/rank_alignment.h"
#include "core/model/trace_set.h"
#include "widgets/common/format.h"

#include <algorithm>
#include <optional>

namespace ks::widgets {

namespace {

    constexpr std::string_view kStepPrefix = "ProfilerStep#";

    bool isProfilerStep(const std::string& name)
    {
        return name.rfind(kStepPrefix, 0) == 0;
    }

    std::vector<StepMark> marksOf(const SnapshotViewData& data, std::size_t device,
        const core::SnapshotAlignment& alignment, int& lanes)
    {
        const core::DeviceSnapshotSummary& d = data.summary->devices[device];
        // The rows alignSnapshot measured each range over: a mark spans exactly the
        // events whose memory its row of the Steps table counts.
        const core::RangeRows rows(*data.snapshot, d);
        // The step after `count` rows: where the timeline draws the total after them.
        auto stepAfter = [&](std::size_t count) {
            return count == 0 ? 0.0 : double(d.timeline.rows[count - 1].timestep);
        };
        const std::vector<std::size_t> ranges = rangesOfDevice(alignment, d.device);
        const bool anyStep = std::any_of(ranges.begin(), ranges.end(),
            [&](std::size_t i) { return isProfilerStep(alignment.ranges[i].name); });
        std::vector<std::int64_t> laneEnds; // the annotations' lanes: where each one's last range ends
        std::vector<StepMark> marks;
        for (const std::size_t i : ranges) {
            const core::RangeMemory& r = alignment.ranges[i];
            const core::RowSpan span =
                rows.rowsIn(r.startUs + alignment.offsetUs, r.endUs + alignment.offsetUs);
            StepMark m;
            m.range = i;
            m.label = toQString(r.name);
            m.profilerStep = isProfilerStep(r.name);
            m.shortLabel = m.profilerStep ? m.label.mid(qsizetype(kStepPrefix.size()) - 1) : m.label;
            m.firstStep = stepAfter(span.before);
            m.endStep = stepAfter(span.through);
            if (!m.profilerStep) {
                // Nested annotations go a lane lower: the first lane free at the range's start.
                std::size_t lane = 0;
                while (lane < laneEnds.size() && laneEnds[lane] > r.startUs)
                    ++lane;
                lane = std::min(lane, std::size_t(kMaxAnnotationLanes - 1));
                if (lane == laneEnds.size())
                    laneEnds.push_back(r.endUs);
                else
                    laneEnds[lane] = std::max(laneEnds[lane], r.endUs);
                m.lane = int(lane) + (anyStep ? 1 : 0);
            }
            lanes = std::max(lanes, m.lane + 1);
            marks.push_back(std::move(m));
        }
        return marks;
    }

} // namespace

std::vector<std::size_t> rangesOfDevice(const core::SnapshotAlignment& alignment, std::int64_t device)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < alignment.ranges.size(); ++i)
        if (alignment.ranges[i].device == device)
            out.push_back(i);
    return out;
}

SnapshotSteps alignViewData(const SnapshotViewData& data, const core::TraceSet& set, int rankIndex)
{
    SnapshotSteps steps;
    for (const auto& rank : set.ranks)
        steps.ranks.push_back(rank->rank);
    if (set.ranks.empty())
        return steps;
    const std::optional<std::size_t> named =
        rankIndex >= 0 ? std::optional<std::size_t>(std::size_t(rankIndex)) : std::nullopt;
    core::RankAlignment aligned = core::alignWithRank(*data.snapshot, *data.summary, set, named);
    steps.choice = std::move(aligned.choice);
    steps.chosen = aligned.named;
    steps.rankIndex = aligned.rankIndex;
    const core::RankTrace& trace = *set.ranks[steps.rankIndex];
    steps.rank = trace.rank;
    steps.baseNs = trace.metadata.baseTimeNanoseconds.value_or(0);
    steps.originNs = set.startNs();
    steps.alignment = std::move(aligned.alignment);
    steps.marks.resize(data.devices.size());
    if (!steps.alignment.error.empty())
        return steps;
    for (std::size_t d = 0; d < data.devices.size(); ++d)
        steps.marks[d] = marksOf(data, d, steps.alignment, steps.lanes);
    return steps;
}

} // namespace ks::widgets
