#include "widgets/timeline/panels/search_results_panel.h"

#include "core/model/rank_trace.h"
#include "widgets/common/format.h"
#include "widgets/timeline/model/time_axis.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_search.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace ks::widgets {

void SearchResultsModel::setResults(std::shared_ptr<const TimelineData> data,
    std::shared_ptr<const SearchResults> results, const Alignment& alignment)
{
    beginResetModel();
    m_data = std::move(data);
    m_results = std::move(results);
    m_alignment = alignment;
    endResetModel();
}

SliceRef SearchResultsModel::sliceAt(int row) const
{
    if (!m_results || row < 0 || static_cast<std::size_t>(row) >= m_results->ordered.size())
        return {};
    return m_results->ordered[static_cast<std::size_t>(row)];
}

int SearchResultsModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_results || !m_data)
        return 0;
    return static_cast<int>(std::min<std::size_t>(m_results->ordered.size(), INT_MAX));
}

int SearchResultsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SearchResultsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()
        || (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::TextAlignmentRole))
        return {};
    const SliceRef ref = sliceAt(index.row());
    if (!ref.valid())
        return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == StartColumn || index.column() == DurationColumn
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant();
    const core::RankTrace& t = m_data->trace(ref.rank);
    switch (index.column()) {
    case StartColumn:
        return QString(QStringLiteral("+")
            + formatPreciseTime(
                t.slices.start[ref.slice] - m_data->offset(ref.rank, m_alignment) - m_data->traceStart));
    case NameColumn:
        return toQString(t.sliceName(ref.slice));
    case RankColumn:
        return m_data->rank(ref.rank).label;
    case TrackColumn: {
        const core::TrackId track = t.trackOf(ref.slice);
        return track.valid() ? m_data->rank(ref.rank).trackNames[track.value] : QString();
    }
    case DurationColumn:
        return formatDuration(t.slices.duration(ref.slice));
    default:
        return {};
    }
}

QVariant SearchResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StartColumn:
        return tr("Start");
    case NameColumn:
        return tr("Name");
    case RankColumn:
        return tr("Rank");
    case TrackColumn:
        return tr("Track");
    case DurationColumn:
        return tr("Duration");
    default:
        return {};
    }
}

SearchResultsPanel::SearchResultsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new SearchResultsModel(this))
    , m_view(new QTableView(this))
    , m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("searchResultsPanel"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_view->horizontalHeader()->setSectionResizeMode(SearchResultsModel::NameColumn, QHeaderView::Stretch);
    // Widths from typical values, not ResizeToContents: that would measure every one of a million matches.
    const QFontMetrics fm = fontMetrics();
    m_view->setColumnWidth(
        SearchResultsModel::StartColumn, fm.horizontalAdvance(QStringLiteral("+00000.000000 ms")) + 16);
    m_view->setColumnWidth(SearchResultsModel::TrackColumn,
        fm.horizontalAdvance(QStringLiteral("thread 0000000 (pt_main_thread)")) + 12);
    m_view->setColumnWidth(
        SearchResultsModel::DurationColumn, fm.horizontalAdvance(QStringLiteral("000.000 ms")) + 16);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_summary->setContentsMargins(6, 3, 6, 3);
    m_summary->setWordWrap(true); // the dock is narrow beside the navigator at 1280x800
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    connect(m_view, &QTableView::activated, this,
        [this](const QModelIndex& i) { emit sliceActivated(m_model->sliceAt(i.row())); });
    connect(m_view, &QTableView::clicked, this,
        [this](const QModelIndex& i) { emit sliceActivated(m_model->sliceAt(i.row())); });
    setResults(nullptr, nullptr, Alignment::AsRecorded);
}

void SearchResultsPanel::setResults(std::shared_ptr<const TimelineData> timeline,
    std::shared_ptr<const SearchResults> results, const Alignment& alignment)
{
    m_data = timeline;
    m_results = results;
    m_model->setResults(std::move(timeline), results, alignment);
    if (!results || results->query.isEmpty())
        m_summary->setText(tr("Type in the timeline's search field (Ctrl+F) to list matching slices."));
    else if (!results->error.isEmpty())
        m_summary->setText(tr("Invalid pattern: %1").arg(results->error));
    else
        m_summary->setText(tr("%1 slices match “%2”")
                               .arg(formatCount(results->size()), results->query.text.toHtmlEscaped()));
}

void SearchResultsPanel::setCurrentSlice(SliceRef ref)
{
    if (!m_results || !m_data)
        return;
    const std::ptrdiff_t row = m_results->indexOf(*m_data, ref);
    if (row < 0 || row > INT_MAX)
        return;
    const QModelIndex index = m_model->index(static_cast<int>(row), 0);
    m_view->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
}

} // namespace ks::widgets
