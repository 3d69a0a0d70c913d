#pragma once

// Small Kineto traces for the insights tests: one GPU rank built step by step
// (CPU ops, launches and the kernels they start, copies, syncs), so each test
// states the problem it plants in a few lines.

#include <cstdio>
#include <string>
#include <vector>

namespace ks::tests {

class RankTraceBuilder
{
public:
    explicit RankTraceBuilder(std::int64_t rank)
        : m_rank(rank)
    {
    }

    // A CPU slice on the main thread (pid 1, tid 1); times in µs from the trace's start.
    RankTraceBuilder& cpu(const std::string& name, double ts, double dur, const std::string& cat = "cpu_op")
    {
        m_events.push_back(event(cat, name, 1, 1, ts, dur, ""));
        return *this;
    }

    // A runtime call `call` at `ts` launching `gpuName` (category `gpuCat`) on `stream` at `gpuTs`;
    // `gpuArgs` are more members of the GPU event's args (`"blocks per SM":0.5`).
    RankTraceBuilder& launch(double ts, double dur, const std::string& gpuName, double gpuTs, double gpuDur,
        const std::string& call = "cudaLaunchKernel", const std::string& gpuCat = "kernel", int stream = 7,
        const std::string& gpuArgs = "")
    {
        const std::string c = std::to_string(m_correlation++);
        m_events.push_back(event("cuda_runtime", call, 1, 1, ts, dur, R"("correlation":)" + c));
        m_events.push_back(event(gpuCat, gpuName, 0, stream, gpuTs, gpuDur,
            R"("device":0,"stream":)" + std::to_string(stream) + R"(,"correlation":)" + c
                + (gpuArgs.empty() ? "" : "," + gpuArgs)));
        return *this;
    }

    // A runtime call that launches nothing (a sync, a blocking copy's call).
    RankTraceBuilder& runtime(const std::string& call, double ts, double dur)
    {
        m_events.push_back(event(
            "cuda_runtime", call, 1, 1, ts, dur, R"("correlation":)" + std::to_string(m_correlation++)));
        return *this;
    }

    // A [memory] instant: `bytes` allocated (freed when negative), `total` allocated after it, on GPU 0.
    RankTraceBuilder& memory(double ts, std::int64_t bytes, std::int64_t total)
    {
        m_events.push_back(
            R"({"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":)"
            + number(kBase + ts) + R"(,"args":{"Device Type":1,"Device Id":0,"Addr":1,"Bytes":)"
            + std::to_string(bytes) + R"(,"Total Allocated":)" + std::to_string(total)
            + R"(,"Total Reserved":)" + std::to_string(total) + "}}");
        return *this;
    }

    RankTraceBuilder& deviceMemory(std::int64_t bytes)
    {
        m_deviceMemory = bytes;
        return *this;
    }

    std::string document() const
    {
        std::string doc = R"({"schemaVersion":1,"distributedInfo":{"rank":)" + std::to_string(m_rank) + "}";
        if (m_deviceMemory > 0)
            doc += R"(,"deviceProperties":[{"id":0,"name":"Test GPU","totalGlobalMem":)"
                + std::to_string(m_deviceMemory) + R"(,"computeMajor":9,"computeMinor":0,"numSms":132}])";
        doc += R"(,"traceEvents":[)";
        for (std::size_t i = 0; i < m_events.size(); ++i)
            doc += (i ? "," : "") + m_events[i];
        return doc + "]}";
    }

private:
    static constexpr double kBase = 1'000'000;

    static std::string number(double v)
    {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3f", v);
        return buf;
    }

    static std::string event(const std::string& cat, const std::string& name, int pid, int tid, double ts,
        double dur, const std::string& args)
    {
        return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)" + std::to_string(pid)
            + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" + number(kBase + ts) + R"(,"dur":)"
            + number(dur) + R"(,"args":{)" + args + "}}";
    }

    std::int64_t m_rank = 0;
    int m_correlation = 1;
    std::int64_t m_deviceMemory = 0;
    std::vector<std::string> m_events;
};

} // namespace ks::tests
