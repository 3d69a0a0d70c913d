#pragma once

#include "core/analysis/tables/hta_result.h"

#include <QWidget>

#include <memory>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace ks::widgets {

class AnalysisTableModel;

// One analysis table: a filter field over a sortable view. Its context menu
// copies (the selected rows, else the whole table) and asks for a CSV export,
// which the app answers with a file dialog (widgets show no dialogs).
class AnalysisTableView : public QWidget
{
    Q_OBJECT

public:
    explicit AnalysisTableView(QWidget* parent = nullptr);

    void setTable(std::shared_ptr<const core::AnalysisOutput> owner, const core::Table* table);

    const core::Table* table() const;

    QTableView* view() const { return m_view; }

    QLineEdit* filterField() const { return m_filter; }

    QSortFilterProxyModel* proxy() const { return m_proxy; }

    AnalysisTableModel* model() const { return m_model; }

    // Tab-separated text of the selected rows (all rows when none is selected),
    // in the order shown, with the header: pastes into a spreadsheet.
    QString selectionAsText() const;
    void copySelection() const;

signals:
    void exportCsvRequested();
    // A row was clicked in a table with a text "name" column (kernels, copies).
    void nameActivated(const QString& name);

private:
    void setupActions();
    void emitName(const QModelIndex& proxyIndex);

    AnalysisTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_view = nullptr;
    QLineEdit* m_filter = nullptr;
};

} // namespace ks::widgets
