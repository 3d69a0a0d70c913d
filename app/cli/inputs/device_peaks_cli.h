#pragma once

// --device NAME and --peaks FILE: the device a roofline is drawn against, as
// `roofline` and `insights` read them.

#include "app/cli/cli_args.h"
#include "core/analysis/efficiency/efficiency.h"

#include <iosfwd>
#include <optional>

namespace ks::cli {

// The options' names, for a command's list of options with a value.
inline constexpr const char* kDeviceOption = "--device";
inline constexpr const char* kPeaksOption = "--peaks";

// What the options give (nothing forced when neither is there); nullopt after
// printing one line naming the file when the --peaks file cannot be read or parsed.
std::optional<core::RooflineDevice> deviceArguments(const CliArgs& args, std::ostream& err);

} // namespace ks::cli
