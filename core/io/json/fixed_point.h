#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ks::core {

// Converts a JSON number token in microseconds ("1712195495505543.2",
// "68.0", "-3", "1.5e3") to integer nanoseconds exactly, digit by digit:
// a double cannot hold epoch-scale microseconds to the nanosecond.
// Digits past the nanosecond are rounded half away from zero. Returns nullopt
// when the token is not a number or does not fit in int64.
std::optional<std::int64_t> microsecondsTextToNanoseconds(std::string_view token);

} // namespace ks::core
