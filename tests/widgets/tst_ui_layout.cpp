// Issue 24 items 1, 3, 4, 6 at the sizes people use (1280×800, 1920×1080),
// offscreen, on the real H100 trace and a synthetic 4-rank job: the navigator
// opens every view, no navigator entry or tab title is elided, every numeric
// cell of every view's tables went through the number policy (no raw
// "43.06141917", no "idle_time(us)"), no two tick labels of any chart overlap,
// and the timeline keeps at least half the window's height.
#include "app/gui/main_window/main_window.h"
#include "tests/widgets/trace_fixtures.h"
#include "widgets/analysis/analysis_chart.h"
#include "widgets/common/format.h"
#include "widgets/common/view_navigator.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QAbstractItemView>
#include <QFileInfo>
#include <QHeaderView>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
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
            // Every chart of the view: no two tick labels overlap.
            for (widgets::AnalysisChart* chart : view->findChildren<widgets::AnalysisChart*>()) {
                if (!chart->isVisible())
                    continue;
                chart->replot();
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
};

QTEST_MAIN(TestUiLayout)
#include "tst_ui_layout.moc"
