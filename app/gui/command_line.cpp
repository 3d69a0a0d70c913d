#include "app/gui/command_line.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>

namespace ks::app {

bool parseGuiCommandLine(const QStringList& arguments, GuiOptions& options, QString& error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "View PyTorch profiler (Kineto) traces: one file per rank."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("paths"),
        QCoreApplication::translate(
            "main", "Trace files (.json, .json.gz) or folders of them, opened together."),
        QStringLiteral("[PATH…]"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QCoreApplication::translate("main", "Save a PNG of the window once loading ends, then quit."),
        QStringLiteral("file"));
    screenshot.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption size(QStringLiteral("window-size"),
        QCoreApplication::translate("main", "Initial window size, WIDTHxHEIGHT."), QStringLiteral("size"));
    size.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption after(QStringLiteral("screenshot-after"),
        QCoreApplication::translate("main", "Take the screenshot after this many milliseconds."),
        QStringLiteral("ms"));
    after.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption view(QStringLiteral("view"),
        QCoreApplication::translate(
            "main", "Timeline state to apply once ready (range=A:B ms;select=kernel;search=TEXT;…)."),
        QStringLiteral("commands"));
    view.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption report(QStringLiteral("dock-report"),
        QCoreApplication::translate("main",
            "Once every dock is computed (or says why not), write their states to this file, then quit."),
        QStringLiteral("file"));
    report.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption palette(QStringLiteral("palette"),
        QCoreApplication::translate("main", "Draw in the Fusion style with a dark or light palette."),
        QStringLiteral("dark|light"));
    palette.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption compare(QStringLiteral("compare"),
        QCoreApplication::translate("main", "Compare two traces: kinetoscope --compare CONTROL TEST."));
    parser.addOption(compare);
    parser.addOption(view);
    parser.addOption(screenshot);
    parser.addOption(size);
    parser.addOption(after);
    parser.addOption(report);
    parser.addOption(palette);

    parser.process(arguments); // handles --help and --version, and exits on unknown options
    options.paths = parser.positionalArguments();
    options.screenshotPath = parser.value(screenshot);
    options.viewCommands = parser.value(view);
    options.dockReportPath = parser.value(report);
    options.compare = parser.isSet(compare);
    options.palette = parser.value(palette);
    if (!options.palette.isEmpty() && options.palette != QStringLiteral("dark")
        && options.palette != QStringLiteral("light")) {
        error = QCoreApplication::translate("main", "--palette expects dark or light, not %1")
                    .arg(options.palette);
        return false;
    }
    if (options.compare && options.paths.size() != 2) {
        error = QCoreApplication::translate("main", "--compare expects two paths: CONTROL TEST");
        return false;
    }
    if (parser.isSet(after)) {
        bool ok = false;
        options.screenshotAfterMs = parser.value(after).toInt(&ok);
        if (!ok || options.screenshotAfterMs < 0) {
            error = QCoreApplication::translate("main", "--screenshot-after expects milliseconds");
            return false;
        }
    }
    if (parser.isSet(size)) {
        static const QRegularExpression pattern(QStringLiteral("^(\\d+)x(\\d+)$"));
        const QRegularExpressionMatch match = pattern.match(parser.value(size));
        if (!match.hasMatch()) {
            error = QCoreApplication::translate("main", "--window-size expects WIDTHxHEIGHT, e.g. 1400x900");
            return false;
        }
        options.windowSize = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    }
    return true;
}

} // namespace ks::app
