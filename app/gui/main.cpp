#include "app/common/allocator_tuning.h"
#include "app/gui/command_line.h"
#include "app/gui/compare_window.h"
#include "app/gui/main_window.h"

#include <QApplication>
#include <QIcon>
#include <QTimer>

#include <cstdio>

namespace {

// Hidden --screenshot: grab the window once the load ended (or at once when
// nothing is loading), then quit. Used for the README and to review the UI
// headless under xvfb.
void scheduleScreenshot(
    ks::app::MainWindow* window, const QString& path, int afterMs, const QString& commands)
{
    auto grab = [window, path, afterMs, commands] {
        window->applyViewCommands(commands);
        // Let the layout settle and pending paints happen before grabbing.
        auto save = [window, path, afterMs] {
            QTimer::singleShot(afterMs >= 0 ? afterMs : 400, window, [window, path] {
                const bool saved = window->grab().save(path, "PNG");
                if (!saved)
                    std::fprintf(stderr, "kinetoscope: could not write %s\n", qPrintable(path));
                QCoreApplication::exit(saved ? 0 : 1);
            });
        };
        // The analysis docks are part of the picture: wait for their charts too, and a what-if asked for.
        if (window->whatIfRunning() && afterMs < 0)
            QObject::connect(
                window, &ks::app::MainWindow::whatIfFinished, window, save, Qt::SingleShotConnection);
        else if (window->analysesRunning() && afterMs < 0)
            QObject::connect(
                window, &ks::app::MainWindow::analysesReady, window, save, Qt::SingleShotConnection);
        else
            save();
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
    ks::app::tuneAllocatorForLargeTraces(argv);
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

    if (options.compare)
        return runCompare(options);

    ks::app::MainWindow window;
    if (options.windowSize.isValid())
        window.resize(options.windowSize);
    window.show();
    window.openPaths(options.paths);
    if (!options.screenshotPath.isEmpty())
        scheduleScreenshot(&window, options.screenshotPath, options.screenshotAfterMs, options.viewCommands);
    else if (!options.viewCommands.isEmpty())
        QObject::connect(
            &window, &ks::app::MainWindow::viewReady, &window,
            [&window, commands = options.viewCommands] { window.applyViewCommands(commands); },
            Qt::SingleShotConnection);
    return QApplication::exec();
}
