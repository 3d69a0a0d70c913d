#pragma once

#include "core/model/trace_set.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace ks::widgets {

class DiagnosticsModel;

// The "Import diagnostics" panel: a filterable, sortable table of everything the
// reader flagged, with a one-line summary, and a clear empty state when the
// import was clean.
class DiagnosticsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit DiagnosticsPanel(QWidget* parent = nullptr);

    void setTraceSet(std::shared_ptr<const core::TraceSet> set);

    DiagnosticsModel* model() const { return m_model; }

    QTableView* view() const { return m_view; }

    QString summary() const;

private:
    void updateSummary();

    DiagnosticsModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_summary = nullptr;
    QStackedWidget* m_stack = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_empty = nullptr;
    bool m_hasSet = false;
};

} // namespace ks::widgets
