#pragma once

#include <QString>

#include <cstdint>

class QAbstractItemView;
class QTableView;
class QTableWidgetItem;

namespace ks::widgets {

// Shared setup and clipboard support for the app's tables.

// Compact rows, sorting by SortRole through the view's proxy, row selection.
void setupTableView(QTableView* view);

// Columns as wide as their titles and cells, the last one filling what is left of
// the table's width but never narrower than its own title and cells: Qt's
// stretchLastSection squeezes it into the room left, cutting a long title at a
// laptop's width ("…communication overlap share"). Call after the model changes;
// the view scrolls sideways where the columns are wider than it.
void fitColumnsToContents(QTableView* view);

// The selected rows (or all rows when none is selected) as tab-separated text
// with a header line, ready to paste into a spreadsheet.
QString selectedRowsAsTsv(const QAbstractItemView* view);

// Copies selectedRowsAsTsv() to the clipboard, and adds a Ctrl+C action doing so.
void copySelectedRows(const QAbstractItemView* view);
void addCopyAction(QAbstractItemView* view);

// QTableWidget cells by the number policy (format.h): the readable text,
// right-aligned, the raw value in kRawTextRole (copy) and the tooltip.
// A duration in nanoseconds ("43.1 µs"; raw: the milliseconds, full precision).
QTableWidgetItem* durationItem(std::int64_t ns);
// An integer that names something (rank, iteration): as is, right-aligned.
QTableWidgetItem* identifierItem(std::int64_t id);

} // namespace ks::widgets
