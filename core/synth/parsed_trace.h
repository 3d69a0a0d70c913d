#pragma once

#include "core/common/result.h"

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace ks::core {

// What the scaler must rewrite in a copy; everything else is copied verbatim.
enum class FieldRole : std::uint8_t
{
    Other,
    Ts,
    FlowId,
    Name,
    Args,
    // inside args
    Correlation,
    WaitCorrelation,
    ExternalId,
    EvIdx,
    PythonId,
    PythonParentId,
    SequenceNumber,
};

struct RawField
{
    std::string_view key; // unescaped
    std::string_view value; // exact JSON text of the value
    FieldRole role = FieldRole::Other;
};

struct SourceEvent
{
    std::uint32_t firstField = 0;
    std::uint32_t fieldCount = 0;
    std::uint32_t firstArg = 0; // into ParsedTrace::args, when args is an object
    std::uint32_t argCount = 0;
    bool metadata = false; // ph "M": written once, not per copy
    bool argsObject = false; // its "args" field is expanded in ParsedTrace::args
};

// A trace held as exact JSON text per field (ids and timestamps are never
// round-tripped through double), plus the ranges of every id the scaler
// offsets. Views point into `text` and `keys`, so this type is move-only.
struct ParsedTrace
{
    simdjson::padded_string text;
    std::unordered_set<std::string> keys;
    std::vector<RawField> topLevel; // every top-level key except traceEvents, in order
    std::size_t eventsPosition = 0; // traceEvents came before topLevel[eventsPosition]
    std::vector<RawField> fields;
    std::vector<RawField> args;
    std::vector<SourceEvent> events;

    bool haveTime = false;
    std::int64_t minTsNs = 0;
    std::int64_t maxEndNs = 0;
    std::int64_t maxCorrelation = 0; // correlations and flow ids share one space (ac2g id == correlation)
    std::int64_t maxExternalId = 0;
    std::int64_t maxEvIdx = -1;
    std::int64_t maxPythonId = 0;
    std::int64_t maxSequence = 0;
    bool haveSteps = false;
    std::int64_t minStep = 0;
    std::int64_t maxStep = 0;
};

Result<std::unique_ptr<ParsedTrace>> parseTraceForScaling(
    simdjson::padded_string text, const std::string& path);

// Exact parse of a JSON integer token; false for anything else.
bool parseIntegerToken(std::string_view token, std::int64_t& value);
// A decimal number of microseconds as integer nanoseconds (digits beyond the
// ns are truncated); false for exponents or non-numbers.
bool parseMicrosecondsToken(std::string_view token, std::int64_t& ns);

} // namespace ks::core
