#pragma once

#include <iosfwd>
#include <string_view>

namespace ks::cli {

// Writes `text` into a man page verbatim: troff treats a leading '.' or '\''
// as a request and '\\' as an escape, and '-' unescaped as a hyphen.
void writeTroffText(std::ostream& out, std::string_view text);

} // namespace ks::cli
