// X1's Rank Overview dock: computed in the background after a load, its heat
// map shows the core table's values for the chosen metric, stragglers outlined.
#include "app/gui/main_window/main_window.h"
#include "core/analysis/cross_rank/stragglers.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/analysis/rank_overview_panel.h"
#include "widgets/common/format.h"
#include "widgets/common/view_navigator.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

using namespace ks;

namespace {

// The rows of the shared trace set: 2 ranks x iterations 551, 552.
constexpr std::int64_t kFirstIteration = 551;

QCPColorMap* heatMapOf(widgets::AnalysisChart* chart)
{
    for (int i = 0; i < chart->plottableCount(); ++i) {
        if (chart->plottable(i)->name() == QStringLiteral("heatmap"))
            return qobject_cast<QCPColorMap*>(chart->plottable(i));
    }
    return nullptr;
}

double cellOf(const core::Table& table, std::size_t row, const std::string& column)
{
    return core::cellAsDouble(table.rows[row][table.columnIndex(column)]).value_or(std::nan(""));
}

// Shows `window`, opens `folder`, waits for the analyses and the job path
// (their second lane, which brings the stragglers) and shows the Rank Overview
// dock; nullptr when they never came or the dock is missing.
widgets::AnalysisView* openRankOverviewDock(app::MainWindow& window, const QString& folder)
{
    window.show();
    QSignalSpy ready(&window, &app::MainWindow::jobPathReady);
    window.openPaths({ folder });
    if (!ready.wait(120000))
        return nullptr;
    window.showView(QStringLiteral("rankOverview"));
    return qobject_cast<widgets::AnalysisView*>(window.navigator()->view(QStringLiteral("rankOverview")));
}

} // namespace

class TestRankOverviewDock : public QObject
{
    Q_OBJECT

private slots:

    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void stragglersOfTheJobPath();

    void heatMapFollowsTheTableAndMetric()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled");
        if (!QFileInfo::exists(folder))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/two_ranks_sampled");
        app::MainWindow window;
        auto* view = openRankOverviewDock(window, folder);
        QVERIFY(view);
        auto* menu = window.findChild<QMenu*>(QStringLiteral("analysesMenu"));
        QVERIFY(menu && menu->findChild<QAction*>(QStringLiteral("rankOverviewViewAction")));
        QVERIFY(view->hasResult());
        QCOMPARE(view->tables().size(), 1);
        const core::Table* table = view->tables().front()->table();
        QVERIFY(table);
        QCOMPARE(table->rows.size(), std::size_t(4));
        auto* panel = view->findChild<widgets::RankOverviewPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->metricChooser()->count(), int(widgets::kRankOverviewMetrics.size()));
        // A job with GPU work opens on idle %.
        QVERIFY(widgets::rankOverviewHasGpuWork(*table));
        QCOMPARE(panel->metric(), widgets::RankOverviewMetric::IdlePct);

        // Ranks are rows of cells in rank order, iterations columns in order.
        const std::size_t rankColumn = table->columnIndex("rank");
        std::vector<std::int64_t> ranks;
        for (std::size_t row = 0; row < table->rows.size(); ++row)
            ranks.push_back(static_cast<std::int64_t>(cellOf(*table, row, "rank")));
        std::sort(ranks.begin(), ranks.end());
        ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
        QCOMPARE(ranks.size(), std::size_t(2));
        QVERIFY(rankColumn != std::string::npos);

        std::vector<double> previous;
        for (widgets::RankOverviewMetric metric : widgets::kRankOverviewMetrics) {
            panel->setMetric(metric);
            QCOMPARE(panel->metric(), metric);
            QCPColorMap* map = heatMapOf(view->chart());
            QVERIFY(map);
            QCOMPARE(map->data()->keySize(), 2);
            QCOMPARE(map->data()->valueSize(), 2);
            QCOMPARE(map->colorScale()->axis()->label(), widgets::rankOverviewMetricLabel(metric));
            std::vector<double> shown;
            for (std::size_t row = 0; row < table->rows.size(); ++row) {
                const int x = int(cellOf(*table, row, "iteration")) - int(kFirstIteration);
                const auto y =
                    int(std::find(ranks.begin(), ranks.end(), std::int64_t(cellOf(*table, row, "rank")))
                        - ranks.begin());
                const double expected =
                    cellOf(*table, row, std::string(widgets::rankOverviewMetricColumn(metric).hta));
                QVERIFY(!std::isnan(expected));
                QCOMPARE(map->data()->cell(x, y), expected);
                shown.push_back(map->data()->cell(x, y));
            }
            // Switching the metric shows other numbers (idle % vs compute %, µs vs %).
            QVERIFY2(shown != previous, qPrintable(widgets::rankOverviewMetricLabel(metric)));
            previous = shown;
        }

        // Stragglers: one outline per flagged row, and the note names them.
        int flagged = 0;
        for (std::size_t row = 0; row < table->rows.size(); ++row)
            flagged += cellOf(*table, row, "straggler") != 0 ? 1 : 0;
        int outlines = 0;
        for (int i = 0; i < view->chart()->itemCount(); ++i)
            outlines += view->chart()->item(i)->objectName() == QStringLiteral("straggler") ? 1 : 0;
        QCOMPARE(outlines, flagged);
        QVERIFY(!panel->stragglerNote()->text().isEmpty());
        QCOMPARE(panel->stragglerNote()->text().contains(QStringLiteral(" in iteration ")), flagged > 0);
    }
};

// The job path's stragglers of the gloo job, as
// core::findStragglers gives them; rank 1 (twice the batch) is the one waited
// for; a click outlines the cell and selects the reason's op on the timeline.
void TestRankOverviewDock::stragglersOfTheJobPath()
{
    const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/ddp_gloo_2ranks");
    if (!QFileInfo::exists(folder))
        QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/ddp_gloo_2ranks");
    // The expected rows, straight from the core.
    auto loaded = core::loadTraceSet({ folder.toStdString() }, {}, nullptr, nullptr);
    QVERIFY(loaded);
    auto frames = core::buildFrames(loaded.value(), core::AnalysisOptions {});
    QVERIFY(frames);
    auto job = core::jobCriticalPath(frames.value(), {});
    QVERIFY(job);
    const std::vector<core::Straggler> expected = core::findStragglers(job.value());
    QVERIFY(!expected.empty());

    app::MainWindow window;
    auto* dock = openRankOverviewDock(window, folder);
    QVERIFY(dock);
    auto* panel = dock->findChild<widgets::RankOverviewPanel*>();
    QVERIFY(panel);
    // A CPU-only job: no idle % to show and no GPU busy time to flag by, so the
    // map opens on step time and the note says why nobody is outlined.
    QCOMPARE(panel->metric(), widgets::RankOverviewMetric::StepTime);
    QVERIFY2(panel->stragglerNote()->text().startsWith(QStringLiteral("No GPU work in these ranks")),
        qPrintable(panel->stragglerNote()->text()));
    QTableWidget* list = panel->stragglerTable();
    QVERIFY(!list->isHidden());
    QCOMPARE(list->rowCount(), int(expected.size()));
    for (int row = 0; row < list->rowCount(); ++row) {
        const core::Straggler& s = expected[static_cast<std::size_t>(row)];
        QCOMPARE(list->item(row, 0)->text(), QString::number(s.iteration));
        QCOMPARE(list->item(row, 1)->text(), QStringLiteral("rank %1").arg(s.rank));
        QCOMPARE(list->item(row, 2)->text(), widgets::formatDuration(s.waitCaused));
        QCOMPARE(list->item(row, 3)->text(), QString::fromStdString(s.why));
        QCOMPARE(s.rank, std::int64_t(1));
        QVERIFY(list->item(row, 3)->text().startsWith(QStringLiteral("rank 1: +")));
    }

    // A click: the cell is outlined and the reason's op is selected on the timeline.
    const core::Straggler& first = expected.front();
    QVERIFY(!first.reasons.empty());
    QVERIFY(first.reasonEvent >= 0);
    QTRY_VERIFY_WITH_TIMEOUT(window.timeline()->data() != nullptr, 60000);
    QSignalSpy activated(panel, &widgets::RankOverviewPanel::stragglerActivated);
    emit list->cellClicked(0, 3);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(1).toLongLong(), first.reasonEvent);
    widgets::AnalysisChart* chart = dock->chart();
    int outlined = 0;
    for (int i = 0; i < chart->itemCount(); ++i)
        outlined += chart->item(i)->objectName() == QStringLiteral("selectedCell") ? 1 : 0;
    QCOMPARE(outlined, 1);
    const widgets::SliceRef selected = window.timelineState()->selectedSlice();
    QVERIFY(selected.valid());
    const core::RankTrace& trace = window.timeline()->data()->trace(selected.rank);
    QCOMPARE(trace.rank, std::int64_t(1));
    QCOMPARE(trace.slices.eventIndex[selected.slice], static_cast<std::uint32_t>(first.reasonEvent));
    QCOMPARE(trace.sliceName(selected.slice), std::string_view(first.reasons.front().name));
}

KS_TEST_MAIN(tst_rank_overview_dock, TestRankOverviewDock)
#include "tst_rank_overview_dock.moc"
