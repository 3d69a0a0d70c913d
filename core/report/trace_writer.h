#pragma once

#include "core/common/json_text.h"

// Streaming writer of augmented Kineto traces: re-reads the input with the
// reader's splitter (bounded memory whatever the size), copies every event,
// lets an editor rewrite some of them, appends new events at the end of
// traceEvents, and writes plain JSON or gzip. The input is never modified:
// the output goes to a temporary file renamed at the end, and an output path
// naming the input itself is refused.

#include "core/common/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// Rewrites traceEvents elements while a trace is copied.
class TraceEventEditor
{
public:
    virtual ~TraceEventEditor() = default;
    // `element` is traceEvents[index] as written in the input. Return true and
    // fill `replacement` to write something else in its place.
    virtual bool edit(std::uint64_t index, std::string_view element, std::string& replacement) = 0;
};

struct TraceWriteRequest
{
    std::string inputPath;
    std::string outputPath;
    bool gzip = false; // deflate the output (zlib), else plain JSON
    TraceEventEditor* editor = nullptr; // optional
    std::vector<std::string> appended; // JSON objects added at the end of traceEvents
};

struct TraceWriteSummary
{
    std::uint64_t inputEvents = 0;
    std::uint64_t editedEvents = 0;
    std::uint64_t appendedEvents = 0;
    std::uint64_t bytesWritten = 0; // on disk
};

Result<TraceWriteSummary> writeTrace(const TraceWriteRequest& request);

// True when a path names a gzip file (ends in ".gz").
bool isGzipPath(const std::string& path);

// HTA's output naming: every ".json" in the file name becomes suffix + ".json"
// (x.json.gz -> x_with_counters.json.gz); a name without ".json" gets suffix + ".json".
std::string suffixedTracePath(const std::string& path, const std::string& suffix);

// The top-level members of a JSON object's text: raw key (quoted) and raw value.
struct JsonMember
{
    std::string_view key;
    std::string_view value;
};

// Empty when `object` is not a JSON object.
std::vector<JsonMember> objectMembers(std::string_view object);

} // namespace ks::core
