#pragma once

#include <string>
#include <string_view>

namespace ks::core {

// Appends `text` as a JSON string literal (quotes and escapes). The one place
// every JSON writer of the project (CLI, HTA encodings, trace writers) escapes text.
void appendJsonString(std::string& out, std::string_view text);

inline std::string jsonString(std::string_view text)
{
    std::string out;
    appendJsonString(out, text);
    return out;
}

} // namespace ks::core
