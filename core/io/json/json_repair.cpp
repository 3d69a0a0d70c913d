#include "core/io/json/json_repair.h"

namespace ks::core::json {

namespace {

    bool isContinuation(unsigned char c)
    {
        return (c & 0xC0) == 0x80;
    }

    // The length of the valid UTF-8 sequence starting at text[i] (lead byte >= 0x80), or
    // 0: Unicode's well-formed sequences (no overlong forms, no surrogates, at most
    // U+10FFFF), as simdjson checks them.
    std::size_t utf8SequenceLength(const unsigned char* text, std::size_t i, std::size_t length)
    {
        const unsigned char c = text[i];
        std::size_t n = 0;
        unsigned char low = 0x80, high = 0xBF; // the second byte's range
        if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            low = c == 0xE0 ? 0xA0 : 0x80;
            high = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            low = c == 0xF0 ? 0x90 : 0x80;
            high = c == 0xF4 ? 0x8F : 0xBF;
        } else {
            return 0;
        }
        if (i + n > length || text[i + 1] < low || text[i + 1] > high)
            return 0;
        for (std::size_t k = 2; k < n; ++k)
            if (!isContinuation(text[i + k]))
                return 0;
        return n;
    }

} // namespace

std::vector<JsonRepair> repairJsonText(char* text, std::size_t length)
{
    std::vector<JsonRepair> repairs;
    auto* bytes = reinterpret_cast<unsigned char*>(text);
    bool inString = false;
    bool escaped = false;
    for (std::size_t i = 0; i < length; ++i) {
        const unsigned char c = bytes[i];
        if (c >= 0x80) {
            const std::size_t n = utf8SequenceLength(bytes, i, length);
            if (n == 0) {
                bytes[i] = '?';
                repairs.push_back({ i, JsonRepairKind::InvalidUtf8 });
            } else {
                i += n - 1;
            }
            escaped = false;
            continue;
        }
        if (!inString) {
            inString = c == '"';
            continue;
        }
        if (c < 0x20) {
            bytes[i] = ' ';
            repairs.push_back({ i, JsonRepairKind::ControlCharacter });
            escaped = false;
        } else if (escaped) {
            escaped = false;
        } else if (c == '\\') {
            escaped = true;
        } else if (c == '"') {
            inString = false;
        }
    }
    return repairs;
}

} // namespace ks::core::json
