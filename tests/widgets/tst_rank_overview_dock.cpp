// X1's Rank Overview dock: computed in the background after a load, its heat
// map shows the core table's values for the chosen metric, stragglers outlined.
#include "app/gui/main_window.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/analysis/rank_overview_panel.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
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

} // namespace

class TestRankOverviewDock : public QObject
{
    Q_OBJECT

private slots:

    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void heatMapFollowsTheTableAndMetric()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled");
        if (!QFileInfo::exists(folder))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/two_ranks_sampled");
        app::MainWindow window;
        window.show();
        QSignalSpy ready(&window, &app::MainWindow::analysesReady);
        window.openPaths({ folder });
        QVERIFY(ready.wait(120000));
        window.showAnalysisDock(QStringLiteral("rankOverview"));
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("rankOverviewDock"));
        QVERIFY(dock);
        auto* menu = window.findChild<QMenu*>(QStringLiteral("analysesMenu"));
        QVERIFY(menu && menu->actions().contains(dock->toggleViewAction()));
        auto* view = qobject_cast<widgets::AnalysisView*>(dock->widget());
        QVERIFY(view);
        QVERIFY(view->hasResult());
        QCOMPARE(view->tables().size(), 1);
        const core::Table* table = view->tables().front()->table();
        QVERIFY(table);
        QCOMPARE(table->rows.size(), std::size_t(4));
        auto* panel = view->findChild<widgets::RankOverviewPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->metricChooser()->count(), int(widgets::kRankOverviewMetrics.size()));

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

QTEST_MAIN(TestRankOverviewDock)
#include "tst_rank_overview_dock.moc"
