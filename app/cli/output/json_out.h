#pragma once

#include <string>
#include <string_view>

namespace ks::cli {

// JSON string literal with escapes, for the CLI's --json output.
std::string jsonQuote(std::string_view text);

} // namespace ks::cli
