#include "core/io/json/json_scan.h"

#include "core/io/json/event_parser_kernel.h"
#include "core/io/json/parser_kernel.h"

#include <cstring>
#include <string>

namespace ks::core::json {

namespace {

    bool isSpace(char c)
    {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    ScanResult scanScalar(std::string_view text, std::size_t pos)
    {
        std::size_t i = pos;
        while (i < text.size()) {
            const char c = text[i];
            if (c == ',' || c == '}' || c == ']' || isSpace(c))
                return { i == pos ? ScanStatus::Invalid : ScanStatus::Complete, i };
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-'
                    || c == '+' || c == '.'))
                return { ScanStatus::Invalid, i };
            ++i;
        }
        return { ScanStatus::NeedMore, text.size() };
    }

} // namespace

std::size_t skipWhitespace(std::string_view text, std::size_t pos)
{
    while (pos < text.size() && isSpace(text[pos]))
        ++pos;
    return pos;
}

ScanResult scanString(std::string_view text, std::size_t pos)
{
    const char* const begin = text.data();
    const char* const end = begin + text.size();
    const char* p = begin + pos + 1;
    while (p < end) {
        const void* q = std::memchr(p, '"', static_cast<std::size_t>(end - p));
        if (!q)
            return { ScanStatus::NeedMore, text.size() };
        const char* quote = static_cast<const char*>(q);
        // A quote preceded by an odd number of backslashes is escaped.
        std::size_t backslashes = 0;
        for (const char* b = quote - 1; b >= begin + pos + 1 && *b == '\\'; --b)
            ++backslashes;
        if (backslashes % 2 == 0)
            return { ScanStatus::Complete, static_cast<std::size_t>(quote + 1 - begin) };
        p = quote + 1;
    }
    return { ScanStatus::NeedMore, text.size() };
}

ScanResult scanValue(std::string_view text, std::size_t pos)
{
    pos = skipWhitespace(text, pos);
    if (pos >= text.size())
        return { ScanStatus::NeedMore, text.size() };
    const char c = text[pos];
    if (c == '"')
        return scanString(text, pos);
    if (c == '{' || c == '[') {
#ifdef KS_HAVE_HASWELL_KERNEL
        if (activeParserKernel() == ParserKernel::Haswell)
            return kernel_haswell::scanComposite(text, pos);
#endif
        return kernel_baseline::scanComposite(text, pos);
    }
    if (c == '}' || c == ']' || c == ',' || c == ':')
        return { ScanStatus::Invalid, pos };
    return scanScalar(text, pos);
}

namespace {

    void appendUtf8(std::string& out, unsigned code)
    {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

} // namespace

std::optional<std::string> unescapeString(std::string_view quoted)
{
    if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"')
        return std::nullopt;
    std::string out;
    out.reserve(quoted.size());
    for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
        const char c = quoted[i];
        if (c != '\\') {
            out += c;
            continue;
        }
        if (i + 2 >= quoted.size())
            return std::nullopt;
        const char e = quoted[++i];
        switch (e) {
        case '"':
        case '\\':
        case '/':
            out += e;
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'u': {
            if (i + 4 >= quoted.size())
                return std::nullopt;
            unsigned code = 0;
            for (int k = 0; k < 4; ++k) {
                const char h = quoted[++i];
                code <<= 4;
                if (h >= '0' && h <= '9')
                    code |= static_cast<unsigned>(h - '0');
                else if (h >= 'a' && h <= 'f')
                    code |= static_cast<unsigned>(h - 'a' + 10);
                else if (h >= 'A' && h <= 'F')
                    code |= static_cast<unsigned>(h - 'A' + 10);
                else
                    return std::nullopt;
            }
            appendUtf8(out, code);
            break;
        }
        default:
            return std::nullopt;
        }
    }
    return out;
}

} // namespace ks::core::json
