// The navigator, numbers, palettes and window fit at the sizes people use (1280×800, 1920×1080),
// offscreen, on the real H100 trace and a synthetic 4-rank job: the navigator
// opens every view, no navigator entry or tab title is elided, every numeric
// cell of every view's tables went through the number policy (no raw
// "43.06141917", no "idle_time(us)"), no two tick labels of any chart overlap,
// the timeline keeps at least half the window's height, and every chart has a
// plot of at least AnalysisChart::kMinPlotHeight with its legend and axis titles
// around it, never over it, shown whole without scrolling.
#include "app/gui/main_window/main_window.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/charts/analysis_chart.h"
#include "widgets/common/format.h"
#include "widgets/common/view_navigator.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QAbstractItemView>
#include <QFileInfo>
#include <QHeaderView>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyle>
#include <QTabBar>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

#include <algorithm>

using namespace ks;

namespace {

const QString kTrace = QStringLiteral(KS_SHARED_DIR "/traces/h100_qwen05b");

// Opens `path` in `window` at `size` and waits for the analyses and the job path.
bool openAt(app::MainWindow& window, const QSize& size, const QString& path)
{
    window.resize(size);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    QSignalSpy jobPath(&window, &app::MainWindow::jobPathReady);
    window.openPaths({ path });
    return jobPath.wait(120000);
}

// Significant digits of a plain number's text ("43.06141917" -> 10, "0.01235" -> 4).
int significantDigits(QString text)
{
    text.remove(QChar(u'-'));
    text.remove(QChar(u'.'));
    while (text.startsWith(QChar(u'0')))
        text.remove(0, 1);
    return static_cast<int>(text.size());
}

// What a person cannot read in a table, or an empty string.
QString unreadableCell(const QAbstractItemModel& model, int row, int column)
{
    static const QRegularExpression plainNumber(QStringLiteral("^-?\\d+(\\.\\d+)?$"));
    const int kind = model.headerData(column, Qt::Horizontal, widgets::kNumberKindRole).toInt();
    const bool identifier = kind == static_cast<int>(widgets::NumberKind::Identifier);
    const QString text = model.index(row, column).data().toString();
    if (!identifier && plainNumber.match(text).hasMatch() && significantDigits(text) > 4)
        return QStringLiteral("raw number %1").arg(text);
    const bool numeric = !text.isEmpty() && (text.front().isDigit() || text.startsWith(QChar(u'-')))
        && text.contains(QRegularExpression(QStringLiteral("^-?[\\d,.]+( ?(ns|µs|ms|s|%|[KMG]iB|B))?$")));
    if (numeric) {
        const QVariant alignment = model.index(row, column).data(Qt::TextAlignmentRole);
        if (!alignment.isValid() || !(alignment.toInt() & Qt::AlignRight))
            return QStringLiteral("number %1 not right-aligned").arg(text);
    }
    return {};
}

// Tick label rectangles of an axis as QCustomPlot places them (centred on their
// tick, one line high on a vertical axis), in pixel order.
QList<QRectF> tickLabelRects(const QCPAxis* axis)
{
    QList<QRectF> rects;
    const QFontMetricsF metrics(axis->tickLabelFont());
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    const bool horizontal = axis->orientation() == Qt::Horizontal && axis->tickLabelRotation() == 0;
    for (qsizetype i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (labels[i].isEmpty())
            continue;
        double width = 0;
        const QStringList lines = labels[i].split(QChar(u'\n'));
        for (const QString& line : lines)
            width = std::max(width, metrics.horizontalAdvance(line));
        const double height = metrics.height() * (horizontal ? static_cast<double>(lines.size()) : 1.0);
        const double at = axis->coordToPixel(ticks[i]);
        rects.append(horizontal ? QRectF(at - width / 2, 0, width, height)
                                : QRectF(0, at - metrics.height() / 2, width, metrics.height()));
    }
    std::sort(rects.begin(), rects.end(),
        [horizontal = axis->orientation() == Qt::Horizontal](const QRectF& a, const QRectF& b) {
            return horizontal ? a.left() < b.left() : a.top() < b.top();
        });
    return rects;
}

// Why `chart` does not read in the default layout, or an empty string: a plot rect
// lower than AnalysisChart::kMinPlotHeight, a legend over a plot (its points), or an
// axis's labels or title outside the widget.
QString chartRoomProblem(const widgets::AnalysisChart& chart)
{
    const QList<QCPAxisRect*> rects = chart.axisRects();
    for (const QCPAxisRect* rect : rects) {
        if (rect->rect().height() < widgets::AnalysisChart::kMinPlotHeight)
            return QStringLiteral("plot %1 px high").arg(rect->rect().height());
        // The outer rect holds the tick labels and axis titles (QCustomPlot's auto margins);
        // side-by-side panels round their widths, a pixel either way.
        if (!chart.rect().adjusted(-1, -1, 1, 1).contains(rect->outerRect()))
            return QStringLiteral("axes outside the chart (%1,%2 %3x%4 in %5x%6)")
                .arg(rect->outerRect().x())
                .arg(rect->outerRect().y())
                .arg(rect->outerRect().width())
                .arg(rect->outerRect().height())
                .arg(chart.width())
                .arg(chart.height());
        // Axis titles, centred on their plot, within the chart (no "whiskers min–ma").
        for (const QCPAxis* axis : rect->axes()) {
            if (!axis->visible() || axis->label().isEmpty())
                continue;
            const bool horizontal = axis->orientation() == Qt::Horizontal;
            const int centre = horizontal ? rect->rect().center().x() : rect->rect().center().y();
            const int length = horizontal ? chart.width() : chart.height();
            for (const QString& line : axis->label().split(QChar(u'\n'))) {
                const int half = QFontMetrics(axis->labelFont()).horizontalAdvance(line) / 2;
                if (centre - half < 0 || centre + half > length)
                    return QStringLiteral("axis title \"%1\" cut (%2 px around %3 of %4)")
                        .arg(line)
                        .arg(2 * half)
                        .arg(centre)
                        .arg(length);
            }
        }
        if (chart.legend->visible() && chart.legend->outerRect().intersects(rect->rect()))
            return QStringLiteral("the legend covers the plot");
        const QFontMetrics tickFont(rect->axis(QCPAxis::atBottom)->tickLabelFont());
        const QFontMetrics titleFont(rect->axis(QCPAxis::atBottom)->labelFont());
        const QCPAxis* bottom = rect->axis(QCPAxis::atBottom);
        if (bottom->visible() && !bottom->label().isEmpty()
            && rect->margins().bottom() < tickFont.height() + titleFont.height())
            return QStringLiteral("no room under the plot for the axis title %1").arg(bottom->label());
    }
    return {};
}

// Why the navigator's scroll area has to scroll to show its view whole, or an empty string.
QString scrollProblem(const QScrollArea& scroll)
{
    if (scroll.verticalScrollBar()->isVisible() || scroll.horizontalScrollBar()->isVisible())
        return QStringLiteral("the view scrolls: %1 px in %2 (least %3x%4, %5 wide in %6)")
            .arg(scroll.widget()->height())
            .arg(scroll.viewport()->height())
            .arg(scroll.widget()->minimumSizeHint().width())
            .arg(scroll.widget()->minimumSizeHint().height())
            .arg(scroll.widget()->width())
            .arg(scroll.viewport()->width());
    return {};
}

} // namespace

class TestUiLayout : public QObject
{
    Q_OBJECT

private slots:

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (!QFileInfo::exists(kTrace))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/h100_qwen05b");
    }

    void init()
    {
        QSettings().clear(); // the default layout, not the last test's
    }

    void everyViewAtScreenSizes_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("trace");
        QTest::newRow("1280x800 H100") << QSize(1280, 800) << kTrace;
        QTest::newRow("1920x1080 H100") << QSize(1920, 1080) << kTrace;
        // Two ranks: the rank overview, the job path and its stragglers have rows.
        QTest::newRow("1280x800 gloo job")
            << QSize(1280, 800) << QStringLiteral(KS_SHARED_DIR "/traces/ddp_gloo_2ranks");
    }

    void everyViewAtScreenSizes()
    {
        QFETCH(QSize, size);
        QFETCH(QString, trace);
        app::MainWindow window;
        QVERIFY(openAt(window, size, trace));
        widgets::ViewNavigator* navigator = window.navigator();
        QTreeWidget* list = navigator->list();
        QVERIFY(navigator->viewIds().size() >= 13);

        // Item 6: the timeline keeps at least half the height; the navigator is shown.
        QVERIFY2(window.timeline()->height() * 2 >= window.height(),
            qPrintable(
                QStringLiteral("timeline %1 of %2").arg(window.timeline()->height()).arg(window.height())));
        QVERIFY(window.navigatorDock()->isVisible());

        for (const QString& id : navigator->viewIds()) {
            QVERIFY(window.showView(id));
            QWidget* view = navigator->view(id);
            QTRY_VERIFY2(view->isVisible(), qPrintable(id));
            QTest::qWait(20); // the scroll area lays out the view it shows
            // The view fits the room the default layout gives it: nothing to scroll to.
            const QString scrolled = scrollProblem(*navigator->scrollArea(id));
            QVERIFY2(scrolled.isEmpty(), qPrintable(id + QStringLiteral(": ") + scrolled));
            QCOMPARE(navigator->currentView(), id);

            // No navigator entry elided: every title fits the list at its depth.
            const int room = list->viewport()->width();
            for (int g = 0; g < list->topLevelItemCount(); ++g) {
                QTreeWidgetItem* group = list->topLevelItem(g);
                QVERIFY2(list->indentation() + QFontMetrics(group->font(0)).horizontalAdvance(group->text(0))
                        <= room,
                    qPrintable(group->text(0)));
                for (int c = 0; c < group->childCount(); ++c) {
                    QTreeWidgetItem* item = group->child(c);
                    QVERIFY2(
                        2 * list->indentation() + QFontMetrics(item->font(0)).horizontalAdvance(item->text(0))
                            <= room,
                        qPrintable(item->text(0)));
                }
            }
            // No tab title elided anywhere in the window (dock tabs, a view's table tabs).
            for (const QTabBar* bar : window.findChildren<QTabBar*>()) {
                if (!bar->isVisible())
                    continue;
                for (int t = 0; t < bar->count(); ++t)
                    QVERIFY2(
                        bar->tabRect(t).width() >= QFontMetrics(bar->font())
                                                       .horizontalAdvance(bar->tabText(t).remove(QChar(u'&')))
                                + 8,
                        qPrintable(QStringLiteral("%1: tab \"%2\" cut").arg(id, bar->tabText(t))));
            }
            // Every table of the view: numbers through the policy, human headers.
            for (const QAbstractItemView* table : view->findChildren<QAbstractItemView*>()) {
                const QAbstractItemModel* model = table->model();
                // Tables only: a header view walks its table's model, and the trees are
                // key/value text (file metadata, the navigator).
                if (!model || qobject_cast<const QTreeWidget*>(table)
                    || qobject_cast<const QHeaderView*>(table))
                    continue;
                // No column title cut: each section as wide as its title (scrolling shows the rest).
                if (const auto* tableView = qobject_cast<const QTableView*>(table);
                    tableView && table->isVisible()) {
                    const QHeaderView* header = tableView->horizontalHeader();
                    const int margins =
                        2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
                    for (int c = 0; c < model->columnCount(); ++c) {
                        if (header->isSectionHidden(c) || header->sectionSize(c) == 0)
                            continue;
                        const QString title = model->headerData(c, Qt::Horizontal).toString();
                        QVERIFY2(header->sectionSize(c)
                                >= header->fontMetrics().horizontalAdvance(title) + margins,
                            qPrintable(QStringLiteral("%1: column title \"%2\" cut (%3 px)")
                                           .arg(id, title)
                                           .arg(header->sectionSize(c))));
                    }
                }
                for (int c = 0; c < model->columnCount(); ++c) {
                    const QString header = model->headerData(c, Qt::Horizontal).toString();
                    QVERIFY2(!header.contains(QChar(u'_')) && !header.contains(QStringLiteral("(us)")),
                        qPrintable(QStringLiteral("%1: header %2").arg(id, header)));
                    for (int r = 0; r < std::min(model->rowCount(), 300); ++r) {
                        const QString problem = unreadableCell(*model, r, c);
                        QVERIFY2(problem.isEmpty(),
                            qPrintable(
                                QStringLiteral("%1, %2 row %3: %4").arg(id, header).arg(r).arg(problem)));
                    }
                }
            }
            // Every chart of the view: room to read and no two tick labels overlap.
            for (widgets::AnalysisChart* chart : view->findChildren<widgets::AnalysisChart*>()) {
                if (!chart->isVisible())
                    continue;
                chart->replot();
                const QString problem = chartRoomProblem(*chart);
                QVERIFY2(problem.isEmpty(), qPrintable(id + QStringLiteral(": ") + problem));
                for (QCPAxisRect* rect : chart->axisRects()) {
                    for (QCPAxis* axis : rect->axes()) {
                        if (!axis->visible() || !axis->tickLabels())
                            continue;
                        const QList<QRectF> rects = tickLabelRects(axis);
                        for (qsizetype i = 1; i < rects.size(); ++i) {
                            const bool horizontal = axis->orientation() == Qt::Horizontal;
                            const bool apart = horizontal ? rects[i].left() >= rects[i - 1].right()
                                                          : rects[i].top() >= rects[i - 1].bottom();
                            QVERIFY2(apart,
                                qPrintable(QStringLiteral("%1: tick labels %2 and %3 overlap")
                                               .arg(id, axis->tickVectorLabels().value(i - 1),
                                                   axis->tickVectorLabels().value(i))));
                        }
                    }
                }
            }
        }
    }

    // A bottom row the user made short: choosing a chart view grows it back (up to
    // the default layout's height) until the chart shows whole, unscrolled.
    void shortRowGrowsForAChart()
    {
        app::MainWindow window;
        QVERIFY(openAt(window, QSize(1280, 800), kTrace));
        window.resizeDocks({ window.navigatorDock() }, { 170 }, Qt::Vertical);
        QTRY_VERIFY(window.navigatorDock()->height() <= 180);
        QVERIFY(window.showView(QStringLiteral("efficiency")));
        const QScrollArea* scroll = window.navigator()->scrollArea(QStringLiteral("efficiency"));
        QTRY_VERIFY2(scrollProblem(*scroll).isEmpty(), qPrintable(scrollProblem(*scroll)));
        auto* chart =
            window.navigator()->view(QStringLiteral("efficiency"))->findChild<widgets::AnalysisChart*>();
        QVERIFY(chart && chart->isVisible());
        chart->replot();
        QVERIFY2(chartRoomProblem(*chart).isEmpty(), qPrintable(chartRoomProblem(*chart)));
        QVERIFY(window.timeline()->height() * 2 >= window.height());
    }
};

KS_TEST_MAIN(tst_ui_layout, TestUiLayout)
#include "tst_ui_layout.moc"
