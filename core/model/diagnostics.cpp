#include "core/model/diagnostics.h"

namespace ks::core {

namespace {
    struct KindText
    {
        std::string_view name;
        std::string_view description;
    };

    constexpr std::array<KindText, kDiagnosticKindCount> kTexts { {
        { "missing-field", "events missing a required field (ph, ts, pid, tid, name)" },
        { "wrong-field-type", "fields with the wrong JSON type" },
        { "unknown-phase", "events with a phase Kinetoscope does not model" },
        { "negative-duration", "slices with a negative duration (kept with duration 0)" },
        { "unmatched-begin", "B events without a matching E (closed at the last timestamp)" },
        { "unmatched-end", "E events without a matching B" },
        { "overlapping-slices", "slices overlapping without nesting on one row (moved to an extra lane)" },
        { "orphan-flow-start", "flow starts without a matching end or without a slice to bind to" },
        { "orphan-flow-end", "flow ends without a matching start or without a slice to bind to" },
        { "kernel-before-launch", "GPU work starting before its CPU launch starts" },
        { "duplicate-metadata",
            "processes or threads named twice, differently (one count per process or thread)" },
        { "unlinked-gpu-work", "GPU work with a correlation id but no launch in the file" },
        { "duration-overflow", "durations over 4.29 s (kept exactly in an overflow table)" },
        { "clock-skew", "ranks whose first event is far from the others' (> 1 s)" },
        { "duplicate-rank", "files claiming the same rank (both kept)" },
        { "rank-from-file-name", "no distributedInfo.rank: rank taken from the file name" },
        { "rank-from-order", "no rank in the file or its name: rank taken from the file's position" },
        { "skipped-file", "files in the folder that are not Kineto traces (skipped)" },
        { "timestamp-out-of-range",
            "events whose ts, dur or end lies beyond ±2^62 ns (about 146 years; skipped)" },
        { "rpc-unresolved",
            "RPC events whose name does not parse, remote ops whose call is absent, nodes naming no known "
            "worker (kept)" },
        { "rounded-nesting",
            "note: children ending after their parent by no more than the timestamp resolution (nested)" },
        { "large-integer",
            "note: events with an integer id above 2^63 - 1, such as NCCL's uint64 Comms Id (read as the id "
            "less 2^63, so links still pair; beyond 64 bits not read)" },
        { "invalid-utf8", "events with bytes that are not UTF-8 in their strings (each read as '?')" },
        { "control-character",
            "events with unescaped control characters inside strings, as torch._dynamo writes them (each "
            "read "
            "as a space)" },
        { "corrupt-duration",
            "events lasting longer than the longest duration believed (--max-event-duration, default 7 days, "
            "as HTA's max_event_duration_us): corrupted CUPTI timestamps (skipped)" },
    } };
} // namespace

std::string_view diagnosticName(DiagnosticKind kind)
{
    return kTexts[static_cast<std::size_t>(kind)].name;
}

std::string_view diagnosticDescription(DiagnosticKind kind)
{
    return kTexts[static_cast<std::size_t>(kind)].description;
}

void Diagnostics::add(DiagnosticKind kind, std::string_view example, std::int64_t eventIndex)
{
    addCount(kind, 1, example, eventIndex);
}

void Diagnostics::addCount(
    DiagnosticKind kind, std::uint64_t count, std::string_view example, std::int64_t eventIndex)
{
    if (count == 0)
        return;
    Entry& e = m_entries[static_cast<std::size_t>(kind)];
    if (e.count == 0) {
        e.example = std::string(example);
        e.exampleEventIndex = eventIndex;
    }
    e.count += count;
}

void Diagnostics::merge(const Diagnostics& other)
{
    for (std::size_t i = 0; i < kDiagnosticKindCount; ++i) {
        const Entry& e = other.m_entries[i];
        addCount(static_cast<DiagnosticKind>(i), e.count, e.example, e.exampleEventIndex);
    }
}

bool isNote(DiagnosticKind kind)
{
    return kind == DiagnosticKind::RoundedNesting || kind == DiagnosticKind::LargeInteger;
}

std::uint64_t Diagnostics::anomalies() const
{
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < kDiagnosticKindCount; ++i)
        if (!isNote(static_cast<DiagnosticKind>(i)))
            sum += m_entries[i].count;
    return sum;
}

std::uint64_t Diagnostics::total() const
{
    std::uint64_t sum = 0;
    for (const Entry& e : m_entries)
        sum += e.count;
    return sum;
}

} // namespace ks::core
