#pragma once

#include "core/io/store_builder/typed_args.h"
#include "core/model/track.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace ks::core {

// One traceEvents element as the parser saw it, before modelling. Views point
// into parser buffers and are valid only during RankBuilder::add().
struct RawEvent
{
    std::uint64_t eventIndex = 0;
    std::uint64_t jsonOffset = 0; // where the element starts in the inflated JSON (ArgsIndex)
    char phase = 0; // 0 when missing
    std::string_view name;
    std::string_view category;
    bool hasName = false;
    bool hasCategory = false;
    ThreadKey key;
    std::string_view pidText; // when pid is a string
    std::string_view tidText; // when tid is a string
    bool hasPid = false;
    bool hasTid = false;
    std::optional<std::int64_t> tsNs;
    std::optional<std::int64_t> durNs;
    bool tsFractional = false; // token written with '.' or an exponent
    bool durFractional = false;
    bool timeOutOfRange = false; // ts or dur is a number too large for int64 nanoseconds
    bool hasId = false;
    bool idIsString = false;
    std::int64_t idValue = 0;
    std::string_view idText;
    char bindPoint = 0; // 'e' = enclosing slice
    char scope = 0; // instants: 't', 'p', 'g'
    bool hasArgs = false;
    std::string_view argsText; // raw JSON of the args object
    TypedArgs typed; // the args analyses need, extracted while parsing
    std::string_view wrongTypeField; // first field with an unexpected type, if any
    // What the reader rewrote or read specially in this element (import diagnostics):
    std::uint32_t invalidUtf8Bytes = 0; // bytes that were not UTF-8, read as '?'
    std::uint32_t controlCharacters = 0; // unescaped control characters in strings, read as spaces
    std::uint32_t largeIntegers = 0; // integer ids above 2^63 - 1 (uint64 ids such as "Comms Id")
    std::string_view largeIntegerField; // the first such field's key (in the piece, like argsText)
};

} // namespace ks::core
