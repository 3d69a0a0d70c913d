#include "app/common/allocator_tuning.h"
#include "app/gui/command_line.h"
#include "app/gui/compare_window.h"
#include "app/gui/main_window/main_window.h"
#include "widgets/common/dark_palette.h"
#include "widgets/overview/overview_page.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QIcon>
#include <QStyle>
#include <QTimer>

#include <cstdio>

namespace {

// When the timeline, the docks, the job path and the Overview's findings were
// first in (--dock-report), in ms since main() began: the first answers a user
// waits for (B10, bench/first_answer_benchmark.py).
struct Milestones
{
    QElapsedTimer clock;
    qint64 viewMs = -1; // the timeline prepared and drawn
    qint64 analysesMs = -1;
    qint64 jobPathMs = -1;
    qint64 overviewMs = -1; // the Overview's findings shown
};

void noteOnce(qint64& at, const QElapsedTimer& clock)
{
    if (at < 0)
        at = clock.elapsed();
}

void watchMilestones(ks::app::MainWindow* window, Milestones* m)
{
    QObject::connect(window, &ks::app::MainWindow::viewReady, window, [m] { noteOnce(m->viewMs, m->clock); });
    QObject::connect(
        window, &ks::app::MainWindow::analysesReady, window, [m] { noteOnce(m->analysesMs, m->clock); });
    QObject::connect(
        window, &ks::app::MainWindow::jobPathReady, window, [m] { noteOnce(m->jobPathMs, m->clock); });
    ks::widgets::OverviewPage* overview = window->overviewPage();
    QObject::connect(overview, &ks::widgets::OverviewPage::updated, window, [m, overview] {
        if (!overview->isComputing() && !overview->isWaitingForAnalyses())
            noteOnce(m->overviewMs, m->clock);
    });
}

// Hidden --dock-report: what each dock shows, when the views came (Milestones),
// then the process's peak memory (VmHWM resident, VmPeak address space, in kB,
// from Linux's /proc/self/status).
bool writeDockReport(const ks::app::MainWindow* window, const Milestones& m, const QString& path)
{
    QStringList lines = window->dockReport();
    lines << QStringLiteral("time\tviewReady\t%1 ms").arg(m.viewMs)
          << QStringLiteral("time\tanalysesReady\t%1 ms").arg(m.analysesMs)
          << QStringLiteral("time\tjobPathReady\t%1 ms").arg(m.jobPathMs)
          << QStringLiteral("time\toverviewReady\t%1 ms").arg(m.overviewMs);
    QFile status(QStringLiteral("/proc/self/status"));
    if (status.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : status.readAll().split('\n')) {
            if (line.startsWith("VmHWM:") || line.startsWith("VmPeak:"))
                lines << QStringLiteral("memory\t%1\t%2")
                             .arg(QString::fromLatin1(line.left(line.indexOf(':'))),
                                 QString::fromLatin1(line.mid(line.indexOf(':') + 1).trimmed()));
        }
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write((lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8()) > 0;
}

// Hidden --screenshot and --dock-report: grab the window (and write the
// report) once the load ended (or at once when nothing is loading), then quit.
// Used for the README, to review the UI headless under xvfb, and by the memory test.
void scheduleCapture(ks::app::MainWindow* window, const ks::app::GuiOptions& options, const Milestones* m)
{
    const int afterMs = options.screenshotAfterMs;
    auto grab = [window, options, afterMs, m] {
        window->applyViewCommands(options.viewCommands);
        // Let the layout settle and pending paints happen before grabbing.
        auto save = [window, options, afterMs, m] {
            QTimer::singleShot(afterMs >= 0 ? afterMs : 400, window, [window, options, m] {
                bool saved = true;
                if (!options.dockReportPath.isEmpty()
                    && !writeDockReport(window, *m, options.dockReportPath)) {
                    std::fprintf(
                        stderr, "kinetoscope: could not write %s\n", qPrintable(options.dockReportPath));
                    saved = false;
                }
                if (!options.screenshotPath.isEmpty()
                    && !window->grab().save(options.screenshotPath, "PNG")) {
                    std::fprintf(
                        stderr, "kinetoscope: could not write %s\n", qPrintable(options.screenshotPath));
                    saved = false;
                }
                QCoreApplication::exit(saved ? 0 : 1);
            });
        };
        // The Overview computes after the job path: wait for it too.
        auto afterOverview = [window, save, afterMs] {
            ks::widgets::OverviewPage* overview = window->overviewPage();
            if (afterMs < 0 && (overview->isComputing() || overview->isWaitingForAnalyses()))
                QObject::connect(
                    overview, &ks::widgets::OverviewPage::updated, window, save, Qt::SingleShotConnection);
            else
                save();
        };
        // The analysis docks are part of the picture: wait for their charts and the job path
        // (the second lane, which ends after the docks'), and a what-if asked for.
        if (window->whatIfRunning() && afterMs < 0)
            QObject::connect(
                window, &ks::app::MainWindow::whatIfFinished, window, save, Qt::SingleShotConnection);
        else if (window->jobPathRunning() && afterMs < 0)
            QObject::connect(
                window, &ks::app::MainWindow::jobPathReady, window, afterOverview, Qt::SingleShotConnection);
        else
            afterOverview();
    };
    if (window->isLoading() && afterMs < 0)
        QObject::connect(window, &ks::app::MainWindow::viewReady, window, grab, Qt::SingleShotConnection);
    else
        grab();
}

// --compare: the compare window alone; with --screenshot, grabbed once both sides are in.
int runCompare(const ks::app::GuiOptions& options)
{
    ks::app::CompareWindow window;
    if (options.windowSize.isValid())
        window.resize(options.windowSize);
    window.show();
    QObject::connect(
        &window, &ks::app::CompareWindow::comparisonReady, &window,
        [&window, options] {
            window.applyViewCommands(options.viewCommands);
            if (options.screenshotPath.isEmpty())
                return;
            QTimer::singleShot(options.screenshotAfterMs >= 0 ? options.screenshotAfterMs : 600, &window,
                [&window, path = options.screenshotPath] {
                    const bool saved = window.grab().save(path, "PNG");
                    if (!saved)
                        std::fprintf(stderr, "kinetoscope: could not write %s\n", qPrintable(path));
                    QCoreApplication::exit(saved ? 0 : 1);
                });
        },
        Qt::SingleShotConnection);
    window.compare(options.paths[0], options.paths[1]);
    return QApplication::exec();
}

} // namespace

int main(int argc, char* argv[])
{
    Milestones milestones;
    milestones.clock.start();
    ks::app::tuneAllocatorForLargeTraces();
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Kinetoscope"));
    QCoreApplication::setApplicationName(QStringLiteral("kinetoscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KS_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Kinetoscope"));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.kinetoscope.Kinetoscope"));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/kinetoscope/icons/kinetoscope.svg")));

    ks::app::GuiOptions options;
    QString error;
    if (!ks::app::parseGuiCommandLine(QCoreApplication::arguments(), options, error)) {
        std::fprintf(stderr, "kinetoscope: %s\n", qPrintable(error));
        return 2;
    }

    if (!options.palette.isEmpty()) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(options.palette == QStringLiteral("dark")
                ? ks::widgets::darkPalette()
                : QApplication::style()->standardPalette());
    }
    if (options.compare)
        return runCompare(options);

    ks::app::MainWindow window;
    if (options.windowSize.isValid())
        window.resize(options.windowSize);
    else if (!window.geometryRestored())
        window.fitToScreen();
    window.show();
    if (!options.dockReportPath.isEmpty())
        watchMilestones(&window, &milestones);
    window.openPaths(options.paths);
    if (!options.screenshotPath.isEmpty() || !options.dockReportPath.isEmpty())
        scheduleCapture(&window, options, &milestones);
    else if (!options.viewCommands.isEmpty())
        QObject::connect(
            &window, &ks::app::MainWindow::viewReady, &window,
            [&window, commands = options.viewCommands] { window.applyViewCommands(commands); },
            Qt::SingleShotConnection);
    return QApplication::exec();
}
