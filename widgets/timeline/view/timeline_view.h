#pragma once

#include "widgets/timeline/model/track_layout.h"
#include "widgets/timeline/render/timeline_renderer.h"

#include <QPointer>
#include <QWidget>

#include <memory>

namespace ks::widgets {

class SearchResults;
class TimelineData;
class TimelineViewState;

// The timeline: one widget painting every track of every rank (style guide
// §3: no widget or item per event). It reads TimelineData and a shared
// TimelineViewState and turns mouse and keys into state changes (T2, T5).
// Vertical scrolling is driven from outside (a scroll bar) with setScrollY().
class TimelineView : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineView(TimelineViewState* state, QWidget* parent = nullptr);

    void setData(std::shared_ptr<const TimelineData> data);

    std::shared_ptr<const TimelineData> data() const { return m_data; }

    void setSearch(std::shared_ptr<const SearchResults> search);

    TimelineViewState* state() const { return m_state; }

    int scrollY() const { return m_scrollY; }

    void setScrollY(int y);

    int contentHeight() const { return m_layout.contentHeight(); }

    int scrollViewportHeight() const;

    const TrackLayout& layout() const { return m_layout; }

    TimelineGeometry geometryNow() const;

    TimelineRenderer& renderer() { return m_renderer; }

    // Coordinates (widget x/y) and hit-testing, public for tests.
    TimeNs timeAtX(double x) const;
    double xOfTime(TimeNs t) const;
    int rowAt(QPoint pos) const; // index into layout().rows(), -1 when none
    SliceRef sliceAt(QPoint pos) const;

    // Selects a slice and brings it into view: expands its rank, shows its
    // track, scrolls to its row and pans (or zooms, with `frame`) to it.
    void revealSlice(SliceRef ref, bool frame = false);
    void zoomToSelection();
    // Shows a rank (unhides and expands it) and scrolls its header to the top.
    void scrollToRank(int rank);
    void zoomBy(double factor, double anchorX);
    // T8: shifts every rank so that its instance of ref's kernel (same name,
    // same ordinal) starts with ref. False when ref is not GPU work.
    bool alignOn(SliceRef ref);

    // Width of the track-name column; the user drags its edge to change it.
    int labelWidth() const { return m_labelWidth; }

    void setLabelWidth(int width);
    void panByPixels(double dx);
    // Paints the view as shown into any paint device (image export, SVG).
    void renderTo(QPainter& painter, QSize size);

signals:
    void contentHeightChanged();
    void labelWidthChanged(int width);
    void scrollYChanged(int y);
    void searchFocusRequested();
    void searchStepRequested(bool forward);
    // What is under the mouse, for a status line: time, track, slice or counter value.
    void hoverTextChanged(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    enum class Drag
    {
        None,
        Pan,
        Range,
        LabelEdge
    };

    void relayout();
    bool onLabelEdge(QPoint pos) const;
    bool navigationKey(QKeyEvent* event);
    void scrollToRow(int rowIndex);
    void clickRow(int rowIndex, QPoint pos);
    void updateHover(QPoint pos);
    void addTrackActions(class QMenu& menu, const TimelineRow& row);
    void addSliceActions(class QMenu& menu, SliceRef ref);
    void moveTrack(const TimelineRow& row, int delta);
    void showTooltip(QPoint pos, QPoint globalPos);
    QString hoverText(QPoint pos) const;

    TimelineViewState* m_state = nullptr;
    std::shared_ptr<const TimelineData> m_data;
    std::shared_ptr<const SearchResults> m_search;
    TrackLayout m_layout;
    TimelineRenderer m_renderer;
    int m_scrollY = 0;
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    bool m_moved = false;
    TimeNs m_rangeAnchor = 0;
    SliceRef m_hover;
    int m_labelWidth = TimelineGeometry::kLabelWidth;
};

} // namespace ks::widgets
