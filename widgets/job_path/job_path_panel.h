#pragma once

#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/cross_rank/stragglers.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QTableView;
class QTableWidget;

namespace ks::widgets {

class NotComputedNotice;

// The job's critical path across ranks: its length and
// hops, the segments in path order (activating one asks to show it on the
// timeline), the stragglers per iteration and why, and a what-if field whose
// rules ("REGEX=F", "kind:BOUND=F") the app recomputes the path with. Where
// the app did not start the path (over its memory budget) the notice says
// what it would need and offers to compute it anyway or per iteration.
class JobPathPanel : public QWidget
{
    Q_OBJECT

public:
    explicit JobPathPanel(QWidget* parent = nullptr);

    // `iteration`: the path is that iteration's, not the whole trace's.
    // `stragglers`: the path's (core::findStragglers, computed once with it);
    // none given: found here.
    void setPath(std::shared_ptr<const core::JobCriticalPath> job,
        std::optional<std::int64_t> iteration = std::nullopt,
        std::optional<std::vector<core::Straggler>> stragglers = std::nullopt);
    // A status or error line in place of the path.
    void showMessage(const QString& text);
    // Not started for memory (see NotComputedNotice::showNotComputed).
    void showNotComputed(std::uint64_t needBytes, std::uint64_t budgetBytes,
        std::optional<std::uint64_t> iterationBytes, std::optional<std::int64_t> iteration);
    // Beside an iteration's path: what the whole trace's would need.
    void showWholeTraceNotComputed(std::uint64_t needBytes, std::uint64_t budgetBytes);

    // The summary line: the path's length, a status or an error.
    QString summaryText() const;

    NotComputedNotice* notice() const { return m_notice; }

    // The what-if result: before/after and the new path's segments.
    void showWhatIf(std::shared_ptr<const core::JobCriticalPath> after);
    void showWhatIfError(const QString& text);

    QTableView* segments() const { return m_segments; }

    QTableWidget* stragglers() const { return m_stragglers; }

    QLineEdit* whatIfRules() const { return m_rules; }

    QPushButton* showOnTimelineButton() const { return m_showOnTimeline; }

    // Keeps the "Show on timeline" button in step with the timeline's colour mode.
    void setShownOnTimeline(bool shown);

signals:
    void segmentActivated(std::int64_t rank, std::int64_t eventIndex);
    void whatIfRequested(const QStringList& rules);
    void showOnTimelineToggled(bool on);
    void whatIfDialogRequested();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fillStragglers(const std::vector<core::Straggler>& found);

    QLabel* m_summary = nullptr;
    NotComputedNotice* m_notice = nullptr;
    QSplitter* m_splitter = nullptr; // the two tables: side by side when wide
    QTableView* m_segments = nullptr;
    QTableWidget* m_stragglers = nullptr;
    QLineEdit* m_rules = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_showOnTimeline = nullptr;
    QLabel* m_whatIf = nullptr;
    std::shared_ptr<const core::JobCriticalPath> m_job;
};

} // namespace ks::widgets
