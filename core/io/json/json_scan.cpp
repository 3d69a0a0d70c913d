#include "core/io/json/json_scan.h"

#include <cstdint>
#include <cstring>
#include <string>

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ks::core::json {

namespace {

    bool isSpace(char c)
    {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    // Where the characters that matter for finding the end of a composite sit in
    // 64 bytes of text, one bit per byte.
    struct BlockMasks
    {
        std::uint64_t quote = 0;
        std::uint64_t backslash = 0;
        std::uint64_t open = 0; // '{' or '['
        std::uint64_t close = 0; // '}' or ']'
    };

    constexpr std::size_t kBlock = 64;

    // '[' and '{' differ only in bit 0x20, as do ']' and '}': OR-ing that bit in
    // finds both of a pair with one comparison.
    BlockMasks classifyBlock(const char* p)
    {
        BlockMasks m;
#if defined(__AVX2__)
        const __m256i quote = _mm256_set1_epi8('"');
        const __m256i backslash = _mm256_set1_epi8('\\');
        const __m256i caseBit = _mm256_set1_epi8(0x20);
        const __m256i open = _mm256_set1_epi8('{');
        const __m256i close = _mm256_set1_epi8('}');
        for (unsigned k = 0; k < 2; ++k) {
            const unsigned shift = 32 * k; // the byte offset of this half, and its bits' offset in the mask
            const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + shift));
            const __m256i folded = _mm256_or_si256(v, caseBit);
            auto bits = [](__m256i eq) {
                return static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(eq)));
            };
            m.quote |= bits(_mm256_cmpeq_epi8(v, quote)) << shift;
            m.backslash |= bits(_mm256_cmpeq_epi8(v, backslash)) << shift;
            m.open |= bits(_mm256_cmpeq_epi8(folded, open)) << shift;
            m.close |= bits(_mm256_cmpeq_epi8(folded, close)) << shift;
        }
#elif defined(__SSE2__)
        const __m128i quote = _mm_set1_epi8('"');
        const __m128i backslash = _mm_set1_epi8('\\');
        const __m128i caseBit = _mm_set1_epi8(0x20);
        const __m128i open = _mm_set1_epi8('{');
        const __m128i close = _mm_set1_epi8('}');
        for (unsigned k = 0; k < 4; ++k) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
            const __m128i folded = _mm_or_si128(v, caseBit);
            auto bits = [](__m128i eq) {
                return static_cast<std::uint64_t>(static_cast<std::uint16_t>(_mm_movemask_epi8(eq)));
            };
            const unsigned shift = 16 * k;
            m.quote |= bits(_mm_cmpeq_epi8(v, quote)) << shift;
            m.backslash |= bits(_mm_cmpeq_epi8(v, backslash)) << shift;
            m.open |= bits(_mm_cmpeq_epi8(folded, open)) << shift;
            m.close |= bits(_mm_cmpeq_epi8(folded, close)) << shift;
        }
#else
        for (unsigned i = 0; i < kBlock; ++i) {
            const std::uint64_t bit = std::uint64_t(1) << i;
            switch (p[i]) {
            case '"':
                m.quote |= bit;
                break;
            case '\\':
                m.backslash |= bit;
                break;
            case '{':
            case '[':
                m.open |= bit;
                break;
            case '}':
            case ']':
                m.close |= bit;
                break;
            default:
                break;
            }
        }
#endif
        return m;
    }

    // Bits of the characters a backslash escapes. Backslashes are rare in traces,
    // so a plain walk over the block is fast enough; `pending` carries an escape
    // that crosses into the next block.
    std::uint64_t escapedBits(std::uint64_t backslash, bool& pending)
    {
        std::uint64_t escaped = 0;
        for (unsigned i = 0; i < kBlock; ++i) {
            const std::uint64_t bit = std::uint64_t(1) << i;
            if (pending) {
                escaped |= bit;
                pending = false;
            } else if (backslash & bit) {
                pending = true;
            }
        }
        return escaped;
    }

    // Bit i = XOR of bits 0..i: 1 from an opening quote up to (not including) its closing quote.
    std::uint64_t prefixXor(std::uint64_t x)
    {
        x ^= x << 1;
        x ^= x << 2;
        x ^= x << 4;
        x ^= x << 8;
        x ^= x << 16;
        x ^= x << 32;
        return x;
    }

    // Finds the matching close of the '{' or '[' at text[pos], 64 bytes at a time:
    // quotes and brackets are found as bit masks, strings masked out with a
    // prefix XOR, and only the remaining brackets are walked one by one.
    ScanResult scanComposite(std::string_view text, std::size_t pos)
    {
        bool inString = false;
        bool escapePending = false;
        int depth = 0;
        char tail[kBlock];
        for (std::size_t at = pos; at < text.size(); at += kBlock) {
            const std::size_t available = text.size() - at;
            const char* block = text.data() + at;
            if (available < kBlock) {
                std::memset(tail, ' ', kBlock);
                std::memcpy(tail, block, available);
                block = tail;
            }
            BlockMasks m = classifyBlock(block);
            if (m.backslash != 0 || escapePending)
                m.quote &= ~escapedBits(m.backslash, escapePending);
            const std::uint64_t strings = prefixXor(m.quote) ^ (inString ? ~std::uint64_t(0) : 0);
            inString = (strings >> 63) != 0;
            const std::uint64_t open = m.open & ~strings;
            for (std::uint64_t brackets = (m.open | m.close) & ~strings; brackets != 0;
                 brackets &= brackets - 1) {
                const unsigned i = static_cast<unsigned>(__builtin_ctzll(brackets));
                if (open & (std::uint64_t(1) << i)) {
                    ++depth;
                    continue;
                }
                if (--depth == 0)
                    return { ScanStatus::Complete, at + i + 1 };
                if (depth < 0)
                    return { ScanStatus::Invalid, at + i };
            }
        }
        return { ScanStatus::NeedMore, text.size() };
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
    if (c == '{' || c == '[')
        return scanComposite(text, pos);
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
