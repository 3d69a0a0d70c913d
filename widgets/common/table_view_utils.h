#pragma once

#include <QString>

class QAbstractItemView;
class QTableView;

namespace ks::widgets {

// Shared setup and clipboard support for the app's tables.

// Compact rows, sorting by SortRole through the view's proxy, row selection.
void setupTableView(QTableView* view);

// The selected rows (or all rows when none is selected) as tab-separated text
// with a header line, ready to paste into a spreadsheet.
QString selectedRowsAsTsv(const QAbstractItemView* view);

// Copies selectedRowsAsTsv() to the clipboard, and adds a Ctrl+C action doing so.
void copySelectedRows(const QAbstractItemView* view);
void addCopyAction(QAbstractItemView* view);

} // namespace ks::widgets
