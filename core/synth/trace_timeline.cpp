#include "core/synth/trace_timeline.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace ks::core {

namespace {

    constexpr std::int64_t kUs = 1000;

    // The caching allocator reserves whole segments from the driver.
    constexpr std::int64_t kSegment = std::int64_t { 20 } * 1024 * 1024;
    constexpr std::uint64_t kHeapBase = 0x7f2a40000000ULL;
    constexpr std::uint64_t kHeapSpan = 1ULL << 36;

} // namespace

TraceTimeline::TraceTimeline(const RankLayout& layout)
    : m_layout(layout)
    // CUPTI correlation ids are process-wide counters that are already large
    // when profiling starts; differ per rank like real processes.
    , m_nextCorrelation(40000 + 9173 * (layout.rank % 97))
{
    m_threads[index(HostThread::Main)].tid = layout.mainTid;
    m_threads[index(HostThread::Backward)].tid = layout.backwardTid;
}

void TraceTimeline::attach(StepRecords& out, SynthRng& rng)
{
    m_out = &out;
    m_rng = &rng;
}

std::size_t TraceTimeline::streamIndex(int stream)
{
    for (std::size_t i = 0; i < RankLayout::kStreams.size(); ++i)
        if (RankLayout::kStreams[i] == stream)
            return i;
    assert(false && "unknown stream");
    return 0;
}

StepRecord& TraceTimeline::push(RecordKind kind)
{
    StepRecord& record = m_out->emplace_back();
    record.kind = kind;
    return record;
}

std::int64_t TraceTimeline::currentExternalId(HostThread t) const
{
    const auto& open = m_threads[index(t)].openOps;
    return open.empty() ? 0 : (*m_out)[static_cast<std::size_t>(open.back())].externalId;
}

int TraceTimeline::openOp(HostThread t, RecordKind kind, std::uint32_t name, int text)
{
    ThreadState& state = thread(t);
    // Eager-mode overhead (Python, dispatcher, RecordFunction) around each op.
    state.now += m_rng->around(3000, 0.5);
    const int handle = static_cast<int>(m_out->size());
    StepRecord& record = push(kind);
    record.name = name;
    record.tid = state.tid;
    record.ts = state.now;
    record.externalId = m_nextExternalId++;
    record.id = m_nextEvIdx++;
    record.v0 = m_nextRecordFunctionId++;
    record.v1 = -1;
    record.v2 = -1;
    record.text = text;
    state.openOps.push_back(handle);
    state.now += m_rng->around(4000, 0.5);
    return handle;
}

void TraceTimeline::closeOp(int handle)
{
    StepRecord& record = (*m_out)[static_cast<std::size_t>(handle)];
    ThreadState& state =
        record.tid == m_layout.mainTid ? thread(HostThread::Main) : thread(HostThread::Backward);
    assert(!state.openOps.empty() && state.openOps.back() == handle);
    state.openOps.pop_back();
    state.now += m_rng->around(2500, 0.5);
    record.dur = state.now - record.ts;
}

void TraceTimeline::setSequence(int handle, std::int64_t sequenceNumber, int fwdThreadId)
{
    StepRecord& record = (*m_out)[static_cast<std::size_t>(handle)];
    record.v1 = sequenceNumber;
    record.sub = static_cast<std::uint8_t>(fwdThreadId);
}

void TraceTimeline::setCollectiveSeq(int handle, std::int64_t seq)
{
    (*m_out)[static_cast<std::size_t>(handle)].v2 = seq;
}

int TraceTimeline::openPython(std::uint32_t name)
{
    ThreadState& state = thread(HostThread::Main);
    state.now += m_rng->around(300, 0.5);
    const int handle = static_cast<int>(m_out->size());
    StepRecord& record = push(RecordKind::PythonFunction);
    record.name = name;
    record.tid = state.tid;
    record.ts = state.now;
    record.id = m_nextPythonId++;
    record.v0 = m_pythonStack.empty() ? 0 : (*m_out)[static_cast<std::size_t>(m_pythonStack.back())].id;
    record.v1 = m_nextEvIdx++;
    m_pythonStack.push_back(handle);
    state.now += m_rng->around(400, 0.5);
    return handle;
}

void TraceTimeline::closePython(int handle)
{
    assert(!m_pythonStack.empty() && m_pythonStack.back() == handle);
    m_pythonStack.pop_back();
    ThreadState& state = thread(HostThread::Main);
    state.now += m_rng->around(300, 0.5);
    StepRecord& record = (*m_out)[static_cast<std::size_t>(handle)];
    record.dur = state.now - record.ts;
}

std::int64_t TraceTimeline::flowFromForward(int forwardOpHandle)
{
    const StepRecord op = (*m_out)[static_cast<std::size_t>(forwardOpHandle)];
    StepRecord& flow = push(RecordKind::FlowStart);
    flow.sub = static_cast<std::uint8_t>(FlowCategory::FwdBwd);
    flow.id = m_nextFlowId++;
    flow.tid = op.tid;
    flow.ts = op.ts;
    return flow.id;
}

void TraceTimeline::flowToBackward(int backwardOpHandle, std::int64_t flowId)
{
    const StepRecord op = (*m_out)[static_cast<std::size_t>(backwardOpHandle)];
    StepRecord& flow = push(RecordKind::FlowEnd);
    flow.sub = static_cast<std::uint8_t>(FlowCategory::FwdBwd);
    flow.id = flowId;
    flow.tid = op.tid;
    flow.ts = op.ts;
}

std::size_t TraceTimeline::runtime(HostThread t, RuntimeApi api, std::int64_t durNs)
{
    ThreadState& state = thread(t);
    state.now += m_rng->around(350, 0.6);
    const std::size_t at = m_out->size();
    StepRecord& record = push(RecordKind::Runtime);
    record.name = static_cast<std::uint32_t>(api);
    record.tid = state.tid;
    record.ts = state.now;
    record.dur = durNs;
    record.externalId = currentExternalId(t);
    // CUPTI also counts calls Kineto filters out: ids advance unevenly.
    record.id = m_nextCorrelation;
    m_nextCorrelation += 1 + (m_rng->chance(0.3) ? m_rng->between(1, 3) : 0);
    state.now += durNs;
    return at;
}

void TraceTimeline::ac2g(HostThread t, const StepRecord& runtimeRecord, int stream, std::int64_t deviceTs)
{
    StepRecord& start = push(RecordKind::FlowStart);
    start.sub = static_cast<std::uint8_t>(FlowCategory::Ac2g);
    start.id = runtimeRecord.id;
    start.tid = thread(t).tid;
    start.ts = runtimeRecord.ts;
    StepRecord& end = push(RecordKind::FlowEnd);
    end.sub = static_cast<std::uint8_t>(FlowCategory::Ac2g);
    end.id = runtimeRecord.id;
    end.tid = stream;
    end.ts = deviceTs;
    end.v0 = 1;
}

std::int64_t TraceTimeline::deviceStart(std::int64_t launchTs, int stream)
{
    // An idle GPU picks up a launch a few us after the call starts; a busy
    // stream runs it back to back after the previous work.
    const std::int64_t idleStart = launchTs + m_rng->around(4 * kUs, 0.4);
    const std::int64_t queuedStart = m_streamFree[streamIndex(stream)] + m_rng->around(1500, 0.6);
    return std::max(idleStart, queuedStart);
}

void TraceTimeline::deviceBusy(int stream, std::int64_t start, std::int64_t end)
{
    auto& freeAt = m_streamFree[streamIndex(stream)];
    freeAt = std::max(freeAt, end);
    for (GpuSpan& span : m_spans) {
        if (!span.active || span.stream != stream)
            continue;
        if (!span.touched || start < span.first)
            span.first = start;
        span.touched = true;
        span.last = std::max(span.last, end);
    }
}

StepRecord TraceTimeline::deviceRecord(
    RecordKind kind, const StepRecord& launch, int stream, std::int64_t start, std::int64_t durNs)
{
    StepRecord record;
    record.kind = kind;
    record.tid = stream;
    record.ts = start;
    record.dur = durNs;
    record.externalId = launch.externalId;
    record.id = launch.id;
    return record;
}

void TraceTimeline::pushDeviceWork(HostThread t, const StepRecord& launch, const StepRecord& record)
{
    m_out->push_back(record);
    deviceBusy(record.tid, record.ts, record.ts + record.dur);
    ac2g(t, launch, record.tid, record.ts);
}

void TraceTimeline::launchKernel(HostThread t, KernelId kernel, int stream, std::int64_t durNs, int text)
{
    const std::size_t call = runtime(t, RuntimeApi::LaunchKernel, m_rng->around(5 * kUs, 0.35));
    const StepRecord launch = (*m_out)[call];
    const std::int64_t start = deviceStart(launch.ts, stream);
    if (m_computeScale != 1.0)
        durNs = static_cast<std::int64_t>(std::llround(static_cast<double>(durNs) * m_computeScale));
    StepRecord record = deviceRecord(RecordKind::Kernel, launch, stream, start, durNs);
    record.name = static_cast<std::uint32_t>(kernel);
    record.text = text;
    pushDeviceWork(t, launch, record);
}

std::int64_t TraceTimeline::launchCollective(
    HostThread t, int stream, int text, std::int64_t readyFloor, std::int64_t previousEnd, std::int64_t end)
{
    const std::size_t call = runtime(t, RuntimeApi::LaunchKernel, m_rng->around(7 * kUs, 0.35));
    const StepRecord launch = (*m_out)[call];
    const std::int64_t arrival = std::max(launch.ts + m_rng->around(5 * kUs, 0.4), readyFloor);
    const std::int64_t start = std::max(arrival, previousEnd);
    StepRecord record =
        deviceRecord(RecordKind::Kernel, launch, stream, start, std::max<std::int64_t>(end - start, kUs));
    record.name = static_cast<std::uint32_t>(KernelId::NcclAllReduce);
    record.text = text;
    pushDeviceWork(t, launch, record);
    return arrival;
}

void TraceTimeline::memcpy(HostThread t, MemcpyKind kind, int stream, std::int64_t bytes, double gbPerSecond)
{
    const std::size_t call = runtime(t, RuntimeApi::MemcpyAsync, m_rng->around(9 * kUs, 0.4));
    const StepRecord launch = (*m_out)[call];
    const std::int64_t start = deviceStart(launch.ts, stream);
    // GB/s is bytes per ns; a fixed ~1.3 us per copy dominates small ones.
    const auto dur =
        m_rng->around(1300 + static_cast<std::int64_t>(static_cast<double>(bytes) / gbPerSecond), 0.1);
    StepRecord record = deviceRecord(RecordKind::Memcpy, launch, stream, start, dur);
    record.sub = static_cast<std::uint8_t>(kind);
    record.v0 = bytes;
    pushDeviceWork(t, launch, record);
}

void TraceTimeline::memset(HostThread t, int stream, std::int64_t bytes)
{
    const std::size_t call = runtime(t, RuntimeApi::MemsetAsync, m_rng->around(6 * kUs, 0.4));
    const StepRecord launch = (*m_out)[call];
    const std::int64_t start = deviceStart(launch.ts, stream);
    const auto dur = m_rng->around(1200 + bytes / 1200, 0.1); // ~1.2 TB/s
    StepRecord record = deviceRecord(RecordKind::Memset, launch, stream, start, dur);
    record.v0 = bytes;
    pushDeviceWork(t, launch, record);
}

EventMark TraceTimeline::recordEvent(HostThread t, int stream)
{
    const std::size_t call = runtime(t, RuntimeApi::EventRecord, m_rng->around(2 * kUs, 0.5));
    EventMark mark;
    mark.correlation = (*m_out)[call].id;
    mark.stream = stream;
    mark.readyAt = m_streamFree[streamIndex(stream)];
    mark.eventId = m_nextEventId++;
    return mark;
}

void TraceTimeline::syncRecord(SyncKind kind, int stream, const StepRecord& call, const EventMark* event)
{
    // CUPTI times synchronization records by the API call that waited.
    StepRecord& record = push(RecordKind::Sync);
    record.sub = static_cast<std::uint8_t>(kind);
    record.tid = stream;
    record.ts = call.ts + std::min<std::int64_t>(600, call.dur / 4);
    record.dur = std::max<std::int64_t>(call.ts + call.dur - record.ts - 200, 100);
    record.externalId = call.externalId;
    record.id = call.id;
    record.v0 = event ? event->stream : -1;
    record.v1 = event ? event->correlation : -1;
    record.v2 = event ? event->eventId : -1;
}

void TraceTimeline::streamWaitEvent(HostThread t, int waitingStream, const EventMark& event)
{
    const std::size_t call = runtime(t, RuntimeApi::StreamWaitEvent, m_rng->around(2500, 0.5));
    const StepRecord launch = (*m_out)[call];
    syncRecord(SyncKind::StreamWaitEvent, waitingStream, launch, &event);
    const StepRecord sync = m_out->back();
    auto& freeAt = m_streamFree[streamIndex(waitingStream)];
    freeAt = std::max(freeAt, event.readyAt);
    ac2g(t, launch, waitingStream, sync.ts);
}

void TraceTimeline::streamSynchronize(HostThread t, int stream)
{
    ThreadState& state = thread(t);
    const std::int64_t callStart = state.now + 350;
    const std::int64_t done = std::max(callStart + m_rng->around(3 * kUs, 0.4),
        m_streamFree[streamIndex(stream)] + m_rng->around(2 * kUs, 0.4));
    const std::size_t call = runtime(t, RuntimeApi::StreamSynchronize, done - callStart);
    const StepRecord launch = (*m_out)[call];
    syncRecord(SyncKind::StreamSync, stream, launch, nullptr);
    ac2g(t, launch, stream, m_out->back().ts);
}

void TraceTimeline::eventSynchronize(HostThread t, const EventMark& event)
{
    ThreadState& state = thread(t);
    const std::int64_t callStart = state.now + 350;
    const std::int64_t done =
        std::max(callStart + m_rng->around(3 * kUs, 0.4), event.readyAt + m_rng->around(2 * kUs, 0.4));
    const std::size_t call = runtime(t, RuntimeApi::EventSynchronize, done - callStart);
    const StepRecord launch = (*m_out)[call];
    syncRecord(SyncKind::EventSync, -1, launch, &event);
    ac2g(t, launch, -1, m_out->back().ts);
}

void TraceTimeline::deviceSynchronize(HostThread t)
{
    ThreadState& state = thread(t);
    const std::int64_t callStart = state.now + 350;
    const std::int64_t idle = *std::max_element(m_streamFree.begin(), m_streamFree.end());
    const std::int64_t done =
        std::max(callStart + m_rng->around(4 * kUs, 0.4), idle + m_rng->around(3 * kUs, 0.4));
    const std::size_t call = runtime(t, RuntimeApi::DeviceSynchronize, done - callStart);
    const StepRecord launch = (*m_out)[call];
    syncRecord(SyncKind::ContextSync, -1, launch, nullptr);
    ac2g(t, launch, -1, m_out->back().ts);
}

void TraceTimeline::runtimeCall(HostThread t, RuntimeApi api, std::int64_t durNs)
{
    runtime(t, api, durNs);
}

std::uint64_t TraceTimeline::allocate(HostThread t, std::int64_t bytes)
{
    const auto rounded = static_cast<std::uint64_t>((bytes + 511) / 512 * 512);
    const std::uint64_t addr = kHeapBase + m_nextAddr;
    m_nextAddr = (m_nextAddr + rounded) % kHeapSpan;
    m_allocated += bytes;
    if (m_allocated > m_reserved)
        m_reserved = (m_allocated + kSegment - 1) / kSegment * kSegment;
    ThreadState& state = thread(t);
    state.now += m_rng->around(400, 0.5);
    StepRecord& record = push(RecordKind::Memory);
    record.tid = state.tid;
    record.ts = state.now;
    record.v0 = bytes;
    record.v1 = static_cast<std::int64_t>(addr);
    record.v2 = m_allocated;
    record.v3 = m_reserved;
    return addr;
}

void TraceTimeline::release(HostThread t, std::uint64_t addr, std::int64_t bytes)
{
    m_allocated -= bytes;
    ThreadState& state = thread(t);
    state.now += m_rng->around(300, 0.5);
    StepRecord& record = push(RecordKind::Memory);
    record.tid = state.tid;
    record.ts = state.now;
    record.v0 = -bytes;
    record.v1 = static_cast<std::int64_t>(addr);
    record.v2 = m_allocated;
    record.v3 = m_reserved;
}

int TraceTimeline::openGpuSpan(int stream)
{
    for (std::size_t i = 0; i < m_spans.size(); ++i) {
        if (!m_spans[i].active) {
            m_spans[i] = GpuSpan { stream, 0, 0, true, false };
            return static_cast<int>(i);
        }
    }
    m_spans.push_back(GpuSpan { stream, 0, 0, true, false });
    return static_cast<int>(m_spans.size() - 1);
}

void TraceTimeline::closeGpuSpan(int span, std::uint32_t name, std::int64_t externalId)
{
    GpuSpan& s = m_spans[static_cast<std::size_t>(span)];
    s.active = false;
    if (!s.touched)
        return; // no device work: Kineto writes no gpu_user_annotation
    StepRecord& record = push(RecordKind::GpuUserAnnotation);
    record.name = name;
    record.tid = s.stream;
    record.ts = s.first;
    record.dur = s.last - s.first;
    record.externalId = externalId;
}

} // namespace ks::core
