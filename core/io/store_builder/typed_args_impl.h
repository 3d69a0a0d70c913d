#pragma once

// Template part of typed_args.h.

#include "core/io/json/json_scan.h"

namespace ks::core {

template <typename Visit>
bool forEachMember(std::string_view objectText, Visit&& visit)
{
    std::size_t pos = json::skipWhitespace(objectText, 0);
    if (pos >= objectText.size() || objectText[pos] != '{')
        return false;
    ++pos;
    for (;;) {
        pos = json::skipWhitespace(objectText, pos);
        if (pos >= objectText.size())
            return false;
        if (objectText[pos] == '}')
            return true;
        if (objectText[pos] == ',') {
            ++pos;
            continue;
        }
        if (objectText[pos] != '"')
            return false;
        const auto k = json::scanString(objectText, pos);
        if (k.status != json::ScanStatus::Complete)
            return false;
        std::string_view key = objectText.substr(pos + 1, k.end - pos - 2);
        std::string unescaped;
        if (key.find('\\') != std::string_view::npos) {
            auto u = json::unescapeString(objectText.substr(pos, k.end - pos));
            if (!u)
                return false;
            unescaped = std::move(*u);
            key = unescaped;
        }
        pos = json::skipWhitespace(objectText, k.end);
        if (pos >= objectText.size() || objectText[pos] != ':')
            return false;
        pos = json::skipWhitespace(objectText, pos + 1);
        const auto v = json::scanValue(objectText, pos);
        if (v.status != json::ScanStatus::Complete)
            return false;
        visit(key, objectText.substr(pos, v.end - pos));
        pos = v.end;
    }
}

} // namespace ks::core
