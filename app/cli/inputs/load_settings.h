#pragma once

#include "app/cli/cli_args.h"
#include "core/io/trace_set_loader.h"

#include <optional>
#include <string>
#include <vector>

namespace ks::cli {

// How every command reads traces, whatever it computes: options that may stand anywhere
// on the command line of any command that loads traces (`--max-event-duration US`), so
// that each command does not list them (CliArgs accepts them). main() checks them before
// the command runs; the command reads them from its own arguments.
struct CliLoadSettings
{
    std::int64_t maxEventDurationNs = core::LoadOptions::kDefaultMaxEventDurationNs;
};

// Removes the load settings from `args` into `settings`; the error line when a value is
// missing or not a number.
std::optional<std::string> takeLoadSettings(std::vector<std::string>& args, CliLoadSettings& settings);

// The load settings of a command's arguments into `options`; the error line when a value
// is not a number (options unchanged then).
std::optional<std::string> applyLoadSettings(const CliArgs& parsed, core::LoadOptions& options);

// The line each command's usage and the overview print about them.
inline constexpr const char* kLoadSettingsUsage =
    "every command that reads traces also takes --max-event-duration US: slices lasting longer are "
    "corrupted and skipped (default 604800000000, 7 days, as HTA; 0: no limit)";

} // namespace ks::cli
