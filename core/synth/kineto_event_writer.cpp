#include "core/synth/kineto_event_writer.h"

#include "core/synth/training_step.h"

#include <string>

namespace ks::core {

namespace {

    constexpr int kDevicesPerNode = 8;
    // Closes a metadata event's args and the event.
    constexpr std::string_view kMetadataEnd = "\n    }\n  }";

    std::string_view syncName(SyncKind kind)
    {
        switch (kind) {
        case SyncKind::StreamSync:
            return "Stream Sync";
        case SyncKind::EventSync:
            return "Event Sync";
        case SyncKind::ContextSync:
            return "Context Sync";
        case SyncKind::StreamWaitEvent:
            return "Stream Wait Event";
        }
        return "Unknown Sync";
    }

    std::string_view memcpyName(MemcpyKind kind)
    {
        switch (kind) {
        case MemcpyKind::HtoD:
            return "Memcpy HtoD (Pageable -> Device)";
        case MemcpyKind::DtoH:
            return "Memcpy DtoH (Device -> Pageable)";
        case MemcpyKind::DtoD:
            return "Memcpy DtoD (Device -> Device)";
        }
        return "Memcpy Unknown";
    }

} // namespace

KinetoEventWriter::KinetoEventWriter(JsonWriter& out, const RankLayout& layout, const NameTable& names,
    const std::vector<std::string>& texts, std::int64_t timeOrigin)
    : m_out(out)
    , m_layout(layout)
    , m_names(names)
    , m_texts(texts)
    , m_origin(timeOrigin)
{
}

void KinetoEventWriter::writeHeader(const SynthJobShape& shape)
{
    m_out.raw("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
    for (int d = 0; d < kDevicesPerNode; ++d) {
        m_out.raw(d == 0 ? "\n    {\n      \"id\": " : ",\n    {\n      \"id\": ");
        m_out.integer(d);
        m_out.raw(", \"name\": \"NVIDIA A100-SXM4-80GB\", \"totalGlobalMem\": 85899345920,\n"
                  "      \"computeMajor\": 8, \"computeMinor\": 0,\n"
                  "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
                  "      \"regsPerBlock\": 65536, \"regsPerMultiprocessor\": 65536, \"warpSize\": 32,\n"
                  "      \"sharedMemPerBlock\": 49152, \"sharedMemPerMultiprocessor\": 167936,\n"
                  "      \"numSms\": 108, \"sharedMemPerBlockOptin\": 166912\n    }");
    }
    // Kineto writes "rank": with a space after the colon; HTA's rank regex needs it.
    m_out.raw("\n  ],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ");
    m_out.integer(m_layout.rank);
    m_out.raw(", \"world_size\": ");
    m_out.integer(shape.worldSize);
    m_out.raw(", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
              "\"backend_config\": \"cuda:nccl\", \"pg_size\": ");
    m_out.integer(shape.worldSize);
    m_out.raw(", \"ranks\": [");
    for (int r = 0; r < shape.worldSize; ++r) {
        if (r > 0)
            m_out.raw(", ");
        m_out.integer(r);
    }
    m_out.raw("]}], \"nccl_version\": \"2.20.5\"},\n  \"record_shapes\": 1,\n  \"profile_memory\": 1,\n"
              "  \"with_stack\": 1,\n  \"traceEvents\": [");
}

void KinetoEventWriter::beginEvent()
{
    m_out.raw(m_events == 0 ? "\n  {\n    " : ",\n  {\n    ");
    ++m_events;
}

void KinetoEventWriter::writeStep(const StepRecords& records)
{
    for (const StepRecord& record : records)
        if (isHostSide(record))
            writeRecord(record);
    for (const StepRecord& record : records)
        if (!isHostSide(record))
            writeRecord(record);
}

void KinetoEventWriter::writeRecord(const StepRecord& record)
{
    beginEvent();
    switch (record.kind) {
    case RecordKind::CpuOp:
        writeOp(record, "cpu_op");
        break;
    case RecordKind::UserAnnotation:
        writeOp(record, "user_annotation");
        break;
    case RecordKind::PythonFunction:
        writePython(record);
        break;
    case RecordKind::Memory:
        writeMemory(record);
        break;
    case RecordKind::FlowStart:
    case RecordKind::FlowEnd:
        writeFlow(record);
        break;
    case RecordKind::Runtime:
        writeRuntime(record);
        break;
    case RecordKind::Kernel:
        writeKernel(record);
        break;
    case RecordKind::Memcpy:
    case RecordKind::Memset:
        writeCopy(record);
        break;
    case RecordKind::Sync:
        writeSync(record);
        break;
    case RecordKind::GpuUserAnnotation:
        writeGpuAnnotation(record);
        break;
    }
    m_out.raw("\n  }");
}

void KinetoEventWriter::pidTidTs(std::int64_t pid, std::int64_t tid, std::int64_t ts)
{
    m_out.integer(pid);
    m_out.raw(", \"tid\": ");
    m_out.integer(tid);
    m_out.raw(",\n    \"ts\": ");
    m_out.microseconds(m_origin + ts);
}

void KinetoEventWriter::completeEventStart(
    std::string_view category, std::string_view name, std::int64_t pid, const StepRecord& record)
{
    m_out.raw("\"ph\": \"X\", \"cat\": \"");
    m_out.raw(category);
    m_out.raw("\", \"name\": \"");
    m_out.raw(name);
    m_out.raw("\", \"pid\": ");
    pidTidTs(pid, record.tid, record.ts);
    m_out.raw(", \"dur\": ");
    m_out.microseconds(record.dur);
}

void KinetoEventWriter::completeEventHead(
    std::string_view category, std::string_view name, std::int64_t pid, const StepRecord& record)
{
    completeEventStart(category, name, pid, record);
    m_out.raw(",\n    \"args\": {\n      \"External id\": ");
    m_out.integer(record.externalId);
}

void KinetoEventWriter::appendText(const StepRecord& record)
{
    if (record.text >= 0) {
        m_out.raw(", ");
        m_out.raw(m_texts[static_cast<std::size_t>(record.text)]);
    }
}

void KinetoEventWriter::writeOp(const StepRecord& record, std::string_view category)
{
    completeEventHead(category, m_names.at(record.name), m_layout.pid, record);
    if (record.v1 >= 0) {
        m_out.raw(",\"Sequence number\": ");
        m_out.integer(record.v1);
        m_out.raw(", \"Fwd thread id\": ");
        m_out.integer(record.sub);
        m_out.raw(", \"Record function id\": ");
    } else {
        m_out.raw(",\"Record function id\": ");
    }
    m_out.integer(record.v0);
    appendText(record);
    if (record.v2 >= 0) {
        m_out.raw(", \"Rank\": ");
        m_out.integer(m_layout.rank);
        m_out.raw(", \"Seq\": ");
        m_out.integer(record.v2);
    }
    m_out.raw(", \"Ev Idx\": ");
    m_out.integer(record.id);
    m_out.raw("\n    }");
}

void KinetoEventWriter::writePython(const StepRecord& record)
{
    completeEventStart("python_function", m_names.at(record.name), m_layout.pid, record);
    m_out.raw(",\n    \"args\": {\n      \"Python parent id\": ");
    m_out.integer(record.v0);
    m_out.raw(", \"Python id\": ");
    m_out.integer(record.id);
    m_out.raw(", \"Ev Idx\": ");
    m_out.integer(record.v1);
    m_out.raw("\n    }");
}

void KinetoEventWriter::writeMemory(const StepRecord& record)
{
    m_out.raw("\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\",\n    "
              "\"pid\": ");
    pidTidTs(m_layout.pid, record.tid, record.ts);
    m_out.raw(",\n    \"args\": {\n      \"Total Reserved\": ");
    m_out.integer(record.v3);
    m_out.raw(", \"Total Allocated\": ");
    m_out.integer(record.v2);
    m_out.raw(", \"Bytes\": ");
    m_out.integer(record.v0);
    m_out.raw(", \"Addr\": ");
    m_out.integer(record.v1);
    m_out.raw(", \"Device Id\": ");
    m_out.integer(m_layout.device);
    m_out.raw(", \"Device Type\": 1\n    }");
}

void KinetoEventWriter::writeFlow(const StepRecord& record)
{
    const bool start = record.kind == RecordKind::FlowStart;
    const bool ac2g = record.sub == static_cast<std::uint8_t>(FlowCategory::Ac2g);
    m_out.raw(start ? "\"ph\": \"s\", \"id\": " : "\"ph\": \"f\", \"id\": ");
    m_out.integer(record.id);
    m_out.raw(", \"pid\": ");
    m_out.integer(record.v0 ? m_layout.device : m_layout.pid);
    m_out.raw(", \"tid\": ");
    m_out.integer(record.tid);
    m_out.raw(", \"ts\": ");
    m_out.microseconds(m_origin + record.ts);
    m_out.raw(ac2g ? ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\""
                   : ",\n    \"cat\": \"fwdbwd\", \"name\": \"fwdbwd\"");
    if (!start)
        m_out.raw(", \"bp\": \"e\"");
}

void KinetoEventWriter::writeRuntime(const StepRecord& record)
{
    const RuntimeSpec& spec = runtimeSpec(static_cast<RuntimeApi>(record.name));
    completeEventHead("cuda_runtime", spec.name, m_layout.pid, record);
    m_out.raw(",      \"cbid\": ");
    m_out.integer(spec.cbid);
    m_out.raw(", \"correlation\": ");
    m_out.integer(record.id);
    m_out.raw("\n    }");
}

// "device", "context", "stream", "correlation" shared by all device records;
// `lead` is what Kineto writes before "device".
void KinetoEventWriter::deviceArgs(const StepRecord& record, std::string_view lead)
{
    m_out.raw(lead);
    m_out.raw("\"device\": ");
    m_out.integer(m_layout.device);
    m_out.raw(", \"context\": 1,      \"stream\": ");
    m_out.integer(record.tid);
    m_out.raw(", \"correlation\": ");
    m_out.integer(record.id);
}

void KinetoEventWriter::writeKernel(const StepRecord& record)
{
    const KernelSpec& spec = kernelSpec(static_cast<KernelId>(record.name));
    completeEventHead("kernel", spec.name, m_layout.device, record);
    deviceArgs(record, ",      \"queued\": 0, ");
    m_out.raw(",      ");
    m_out.raw(spec.launchArgs);
    appendText(record);
    m_out.raw("\n    }");
}

void KinetoEventWriter::writeCopy(const StepRecord& record)
{
    const bool memset = record.kind == RecordKind::Memset;
    const std::string_view name =
        memset ? "Memset (Device)" : memcpyName(static_cast<MemcpyKind>(record.sub));
    completeEventHead(memset ? "gpu_memset" : "gpu_memcpy", name, m_layout.device, record);
    deviceArgs(record, ",      ");
    m_out.raw(",      \"bytes\": ");
    m_out.integer(record.v0);
    m_out.raw(", \"memory bandwidth (GB/s)\": ");
    // bytes per ns is GB/s
    m_out.number(static_cast<double>(record.v0) / static_cast<double>(record.dur > 0 ? record.dur : 1));
    m_out.raw("\n    }");
}

void KinetoEventWriter::writeSync(const StepRecord& record)
{
    const auto kind = static_cast<SyncKind>(record.sub);
    completeEventHead("cuda_sync", syncName(kind), m_layout.device, record);
    m_out.raw(",      \"cuda_sync_kind\": \"");
    m_out.raw(syncName(kind));
    m_out.raw("\"");
    if (kind == SyncKind::EventSync || kind == SyncKind::StreamWaitEvent) {
        m_out.raw(",      \"wait_on_stream\": ");
        m_out.integer(record.v0);
        m_out.raw(",      \"wait_on_cuda_event_record_corr_id\": ");
        m_out.integer(record.v1);
        m_out.raw(",      \"wait_on_cuda_event_id\": ");
        m_out.integer(record.v2);
    }
    m_out.raw(",      \"stream\": ");
    m_out.integer(record.tid);
    m_out.raw(", \"correlation\": ");
    m_out.integer(record.id);
    m_out.raw(",      \"device\": ");
    m_out.integer(m_layout.device);
    m_out.raw(", \"context\": 1\n    }");
}

void KinetoEventWriter::writeGpuAnnotation(const StepRecord& record)
{
    completeEventHead("gpu_user_annotation", m_names.at(record.name), m_layout.device, record);
    m_out.raw("\n    }");
}

void KinetoEventWriter::metadataHead(
    std::string_view name, std::int64_t ts, std::int64_t pid, std::int64_t tid, std::string_view key)
{
    beginEvent();
    m_out.raw("\"name\": \"");
    m_out.raw(name);
    m_out.raw("\", \"ph\": \"M\", \"ts\": ");
    m_out.microseconds(m_origin + ts);
    m_out.raw(", \"pid\": ");
    m_out.integer(pid);
    m_out.raw(", \"tid\": ");
    m_out.integer(tid);
    m_out.raw(",\n    \"args\": {\n      \"");
    m_out.raw(key);
    m_out.raw("\": ");
}

void KinetoEventWriter::metadata(std::string_view name, std::int64_t ts, std::int64_t pid, std::int64_t tid,
    std::string_view key, std::string_view quotedValue)
{
    metadataHead(name, ts, pid, tid, key);
    m_out.quoted(quotedValue);
    m_out.raw(kMetadataEnd);
}

void KinetoEventWriter::metadata(std::string_view name, std::int64_t ts, std::int64_t pid, std::int64_t tid,
    std::string_view key, std::int64_t value)
{
    metadataHead(name, ts, pid, tid, key);
    m_out.integer(value);
    m_out.raw(kMetadataEnd);
}

void KinetoEventWriter::writeFooter(
    std::int64_t profilerStart, std::int64_t profilerEnd, std::string_view traceName)
{
    const std::int64_t t0 = profilerStart;
    metadata("process_name", t0, m_layout.pid, 0, "name", "python3.10");
    metadata("process_labels", t0, m_layout.pid, 0, "labels", "CPU");
    metadata("process_sort_index", t0, m_layout.pid, 0, "sort_index", m_layout.pid);
    for (int d = 0; d < kDevicesPerNode; ++d) {
        metadata("process_name", t0, d, 0, "name", "python3.10");
        metadata("process_labels", t0, d, 0, "labels", "GPU " + std::to_string(d));
        metadata("process_sort_index", t0, d, 0, "sort_index", 16777216 + d);
    }
    metadata("thread_name", t0, m_layout.device, -1, "name", "Device " + std::to_string(m_layout.device));
    metadata("thread_sort_index", t0, m_layout.device, -1, "sort_index", -1);
    for (const int stream : RankLayout::kStreams) {
        metadata(
            "thread_name", t0, m_layout.device, stream, "name", "stream " + std::to_string(stream) + " ");
        metadata("thread_sort_index", t0, m_layout.device, stream, "sort_index", stream);
    }
    metadata("thread_name", t0, m_layout.pid, m_layout.mainTid, "name",
        "thread " + std::to_string(m_layout.mainTid) + " (pt_main_thread)");
    metadata("thread_sort_index", t0, m_layout.pid, m_layout.mainTid, "sort_index", m_layout.mainTid);
    metadata("thread_name", t0, m_layout.pid, m_layout.backwardTid, "name",
        "thread " + std::to_string(m_layout.backwardTid) + " (pt_autograd_0)");
    metadata("thread_sort_index", t0, m_layout.pid, m_layout.backwardTid, "sort_index", m_layout.backwardTid);

    beginEvent();
    m_out.raw("\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
    m_out.microseconds(m_origin + t0);
    m_out.raw(", \"dur\": ");
    m_out.microseconds(profilerEnd - t0);
    m_out.raw(
        ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n    \"name\": \"PyTorch Profiler (0)\",\n"
        "    \"args\": {\n      \"Op count\": 0\n    }\n  }");
    beginEvent();
    m_out.raw("\"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
    m_out.microseconds(m_origin + t0);
    m_out.raw(",\n    \"pid\": \"Spans\", \"tid\": 0,\n    \"args\": {\n      \"sort_index\": 536870912\n    "
              "}\n  }");
    beginEvent();
    m_out.raw("\"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n"
              "    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
    m_out.microseconds(m_origin + t0);
    m_out.raw("\n  }");
    beginEvent();
    m_out.raw("\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n    \"pid\": \"\", \"tid\": "
              "\"\", \"ts\": ");
    m_out.microseconds(m_origin + profilerEnd);
    m_out.raw("\n  }\n  ],\n  \"traceName\": ");
    m_out.quoted(traceName);
    m_out.raw(",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": 0\n}\n");
}

} // namespace ks::core
