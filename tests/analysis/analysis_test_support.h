#pragma once

// Helpers for analysis tests: write a tiny Kineto trace, load it, build frames.

#include "core/analysis/hta_frame.h"
#include "core/io/trace_set_loader.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <string>

namespace ks::tests {

// Loads one or more rank documents (full JSON text each) written to `dir`.
inline core::TraceSet loadRanks(const QTemporaryDir& dir, const std::vector<std::string>& documents)
{
    for (std::size_t i = 0; i < documents.size(); ++i) {
        std::ofstream f(dir.path().toStdString() + "/rank-" + std::to_string(i) + ".json");
        f << documents[i];
    }
    auto set = core::loadTraceSet({ dir.path().toStdString() }, {}, nullptr, nullptr);
    if (!set)
        qFatal("%s", set.error().describe().c_str());
    return std::move(set).value();
}

inline core::FrameSet frames(const core::TraceSet& set, core::AnalysisMode mode)
{
    core::AnalysisOptions options;
    options.mode = mode;
    auto f = core::buildFrames(set, options);
    if (!f)
        qFatal("%s", f.error().describe().c_str());
    return std::move(f).value();
}

// A rank document from a list of event objects (JSON text each).
inline std::string kinetoDocument(std::int64_t rank, const std::vector<std::string>& events)
{
    std::string doc =
        R"({"schemaVersion":1,"distributedInfo":{"rank":)" + std::to_string(rank) + R"(},"traceEvents":[)";
    for (std::size_t i = 0; i < events.size(); ++i)
        doc += (i ? "," : "") + events[i];
    return doc + "]}";
}

} // namespace ks::tests
