#pragma once

#include "widgets/timeline/model/draw_list.h"
#include "widgets/timeline/model/slice_queries.h"
#include "widgets/timeline/model/time_axis.h"
#include "widgets/timeline/model/track_layout.h"
#include "widgets/timeline/render/timeline_palette.h"

#include <QFont>
#include <QHash>
#include <QLineF>
#include <QLoggingCategory>
#include <QRect>

#include <memory>
#include <optional>
#include <unordered_map>

class QPainter;

Q_DECLARE_LOGGING_CATEGORY(lcTimelinePaint)

namespace ks::widgets {

class SearchResults;
class TimelineData;
class TimelineViewState;

// Where things are in the widget: the label column on the left, the ruler on
// top, the pinned rows under it, the scrolled rows below.
struct TimelineGeometry
{
    static constexpr int kLabelWidth = 240; // default width of the label column
    static constexpr int kMinLabelWidth = 80;
    static constexpr int kRulerHeight = 30;

    int width = 0;
    int height = 0;
    int scrollY = 0; // of the scrolled rows
    int labelWidth = kLabelWidth;

    int trackLeft() const { return labelWidth; }

    double trackWidth() const { return std::max(1, width - labelWidth); }

    int pinnedTop() const { return kRulerHeight; }

    int scrollTop(const TrackLayout& layout) const { return kRulerHeight + layout.pinnedHeight(); }

    // Top of a row in widget coordinates.
    int rowTop(const TrackLayout& layout, const TimelineRow& row) const
    {
        return row.pinned ? pinnedTop() + row.y : scrollTop(layout) + row.y - scrollY;
    }

    QRect trackArea() const
    {
        return { labelWidth, kRulerHeight, std::max(0, width - labelWidth),
            std::max(0, height - kRulerHeight) };
    }
};

// Figures of the last frame, for the benchmark and the paint log.
struct RenderStats
{
    int rowsDrawn = 0;
    int rowsBuilt = 0; // draw lists rebuilt (cache misses)
    std::size_t items = 0;
    double buildMs = 0;
    double paintMs = 0;
};

// Paints the timeline: rows from cached draw lists, then the overlays (range,
// selection, flows, cursor), the label column and the ruler. Used by the view,
// the image/SVG export and the benchmark. Draw lists are cached per row and
// keyed by (raw view range, width, data version, colour mode, search
// generation): hover, selection and vertical scrolling repaint from the cache.
class TimelineRenderer
{
public:
    TimelineRenderer();

    void setData(std::shared_ptr<const TimelineData> data);
    void setSearch(std::shared_ptr<const SearchResults> search);

    void setPalette(const TimelinePalette& palette) { m_palette = palette; }

    const TimelinePalette& palette() const { return m_palette; }

    void setFont(const QFont& font);

    void setHoverSlice(SliceRef ref) { m_hover = ref; }

    void clearCache() { m_cache.clear(); }

    // Builds the missing draw lists of the rows on screen (in parallel when
    // there are several), then paints everything.
    void render(
        QPainter& p, const TimelineGeometry& g, const TimelineViewState& state, const TrackLayout& layout);
    // Only the draw-list pass (for the benchmark's cold/warm split).
    void prepare(const TimelineGeometry& g, const TimelineViewState& state, const TrackLayout& layout);

    const RenderStats& stats() const { return m_stats; }

    // Where a flow arrow is drawn: from the end of its source slice to the
    // start of its target, at their lanes' middles (a rank header's middle when
    // the track is hidden or the rank collapsed).
    std::optional<QLineF> flowLine(const TimelineGeometry& g, const TimelineViewState& state,
        const TrackLayout& layout, const FlowLink& link) const;

    // The x extent of a slice as drawn; nullopt when it is off screen.
    std::optional<std::pair<double, double>> sliceX(
        const TimelineGeometry& g, const TimelineViewState& state, SliceRef ref) const;

private:
    struct DrawKey
    {
        TimeRange raw;
        int width = 0;
        std::uint64_t version = 0;
        ColorMode mode = ColorMode::KernelType;
        std::uint64_t search = 0;
        bool operator==(const DrawKey&) const = default;
    };

    struct CachedRow
    {
        DrawKey key;
        std::vector<SliceDrawItem> slices;
        std::vector<CounterDrawItem> counters;
        std::uint64_t frame = 0;
    };

    std::vector<int> visibleRows(const TimelineGeometry& g, const TrackLayout& layout) const;
    DrawKey keyFor(const TimelineGeometry& g, const TimelineViewState& state, const TimelineRow& row) const;
    // What buildSliceDrawList needs for `row`'s rank under `key`.
    SliceDrawParams sliceParams(const TimelineRow& row, const DrawKey& key) const;
    void buildRow(const TimelineRow& row, const DrawKey& key, CachedRow& out) const;

    void paintRows(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
        const TrackLayout& layout, const std::vector<int>& rows, bool pinned);
    void paintRowBackground(
        QPainter& p, const TimelineGeometry& g, const TimelineRow& row, int top, int index) const;
    void paintSliceRow(
        QPainter& p, const TimelineGeometry& g, const TimelineRow& row, int top, const CachedRow& c) const;
    void paintSliceLabel(
        QPainter& p, const QRect& r, const TimelineRow& row, const SliceDrawItem& item, bool dim) const;
    void paintRankOverview(
        QPainter& p, const TimelineGeometry& g, const TimelineRow& row, int top, const CachedRow& c) const;
    void paintCounterRow(
        QPainter& p, const TimelineGeometry& g, const TimelineRow& row, int top, const CachedRow& c) const;
    void paintGrid(
        QPainter& p, const TimelineGeometry& g, const TimeAxis& axis, const RulerScale& scale) const;
    void paintSelectedRange(
        QPainter& p, const TimelineGeometry& g, const TimeAxis& axis, const TimelineViewState& state) const;
    void paintSelection(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
        const TrackLayout& layout) const;
    void paintCollective(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
        const TrackLayout& layout) const;
    std::optional<QRect> sliceRect(const TimelineGeometry& g, const TimelineViewState& state,
        const TrackLayout& layout, SliceRef ref) const;
    void paintJobPathHops(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
        const TrackLayout& layout) const;
    void paintFlows(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
        const TrackLayout& layout) const;
    void paintFlow(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
        const TrackLayout& layout, const FlowLink& link, bool emphasis) const;
    std::optional<QPointF> slicePoint(const TimelineGeometry& g, const TimelineViewState& state,
        const TrackLayout& layout, SliceRef ref, bool atEnd) const;
    void paintCursor(
        QPainter& p, const TimelineGeometry& g, const TimeAxis& axis, const TimelineViewState& state) const;
    void paintLabels(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
        const TrackLayout& layout) const;
    void paintRankLabel(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
        const TimelineRow& row, int top) const;
    void paintRowLabel(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
        const TimelineRow& row, int top) const;
    void paintRuler(QPainter& p, const TimelineGeometry& g, const TimeAxis& axis, const RulerScale& scale,
        const TimelineViewState& state) const;
    void paintRulerMarks(
        QPainter& p, const TimelineGeometry& g, const TimeAxis& axis, const TimelineViewState& state) const;
    const QString& sliceLabel(int rank, std::uint32_t slice) const;

    std::shared_ptr<const TimelineData> m_data;
    std::shared_ptr<const SearchResults> m_search;
    TimelinePalette m_palette;
    QFont m_font;
    QFont m_smallFont;
    QFont m_boldFont;
    double m_charWidth = 7;
    SliceRef m_hover; // outlined under the mouse
    // Node-based: references stay valid while more rows are inserted.
    std::unordered_map<quint64, CachedRow> m_cache;
    mutable QHash<quint64, QString> m_labels; // (rank, name id) -> display name
    std::uint64_t m_frame = 0;
    TimeAxis m_axis; // of the frame being painted
    RulerScale m_scale;
    RenderStats m_stats;
};

// Kernel names are long C++ signatures: "void at::native::foo<float, 4>(...)"
// is shown as "at::native::foo<…>(…)" on slices (the details panel shows all).
QString shortSliceName(const QString& name);

} // namespace ks::widgets
