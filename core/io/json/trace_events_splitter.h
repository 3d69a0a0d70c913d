#pragma once

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/io/gzip/input_stream.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace ks::core {

// Receives a Kineto document in pieces: runs of complete traceEvents elements
// and the other top-level keys with their raw JSON values.
class TraceEventsHandler
{
public:
    virtual ~TraceEventsHandler() = default;
    // `elements`: `count` complete array elements separated by commas and
    // whitespace; the first is traceEvents[firstIndex] and starts at byte
    // `byteOffset` of the inflated document. Returning an error stops the read.
    virtual std::optional<Error> onEvents(
        std::string_view elements, std::uint64_t firstIndex, std::size_t count, std::uint64_t byteOffset) = 0;
    virtual void onTopLevelKey(std::string_view key, std::string_view rawValue) = 0;
};

struct SplitSummary
{
    std::uint64_t events = 0;
    std::uint64_t jsonBytes = 0;
    bool hadTraceEvents = false;
};

// Reads a whole document from `input`, cutting traceEvents into pieces of about
// `chunkBytes` at element boundaries, so memory stays bounded whatever the file
// size. Accepts `{..., "traceEvents": [...], ...}` with keys in any order, or a
// bare array of events. Errors name the byte offset in the inflated JSON.
Result<SplitSummary> splitTraceEvents(InputStream& input, const std::string& path,
    TraceEventsHandler& handler, std::size_t chunkBytes, ProgressSink* progress, const CancelToken* cancel);

} // namespace ks::core
