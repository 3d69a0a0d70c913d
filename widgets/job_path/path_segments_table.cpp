#include "widgets/job_path/path_segments_table.h"

#include "widgets/common/table_view_utils.h"
#include "widgets/job_path/path_segments_model.h"

#include <QHeaderView>
#include <QObject>
#include <QTableView>
#include <QTableWidget>

namespace ks::widgets {

QString pathMs(core::TimeNs ns)
{
    return QString::number(static_cast<double>(ns) / 1e6, 'f', 3);
}

QTableWidget* makeReadOnlyTable(const QStringList& headers, QWidget* parent)
{
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->hide();
    // One line a row (the full text in the tooltip): more rows in a short view.
    t->setWordWrap(false);
    t->setTextElideMode(Qt::ElideMiddle);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

void setTableRow(QTableWidget* table, int row, const QStringList& cells)
{
    for (int c = 0; c < cells.size(); ++c)
        table->setItem(row, c, new QTableWidgetItem(cells[c]));
}

QTableView* makePathSegmentsView(QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(new PathSegmentsModel(view));
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->verticalHeader()->hide();
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    addCopyAction(view);
    return view;
}

void showPathSegments(QTableView* view, std::shared_ptr<const core::JobCriticalPath> job)
{
    auto* model = qobject_cast<PathSegmentsModel*>(view->model());
    model->setPath(std::move(job));
    view->resizeColumnsToContents(); // reads the rows in view, not every segment
}

const core::PathSegment* pathSegmentAt(const QTableView* view, int row)
{
    const auto* model = qobject_cast<const PathSegmentsModel*>(view->model());
    return model ? model->segment(row) : nullptr;
}

} // namespace ks::widgets
