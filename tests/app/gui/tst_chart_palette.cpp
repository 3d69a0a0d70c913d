// The app in the Fusion style
// with a light and a dark palette (widgets::darkPalette, what `--palette dark`
// uses), every view of the navigator on the real H100 trace and the gloo job.
// Every chart draws on the palette's base and every piece of its text (ticks,
// axis titles, legend, title rows, labels in the plot) stands out from it; the
// timeline paints its background in the palette's base, and follows a palette
// switched while the window is open; every label of every view reads on the
// window and base colours (no grey-on-grey captions).
#include "app/gui/main_window/main_window.h"
#include "tests/support/test_main.h"
#include "widgets/charts/analysis_chart.h"
#include "widgets/common/dark_palette.h"
#include "widgets/common/view_navigator.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QApplication>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyle>
#include <QTest>

#include <cmath>

using namespace ks;

namespace {

// WCAG's relative luminance and contrast ratio (1 to 21).
double luminance(const QColor& color)
{
    auto linear = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) + 0.0722 * linear(color.blueF());
}

double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// `color` as drawn over `behind` (a see-through colour, like a light palette's placeholder text).
QColor over(const QColor& color, const QColor& behind)
{
    const double a = color.alphaF();
    return QColor::fromRgbF(static_cast<float>(color.redF() * a + behind.redF() * (1 - a)),
        static_cast<float>(color.greenF() * a + behind.greenF() * (1 - a)),
        static_cast<float>(color.blueF() * a + behind.blueF() * (1 - a)));
}

// WCAG's least contrast for large text and graphics; body text aims at 4.5.
constexpr double kReadable = 3.0;

// Why some text of `chart` does not read on its background, or an empty string.
QString unreadableText(widgets::AnalysisChart& chart)
{
    const QColor base = chart.palette().color(QPalette::Base);
    // The background: a corner of the rendered chart, outside every plot and label.
    const QImage image = chart.renderImage();
    const QColor corner = image.pixelColor(1, 1);
    if (contrast(corner, base) > 1.1)
        return QStringLiteral("background %1, not the palette's base %2").arg(corner.name(), base.name());
    auto check = [&](const QColor& color, const QString& what) {
        return contrast(color, base) >= kReadable ? QString()
                                                  : QStringLiteral("%1 %2 on %3 (contrast %4)")
                                                        .arg(what, color.name(), base.name())
                                                        .arg(contrast(color, base), 0, 'f', 2);
    };
    for (QCPAxisRect* rect : chart.axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->visible())
                continue;
            for (const QString& problem : { check(axis->tickLabelColor(), QStringLiteral("tick labels")),
                     check(axis->labelColor(), QStringLiteral("axis title")),
                     check(axis->basePen().color(), QStringLiteral("axis line")) }) {
                if (!problem.isEmpty())
                    return problem;
            }
        }
    }
    if (chart.legend->visible()) {
        if (QString problem = check(chart.legend->textColor(), QStringLiteral("legend text"));
            !problem.isEmpty())
            return problem;
        if (chart.legend->brush().style() != Qt::NoBrush && chart.legend->brush().color().alpha() > 0
            && contrast(chart.legend->brush().color(), base) > 1.5)
            return QStringLiteral("legend box %1 on %2")
                .arg(chart.legend->brush().color().name(), base.name());
    }
    for (QCPLayoutElement* element : chart.plotLayout()->elements(true)) {
        if (auto* title = qobject_cast<QCPTextElement*>(element)) {
            if (QString problem = check(title->textColor(), QStringLiteral("title")); !problem.isEmpty())
                return problem;
        }
    }
    for (int i = 0; i < chart.itemCount(); ++i) {
        auto* text = qobject_cast<QCPItemText*>(chart.item(i));
        if (!text || !text->visible())
            continue;
        // Drawn on its own box where it has one (a roof label over the discs), else on the chart.
        QColor behind = base;
        if (text->brush().style() != Qt::NoBrush && text->brush().color().alpha() >= 128)
            behind = text->brush().color();
        if (contrast(text->color(), behind) < kReadable)
            return QStringLiteral("label \"%1\" %2 on %3")
                .arg(text->text(), text->color().name(), behind.name());
        if (behind != base && contrast(behind, base) > 1.5)
            return QStringLiteral("label \"%1\" on a box %2 that is not the base %3")
                .arg(text->text(), behind.name(), base.name());
    }
    return {};
}

// Why some label of `view` does not read in the palette, or an empty string. A label's
// text colour (its palette's foreground, where style sheets put theirs too) must stand
// out from both the window and the base colour, the two backgrounds views draw on.
QString unreadableLabel(const QWidget& view)
{
    for (const QLabel* label : view.findChildren<QLabel*>()) {
        if (!label->isVisible() || label->text().isEmpty())
            continue;
        for (const QPalette::ColorRole background : { QPalette::Window, QPalette::Base }) {
            const QColor behind = label->palette().color(background);
            const QColor text = over(label->palette().color(label->foregroundRole()), behind);
            if (contrast(text, behind) < kReadable)
                return QStringLiteral("label \"%1\" %2 on %3 (contrast %4)")
                    .arg(label->text().left(40), text.name(), behind.name())
                    .arg(contrast(text, behind), 0, 'f', 2);
        }
    }
    return {};
}

} // namespace

class TestChartPalette : public QObject
{
    Q_OBJECT

private slots:

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setStyle(QStringLiteral("Fusion"));
    }

    void init() { QSettings().clear(); }

    void everyChartFollowsThePalette_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::addColumn<QString>("trace");
        for (const bool dark : { true, false }) {
            const char* name = dark ? "dark" : "light";
            QTest::newRow(qPrintable(QStringLiteral("%1 H100").arg(QLatin1String(name))))
                << dark << QStringLiteral(KS_SHARED_DIR "/traces/h100_qwen05b");
            QTest::newRow(qPrintable(QStringLiteral("%1 gloo job").arg(QLatin1String(name))))
                << dark << QStringLiteral(KS_SHARED_DIR "/traces/ddp_gloo_2ranks");
        }
    }

    void everyChartFollowsThePalette()
    {
        QFETCH(bool, dark);
        QFETCH(QString, trace);
        if (!QFileInfo::exists(trace))
            QSKIP(qPrintable(QStringLiteral("The shared traces are absent: ") + trace));
        QApplication::setPalette(dark ? widgets::darkPalette() : QApplication::style()->standardPalette());
        app::MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy jobPath(&window, &app::MainWindow::jobPathReady);
        window.openPaths({ trace });
        QVERIFY(jobPath.wait(120000));

        // The timeline: its background is the palette's base (a pixel right of the labels, under the axis).
        QWidget* timeline = window.timeline()->findChild<widgets::TimelineView*>();
        QVERIFY(timeline);
        const QColor base = timeline->palette().color(QPalette::Base);
        const QImage painted = timeline->grab().toImage();
        const QColor bottomRight = painted.pixelColor(painted.width() - 3, painted.height() - 3);
        QVERIFY2(contrast(bottomRight, base) < 1.6
                || contrast(bottomRight, timeline->palette().color(QPalette::Window)) < 1.6,
            qPrintable(QStringLiteral("timeline background %1, palette base %2")
                           .arg(bottomRight.name(), base.name())));

        int charts = 0;
        widgets::ViewNavigator* navigator = window.navigator();
        for (const QString& id : navigator->viewIds()) {
            QVERIFY(window.showView(id));
            const QString labels = unreadableLabel(*navigator->view(id));
            QVERIFY2(labels.isEmpty(), qPrintable(id + QStringLiteral(": ") + labels));
            for (widgets::AnalysisChart* chart :
                navigator->view(id)->findChildren<widgets::AnalysisChart*>()) {
                if (!chart->isVisible())
                    continue;
                chart->replot();
                ++charts;
                const QString problem = unreadableText(*chart);
                QVERIFY2(problem.isEmpty(), qPrintable(id + QStringLiteral(": ") + problem));
            }
        }
        QVERIFY2(charts >= 8, qPrintable(QStringLiteral("%1 charts checked").arg(charts)));
    }

    // A palette switched while open (the desktop went dark): charts and the timeline follow.
    void followsASwitchedPalette()
    {
        QApplication::setPalette(QApplication::style()->standardPalette());
        app::MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* chart = new widgets::AnalysisChart(&window);
        chart->resize(300, 240);
        QApplication::setPalette(widgets::darkPalette());
        QCoreApplication::processEvents();
        const QString problem = unreadableText(*chart);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(chart->xAxis->tickLabelColor() == widgets::darkPalette().color(QPalette::Text));
        auto* timeline = window.timeline()->findChild<widgets::TimelineView*>();
        const QImage painted = timeline->grab().toImage();
        QVERIFY2(luminance(painted.pixelColor(painted.width() - 3, painted.height() - 3)) < 0.1,
            qPrintable(painted.pixelColor(painted.width() - 3, painted.height() - 3).name()));
        QApplication::setPalette(QApplication::style()->standardPalette());
    }
};

KS_TEST_MAIN(tst_chart_palette, TestChartPalette)
#include "tst_chart_palette.moc"
