#pragma once

// Small traces with [memory] events for the memory analysis' tests: CPU ops on
// thread 1 and allocations with an address, a device and the totals after them.

#include "core/analysis/memory/memory_report.h"
#include "tests/support/analysis_test_support.h"

#include <string>
#include <vector>

namespace ks::tests {

struct MemoryTrace
{
    std::vector<std::string> events;
    std::string extraKeys; // e.g. deviceProperties

    // A complete event on thread (1, tid); times in µs after kBaseUs.
    MemoryTrace& op(const std::string& name, std::int64_t ts, std::int64_t dur,
        const std::string& cat = "cpu_op", std::int64_t tid = 1)
    {
        events.push_back(eventAtBase(cat, name, ts, dur, "{}", 1, tid));
        return *this;
    }

    // A [memory] record: + allocation, - free, at `addr` on (type, id), totals after it.
    MemoryTrace& mem(std::int64_t ts, std::int64_t bytes, std::int64_t addr, std::int64_t allocated,
        std::int64_t reserved, int type = 1, int id = 0, std::int64_t tid = 1)
    {
        events.push_back(R"({"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":)"
            + std::to_string(tid) + R"(,"ts":)" + std::to_string(kBaseUs + ts)
            + R"(,"args":{"Total Reserved":)" + std::to_string(reserved) + R"(,"Total Allocated":)"
            + std::to_string(allocated) + R"(,"Bytes":)" + std::to_string(bytes) + R"(,"Addr":)"
            + std::to_string(addr) + R"(,"Device Id":)" + std::to_string(id) + R"(,"Device Type":)"
            + std::to_string(type) + "}}");
        return *this;
    }

    // A record as PyTorch 1.8/1.9 wrote it: no cat, no Addr, no totals.
    MemoryTrace& oldMem(std::int64_t ts, std::int64_t bytes, int type = 1, int id = 0)
    {
        events.push_back(R"({"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":)"
            + std::to_string(kBaseUs + ts) + R"(,"args":{"Bytes":)" + std::to_string(bytes)
            + R"(,"Device Id":)" + std::to_string(id) + R"(,"Device Type":)" + std::to_string(type) + "}}");
        return *this;
    }

    MemoryTrace& outOfMemory(
        std::int64_t ts, std::int64_t bytes, std::int64_t allocated, std::int64_t reserved)
    {
        events.push_back(
            R"({"ph":"i","cat":"cpu_instant_event","s":"t","name":"[OutOfMemory]","pid":1,"tid":1,"ts":)"
            + std::to_string(kBaseUs + ts) + R"(,"args":{"Total Reserved":)" + std::to_string(reserved)
            + R"(,"Total Allocated":)" + std::to_string(allocated) + R"(,"Bytes":)" + std::to_string(bytes)
            + R"(,"Device Id":0,"Device Type":1}})");
        return *this;
    }

    MemoryTrace& deviceMemory(std::int64_t bytes)
    {
        extraKeys = R"(,"deviceProperties":[{"id":0,"name":"Test GPU","totalGlobalMem":)"
            + std::to_string(bytes) + R"(,"computeMajor":9,"computeMinor":0,"numSms":132}])";
        return *this;
    }

    std::string document() const
    {
        std::string doc =
            R"({"schemaVersion":1,"distributedInfo":{"rank":0})" + extraKeys + R"(,"traceEvents":[)";
        for (std::size_t i = 0; i < events.size(); ++i)
            doc += (i ? "," : "") + events[i];
        return doc + "]}";
    }
};

inline core::MemoryReport memoryOf(const QTemporaryDir& dir, const MemoryTrace& trace, bool tbCompat = false,
    std::vector<std::int64_t> iterations = {})
{
    const core::TraceSet set = loadRanks(dir, { trace.document() });
    core::MemoryOptions options;
    options.tbCompat = tbCompat;
    options.iterations = std::move(iterations);
    return core::memoryReport(set, options);
}

inline const core::DeviceMemorySummary* deviceNamed(const core::RankMemory& rank, const std::string& name)
{
    for (const auto& d : rank.devices)
        if (d.device == name)
            return &d;
    return nullptr;
}

} // namespace ks::tests
