#include "widgets/diff/iteration_alignment.h"

#include "core/model/rank_trace.h"
#include "widgets/timeline/model/timeline_data.h"

#include <string>

namespace ks::widgets {

namespace {

    // The earliest slice named ProfilerStep#step, as an index; kNoRow when none.
    std::uint32_t stepSlice(const core::RankTrace& trace, std::int64_t step)
    {
        const std::string wanted = "ProfilerStep#" + std::to_string(step);
        std::uint32_t nameId = core::kNoRow;
        for (std::uint32_t n = 0; n < trace.strings.size() && nameId == core::kNoRow; ++n) {
            if (trace.strings.view(core::NameId(n)) == wanted)
                nameId = n;
        }
        if (nameId == core::kNoRow)
            return core::kNoRow;
        std::uint32_t best = core::kNoRow;
        for (std::uint32_t s = 0; s < trace.slices.size(); ++s) {
            if (trace.slices.name[s].value == nameId
                && (best == core::kNoRow || trace.slices.start[s] < trace.slices.start[best]))
                best = s;
        }
        return best;
    }

} // namespace

std::optional<TimeNs> iterationStart(const core::RankTrace& trace, std::int64_t step)
{
    const std::uint32_t s = stepSlice(trace, step);
    if (s == core::kNoRow)
        return std::nullopt;
    return trace.slices.start[s];
}

std::optional<TimeNs> iterationEnd(const core::RankTrace& trace, std::int64_t step)
{
    const std::uint32_t s = stepSlice(trace, step);
    if (s == core::kNoRow)
        return std::nullopt;
    return trace.slices.end(s);
}

Alignment iterationAlignment(const TimelineData& data, std::int64_t step)
{
    auto anchor = std::make_shared<CollectiveAnchor>();
    anchor->name = QStringLiteral("ProfilerStep#%1").arg(step);
    anchor->offsets.assign(static_cast<std::size_t>(data.rankCount()), 0);
    for (int r = 0; r < data.rankCount(); ++r) {
        if (const auto start = iterationStart(data.trace(r), step)) {
            anchor->offsets[static_cast<std::size_t>(r)] = *start - data.traceStart;
            if (anchor->ranksFound++ == 0)
                anchor->referenceRank = r;
        }
    }
    return Alignment::onCollective(std::move(anchor));
}

} // namespace ks::widgets
