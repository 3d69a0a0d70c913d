#pragma once

#include "core/analysis/cross_rank/job_critical_path.h"

#include <QString>
#include <QStringList>

#include <memory>

class QTableView;
class QTableWidget;
class QWidget;

namespace ks::widgets {

// The pieces the Job Critical Path dock and the what-if dialog share: a
// read-only table of rows, and the job path's segments in path order.

// ns as milliseconds with three decimals ("14.200").
QString pathMs(core::TimeNs ns);

// A read-only, row-selecting table with these headers, the last one stretched.
QTableWidget* makeReadOnlyTable(const QStringList& headers, QWidget* parent);

void setTableRow(QTableWidget* table, int row, const QStringList& cells);

// A read-only, row-selecting view of a PathSegmentsModel (its model()).
QTableView* makePathSegmentsView(QWidget* parent);
// One row per segment of the job's path, in path order (null: none).
void showPathSegments(QTableView* view, std::shared_ptr<const core::JobCriticalPath> job);
// The segment at `row` of such a view, or null.
const core::PathSegment* pathSegmentAt(const QTableView* view, int row);

} // namespace ks::widgets
