#pragma once

#include <cstdint>
#include <vector>

namespace ks::core {

// One simulated trace event, before formatting. The simulator produces a
// step's worth of these (a parent op's duration is only known once its
// children ran); the KinetoEventWriter then formats them. Generic fields keep
// the record small (80 bytes); their meaning per kind:
//
// | kind              | name          | tid             | id          | v0             | v1              | v2
// | v3            |
// |-------------------|---------------|-----------------|-------------|----------------|-----------------|---------------|---------------|
// | CpuOp, UserAnnot. | name          | thread          | Ev Idx      | Record fn id   | Sequence number |
// collective Seq| -             | | PythonFunction    | name          | thread          | Python id   |
// parent id      | Ev Idx          | -             | -             | | Memory            | -             |
// thread          | -           | Bytes (+/-)    | Addr            | Total Alloc.  | Total Reserved| |
// FlowStart/End     | -             | thread / stream | flow id     | on device? 0/1 | -               | - |
// -             | | Runtime           | runtime api   | thread          | correlation | -              | - |
// -             | -             | | Kernel            | kernel spec   | stream          | correlation | - | -
// | -             | -             | | Memcpy, Memset    | -             | stream          | correlation |
// bytes          | -               | -             | -             | | Sync              | -             |
// stream or -1    | correlation | wait_on_stream | wait corr. id   | event id      | -             | |
// GpuUserAnnotation | name          | stream          | -           | -              | -               | - |
// -             |
//
// `sub` is the Fwd thread id for ops, the FlowCategory for flows, the
// MemcpyKind for copies and the SyncKind for syncs. `text` indexes extra
// pre-rendered args (input shapes, collective parameters), -1 for none.
enum class RecordKind : std::uint8_t
{
    CpuOp,
    UserAnnotation,
    PythonFunction,
    Memory,
    FlowStart,
    FlowEnd,
    Runtime,
    Kernel,
    Memcpy,
    Memset,
    Sync,
    GpuUserAnnotation,
};

enum class FlowCategory : std::uint8_t
{
    Ac2g,
    FwdBwd
};
enum class MemcpyKind : std::uint8_t
{
    HtoD,
    DtoH,
    DtoD
};
enum class SyncKind : std::uint8_t
{
    StreamSync,
    EventSync,
    ContextSync,
    StreamWaitEvent
};

struct StepRecord
{
    std::int64_t ts = 0; // ns since the job's time origin
    std::int64_t dur = 0;
    std::int64_t externalId = 0;
    std::int64_t id = 0;
    std::int64_t v0 = 0;
    std::int64_t v1 = 0;
    std::int64_t v2 = 0;
    std::int64_t v3 = 0;
    std::int32_t tid = 0;
    std::int32_t text = -1;
    std::uint32_t name = 0;
    RecordKind kind = RecordKind::CpuOp;
    std::uint8_t sub = 0;
};

using StepRecords = std::vector<StepRecord>;

// Host-side records (ops, annotations, allocator events, fwdbwd flows) are
// written before the runtime and device ones of the same step, as Kineto writes
// its CPU events before the CUPTI activities.
inline bool isHostSide(const StepRecord& record)
{
    if (record.kind == RecordKind::FlowStart || record.kind == RecordKind::FlowEnd)
        return record.sub == static_cast<std::uint8_t>(FlowCategory::FwdBwd);
    return record.kind <= RecordKind::Memory;
}

} // namespace ks::core
