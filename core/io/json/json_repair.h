#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ks::core::json {

// What real producers write that is not JSON, and that the parser reads anyway.
enum class JsonRepairKind : std::uint8_t
{
    InvalidUtf8, // a byte that starts no valid UTF-8 sequence: names cut inside a character
    ControlCharacter // an unescaped byte below 0x20 inside a string (torch._dynamo's traces)
};

struct JsonRepair
{
    std::size_t offset = 0; // in the text given
    JsonRepairKind kind = JsonRepairKind::InvalidUtf8;
};

// Rewrites such bytes in place, one byte for one, so that every offset into the text
// (ArgsIndex, the events' positions) still holds: an invalid UTF-8 byte becomes '?', a
// control character inside a string a space. Returns the repairs in text order. Runs
// only after simdjson rejected a piece, so well-formed traces never pay for it.
std::vector<JsonRepair> repairJsonText(char* text, std::size_t length);

} // namespace ks::core::json
