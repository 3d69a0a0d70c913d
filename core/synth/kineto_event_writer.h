#pragma once

#include "core/synth/json_writer.h"
#include "core/synth/step_record.h"
#include "core/synth/trace_timeline.h"
#include "core/synth/trace_vocabulary.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

struct SynthJobShape;

// Formats one rank's simulated records as Kineto writes them (PyTorch 2.x
// chrome trace layout, including its whitespace, so sizes per event match real
// files): header with deviceProperties and distributedInfo, the events, then
// metadata and the profiler span at the end.
class KinetoEventWriter
{
public:
    // `timeOrigin`: epoch nanoseconds added to every simulated time.
    KinetoEventWriter(JsonWriter& out, const RankLayout& layout, const NameTable& names,
        const std::vector<std::string>& texts, std::int64_t timeOrigin);

    void writeHeader(const SynthJobShape& shape);
    void writeStep(const StepRecords& records);
    void writeFooter(std::int64_t profilerStart, std::int64_t profilerEnd, std::string_view traceName);

    std::uint64_t events() const { return m_events; }

private:
    void beginEvent();
    void writeRecord(const StepRecord& record);
    void writeOp(const StepRecord& record, std::string_view category);
    void writePython(const StepRecord& record);
    void writeMemory(const StepRecord& record);
    void writeFlow(const StepRecord& record);
    void writeRuntime(const StepRecord& record);
    void writeKernel(const StepRecord& record);
    void writeCopy(const StepRecord& record);
    void writeSync(const StepRecord& record);
    void writeGpuAnnotation(const StepRecord& record);
    // `PID, "tid": TID,\n    "ts": TS`
    void pidTidTs(std::int64_t pid, std::int64_t tid, std::int64_t ts);
    // `"ph": "X", "cat": ..., "name": ..., "pid": ..., "tid": ...,\n "ts": ..., "dur": ...`
    void completeEventStart(
        std::string_view category, std::string_view name, std::int64_t pid, const StepRecord& record);
    // completeEventStart, then `,\n "args": {\n "External id": ...`
    void completeEventHead(
        std::string_view category, std::string_view name, std::int64_t pid, const StepRecord& record);
    // `, TEXT` when the record carries a pre-formatted argument text.
    void appendText(const StepRecord& record);
    void deviceArgs(const StepRecord& record, std::string_view lead);
    // A metadata event up to its one argument's value.
    void metadataHead(
        std::string_view name, std::int64_t ts, std::int64_t pid, std::int64_t tid, std::string_view key);
    void metadata(std::string_view name, std::int64_t ts, std::int64_t pid, std::int64_t tid,
        std::string_view key, std::string_view quotedValue);
    void metadata(std::string_view name, std::int64_t ts, std::int64_t pid, std::int64_t tid,
        std::string_view key, std::int64_t value);

    JsonWriter& m_out;
    RankLayout m_layout;
    const NameTable& m_names;
    const std::vector<std::string>& m_texts;
    std::int64_t m_origin;
    std::uint64_t m_events = 0;
};

} // namespace ks::core
