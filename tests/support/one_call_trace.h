#pragma once

// The efficiency tests' traces: the smallest, one CPU op launching one 10 µs kernel, reported by
// efficiencyReport in either reading, and the single row it gives; and the events (op, launch, kernel)
// the tests of several calls build theirs from.

#include "core/analysis/efficiency/efficiency.h"
#include "tests/support/analysis_test_support.h"

#include <QTemporaryDir>
#include <QtGlobal>

#include <string>
#include <vector>

namespace ks::test {

// A complete event on pid 1 (times in µs), on thread `tid`.
inline std::string oneCallEvent(
    const std::string& cat, const std::string& name, int ts, int dur, const std::string& args, int tid = 1)
{
    return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": 1, "tid": )"
        + std::to_string(tid) + R"(, "ts": )" + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur)
        + R"(, "args": )" + args + "}";
}

// A 1 µs cudaLaunchKernel at `ts` on pid 1, thread `tid`.
inline std::string launchEvent(int ts, int correlation, int tid = 1)
{
    return oneCallEvent("cuda_runtime", "cudaLaunchKernel", ts, 1,
        R"({"correlation": )" + std::to_string(correlation) + "}", tid);
}

// The kernel a launch of that correlation id ran: `dur` µs from `ts` on device 0, stream 7.
inline std::string kernelEvent(int ts, int dur, int correlation, const std::string& name = "work")
{
    return R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": 7, "ts": )"
        + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "args": {"correlation": )"
        + std::to_string(correlation) + R"(, "stream": 7, "device": 0}})";
}

// The report of these events (one rank) in either reading.
inline core::EfficiencyReport reportOfEvents(const std::vector<std::string>& events, bool tracelensCompat)
{
    QTemporaryDir dir;
    const core::TraceSet set = ks::tests::loadRanks(dir, { ks::tests::kinetoDocument(0, events) });
    core::EfficiencyOptions options;
    options.tracelensCompat = tracelensCompat;
    return core::efficiencyReport(set, options);
}

// `op` at 10 µs with these args (the JSON object), its launch at 11 µs and its kernel from 40 to
// 50 µs on stream 7: the report.
inline core::EfficiencyReport oneCallReport(
    const std::string& op, const std::string& args, bool tracelensCompat)
{
    return reportOfEvents(
        { oneCallEvent("cpu_op", op, 10, 20, args), launchEvent(11, 1), kernelEvent(40, 10, 1) },
        tracelensCompat);
}

// The one-call report's single row (a test stops when there is not exactly one).
inline core::EfficiencyRow oneCallRow(const std::string& op, const std::string& args, bool tracelensCompat)
{
    const core::EfficiencyReport report = oneCallReport(op, args, tracelensCompat);
    if (report.rows.size() != 1)
        qFatal("%s: %zu rows", op.c_str(), report.rows.size());
    return report.rows.front();
}

} // namespace ks::test
