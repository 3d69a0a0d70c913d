#pragma once

#include "core/analysis/cross_rank/job_critical_path.h"

#include <QDialog>
#include <QStringList>

#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QTableView;
class QTableWidget;

namespace ks::widgets {

// What-if on the job's critical path: a list of rules (a
// name regex or a bound kind, and a factor), Apply, and the result: path
// length, estimated iteration time and time per bound type before and after,
// and the new path's segments. The dialog checks the rules and asks for the
// recomputation (applyRequested, rules as "REGEX=F" / "kind:BOUND=F", the
// dock's syntax); the app runs it off the GUI thread and calls showResult.
class WhatIfDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Match
    {
        Name, // a regular expression searched in op and kernel names
        Kind // a path bound type
    };

    explicit WhatIfDialog(QWidget* parent = nullptr);

    // The path without scaling: the "before" column.
    void setBaseline(std::shared_ptr<const core::JobCriticalPath> job);
    void addRule(Match match, const QString& pattern, double factor);
    // Replaces the rows with rules in the dock's syntax ("REGEX=F", "kind:BOUND=F").
    void setRules(const QStringList& texts);
    // The rows as rule texts; nullopt and the status line naming the bad row when one is wrong.
    std::optional<QStringList> rules();

    // Checks the rules and emits applyRequested (nothing when one is wrong).
    void apply();
    void showBusy();
    void showResult(std::shared_ptr<const core::JobCriticalPath> after);
    void showError(const QString& text);

    QTableWidget* ruleTable() const { return m_rules; }

    QTableWidget* comparison() const { return m_comparison; }

    QTableView* segments() const { return m_segments; }

    QLabel* status() const { return m_status; }

signals:
    void applyRequested(const QStringList& rules);
    void resultShown();
    void segmentActivated(std::int64_t rank, std::int64_t eventIndex);

private:
    void setMatchCell(int row, Match match, const QString& pattern);
    void fillComparison();

    QTableWidget* m_rules = nullptr;
    QPushButton* m_apply = nullptr;
    QLabel* m_status = nullptr;
    QTableWidget* m_comparison = nullptr;
    QTableView* m_segments = nullptr;
    std::shared_ptr<const core::JobCriticalPath> m_before;
    std::shared_ptr<const core::JobCriticalPath> m_after;
};

} // namespace ks::widgets
