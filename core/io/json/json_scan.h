#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace ks::core::json {

// Byte-level JSON scanning for cutting a stream at value boundaries. It checks
// only what it needs (balanced brackets outside strings); simdjson validates
// the pieces afterwards.

enum class ScanStatus : unsigned char
{
    Complete,
    NeedMore,
    Invalid
};

struct ScanResult
{
    ScanStatus status = ScanStatus::NeedMore;
    std::size_t end = 0; // one past the value when Complete; error position when Invalid
};

std::size_t skipWhitespace(std::string_view text, std::size_t pos);

// Finds the end of the JSON value starting at text[pos] (after whitespace).
ScanResult scanValue(std::string_view text, std::size_t pos);

// Finds the closing quote of a string whose opening quote is at text[pos].
ScanResult scanString(std::string_view text, std::size_t pos);

// The text of a JSON string without quotes, unescaped for the common escapes
// (\" \\ \/ \b \f \n \r \t and \uXXXX). Used for top-level keys only.
std::optional<std::string> unescapeString(std::string_view quoted);

} // namespace ks::core::json
