#include "app/gui/opening/job_paths.h"

#include "core/io/trace_set_loader.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace ks::app {

namespace {

    const QString kThresholdKey = QStringLiteral("jobMode/rankThreshold");
    constexpr int kDefaultThreshold = 64;

    bool isSummaryFile(const QString& path)
    {
        return path.endsWith(QStringLiteral(".kssum"), Qt::CaseInsensitive) && QFileInfo(path).isFile();
    }

} // namespace

JobOpening classifyOpening(
    const QStringList& paths, int rankThreshold, QStringList* summaryFiles, core::TraceInputs* listed)
{
    QStringList summaries;
    for (const QString& path : paths) {
        if (isSummaryFile(path)) {
            summaries << path;
        } else if (QFileInfo(path).isDir()) {
            const QDir dir(path);
            for (const QString& name : dir.entryList({ QStringLiteral("*.kssum") }, QDir::Files, QDir::Name))
                summaries << dir.filePath(name);
        }
    }
    if (!summaries.isEmpty()) {
        if (summaryFiles)
            *summaryFiles = summaries;
        return summaries.size() == 1 ? JobOpening::Summary : JobOpening::SummaryParts;
    }
    std::vector<std::string> inputs;
    for (const QString& path : paths)
        inputs.push_back(path.toStdString());
    core::TraceInputs found = core::expandTraceInputs(inputs);
    const JobOpening opening =
        static_cast<int>(found.files.size()) > rankThreshold ? JobOpening::Summarize : JobOpening::Traces;
    if (listed)
        *listed = std::move(found);
    return opening;
}

int jobModeRankThreshold()
{
    return QSettings().value(kThresholdKey, kDefaultThreshold).toInt();
}

void setJobModeRankThreshold(int ranks)
{
    QSettings().setValue(kThresholdKey, ranks);
}

} // namespace ks::app
