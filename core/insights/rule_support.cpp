#include "core/insights/rule_support.h"

#include <algorithm>
#include <cstdio>

namespace ks::core {

std::string formatMs(TimeNs ns)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.3f ms", static_cast<double>(ns) / 1e6);
    return text;
}

std::string formatPct(double pct)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.1f %%", pct);
    return text;
}

std::string formatFactor(double factor)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.3gx", factor);
    return text;
}

Finding newFinding(const RuleInfo& rule, std::string title, double gainPct, std::vector<std::int64_t> ranks)
{
    Finding f;
    f.rule = std::string(rule.id);
    f.title = std::move(title);
    f.gainPct = gainPct;
    f.gainHighPct = gainPct;
    f.severity = severityOfGain(gainPct);
    f.ranks = std::move(ranks);
    return f;
}

RankWhere pathWhere(
    InsightsContext& context, std::int64_t rank, const std::function<bool(const PathSegment&)>& keep)
{
    RankWhere where;
    where.rank = rank;
    if (!context.hasPath())
        return where;
    std::vector<const PathSegment*> kept;
    for (const PathSegment& s : context.path().value().path.segments)
        if (s.rank == rank && s.piece.duration > 0 && keep(s))
            kept.push_back(&s);
    std::stable_sort(kept.begin(), kept.end(),
        [](const PathSegment* a, const PathSegment* b) { return a->piece.duration > b->piece.duration; });
    for (const PathSegment* s : kept) {
        if (where.ranges.size() == kMaxWherePerRank)
            break;
        if (s->piece.eventIndex >= 0 && where.events.size() < kMaxWherePerRank)
            where.events.push_back(s->piece.eventIndex);
        where.ranges.push_back(context.absoluteRange(s->piece.start, s->piece.start + s->piece.duration));
    }
    return where;
}

RankWhere intervalsWhere(InsightsContext& context, std::int64_t rank, const std::vector<Interval>& intervals)
{
    RankWhere where;
    where.rank = rank;
    for (const Interval& i : intervals) {
        if (where.ranges.size() == kMaxWherePerRank)
            break;
        where.ranges.push_back(context.absoluteRange(i.start, i.end));
    }
    return where;
}

RankWhere rowsWhere(InsightsContext& context, std::int64_t rank, std::vector<const FrameRow*> rows)
{
    std::stable_sort(
        rows.begin(), rows.end(), [](const FrameRow* a, const FrameRow* b) { return a->dur > b->dur; });
    RankWhere where;
    where.rank = rank;
    for (const FrameRow* row : rows) {
        if (where.events.size() == kMaxWherePerRank)
            break;
        where.events.push_back(row->eventIndex);
        where.ranges.push_back(context.absoluteRange(row->ts, row->end()));
    }
    return where;
}

std::vector<std::int64_t> iterationsOf(const std::vector<const FrameRow*>& rows)
{
    std::vector<std::int64_t> out;
    for (const FrameRow* row : rows)
        if (row->iteration >= 0)
            out.push_back(row->iteration);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

const RankFrame& onlyRank(InsightsContext& context)
{
    return context.frames().ranks.front();
}

DeviceRowsByStart::DeviceRowsByStart(const RankFrame& frame)
{
    for (const FrameRow& row : frame.rows)
        if (row.device)
            m_rows.push_back(&row);
    std::stable_sort(
        m_rows.begin(), m_rows.end(), [](const FrameRow* a, const FrameRow* b) { return a->ts < b->ts; });
    m_reach.reserve(m_rows.size());
    for (const FrameRow* row : m_rows)
        m_reach.push_back(m_reach.empty() ? row->end() : std::max(m_reach.back(), row->end()));
}

const FrameRow* DeviceRowsByStart::nextAt(TimeNs t) const
{
    const auto it = std::lower_bound(
        m_rows.begin(), m_rows.end(), t, [](const FrameRow* row, TimeNs v) { return row->ts < v; });
    return it == m_rows.end() ? nullptr : *it;
}

TimeNs DeviceRowsByStart::lastEndBefore(TimeNs t) const
{
    const auto before = std::lower_bound(m_rows.begin(), m_rows.end(), t, [](const FrameRow* row, TimeNs v) {
        return row->ts < v;
    }) - m_rows.begin();
    return before == 0 ? t : std::min(m_reach[static_cast<std::size_t>(before) - 1], t);
}

std::string enclosingOperator(const RankFrame& frame, const FrameRow& row)
{
    const RankTrace& trace = *frame.trace;
    const TrackId track = trace.trackOf(row.slice);
    const std::uint32_t level = trace.levelOf(row.slice);
    const TimeNs start = trace.slices.start[row.slice];
    const TimeNs end = trace.slices.end(row.slice);
    std::string outermost;
    std::uint32_t outermostLevel = level;
    trace.forEachSliceInRange(track, start, start, [&](std::uint32_t s) {
        const std::uint32_t l = trace.levelOf(s);
        if (l < outermostLevel && trace.slices.start[s] <= start && trace.slices.end(s) >= end
            && trace.sliceCategory(s) == "cpu_op") {
            outermostLevel = l;
            outermost = std::string(trace.sliceName(s));
        }
    });
    return outermost;
}

bool hasDeviceWork(const RankFrame& frame)
{
    return std::any_of(frame.rows.begin(), frame.rows.end(), [](const FrameRow& r) { return r.device; });
}

std::uint32_t rowIndexOf(const RankFrame& frame, const FrameRow& row)
{
    return static_cast<std::uint32_t>(&row - frame.rows.data());
}

WhatIfRankEdits scaledRows(
    std::int64_t rank, const RankFrame& frame, const std::vector<const FrameRow*>& rows, double factor)
{
    WhatIfRankEdits edits;
    edits.rank = rank;
    for (const FrameRow* row : rows)
        edits.rows[rowIndexOf(frame, *row)] = factor;
    return edits;
}

void sortWindowsByStart(WhatIfRankEdits& edits)
{
    std::stable_sort(edits.windows.begin(), edits.windows.end(),
        [](const WhatIfRankEdits::Window& a, const WhatIfRankEdits::Window& b) { return a.start < b.start; });
}

namespace {

    bool isHostPiece(PathBound bound)
    {
        return bound == PathBound::Cpu || bound == PathBound::LaunchOverhead || bound == PathBound::KernelGap;
    }

    std::vector<WaitedStretch> mergedByStart(std::vector<WaitedStretch> stretches)
    {
        std::stable_sort(stretches.begin(), stretches.end(),
            [](const WaitedStretch& a, const WaitedStretch& b) { return a.idle.start < b.idle.start; });
        std::vector<WaitedStretch> merged;
        for (const WaitedStretch& s : stretches) {
            if (!merged.empty() && s.idle.start < merged.back().idle.end) {
                merged.back().idle.end = std::max(merged.back().idle.end, s.idle.end);
                merged.back().wait += s.wait;
            } else
                merged.push_back(s);
        }
        return merged;
    }

} // namespace

HostPathPieces hostPathPieces(InsightsContext& context, std::int64_t rank)
{
    HostPathPieces h;
    if (!context.hasPath())
        return h;
    for (const PathSegment& s : context.path().value().path.segments)
        if (s.rank == rank && isHostPiece(s.piece.bound) && s.piece.duration > 0)
            h.pieces.push_back({ s.piece.start, s.piece.start + s.piece.duration });
    std::sort(h.pieces.begin(), h.pieces.end(),
        [](const Interval& a, const Interval& b) { return a.start < b.start; });
    h.before.assign(h.pieces.size() + 1, 0);
    for (std::size_t i = 0; i < h.pieces.size(); ++i)
        h.before[i + 1] = h.before[i] + (h.pieces[i].end - h.pieces[i].start);
    return h;
}

WhatIfRankEdits closingEdits(InsightsContext& context, std::int64_t rank, const HostPathPieces& host,
    std::vector<WaitedStretch> stretches, TimeNs& closable)
{
    const std::vector<Interval>& pieces = host.pieces;
    const auto firstFrom = [&](TimeNs t) {
        return static_cast<std::size_t>(std::lower_bound(pieces.begin(), pieces.end(), t,
                                            [](const Interval& i, TimeNs v) { return i.start < v; })
            - pieces.begin());
    };
    WhatIfRankEdits edits;
    edits.rank = rank;
    closable = 0;
    TimeNs covered = std::numeric_limits<TimeNs>::min(); // the previous window's end
    for (const WaitedStretch& s : mergedByStart(std::move(stretches))) {
        const TimeNs closed = std::min(s.wait, context.pathTimeWithin(rank, { s.idle }));
        if (closed <= 0)
            continue;
        std::size_t first = firstFrom(s.idle.start);
        if (first > 0 && pieces[first - 1].end > s.idle.start)
            --first; // the piece that runs into the stretch
        const TimeNs from = std::max(
            covered, first < pieces.size() ? std::min(pieces[first].start, s.idle.start) : s.idle.start);
        const TimeNs base = host.before[firstFrom(s.idle.end)] - host.before[firstFrom(from)];
        if (base <= 0)
            continue;
        closable += closed;
        const double keep = std::max(0.0, 1.0 - static_cast<double>(closed) / static_cast<double>(base));
        for (const PathBound bound : { PathBound::Cpu, PathBound::LaunchOverhead, PathBound::KernelGap })
            edits.windows.push_back({ from, s.idle.end, bound, keep });
        covered = s.idle.end;
    }
    sortWindowsByStart(edits);
    return edits;
}

WhatIfRankEdits closingEdits(
    InsightsContext& context, std::int64_t rank, std::vector<WaitedStretch> stretches, TimeNs& closable)
{
    return closingEdits(context, rank, hostPathPieces(context, rank), std::move(stretches), closable);
}

std::optional<std::string> pathMissing(InsightsContext& context)
{
    if (!context.hasPath())
        return "no critical path: " + context.path().error().message;
    return std::nullopt;
}

} // namespace ks::core
