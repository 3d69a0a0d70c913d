#pragma once

#include "core/model/trace_set.h"
#include "core/summary/job_overview.h"

#include <QList>
#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QSplitter;
class QTableView;
class QTabWidget;

namespace ks::widgets {

class TaskPools;

class AnalysisChart;
class AnalysisTableView;
class JobRankModel;
class JobStripView;
class RankOverviewPanel;
class TimelineViewState;
class TimelineWidget;

// Job mode: a job of any rank count from its summary. Every rank as a strip
// (JobStripView) under the full timeline of the ranks loaded on request, and
// beside them the rank list, the Rank Overview heat map (X1) and the
// collective skew table (X2), all read from the summary. Loading is the app's:
// the view asks with ranksRequested and is given the loaded set.
class JobModeView : public QWidget
{
    Q_OBJECT

public:
    // `pools` runs the loaded ranks' timeline jobs (the window's TaskPools).
    explicit JobModeView(TaskPools* pools, QWidget* parent = nullptr);
    ~JobModeView() override;

    void setJob(std::shared_ptr<const core::JobOverview> job);

    std::shared_ptr<const core::JobOverview> job() const { return m_job; }

    // The full traces of some ranks shown above the strips; null hides and frees them.
    void setLoadedRanks(std::shared_ptr<const core::TraceSet> ranks);

    std::shared_ptr<const core::TraceSet> loadedRanks() const { return m_loaded; }

    JobStripView* strips() const { return m_strips; }

    QTableView* rankTable() const { return m_rankTable; }

    AnalysisChart* heatMap() const { return m_heatMap; }

    AnalysisTableView* skewTable() const { return m_skew; }

    TimelineWidget* detailTimeline() const { return m_detail; }

    QTabWidget* sideTabs() const { return m_tabs; }

signals:
    // Rows of job()->ranks whose full traces the user wants to see.
    void ranksRequested(const QList<qsizetype>& rows);
    // The user closed the loaded ranks (their memory can be freed).
    void loadedRanksClosed();

protected:
    void resizeEvent(QResizeEvent* event) override;
    // The strips and the rank table side by side: see resizeEvent.
    void fitSides();

private:
    void requestSelected();
    void updateSelectionActions();
    void syncTableSelection();

    std::shared_ptr<const core::JobOverview> m_job;
    std::shared_ptr<const core::TraceSet> m_loaded;
    QLabel* m_summaryLine = nullptr;
    QLabel* m_hover = nullptr;
    QPushButton* m_loadButton = nullptr;
    QSplitter* m_splitter = nullptr;
    QSplitter* m_sides = nullptr; // strips | tabs
    bool m_userSizedSides = false;
    QWidget* m_detailPane = nullptr;
    QLabel* m_detailTitle = nullptr;
    TimelineViewState* m_detailState = nullptr;
    TimelineWidget* m_detail = nullptr;
    JobStripView* m_strips = nullptr;
    QTabWidget* m_tabs = nullptr;
    JobRankModel* m_rankModel = nullptr;
    QTableView* m_rankTable = nullptr;
    QWidget* m_overviewPage = nullptr;
    AnalysisChart* m_heatMap = nullptr;
    RankOverviewPanel* m_overviewPanel = nullptr;
    AnalysisTableView* m_skew = nullptr;
};

} // namespace ks::widgets
