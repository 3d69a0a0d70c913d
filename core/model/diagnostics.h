#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ks::core {

// Every anomaly the reader can meet. Nothing is dropped silently: each is
// counted here with the first example kept for a person to look at.
enum class DiagnosticKind : std::uint8_t
{
    MissingField, // an event without ph, ts, name, pid or tid
    WrongFieldType, // a field of the wrong JSON type
    UnknownPhase, // a ph Kinetoscope does not model
    NegativeDuration, // dur < 0
    UnmatchedBegin, // B without E
    UnmatchedEnd, // E without B
    OverlappingSlices, // slices on one row that overlap without nesting (moved to an extra lane)
    OrphanFlowStart, // s/t without a matching f, or without a slice at its end
    OrphanFlowEnd, // f without a matching s
    KernelBeforeLaunch, // GPU work starting before its launch starts
    DuplicateMetadata, // two M events naming the same process or thread differently
    UnlinkedGpuWork, // GPU work with a correlation but no launch in the file
    DurationOverflow, // a duration too large for the compact column (kept exactly in the overflow table)
    ClockSkew, // a rank's start far from the others'
    DuplicateRank, // two files claim the same rank
    RankFromFileName, // no distributedInfo.rank: the file name gave the rank
    RankFromOrder, // neither: rank is the file's position
    SkippedFile, // a file in the folder that is not a Kineto trace
    TimestampOutOfRange, // ts or ts + dur beyond ±2^62 ns (time_range.h): event skipped
    RpcUnresolved, // RPC names that do not parse, remote ops without their call, nodes naming no known worker
    RoundedNesting, // a note, not an anomaly: a child ending past its parent by at most the timestamp
                    // resolution, nested
    LargeInteger, // a note: an integer id above 2^63 - 1 (uint64 "Comms Id"), read as the id less 2^63
    InvalidUtf8, // bytes that are not UTF-8 in a string (read as '?')
    ControlCharacter, // unescaped control characters inside strings (torch._dynamo traces; read as spaces)
    CorruptDuration, // a duration longer than LoadOptions::maxEventDurationNs (corrupted CUPTI times):
                     // skipped
    Count_
};

constexpr std::size_t kDiagnosticKindCount = static_cast<std::size_t>(DiagnosticKind::Count_);

std::string_view diagnosticName(DiagnosticKind kind);
std::string_view diagnosticDescription(DiagnosticKind kind);

// Notes record how the reader resolved something harmless (timestamp rounding);
// they are listed with the diagnostics but are not anomalies.
bool isNote(DiagnosticKind kind);

class Diagnostics
{
public:
    struct Entry
    {
        std::uint64_t count = 0;
        std::string example; // first occurrence, for a person
        std::int64_t exampleEventIndex = -1; // position in traceEvents, -1 if none
    };

    void add(DiagnosticKind kind, std::string_view example, std::int64_t eventIndex = -1);
    void addCount(
        DiagnosticKind kind, std::uint64_t count, std::string_view example, std::int64_t eventIndex = -1);
    void merge(const Diagnostics& other);

    const Entry& entry(DiagnosticKind kind) const { return m_entries[static_cast<std::size_t>(kind)]; }

    std::uint64_t count(DiagnosticKind kind) const { return entry(kind).count; }

    std::uint64_t total() const;

    // total() less the notes: what `check --max anomalies` gates.
    std::uint64_t anomalies() const;

private:
    std::array<Entry, kDiagnosticKindCount> m_entries {};
};

} // namespace ks::core
