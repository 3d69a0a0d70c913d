#include "widgets/timeline/render/timeline_renderer.h"

#include "widgets/common/format.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_search.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/render/paint_work.h"

#include <QElapsedTimer>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

Q_LOGGING_CATEGORY(lcTimelinePaint, "kinetoscope.timeline.paint", QtWarningMsg)

namespace ks::widgets {

QString shortSliceName(const QString& name)
{
    // Only C++ signatures: "PyTorch Profiler (0)" or "aten::add" keep their text.
    if (!name.contains(QChar(u'<')) && !name.startsWith(QStringLiteral("void ")))
        return name;
    QString s = name;
    if (s.startsWith(QStringLiteral("void ")))
        s.remove(0, 5);
    // Collapse template arguments and parameter lists: the signature is in the details panel.
    QString out;
    out.reserve(s.size());
    int angle = 0;
    int paren = 0;
    for (QChar c : s) {
        if (c == u'<') {
            if (angle++ == 0 && paren == 0)
                out += QStringLiteral("<…>");
            continue;
        }
        if (c == u'>' && angle > 0) {
            --angle;
            continue;
        }
        if (c == u'(' && angle == 0) {
            if (paren++ == 0)
                out += QStringLiteral("(…)");
            continue;
        }
        if (c == u')' && paren > 0) {
            --paren;
            continue;
        }
        if (angle == 0 && paren == 0)
            out += c;
    }
    // Names that are only a call ("(…)") keep their text.
    return out.size() < 4 ? name : out;
}

TimelineRenderer::TimelineRenderer()
{
    setFont(QFont());
}

void TimelineRenderer::setFont(const QFont& font)
{
    m_font = font;
    m_font.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.9));
    m_smallFont = m_font;
    m_smallFont.setPointSizeF(m_font.pointSizeF() * 0.88);
    m_boldFont = font;
    m_boldFont.setBold(true);
    // A slightly generous average: eliding by count must not overflow the rectangle.
    m_charWidth = QFontMetricsF(m_font).averageCharWidth() * 1.12;
    m_labels.clear();
}

void TimelineRenderer::setData(std::shared_ptr<const TimelineData> data)
{
    m_data = std::move(data);
    m_cache.clear();
    m_labels.clear();
}

void TimelineRenderer::setSearch(std::shared_ptr<const SearchResults> search)
{
    m_search = std::move(search);
}

std::vector<int> TimelineRenderer::visibleRows(const TimelineGeometry& g, const TrackLayout& layout) const
{
    std::vector<int> out;
    const auto& rows = layout.rows();
    const int scrollTop = g.scrollTop(layout);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const TimelineRow& row = rows[i];
        const int top = g.rowTop(layout, row);
        // Vertical culling: scrolled rows must show below the pinned area.
        const int minY = row.pinned ? g.pinnedTop() : scrollTop;
        if (top + row.height > minY && top < g.height)
            out.push_back(static_cast<int>(i));
    }
    return out;
}

TimelineRenderer::DrawKey TimelineRenderer::keyFor(
    const TimelineGeometry& g, const TimelineViewState& state, const TimelineRow& row) const
{
    const TimeNs off = m_data->offset(row.rank, state.alignment());
    const TimeRange v = state.visibleRange();
    DrawKey key;
    key.raw = { v.start + off, v.end + off };
    key.width = static_cast<int>(g.trackWidth());
    key.version = m_data->version;
    key.mode = state.colorMode();
    key.search = m_search ? m_search->generation : 0;
    return key;
}

SliceDrawParams TimelineRenderer::sliceParams(const TimelineRow& row, const DrawKey& key) const
{
    SliceDrawParams params;
    params.raw = key.raw;
    params.width = key.width;
    params.mode = key.mode;
    params.matches = m_search && !m_search->query.isEmpty() ? m_search->rank(row.rank) : nullptr;
    params.criticalPath = m_data->criticalPath(row.rank);
    params.jobPath = m_data->jobPathMarks(row.rank);
    params.nameClasses = m_data->nameClasses(row.rank);
    return params;
}

void TimelineRenderer::buildRow(const TimelineRow& row, const DrawKey& key, CachedRow& out) const
{
    out.key = key;
    out.slices.clear();
    out.counters.clear();
    if (row.kind == RowKind::Slices) {
        const SliceDrawParams params = sliceParams(row, key);
        out.slices = buildSliceDrawList(m_data->rank(row.rank), row.index, params);
    } else if (row.kind == RowKind::Counter) {
        out.counters = buildCounterDrawList(m_data->rankCounters(row.rank)[row.index], key.raw, key.width);
    } else {
        // A collapsed rank's header shows its GPU streams in one band: an
        // overview to compare ranks at a glance. `lane` is the stream's ordinal.
        const RankTimeline& rt = m_data->rank(row.rank);
        const SliceDrawParams params = sliceParams(row, key);
        std::uint16_t ordinal = 0;
        for (std::uint32_t t = 0; t < rt.trace->tracks.size(); ++t) {
            if (rt.trace->tracks[t].kind != core::TrackKind::GpuStream)
                continue;
            for (SliceDrawItem item : buildSliceDrawList(rt, t, params)) {
                item.lane = ordinal;
                out.slices.push_back(item);
            }
            ++ordinal;
        }
        // Lanes share the band: draw annotations first and kernels, copies and
        // collectives over them, so the work itself shows.
        auto priority = [&rt](const SliceDrawItem& item) {
            switch (static_cast<SliceKind>(rt.sliceKind[item.slice])) {
            case SliceKind::GpuOther:
                return 0;
            case SliceKind::Sync:
                return 1;
            case SliceKind::Compute:
                return 2;
            case SliceKind::Memory:
                return 3;
            default:
                return 4;
            }
        };
        std::stable_sort(out.slices.begin(), out.slices.end(),
            [&](const SliceDrawItem& a, const SliceDrawItem& b) { return priority(a) < priority(b); });
    }
}

void TimelineRenderer::prepare(
    const TimelineGeometry& g, const TimelineViewState& state, const TrackLayout& layout)
{
    if (!m_data)
        return;
    QElapsedTimer timer;
    timer.start();
    ++m_frame;
    std::vector<std::pair<const TimelineRow*, CachedRow*>> work;
    std::vector<DrawKey> keys;
    for (int index : visibleRows(g, layout)) {
        const TimelineRow& row = layout.rows()[static_cast<std::size_t>(index)];
        if (row.kind == RowKind::RankHeader && !state.isCollapsed(row.rank))
            continue;
        const DrawKey key = keyFor(g, state, row);
        CachedRow& cached = m_cache[row.key().packed()];
        cached.frame = m_frame;
        if (cached.key == key)
            continue;
        work.emplace_back(&row, &cached);
        keys.push_back(key);
    }
    // std::unordered_map keeps the references taken above valid.
    auto build = [&](std::size_t i) { buildRow(*work[i].first, keys[i], *work[i].second); };
    if (work.size() >= 3)
        runPaintWork(work.size(), build);
    else
        for (std::size_t i = 0; i < work.size(); ++i)
            build(i);
    // Forget rows that have been off screen for a while.
    if (m_cache.size() > 512) {
        for (auto it = m_cache.begin(); it != m_cache.end();)
            it = m_frame - it->second.frame > 8 ? m_cache.erase(it) : std::next(it);
    }
    m_stats.rowsBuilt = static_cast<int>(work.size());
    m_stats.buildMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

void TimelineRenderer::render(
    QPainter& p, const TimelineGeometry& g, const TimelineViewState& state, const TrackLayout& layout)
{
    p.fillRect(QRect(0, 0, g.width, g.height), m_palette.background);
    if (!m_data)
        return;
    prepare(g, state, layout);
    QElapsedTimer timer;
    timer.start();
    // Opaque axis-aligned rectangles: antialiasing would only blur edges and cost time.
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    m_axis = TimeAxis(state.visibleRange(), g.trackWidth());
    m_scale = rulerScale(m_axis, m_data->traceStart);
    const TimeAxis& axis = m_axis;
    const RulerScale& scale = m_scale;
    m_stats.rowsDrawn = 0;
    m_stats.items = 0;
    const std::vector<int> rows = visibleRows(g, layout);
    paintRows(p, g, state, layout, rows, false); // scrolled rows,
    paintRows(p, g, state, layout, rows, true); // then pinned rows on top
    if (layout.pinnedHeight() > 0)
        p.fillRect(QRect(0, g.scrollTop(layout) - 1, g.width, 2), m_palette.separator);
    p.save();
    p.setClipRect(g.trackArea());
    paintSelectedRange(p, g, axis, state);
    paintSelection(p, g, state, layout);
    paintCollective(p, g, state, layout);
    paintJobPathHops(p, g, state, layout);
    paintFlows(p, g, state, layout);
    p.restore();
    paintLabels(p, g, state, layout);
    paintRuler(p, g, axis, scale, state);
    paintCursor(p, g, axis, state);
    m_stats.paintMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    qCDebug(lcTimelinePaint) << "rows" << m_stats.rowsDrawn << "built" << m_stats.rowsBuilt << "items"
                             << m_stats.items << "build ms" << m_stats.buildMs << "paint ms"
                             << m_stats.paintMs;
}

void TimelineRenderer::paintRows(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
    const TrackLayout& layout, const std::vector<int>& rows, bool pinned)
{
    const int areaTop = pinned ? g.pinnedTop() : g.scrollTop(layout);
    const int areaBottom = pinned ? g.scrollTop(layout) : g.height;
    if (areaBottom <= areaTop)
        return;
    p.save();
    p.setClipRect(QRect(0, areaTop, g.width, areaBottom - areaTop));
    for (int index : rows) {
        const TimelineRow& row = layout.rows()[static_cast<std::size_t>(index)];
        if (row.pinned == pinned)
            paintRowBackground(p, g, row, g.rowTop(layout, row), index);
    }
    paintGrid(p, g, m_axis, m_scale);
    for (int index : rows) {
        const TimelineRow& row = layout.rows()[static_cast<std::size_t>(index)];
        if (row.pinned != pinned || (row.kind == RowKind::RankHeader && !state.isCollapsed(row.rank)))
            continue;
        const auto it = m_cache.find(row.key().packed());
        if (it == m_cache.end())
            continue;
        const int top = g.rowTop(layout, row);
        if (row.kind == RowKind::Slices)
            paintSliceRow(p, g, row, top, it->second);
        else if (row.kind == RowKind::Counter)
            paintCounterRow(p, g, row, top, it->second);
        else
            paintRankOverview(p, g, row, top, it->second);
        ++m_stats.rowsDrawn;
        m_stats.items += it->second.slices.size() + it->second.counters.size();
    }
    p.restore();
}

void TimelineRenderer::paintRowBackground(
    QPainter& p, const TimelineGeometry& g, const TimelineRow& row, int top, int index) const
{
    if (row.kind == RowKind::RankHeader) {
        p.fillRect(QRect(0, top, g.width, row.height), m_palette.headerBackground);
        p.fillRect(QRect(0, top, g.width, 1), m_palette.separator);
        return;
    }
    p.fillRect(QRect(g.trackLeft(), top, g.width - g.trackLeft(), row.height),
        index % 2 ? m_palette.alternateBackground : m_palette.background);
    p.fillRect(QRect(g.trackLeft(), top + row.height - 1, g.width - g.trackLeft(), 1), m_palette.gridLine);
}

const QString& TimelineRenderer::sliceLabel(int rank, std::uint32_t slice) const
{
    const core::RankTrace& t = m_data->trace(rank);
    const quint64 key = (quint64(quint32(rank)) << 32) | t.slices.name[slice].value;
    auto it = m_labels.find(key);
    if (it == m_labels.end())
        it = m_labels.insert(key, shortSliceName(toQString(t.sliceName(slice))));
    return *it;
}

void TimelineRenderer::paintSliceLabel(
    QPainter& p, const QRect& r, const TimelineRow& row, const SliceDrawItem& item, bool dim) const
{
    const int avail = r.width() - 6;
    if (avail < 3 * m_charWidth)
        return;
    QString text;
    if (item.flags & kDrawMerged) {
        text = QStringLiteral("%1 events").arg(formatCount(item.count));
    } else {
        const QString& name = sliceLabel(row.rank, item.slice);
        const auto fit = static_cast<qsizetype>(avail / m_charWidth);
        text = name.size() <= fit ? name : name.left(std::max<qsizetype>(1, fit - 1)) + QChar(u'…');
    }
    p.setPen(dim || (item.flags & kDrawMerged) ? m_palette.mutedText : m_palette.text(item.colorKey));
    p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine, text);
}

void TimelineRenderer::paintSliceRow(
    QPainter& p, const TimelineGeometry& g, const TimelineRow& row, int top, const CachedRow& c) const
{
    const bool searching = m_search && !m_search->query.isEmpty();
    const int left = g.trackLeft();
    p.setFont(m_font);
    for (const SliceDrawItem& item : c.slices) {
        const int xa = static_cast<int>(std::floor(item.x0));
        int xb = std::max(xa + 1, static_cast<int>(std::lround(item.x1)));
        // A one-pixel gap between wide neighbours keeps back-to-back kernels apart.
        if (!(item.flags & kDrawMerged) && xb - xa >= 5)
            --xb;
        const QRect r(
            left + xa, top + TrackLayout::laneTop(item.lane) + 1, xb - xa, TrackLayout::kLaneHeight - 2);
        const bool dim = searching && !(item.flags & kDrawMatch);
        p.fillRect(r, dim ? m_palette.dimmed(item.colorKey) : m_palette.fill(item.colorKey, item.shade));
        if (r.width() >= 24)
            paintSliceLabel(p, r, row, item, dim);
    }
}

void TimelineRenderer::paintRankOverview(
    QPainter& p, const TimelineGeometry& g, const TimelineRow& row, int top, const CachedRow& c) const
{
    int streams = 0;
    for (const SliceDrawItem& item : c.slices)
        streams = std::max(streams, item.lane + 1);
    if (streams == 0)
        return;
    const int bandTop = top + 6;
    const int bandHeight = row.height - 12;
    const bool searching = m_search && !m_search->query.isEmpty();
    for (const SliceDrawItem& item : c.slices) {
        const int y0 = bandTop + item.lane * bandHeight / streams;
        const int y1 = bandTop + (item.lane + 1) * bandHeight / streams;
        const int xa = static_cast<int>(std::floor(item.x0));
        const int xb = std::max(xa + 1, static_cast<int>(std::lround(item.x1)));
        const bool dim = searching && !(item.flags & kDrawMatch);
        p.fillRect(QRect(g.trackLeft() + xa, y0, xb - xa, std::max(1, y1 - y0 - (streams > 1 ? 1 : 0))),
            dim ? m_palette.dimmed(item.colorKey) : m_palette.fill(item.colorKey, item.shade));
    }
}

void TimelineRenderer::paintCounterRow(
    QPainter& p, const TimelineGeometry& g, const TimelineRow& row, int top, const CachedRow& c) const
{
    const CounterTrack& counter = m_data->rankCounters(row.rank)[row.index];
    const double lo = counter.minValue;
    const double hi = counter.maxValue > lo ? counter.maxValue : lo + 1.0;
    const int plotTop = top + 5;
    const int plotHeight = row.height - 8;
    auto yOf = [&](double v) {
        return plotTop + static_cast<int>(std::lround((hi - v) / (hi - lo) * plotHeight));
    };
    const int base = yOf(std::clamp(0.0, lo, hi));
    const int left = g.trackLeft();
    for (const CounterDrawItem& item : c.counters) {
        if (!std::isfinite(item.lo) || !std::isfinite(item.hi))
            continue; // no sample here (NaN), or a pixel column holding only such stretches
        const int xa = left + static_cast<int>(std::floor(item.x0));
        const int xb = left
            + std::max(static_cast<int>(std::floor(item.x0)) + 1, static_cast<int>(std::lround(item.x1)));
        const int yHi = yOf(item.hi);
        const int yLo = yOf(item.lo);
        if (yHi < base)
            p.fillRect(QRect(xa, yHi, xb - xa, base - yHi), m_palette.counterFill);
        else if (yHi > base)
            p.fillRect(QRect(xa, base, xb - xa, yHi - base), m_palette.counterFill);
        // The value's edge, and its range where several points share a column.
        p.fillRect(QRect(xa, yHi, xb - xa, std::max(1, yLo - yHi + 1)), m_palette.counterLine);
    }
}

void TimelineRenderer::paintGrid(
    QPainter& p, const TimelineGeometry& g, const TimeAxis& axis, const RulerScale& scale) const
{
    for (TimeNs t : scale.majors) {
        const int x = g.trackLeft() + static_cast<int>(std::lround(axis.x(t)));
        p.fillRect(QRect(x, 0, 1, g.height), m_palette.gridLine);
    }
}

} // namespace ks::widgets
