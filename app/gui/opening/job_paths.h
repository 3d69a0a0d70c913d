#pragma once

#include "core/io/trace_set_loader.h"

#include <QStringList>

namespace ks::app {

// How the app opens what the user picked: as traces in full, or in job mode.
enum class JobOpening
{
    Traces, // every rank in full (the usual load)
    Summary, // one .kssum
    SummaryParts, // a folder (or a list) of .kssum parts of one job, merged on open
    Summarize, // more trace files than the threshold: summarised in the background first
};

// A .kssum, a folder of them, or more than `rankThreshold` trace files open in job mode.
// `listed`, when given, receives the trace files found (for Traces and Summarize), so the
// load that follows reads this listing instead of listing the folders again.
JobOpening classifyOpening(const QStringList& paths, int rankThreshold, QStringList* summaryFiles = nullptr,
    core::TraceInputs* listed = nullptr);

// The job-mode threshold of Preferences (QSettings), 64 by default.
int jobModeRankThreshold();
void setJobModeRankThreshold(int ranks);

} // namespace ks::app
