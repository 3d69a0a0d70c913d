#include "core/io/fixed_point.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace ks::core {

namespace {

// Slow path for exponents: exact enough for the rare writer that uses them.
std::optional<std::int64_t> viaDouble(std::string_view token)
{
    double value = 0;
    auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || ptr != token.data() + token.size() || !std::isfinite(value))
        return std::nullopt;
    const double ns = std::round(value * 1000.0);
    if (std::fabs(ns) >= 9.2e18)
        return std::nullopt;
    return static_cast<std::int64_t>(ns);
}

} // namespace

std::optional<std::int64_t> microsecondsTextToNanoseconds(std::string_view token)
{
    // Trim trailing whitespace (raw tokens from simdjson may carry it).
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
    if (token.empty())
        return std::nullopt;
    std::size_t i = 0;
    const bool negative = token[0] == '-';
    if (negative)
        ++i;
    if (i >= token.size())
        return std::nullopt;
    constexpr std::uint64_t kLimit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / 10;
    std::uint64_t whole = 0;
    std::size_t digits = 0;
    for (; i < token.size() && token[i] >= '0' && token[i] <= '9'; ++i, ++digits) {
        if (whole > kLimit / 1000)
            return std::nullopt;
        whole = whole * 10 + static_cast<std::uint64_t>(token[i] - '0');
    }
    if (digits == 0)
        return std::nullopt;
    std::uint64_t fraction = 0; // nanoseconds
    if (i < token.size() && token[i] == '.') {
        ++i;
        std::size_t fractionDigits = 0;
        bool roundUp = false;
        for (; i < token.size() && token[i] >= '0' && token[i] <= '9'; ++i, ++fractionDigits) {
            const auto d = static_cast<std::uint64_t>(token[i] - '0');
            if (fractionDigits < 3)
                fraction = fraction * 10 + d;
            else if (fractionDigits == 3)
                roundUp = d >= 5;
        }
        if (fractionDigits == 0)
            return std::nullopt;
        for (std::size_t k = fractionDigits; k < 3; ++k)
            fraction *= 10;
        if (roundUp)
            ++fraction;
    }
    if (i < token.size()) {
        if (token[i] == 'e' || token[i] == 'E')
            return viaDouble(token);
        return std::nullopt;
    }
    const std::uint64_t ns = whole * 1000 + fraction;
    const auto value = static_cast<std::int64_t>(ns);
    return negative ? -value : value;
}

} // namespace ks::core
