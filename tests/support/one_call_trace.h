#pragma once

// The efficiency tests' smallest trace: one CPU op launching one 10 µs kernel,
// reported by efficiencyReport in either reading, and the single row it gives.

#include "core/analysis/efficiency/efficiency.h"
#include "tests/support/analysis_test_support.h"

#include <QTemporaryDir>
#include <QtGlobal>

#include <string>
#include <vector>

namespace ks::test {

// A complete event on pid 1, tid 1 (times in µs).
inline std::string oneCallEvent(
    const std::string& cat, const std::string& name, int ts, int dur, const std::string& args)
{
    return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": )"
        + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "args": )" + args + "}";
}

// `op` at 10 µs with these args (the JSON object), its launch at 11 µs and its kernel from 40 to
// 50 µs on stream 7; the report's single row (a test stops when there is not exactly one).
inline core::EfficiencyRow oneCallRow(const std::string& op, const std::string& args, bool tracelensCompat)
{
    const std::vector<std::string> events {
        oneCallEvent("cpu_op", op, 10, 20, args),
        oneCallEvent("cuda_runtime", "cudaLaunchKernel", 11, 1, R"({"correlation": 1})"),
        R"({"ph": "X", "cat": "kernel", "name": "work", "pid": 0, "tid": 7, "ts": 40, "dur": 10, )"
        R"("args": {"correlation": 1, "stream": 7, "device": 0}})",
    };
    QTemporaryDir dir;
    const core::TraceSet set = ks::tests::loadRanks(dir, { ks::tests::kinetoDocument(0, events) });
    core::EfficiencyOptions options;
    options.tracelensCompat = tracelensCompat;
    const core::EfficiencyReport report = core::efficiencyReport(set, options);
    if (report.rows.size() != 1)
        qFatal("%s: %zu rows", op.c_str(), report.rows.size());
    return report.rows.front();
}

} // namespace ks::test
