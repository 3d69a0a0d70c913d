// TimelineView: mouse, wheel, keyboard and context menus (T2, T4, T5, T1).
#include "core/model/rank_trace.h"
#include "widgets/common/format.h"
#include "widgets/timeline/model/time_axis.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_view.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ks::widgets {

namespace {
    constexpr double kWheelZoomPerStep = 0.8; // one notch (120) zooms in by 20 %
    constexpr double kKeyZoom = 0.8;
    constexpr double kKeyPanFraction = 0.15;
    constexpr int kDragThreshold = 4;
    constexpr int kLabelEdgeGrip = 3; // px either side of the label column's edge
} // namespace

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint angle = event->angleDelta();
    const QPointF pos = event->position();
    const bool overLabels = pos.x() < m_labelWidth;
    if (overLabels || (event->modifiers() & Qt::ShiftModifier)) {
        // Shift swaps the wheel axes on some platforms: take whichever moved.
        const int dy = angle.y() != 0 ? angle.y() : angle.x();
        setScrollY(m_scrollY - dy * TrackLayout::kLaneHeight * 3 / 120);
    } else {
        if (angle.x() != 0) // touchpads: horizontal swipe pans
            panByPixels(-angle.x() * geometryNow().trackWidth() / 1200.0);
        if (angle.y() != 0)
            zoomBy(std::pow(kWheelZoomPerStep, angle.y() / 120.0), pos.x());
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    if (event->button() == Qt::BackButton) {
        m_state->goBack();
        return;
    }
    if (event->button() == Qt::ForwardButton) {
        m_state->goForward();
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    m_pressPos = m_lastPos = event->position().toPoint();
    m_moved = false;
    if (onLabelEdge(m_pressPos)) {
        m_drag = Drag::LabelEdge;
        return;
    }
    const bool onRuler = m_pressPos.y() < TimelineGeometry::kRulerHeight && m_pressPos.x() >= m_labelWidth;
    const bool rangeDrag = onRuler || (event->modifiers() & Qt::ShiftModifier);
    m_drag = m_pressPos.x() < m_labelWidth ? Drag::None : (rangeDrag ? Drag::Range : Drag::Pan);
    if (m_drag == Drag::Range)
        m_rangeAnchor = timeAtX(m_pressPos.x());
    if (m_drag == Drag::Pan)
        setCursor(Qt::ClosedHandCursor);
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_drag != Drag::None && (pos - m_pressPos).manhattanLength() >= kDragThreshold)
        m_moved = true;
    if (m_drag == Drag::LabelEdge) {
        setLabelWidth(pos.x());
        m_lastPos = pos;
        return;
    }
    if (m_drag == Drag::None)
        setCursor(onLabelEdge(pos) ? Qt::SplitHCursor : Qt::ArrowCursor);
    if (m_drag == Drag::Pan && m_moved) {
        panByPixels(m_lastPos.x() - pos.x());
        setScrollY(m_scrollY + m_lastPos.y() - pos.y());
    } else if (m_drag == Drag::Range && m_moved) {
        const TimeNs t = timeAtX(pos.x());
        m_state->setSelectedRange(TimeRange { std::min(t, m_rangeAnchor), std::max(t, m_rangeAnchor) });
    }
    m_lastPos = pos;
    updateHover(pos);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const QPoint pos = event->position().toPoint();
    const Drag drag = m_drag;
    m_drag = Drag::None;
    unsetCursor();
    if (m_moved || drag == Drag::LabelEdge)
        return;
    // A click, not a drag.
    const int index = rowAt(pos);
    if (drag == Drag::Range && pos.y() < TimelineGeometry::kRulerHeight) {
        m_state->setSelectedRange(std::nullopt);
        return;
    }
    clickRow(index, pos);
}

void TimelineView::clickRow(int rowIndex, QPoint pos)
{
    if (rowIndex < 0) {
        m_state->setSelectedSlice({});
        return;
    }
    const TimelineRow& row = m_layout.rows()[static_cast<std::size_t>(rowIndex)];
    if (row.kind == RowKind::RankHeader && pos.x() < m_labelWidth) {
        m_state->setCollapsed(row.rank, !m_state->isCollapsed(row.rank));
        return;
    }
    m_state->setSelectedSlice(sliceAt(pos));
}

bool TimelineView::onLabelEdge(QPoint pos) const
{
    return std::abs(pos.x() - m_labelWidth) <= kLabelEdgeGrip;
}

void TimelineView::setLabelWidth(int width)
{
    // Leave the tracks at least a third of the view (before it is shown its
    // width means nothing: a restored setting is only kept sane).
    constexpr int kMostBeforeShown = 800;
    const int most =
        isVisible() ? std::max(TimelineGeometry::kMinLabelWidth, this->width() * 2 / 3) : kMostBeforeShown;
    width = std::clamp(width, TimelineGeometry::kMinLabelWidth, most);
    if (width == m_labelWidth)
        return;
    m_labelWidth = width;
    update();
    emit labelWidthChanged(width);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (onLabelEdge(event->position().toPoint())) {
        setLabelWidth(TimelineGeometry::kLabelWidth);
        return;
    }
    const QPoint pos = event->position().toPoint();
    const SliceRef ref = sliceAt(pos);
    if (ref.valid())
        revealSlice(ref, true);
    else if (const int index = rowAt(pos);
             index >= 0 && m_layout.rows()[static_cast<std::size_t>(index)].kind == RowKind::RankHeader)
        m_state->setCollapsed(m_layout.rows()[static_cast<std::size_t>(index)].rank,
            !m_state->isCollapsed(m_layout.rows()[static_cast<std::size_t>(index)].rank));
}

void TimelineView::updateHover(QPoint pos)
{
    const TimelineGeometry g = geometryNow();
    if (pos.x() >= g.trackLeft() && pos.x() < g.width && m_data)
        m_state->setCursorTime(timeAtX(pos.x()));
    else
        m_state->setCursorTime(std::nullopt);
    const SliceRef hovered = m_drag == Drag::None ? sliceAt(pos) : SliceRef {};
    if (hovered != m_hover) {
        m_hover = hovered;
        m_renderer.setHoverSlice(hovered);
        update();
    }
    emit hoverTextChanged(hoverText(pos));
}

QString TimelineView::hoverText(QPoint pos) const
{
    const int index = rowAt(pos);
    if (!m_data || index < 0 || pos.x() < m_labelWidth)
        return {};
    const TimelineRow& row = m_layout.rows()[static_cast<std::size_t>(index)];
    const TimeNs t = timeAtX(pos.x());
    QStringList parts { QStringLiteral("+") + formatPreciseTime(t - m_data->traceStart),
        m_data->rank(row.rank).label };
    if (row.kind == RowKind::Slices) {
        parts.append(m_data->rank(row.rank).trackNames[row.index]);
        const SliceRef ref = sliceAt(pos);
        if (ref.valid()) {
            const core::RankTrace& tr = m_data->trace(ref.rank);
            parts.append(toQString(tr.sliceName(ref.slice)).left(120) + QStringLiteral(" (")
                + formatDuration(tr.slices.duration(ref.slice)) + QChar(u')'));
        }
    } else if (row.kind == RowKind::Counter) {
        const CounterTrack& c = m_data->rankCounters(row.rank)[row.index];
        const std::ptrdiff_t at = c.pointAtOrBefore(t + m_data->offset(row.rank, m_state->alignment()));
        parts.append(c.name + QStringLiteral(" = ")
            + (at >= 0 ? c.formatValue(c.value[static_cast<std::size_t>(at)]) : QStringLiteral("—")));
    }
    return parts.join(QStringLiteral("  ·  "));
}

void TimelineView::leaveEvent(QEvent* event)
{
    m_state->setCursorTime(std::nullopt);
    m_hover = {};
    m_renderer.setHoverSlice({});
    emit hoverTextChanged(QString());
    QWidget::leaveEvent(event);
}

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        showTooltip(help->pos(), help->globalPos());
        return true;
    }
    if (event->type() == QEvent::PaletteChange) {
        // A light or dark desktop switched while open: the shades blend with the new background.
        m_renderer.setPalette(TimelinePalette(palette()));
        update();
    }
    return QWidget::event(event);
}

void TimelineView::showTooltip(QPoint pos, QPoint globalPos)
{
    const SliceRef ref = sliceAt(pos);
    if (!ref.valid()) {
        QToolTip::hideText();
        return;
    }
    const core::RankTrace& t = m_data->trace(ref.rank);
    const QString name = toQString(t.sliceName(ref.slice)).toHtmlEscaped();
    QToolTip::showText(globalPos,
        QStringLiteral("<b>%1</b><br>%2 · %3")
            .arg(name, formatDuration(t.slices.duration(ref.slice)),
                toQString(t.sliceCategory(ref.slice)).toHtmlEscaped()),
        this);
}

bool TimelineView::navigationKey(QKeyEvent* event)
{
    const QPoint local = mapFromGlobal(QCursor::pos());
    const TimelineGeometry g = geometryNow();
    const bool cursorInside =
        local.x() >= g.trackLeft() && local.x() < width() && local.y() >= 0 && local.y() < height();
    // Keys zoom at the mouse when it is over the tracks, else at the middle.
    const double anchor = cursorInside ? local.x() : g.trackLeft() + g.trackWidth() / 2;
    const bool alt = event->modifiers() & Qt::AltModifier;
    const double pan = g.trackWidth() * kKeyPanFraction;
    switch (event->key()) {
    case Qt::Key_W:
        zoomBy(kKeyZoom, anchor);
        return true;
    case Qt::Key_S:
        zoomBy(1.0 / kKeyZoom, anchor);
        return true;
    case Qt::Key_A:
        panByPixels(-pan);
        return true;
    case Qt::Key_D:
        panByPixels(pan);
        return true;
    case Qt::Key_Left:
        alt ? m_state->goBack() : panByPixels(-pan);
        return true;
    case Qt::Key_Right:
        alt ? m_state->goForward() : panByPixels(pan);
        return true;
    case Qt::Key_Up:
    case Qt::Key_Down:
        setScrollY(m_scrollY + (event->key() == Qt::Key_Up ? -3 : 3) * TrackLayout::kLaneHeight);
        return true;
    case Qt::Key_PageUp:
    case Qt::Key_PageDown:
        setScrollY(m_scrollY + (event->key() == Qt::Key_PageUp ? -9 : 9) * scrollViewportHeight() / 10);
        return true;
    case Qt::Key_F:
        m_state->fitAll();
        return true;
    case Qt::Key_Z:
        zoomToSelection();
        return true;
    default:
        return false;
    }
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    if (m_data && navigationKey(event)) {
        event->accept();
        return;
    }
    switch (event->key()) {
    case Qt::Key_BracketRight:
    case Qt::Key_BracketLeft: {
        const SliceRef next = m_data
            ? linkedSlice(*m_data, m_state->selectedSlice(), event->key() == Qt::Key_BracketRight)
            : SliceRef {};
        if (next.valid())
            revealSlice(next);
        break;
    }
    case Qt::Key_Escape:
        if (!m_state->selectedSlice().valid() && !m_state->selectedRange()) {
            event->ignore();
            return;
        }
        m_state->setSelectedSlice({});
        m_state->setSelectedRange(std::nullopt);
        break;
    case Qt::Key_N:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        emit searchStepRequested(!(event->modifiers() & Qt::ShiftModifier));
        break;
    case Qt::Key_Slash:
        emit searchFocusRequested();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event)
{
    const int index = rowAt(event->pos());
    if (index < 0 || !m_data)
        return;
    const TimelineRow row = m_layout.rows()[static_cast<std::size_t>(index)];
    QMenu menu(this);
    const SliceRef ref = sliceAt(event->pos());
    if (ref.valid()) {
        m_state->setSelectedSlice(ref);
        addSliceActions(menu, ref);
        menu.addSeparator();
    }
    addTrackActions(ref.valid() ? *menu.addMenu(tr("Track")) : menu, row);
    menu.exec(event->globalPos());
}

} // namespace ks::widgets
