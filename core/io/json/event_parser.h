#pragma once

#include "core/common/result.h"
#include "core/io/json/raw_event_sink.h"
#include "core/io/store_builder/rank_builder.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

class EventParserKernel;

// Parses pieces of the traceEvents array with simdjson on-demand and feeds each
// event to a RankBuilder (or a sink). One parser per rank or parse worker;
// reused across pieces so its buffers are allocated once.
//
// simdjson stays out of this header: the parser's hot code is built once per
// kernel (event_parser_kernel.h), and each copy's simdjson types differ. Which
// copy parses is decided by activeParserKernel() (parser_kernel.h).
class EventParser
{
public:
    EventParser(std::string path, RankBuilder& builder);
    // For a parse worker: events go to `sink` instead of a builder.
    EventParser(std::string path, RawEventSink& sink);
    ~EventParser();
    EventParser(const EventParser&) = delete;
    EventParser& operator=(const EventParser&) = delete;

    // `elements`: complete array elements separated by commas (see TraceEventsHandler).
    std::optional<Error> parse(std::string_view elements, std::uint64_t firstIndex, std::uint64_t byteOffset);

    // Writes '[' + elements + ']' + simdjson's padding into `buffer`; returns the JSON length.
    static std::size_t prepare(std::string_view elements, std::vector<char>& buffer);
    // Parses a buffer made by prepare(). Bytes simdjson rejects that real producers write
    // (not UTF-8, raw control characters in strings) are rewritten in place, one for one
    // (json_repair.h), and counted on their events.
    std::optional<Error> parsePrepared(
        std::vector<char>& buffer, std::size_t length, std::uint64_t firstIndex, std::uint64_t byteOffset);

private:
    std::unique_ptr<EventParserKernel> m_kernel;
    std::vector<char> m_padded; // parse()'s '[' + elements + ']' + padding
};

} // namespace ks::core
