// TimelineView: context menus of slices and tracks (T1 hide, pin, reorder; T4 jumps).
#include "core/model/rank_trace.h"
#include "widgets/common/format.h"
#include "widgets/timeline/model/rank_alignment.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_view.h"

#include <QApplication>
#include <QClipboard>
#include <QMenu>

#include <algorithm>
#include <climits>

namespace ks::widgets {

void TimelineView::addSliceActions(QMenu& menu, SliceRef ref)
{
    const core::RankTrace& t = m_data->trace(ref.rank);
    const QString name = toQString(t.sliceName(ref.slice));
    menu.addAction(tr("Zoom to Slice"), this, [this, ref] { revealSlice(ref, true); });
    const SliceRef out = linkedSlice(*m_data, ref, true);
    const SliceRef in = linkedSlice(*m_data, ref, false);
    QAction* toGpu = menu.addAction(tr("Go to GPU Work"), this, [this, out] { revealSlice(out); });
    toGpu->setShortcut(QKeySequence(Qt::Key_BracketRight));
    toGpu->setEnabled(out.valid());
    QAction* toLaunch = menu.addAction(tr("Go to Launch"), this, [this, in] { revealSlice(in); });
    toLaunch->setShortcut(QKeySequence(Qt::Key_BracketLeft));
    toLaunch->setEnabled(in.valid());
    menu.addAction(tr("Select Time Range of Slice"), this, [this, ref] {
        const core::RankTrace& tr = m_data->trace(ref.rank);
        const TimeNs off = m_data->offset(ref.rank, m_state->alignment());
        m_state->setSelectedRange(
            TimeRange { tr.slices.start[ref.slice] - off, tr.slices.end(ref.slice) - off });
    });
    if (canAlignOn(*m_data, ref)) {
        const bool collective =
            m_data->rank(ref.rank).sliceKind[ref.slice] == std::uint8_t(SliceKind::Communication)
            || (m_data->collectives
                && m_data->collectives->instanceOf(static_cast<std::size_t>(ref.rank), ref.slice));
        menu.addAction(collective ? tr("Align Ranks on This Collective") : tr("Align Ranks on This Kernel"),
            this, [this, ref] { alignOn(ref); });
    }
    menu.addAction(tr("Copy Name"), this, [name] { QApplication::clipboard()->setText(name); });
}

bool TimelineView::alignOn(SliceRef ref)
{
    if (!m_data)
        return false;
    auto anchor = collectiveAnchor(*m_data, ref);
    if (!anchor)
        return false;
    m_state->setAlignment(Alignment::onCollective(std::move(anchor)));
    // The anchor does not move: ref's rank is the reference. Keep it selected and in view.
    m_state->setSelectedSlice(ref);
    return true;
}

void TimelineView::moveTrack(const TimelineRow& row, int delta)
{
    QList<quint64> order = TrackLayout::effectiveOrder(*m_data, *m_state, row.rank);
    const qsizetype at = order.indexOf(row.key().packed());
    if (at < 0)
        return;
    // Skip over hidden tracks so one step moves past one visible neighbour.
    qsizetype to = at;
    do {
        to += delta;
    } while (to >= 0 && to < order.size() && m_state->isHidden(TrackKey::unpack(order[to])));
    if (delta == INT_MIN)
        to = 0;
    to = std::clamp<qsizetype>(to, 0, order.size() - 1);
    order.move(at, to);
    m_state->setTrackOrder(row.rank, order);
}

void TimelineView::addTrackActions(QMenu& menu, const TimelineRow& row)
{
    const int rank = row.rank;
    if (row.kind != RowKind::RankHeader) {
        const TrackKey key = row.key();
        menu.addAction(tr("Hide Track"), this, [this, key] { m_state->setHidden(key, true); });
        const bool pinned = m_state->isPinned(key);
        menu.addAction(pinned ? tr("Unpin Track") : tr("Pin to Top"), this,
            [this, key, pinned] { m_state->setPinned(key, !pinned); });
        if (!row.pinned) {
            menu.addAction(tr("Move Up"), this, [this, row] { moveTrack(row, -1); });
            menu.addAction(tr("Move Down"), this, [this, row] { moveTrack(row, 1); });
            menu.addAction(tr("Move to Top of Rank"), this, [this, row] { moveTrack(row, INT_MIN); });
        }
        menu.addSeparator();
    }
    const int hidden = m_state->hiddenCount(rank);
    QAction* showHidden = menu.addAction(
        tr("Show Hidden Tracks (%1)").arg(hidden), this, [this, rank] { m_state->showAllTracks(rank); });
    showHidden->setEnabled(hidden > 0);
    menu.addAction(tr("Reset Track Order"), this, [this, rank] { m_state->setTrackOrder(rank, {}); });
    menu.addSeparator();
    const bool collapsed = m_state->isCollapsed(rank);
    menu.addAction(collapsed ? tr("Expand %1").arg(m_data->rank(rank).label)
                             : tr("Collapse %1").arg(m_data->rank(rank).label),
        this, [this, rank, collapsed] { m_state->setCollapsed(rank, !collapsed); });
    menu.addAction(
        tr("Collapse All Ranks"), this, [this] { m_state->setAllCollapsed(m_data->rankCount(), true); });
    menu.addAction(
        tr("Expand All Ranks"), this, [this] { m_state->setAllCollapsed(m_data->rankCount(), false); });
    menu.addAction(tr("Hide %1").arg(m_data->rank(rank).label), this,
        [this, rank] { m_state->setRankHidden(rank, true); });
}

} // namespace ks::widgets
