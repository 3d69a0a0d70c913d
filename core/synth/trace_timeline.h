#pragma once

#include "core/synth/step_record.h"
#include "core/synth/synth_rng.h"
#include "core/synth/trace_vocabulary.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace ks::core {

// Process, thread and stream ids of one simulated rank.
struct RankLayout
{
    static constexpr int kComputeStream = 7;
    static constexpr int kCopyStream = 20;
    static constexpr int kCommStream = 24;
    static constexpr std::array<int, 3> kStreams { kComputeStream, kCopyStream, kCommStream };

    int rank = 0;
    int device = 0;
    std::int32_t pid = 0;
    std::int32_t mainTid = 0;
    std::int32_t backwardTid = 0; // the autograd engine's device thread
};

enum class HostThread : std::uint8_t
{
    Main,
    Backward
};

// A cudaEventRecord: which stream, and when the GPU reaches it.
struct EventMark
{
    std::int64_t correlation = 0;
    int stream = 0;
    std::int64_t readyAt = 0;
    std::int64_t eventId = 0;
};

// The mechanics of a profiled PyTorch process: host threads running nested ops,
// CUDA runtime calls, streams that run device work in order, flows, the caching
// allocator. Each call appends the records Kineto would write for it, with
// realistic costs (launch overhead, launch latency, queueing behind earlier
// work). What the process does is up to the caller (TrainingStepSimulator).
class TraceTimeline
{
public:
    explicit TraceTimeline(const RankLayout& layout);

    // Records go to `out`, randomness comes from `rng`, until the next call.
    void attach(StepRecords& out, SynthRng& rng);

    std::int64_t now(HostThread thread) const { return m_threads[index(thread)].now; }

    void setNow(HostThread thread, std::int64_t ns) { m_threads[index(thread)].now = ns; }

    // CPU time spent in the current op.
    void work(HostThread thread, std::int64_t ns) { m_threads[index(thread)].now += ns; }

    // Ops (cpu_op / user_annotation) nest per thread: close in reverse order.
    int openOp(HostThread thread, RecordKind kind, std::uint32_t name, int text = -1);
    void closeOp(int handle);
    void setSequence(int handle, std::int64_t sequenceNumber, int fwdThreadId);
    void setCollectiveSeq(int handle, std::int64_t seq);

    const StepRecord& record(int handle) const { return (*m_out)[static_cast<std::size_t>(handle)]; }

    // python_function events on the main thread.
    int openPython(std::uint32_t name);
    void closePython(int handle);

    // fwdbwd flows: from a forward op to the backward node that differentiates it.
    std::int64_t flowFromForward(int forwardOpHandle);
    void flowToBackward(int backwardOpHandle, std::int64_t flowId);

    // Compute kernels (launchKernel) last `scale` times their nominal duration:
    // a straggling GPU. Collectives and copies are not scaled.
    void setComputeScale(double scale) { m_computeScale = scale; }

    void launchKernel(HostThread thread, KernelId kernel, int stream, std::int64_t durNs, int text = -1);
    // A collective kernel on the comm stream: it starts once launched, once the
    // stream wait is satisfied (`readyFloor`) and once the previous collective
    // ended; it ends when the slowest rank arrived plus the transfer (`end`,
    // decided by the CollectivePlan). Returns this rank's arrival time, which
    // does not depend on `end` or `previousEnd`.
    std::int64_t launchCollective(HostThread thread, int stream, int text, std::int64_t readyFloor,
        std::int64_t previousEnd, std::int64_t end);
    void memcpy(HostThread thread, MemcpyKind kind, int stream, std::int64_t bytes, double gbPerSecond);
    void memset(HostThread thread, int stream, std::int64_t bytes);
    EventMark recordEvent(HostThread thread, int stream);
    void streamWaitEvent(HostThread thread, int waitingStream, const EventMark& event);
    void streamSynchronize(HostThread thread, int stream);
    void eventSynchronize(HostThread thread, const EventMark& event);
    void deviceSynchronize(HostThread thread);
    void runtimeCall(HostThread thread, RuntimeApi api, std::int64_t durNs);

    std::int64_t streamFree(int stream) const { return m_streamFree[streamIndex(stream)]; }

    // The CUDA caching allocator, seen through [memory] instant events.
    std::uint64_t allocate(HostThread thread, std::int64_t bytes);
    void release(HostThread thread, std::uint64_t addr, std::int64_t bytes);

    // gpu_user_annotation: the span of device work on `stream` between open and close.
    int openGpuSpan(int stream);
    void closeGpuSpan(int span, std::uint32_t name, std::int64_t externalId);

private:
    struct ThreadState
    {
        std::int32_t tid = 0;
        std::int64_t now = 0;
        std::vector<int> openOps; // handles, innermost last
    };

    struct GpuSpan
    {
        int stream = 0;
        std::int64_t first = 0;
        std::int64_t last = 0;
        bool active = false;
        bool touched = false; // saw device work
    };

    static std::size_t index(HostThread thread) { return static_cast<std::size_t>(thread); }

    static std::size_t streamIndex(int stream);

    ThreadState& thread(HostThread t) { return m_threads[index(t)]; }

    StepRecord& push(RecordKind kind);
    std::int64_t currentExternalId(HostThread t) const;
    // A runtime call starting shortly after `now`, lasting `durNs`; returns its record's index.
    std::size_t runtime(HostThread t, RuntimeApi api, std::int64_t durNs);
    void ac2g(HostThread t, const StepRecord& runtimeRecord, int stream, std::int64_t deviceTs);
    // Queues device work on `stream` after a launch; returns its start.
    std::int64_t deviceStart(std::int64_t launchTs, int stream);
    void deviceBusy(int stream, std::int64_t start, std::int64_t end);
    // The record of device work a launch started: on `stream` from `start`, with
    // the launch's external id and correlation.
    static StepRecord deviceRecord(
        RecordKind kind, const StepRecord& launch, int stream, std::int64_t start, std::int64_t durNs);
    // Appends `record`, marks its stream busy and links its launch to it (ac2g).
    void pushDeviceWork(HostThread t, const StepRecord& launch, const StepRecord& record);
    void syncRecord(SyncKind kind, int stream, const StepRecord& call, const EventMark* event);

    RankLayout m_layout;
    StepRecords* m_out = nullptr;
    SynthRng* m_rng = nullptr;
    std::array<ThreadState, 2> m_threads;
    std::array<std::int64_t, RankLayout::kStreams.size()> m_streamFree {};
    std::vector<GpuSpan> m_spans;
    std::int64_t m_nextExternalId = 1;
    std::int64_t m_nextRecordFunctionId = 1;
    std::int64_t m_nextEvIdx = 0;
    std::int64_t m_nextCorrelation;
    std::int64_t m_nextFlowId = 1;
    std::int64_t m_nextPythonId = 1;
    std::int64_t m_nextEventId = 1;
    std::vector<int> m_pythonStack;
    std::int64_t m_allocated = 0;
    std::int64_t m_reserved = 0;
    std::uint64_t m_nextAddr = 0;
    double m_computeScale = 1.0;
};

} // namespace ks::core
