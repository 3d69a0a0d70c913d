#pragma once

// Helpers for analysis tests: write a tiny Kineto trace (events, documents),
// load it, build frames, compare numbers.

#include "core/analysis/frame/hta_frame.h"
#include "core/io/trace_set_loader.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

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

// The folder of ../shared (traces, reference outputs).
inline QString sharedDir()
{
    return QStringLiteral(KS_SHARED_DIR);
}

// A folder of ../shared/traces loaded; the test program stops when it does not load.
inline core::TraceSet loadSharedTraces(const QString& folder)
{
    auto set = core::loadTraceSet(
        { QString(sharedDir() + QStringLiteral("/traces/") + folder).toStdString() }, {}, nullptr, nullptr);
    if (!set)
        qFatal("%s does not load: %s", qPrintable(folder), set.error().describe().c_str());
    return std::move(set).value();
}

// kinetoDocument writes "rank":N, which HTA's rank regex misses (Q8): the spaced
// form, for traces that must load with their rank in HTA-compatible mode too.
inline std::string spacedRankDocument(std::int64_t rank, const std::vector<std::string>& events)
{
    std::string doc = R"({"schemaVersion": 1, "distributedInfo": {"rank": )" + std::to_string(rank)
        + R"(}, "traceEvents": [)";
    for (std::size_t i = 0; i < events.size(); ++i)
        doc += (i ? "," : "") + events[i];
    return doc + "]}";
}

// One complete ("X") event as Kineto writes it: ts and dur in µs, args a JSON object.
inline std::string completeEvent(const std::string& cat, const std::string& name, std::int64_t ts,
    std::int64_t dur, std::int64_t pid, std::int64_t tid, const std::string& args = "{}")
{
    return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)" + std::to_string(pid)
        + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)"
        + std::to_string(dur) + R"(,"args":)" + args + "}";
}

// Times the tests write relative to this base, as real traces are far from zero.
constexpr std::int64_t kBaseUs = 1'000'000;

// A complete event at kBaseUs + ts, on the CPU thread (pid 1, tid 1) unless given.
inline std::string eventAtBase(const std::string& cat, const std::string& name, std::int64_t ts,
    std::int64_t dur, const std::string& args = "{}", std::int64_t pid = 1, std::int64_t tid = 1)
{
    return completeEvent(cat, name, kBaseUs + ts, dur, pid, tid, args);
}

// Args of a launch ({"correlation"}) or, with a stream, of the GPU work it launched.
inline std::string correlationArgs(int correlation, int stream = -1)
{
    std::string args = R"({"correlation":)" + std::to_string(correlation);
    if (stream >= 0)
        args += R"(,"stream":)" + std::to_string(stream);
    return args + "}";
}

// Equal sizes and every value within `relative` of the expected one (at least an absolute `relative`).
inline bool near(const std::vector<double>& got, const std::vector<double>& expected, double relative)
{
    if (got.size() != expected.size())
        return false;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (std::abs(got[i] - expected[i]) > relative * std::max(1.0, std::abs(expected[i])))
            return false;
    return true;
}

// The rows of a data-driven test run in both analysis modes: column "mode",
// rows "hta" (HTA-compatible) and "default".
inline void addModeRows()
{
    QTest::addColumn<core::AnalysisMode>("mode");
    QTest::newRow("hta") << core::AnalysisMode::HtaCompat;
    QTest::newRow("default") << core::AnalysisMode::Default;
}

} // namespace ks::tests

Q_DECLARE_METATYPE(ks::core::AnalysisMode)
