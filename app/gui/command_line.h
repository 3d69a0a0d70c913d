#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

namespace ks::app {

// What `kinetoscope [options] PATH…` asked for.
struct GuiOptions
{
    QStringList paths; // files and folders to open, as one trace set
    bool compare = false; // --compare: paths are CONTROL and TEST of a trace diff (D1-D3)
    QString screenshotPath; // hidden: grab the window to this PNG once loading ends, then quit
    int screenshotAfterMs = -1; // hidden: grab after this delay instead of when loading ends
    QSize windowSize; // hidden: initial window size (for reproducible screenshots)
    QString viewCommands; // hidden: timeline state for screenshots, e.g. "range=10:12;select=kernel"
    // Hidden: once the docks and the job path are in, write what each dock shows
    // (MainWindow::dockReport) and the process's peak memory to this file, then quit.
    QString dockReportPath;
    // Hidden: "dark" or "light" draws the app with the Fusion style in that palette
    // instead of the desktop's (to check and screenshot both); empty follows the desktop.
    QString palette;
};

// Parses the arguments (argv including the program name). Exits the process for
// --help and --version, like every command-line tool; returns false and sets
// `error` on bad input.
bool parseGuiCommandLine(const QStringList& arguments, GuiOptions& options, QString& error);

} // namespace ks::app
