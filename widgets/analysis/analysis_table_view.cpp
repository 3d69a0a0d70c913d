#include "widgets/analysis/analysis_table_view.h"

#include "core/analysis/tables/column_id.h"
#include "widgets/analysis/analysis_table_model.h"
#include "widgets/common/table_lookup.h"
#include "widgets/common/table_view_utils.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace ks::widgets {

AnalysisTableView::AnalysisTableView(QWidget* parent)
    : QWidget(parent)
    , m_model(new AnalysisTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_filter(new QLineEdit(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(AnalysisTableModel::SortRole);
    m_proxy->setFilterKeyColumn(-1); // any column matches
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter->setPlaceholderText(tr("Filter rows…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the analysis's own order until a header is clicked
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->setVisible(false);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_view, &QTableView::clicked, this, &AnalysisTableView::emitName);
    connect(m_view, &QTableView::activated, this, &AnalysisTableView::emitName);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    setupActions();
}

void AnalysisTableView::setupActions()
{
    auto* copy = new QAction(tr("&Copy"), m_view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &AnalysisTableView::copySelection);
    auto* csv = new QAction(tr("&Export CSV…"), m_view);
    connect(csv, &QAction::triggered, this, &AnalysisTableView::exportCsvRequested);
    m_view->addAction(copy);
    m_view->addAction(csv);
}

void AnalysisTableView::setTable(std::shared_ptr<const core::AnalysisOutput> owner, const core::Table* table)
{
    m_model->setTable(std::move(owner), table);
    fitColumnsToContents(m_view);
}

const core::Table* AnalysisTableView::table() const
{
    return m_model->table();
}

QString AnalysisTableView::selectionAsText() const
{
    std::set<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        rows.insert(index.row());
    if (rows.empty()) {
        for (int r = 0; r < m_proxy->rowCount(); ++r)
            rows.insert(r);
    }
    QStringList lines;
    QStringList header;
    for (int c = 0; c < m_proxy->columnCount(); ++c)
        header << m_proxy->headerData(c, Qt::Horizontal, kRawTextRole).toString(); // HTA's names
    lines << header.join(QChar(u'\t'));
    for (int r : rows) {
        QStringList cells;
        for (int c = 0; c < m_proxy->columnCount(); ++c)
            cells << m_proxy->index(r, c).data(kRawTextRole).toString(); // full precision
        lines << cells.join(QChar(u'\t'));
    }
    return lines.join(QChar(u'\n')) + QChar(u'\n');
}

void AnalysisTableView::copySelection() const
{
    QApplication::clipboard()->setText(selectionAsText());
}

void AnalysisTableView::emitName(const QModelIndex& proxyIndex)
{
    const core::Table* t = table();
    if (!t || !proxyIndex.isValid())
        return;
    const auto column = t->find(core::kEventNameColumn);
    if (!column)
        return;
    const int row = m_proxy->mapToSource(proxyIndex).row();
    const QString name = textAt(*t, static_cast<std::size_t>(row), *column);
    if (!name.isEmpty())
        emit nameActivated(name);
}

} // namespace ks::widgets
