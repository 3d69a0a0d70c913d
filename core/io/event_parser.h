#pragma once

#include "core/common/result.h"
#include "core/io/rank_builder.h"

#include <simdjson.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// Parses pieces of the traceEvents array with simdjson on-demand and feeds each
// event to a RankBuilder. One parser per rank; reused across pieces so its
// buffers are allocated once.
class EventParser
{
public:
    EventParser(std::string path, RankBuilder& builder);

    // `elements`: complete array elements separated by commas (see TraceEventsHandler).
    std::optional<Error> parse(std::string_view elements, std::uint64_t firstIndex, std::uint64_t byteOffset);

private:
    std::optional<Error> parseEvent(simdjson::ondemand::object object, std::uint64_t eventIndex);
    Error errorAt(simdjson::error_code code, std::uint64_t byteOffset, std::uint64_t eventIndex) const;

    std::string m_path;
    RankBuilder& m_builder;
    simdjson::ondemand::parser m_parser;
    std::vector<char> m_padded; // '[' + elements + ']' + padding
};

} // namespace ks::core
