#include "widgets/analysis/path_segments_table.h"

#include "widgets/common/table_view_utils.h"

#include <QHeaderView>
#include <QObject>
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

QTableWidget* makePathSegmentsTable(QWidget* parent)
{
    return makeReadOnlyTable({ QObject::tr("At"), QObject::tr("Rank"), QObject::tr("Bound"),
                                 QObject::tr("Duration"), QObject::tr("Op / kernel") },
        parent);
}

void fillPathSegments(QTableWidget* table, const core::JobCriticalPath& job)
{
    table->setRowCount(static_cast<int>(job.path.segments.size()));
    int row = 0;
    for (const core::PathSegment& s : job.path.segments) {
        const std::string_view bound = core::pathBoundName(s.piece.bound);
        table->setItem(row, 0, durationItem(s.pathOffset));
        table->setItem(row, 1, identifierItem(s.rank));
        table->setItem(row, 2,
            new QTableWidgetItem(QString::fromUtf8(bound.data(), static_cast<qsizetype>(bound.size()))));
        table->setItem(row, 3, durationItem(s.piece.duration));
        table->setItem(row++, 4, new QTableWidgetItem(QString::fromStdString(s.piece.name)));
    }
    table->resizeColumnsToContents();
}

} // namespace ks::widgets
