#include "widgets/timeline/panels/range_aggregation_panel.h"

#include "widgets/common/format.h"
#include "widgets/timeline/model/time_axis.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/model/track_layout.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace ks::widgets {

void RangeAggregationModel::setAggregate(RangeAggregate aggregate)
{
    beginResetModel();
    m_aggregate = std::move(aggregate);
    endResetModel();
}

int RangeAggregationModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_aggregate.rows.size());
}

int RangeAggregationModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RangeAggregationModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const AggregateRow& r = m_aggregate.rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() >= CountColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == SortRole) {
        switch (index.column()) {
        case NameColumn:
            return r.name;
        case KindColumn:
            return r.gpu ? 0 : 1;
        case CountColumn:
            return QVariant::fromValue<qulonglong>(r.count);
        case TotalColumn:
            return QVariant::fromValue<qlonglong>(r.total);
        case InRangeColumn:
            return QVariant::fromValue<qlonglong>(r.inRange);
        case MeanColumn:
            return r.mean();
        case MaxColumn:
            return QVariant::fromValue<qlonglong>(r.max);
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return r.name;
    case KindColumn:
        return r.gpu ? tr("GPU") : tr("CPU");
    case CountColumn:
        return formatCount(r.count);
    case TotalColumn:
        return formatDuration(r.total);
    case InRangeColumn:
        return formatDuration(r.inRange);
    case MeanColumn:
        return formatDuration(static_cast<std::int64_t>(r.mean() + 0.5));
    case MaxColumn:
        return formatDuration(r.max);
    default:
        return {};
    }
}

QVariant RangeAggregationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == InRangeColumn)
        return tr("Durations clipped to the selected range");
    if (role != Qt::DisplayRole)
        return {};
    static const char* const kNames[] = { "Name", "Track", "Count", "Total", "In range", "Mean", "Max" };
    return section >= 0 && section < ColumnCount ? tr(kNames[section]) : QVariant();
}

RangeAggregationPanel::RangeAggregationPanel(TimelineViewState* state, TaskPools* pools, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_model(new RangeAggregationModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_debounce(new QTimer(this))
    , m_tasks(pools, this)
{
    setObjectName(QStringLiteral("rangeAggregationPanel"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RangeAggregationModel::SortRole);
    m_proxy->setFilterKeyColumn(RangeAggregationModel::NameColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RangeAggregationModel::InRangeColumn, Qt::DescendingOrder);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_view->horizontalHeader()->setSectionResizeMode(RangeAggregationModel::NameColumn, QHeaderView::Stretch);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_filter->setPlaceholderText(tr("Filter names…"));
    m_filter->setClearButtonEnabled(true);
    m_summary->setContentsMargins(6, 3, 6, 3);
    m_summary->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_summary);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(120);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_debounce, &QTimer::timeout, this, &RangeAggregationPanel::schedule);
    connect(m_state, &TimelineViewState::selectedRangeChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_state, &TimelineViewState::alignmentChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_state, &TimelineViewState::layoutChanged, m_debounce, qOverload<>(&QTimer::start));
    apply({});
}

void RangeAggregationPanel::setData(std::shared_ptr<const TimelineData> timeline)
{
    m_data = std::move(timeline);
    schedule();
}

std::function<bool(TrackKey)> RangeAggregationPanel::includeFilter() const
{
    // Hidden tracks and hidden ranks are left out; collapsed ranks count. A
    // copy of the keys: the filter runs on a worker thread.
    QSet<quint64> hidden;
    for (int r = 0; r < m_data->rankCount(); ++r) {
        for (quint64 key : TrackLayout::defaultOrder(*m_data, r)) {
            if (m_state->isHidden(TrackKey::unpack(key)) || m_state->isRankHidden(r))
                hidden.insert(key);
        }
    }
    return [hidden](TrackKey k) { return !hidden.contains(k.packed()); };
}

void RangeAggregationPanel::recomputeNow()
{
    m_tasks.cancel();
    const auto range = m_state->selectedRange();
    if (!m_data || !range) {
        apply({});
        return;
    }
    apply(aggregateRange(*m_data, *range, m_state->alignment(), includeFilter()));
}

void RangeAggregationPanel::schedule()
{
    const auto range = m_state->selectedRange();
    if (!m_data || !range) {
        m_tasks.cancel();
        apply({});
        return;
    }
    m_summary->setText(tr("Aggregating %1…").arg(formatDuration(range->span())));
    auto snapshot = m_data;
    const Alignment alignment = m_state->alignment();
    auto include = includeFilter();
    m_tasks.start([snapshot, r = *range, alignment, include](
                      const TaskContext&) { return aggregateRange(*snapshot, r, alignment, include); },
        [this](RangeAggregate aggregate) { apply(std::move(aggregate)); },
        [this](const TaskFailure& failure) {
            apply({});
            m_summary->setText(tr("The range could not be aggregated: %1").arg(failure.message));
        });
}

void RangeAggregationPanel::apply(RangeAggregate aggregate)
{
    const auto range = m_state->selectedRange();
    if (!range || !m_data) {
        m_summary->setText(
            tr("Shift+drag on the timeline, or drag on its ruler, to aggregate a time range."));
    } else {
        m_summary->setText(
            tr("%1 from +%2 · %3 slices in %4 ranks · %5 names")
                .arg(formatDuration(range->span()), formatPreciseTime(range->start - m_data->traceStart),
                    formatCount(aggregate.slices), QString::number(aggregate.ranks),
                    formatCount(aggregate.rows.size())));
    }
    m_model->setAggregate(std::move(aggregate));
}

} // namespace ks::widgets
