#include "app/cli/inputs/load_settings.h"

#include <charconv>
#include <limits>

namespace ks::cli {

namespace {

    constexpr std::string_view kMaxEventDuration = kMaxEventDurationOption;

    // Whole µs, as HTA's max_event_duration_us, within what ns hold.
    std::optional<std::int64_t> microsecondsToNs(const std::string& text)
    {
        std::int64_t us = 0;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), us);
        if (r.ec != std::errc() || r.ptr != text.data() + text.size() || us < 0
            || us > std::numeric_limits<std::int64_t>::max() / 1000)
            return std::nullopt;
        return us * 1000;
    }

} // namespace

std::optional<std::string> takeLoadSettings(std::vector<std::string>& args, CliLoadSettings& settings)
{
    std::vector<std::string> rest;
    rest.reserve(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::optional<std::string> value;
        if (a == kMaxEventDuration) {
            if (i + 1 == args.size())
                return std::string(kMaxEventDuration) + " needs a value (µs)";
            value = args[++i];
        } else if (a.starts_with(std::string(kMaxEventDuration) + "=")) {
            value = a.substr(kMaxEventDuration.size() + 1);
        } else {
            rest.push_back(a);
            continue;
        }
        const auto ns = microsecondsToNs(*value);
        if (!ns)
            return std::string(kMaxEventDuration) + " needs a whole number of µs, not '" + *value + "'";
        settings.maxEventDurationNs = *ns;
    }
    args = std::move(rest);
    return std::nullopt;
}

std::optional<std::string> applyLoadSettings(const CliArgs& parsed, core::LoadOptions& options)
{
    const std::optional<std::string> value = parsed.value(std::string(kMaxEventDuration));
    if (!value)
        return std::nullopt;
    const auto ns = microsecondsToNs(*value);
    if (!ns)
        return std::string(kMaxEventDuration) + " needs a whole number of µs, not '" + *value + "'";
    options.maxEventDurationNs = *ns;
    return std::nullopt;
}

} // namespace ks::cli
