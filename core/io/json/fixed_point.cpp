#include "core/io/json/fixed_point.h"

#include <algorithm>
#include <limits>
#include <string>

namespace ks::core {

namespace {

    constexpr std::uint64_t kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

    // Exact conversion of any decimal token (with an exponent) to ns: the digits
    // are kept as text and the decimal point is moved, never rounded through a double.
    std::optional<std::int64_t> withExponent(std::string_view token, bool negative, std::size_t start)
    {
        std::string digits;
        int pointShift = 0; // position of the decimal point relative to the end of `digits`
        std::size_t i = start;
        bool seenPoint = false;
        for (; i < token.size(); ++i) {
            const char c = token[i];
            if (c >= '0' && c <= '9') {
                digits += c;
                if (seenPoint)
                    --pointShift;
            } else if (c == '.' && !seenPoint) {
                seenPoint = true;
            } else {
                break;
            }
        }
        if (digits.empty() || i >= token.size() || (token[i] != 'e' && token[i] != 'E'))
            return std::nullopt;
        ++i;
        bool negativeExponent = false;
        if (i < token.size() && (token[i] == '+' || token[i] == '-'))
            negativeExponent = token[i++] == '-';
        int exponent = 0;
        std::size_t exponentDigits = 0;
        for (; i < token.size() && token[i] >= '0' && token[i] <= '9'; ++i, ++exponentDigits) {
            if (exponent > 10000)
                return std::nullopt;
            exponent = exponent * 10 + (token[i] - '0');
        }
        if (exponentDigits == 0 || i != token.size())
            return std::nullopt;
        // value = digits * 10^(pointShift + exponent) µs = digits * 10^(shift) ns
        int shift = pointShift + (negativeExponent ? -exponent : exponent) + 3;
        std::uint64_t value = 0;
        bool roundUp = false;
        const int kept = static_cast<int>(digits.size()) + std::min(shift, 0);
        for (int k = 0; k < static_cast<int>(digits.size()); ++k) {
            const auto d = static_cast<std::uint64_t>(digits[static_cast<std::size_t>(k)] - '0');
            if (k < kept) {
                if (value > (kMax - d) / 10)
                    return std::nullopt;
                value = value * 10 + d;
            } else if (k == kept) {
                roundUp = d >= 5;
            }
        }
        for (; shift > 0; --shift) {
            if (value > kMax / 10)
                return std::nullopt;
            value *= 10;
        }
        if (roundUp)
            ++value;
        if (value > kMax)
            return std::nullopt;
        const auto signedValue = static_cast<std::int64_t>(value);
        return negative ? -signedValue : signedValue;
    }

} // namespace

std::optional<std::int64_t> microsecondsTextToNanoseconds(std::string_view token)
{
    // Trim trailing whitespace (raw tokens from simdjson may carry it).
    while (!token.empty()
        && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
    if (token.empty())
        return std::nullopt;
    std::size_t i = 0;
    const bool negative = token[0] == '-';
    if (negative)
        ++i;
    if (i >= token.size())
        return std::nullopt;
    // A plain loop: find_first_of would call memchr once per character.
    if (std::any_of(token.begin() + static_cast<std::ptrdiff_t>(i), token.end(),
            [](char c) { return c == 'e' || c == 'E'; }))
        return withExponent(token, negative, i);
    std::uint64_t whole = 0;
    std::size_t digits = 0;
    for (; i < token.size() && token[i] >= '0' && token[i] <= '9'; ++i, ++digits) {
        if (whole > kMax / 10000)
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
    if (i < token.size())
        return std::nullopt;
    if (whole > (kMax - fraction) / 1000)
        return std::nullopt;
    const auto value = static_cast<std::int64_t>(whole * 1000 + fraction);
    return negative ? -value : value;
}

} // namespace ks::core
