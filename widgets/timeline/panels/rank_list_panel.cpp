#include "widgets/timeline/panels/rank_list_panel.h"

#include "widgets/common/format.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ks::widgets {

RankListPanel::RankListPanel(TimelineViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_tree(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("rankListPanel"));
    m_tree->setColumnCount(6);
    m_tree->setHeaderLabels(
        { tr("Rank"), tr("Device"), tr("Tracks"), tr("Slices"), tr("Clock offset"), tr("File") });
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree);
    connect(m_tree, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
        if (m_syncing || column != 0)
            return;
        m_state->setRankHidden(item->data(0, Qt::UserRole).toInt(), item->checkState(0) != Qt::Checked);
    });
    connect(m_tree, &QTreeWidget::itemActivated, this,
        [this](QTreeWidgetItem* item) { emit rankActivated(item->data(0, Qt::UserRole).toInt()); });
    connect(m_state, &TimelineViewState::layoutChanged, this, &RankListPanel::syncChecks);
}

void RankListPanel::setData(std::shared_ptr<const TimelineData> timeline)
{
    const bool same = m_data && timeline && m_data->set == timeline->set;
    m_data = std::move(timeline);
    if (same)
        return; // a new version of the same trace set (counters arrived)
    m_syncing = true;
    m_tree->clear();
    for (int r = 0; m_data && r < m_data->rankCount(); ++r) {
        const RankTimeline& rt = m_data->rank(r);
        const core::RankTrace& t = *rt.trace;
        auto* item = new QTreeWidgetItem(m_tree);
        item->setData(0, Qt::UserRole, r);
        item->setText(0, rt.label);
        item->setCheckState(0, Qt::Checked);
        item->setText(1, t.metadata.devices.empty() ? QString() : toQString(t.metadata.devices.front().name));
        item->setText(2, QString::number(t.tracks.size()));
        item->setText(3, formatCount(t.slices.size()));
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(3, Qt::AlignRight | Qt::AlignVCenter);
        showClockOffset(*item, r);
        item->setText(5, QFileInfo(QString::fromStdString(t.path)).fileName());
        item->setToolTip(5, QString::fromStdString(t.path));
    }
    for (int c = 0; c < 5; ++c)
        m_tree->resizeColumnToContents(c);
    m_syncing = false;
}

void RankListPanel::showClockOffset(QTreeWidgetItem& item, int r) const
{
    constexpr int kColumn = 4;
    const core::ClockOffsets* offsets = m_data->clockOffsets.get();
    if (!offsets || offsets->ranks.size() < 2 || static_cast<std::size_t>(r) >= offsets->ranks.size())
        return;
    const core::RankClockOffset& o = offsets->ranks[static_cast<std::size_t>(r)];
    item.setTextAlignment(kColumn, Qt::AlignRight | Qt::AlignVCenter);
    if (static_cast<std::size_t>(r) == offsets->referenceIndex) {
        item.setText(kColumn, tr("reference"));
        item.setToolTip(kColumn, tr("The other ranks' clocks are estimated against this rank's"));
    } else if (!o.estimated) {
        item.setText(kColumn, tr("not estimated"));
        item.setToolTip(kColumn, tr("This rank shares no collective with the others"));
    } else {
        const QString sign = o.offset < 0 ? QStringLiteral("−") : QStringLiteral("+");
        item.setText(kColumn,
            sign + formatDuration(o.offset < 0 ? -o.offset : o.offset) + QStringLiteral(" ± ")
                + formatDuration(o.spread));
        item.setToolTip(kColumn,
            tr("Added to this rank's times by the \"Estimated clocks\" alignment: the median difference of "
               "the ends of %1 collectives (%2 rejected as outliers); the ends agreed to within ± %3")
                .arg(o.samples)
                .arg(o.rejected)
                .arg(formatDuration(o.spread)));
    }
}

void RankListPanel::syncChecks()
{
    m_syncing = true;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_tree->topLevelItem(i);
        const bool hidden = m_state->isRankHidden(item->data(0, Qt::UserRole).toInt());
        item->setCheckState(0, hidden ? Qt::Unchecked : Qt::Checked);
    }
    m_syncing = false;
}

} // namespace ks::widgets
