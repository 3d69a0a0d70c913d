// The element scanner's hot loop, compiled once per kernel like
// event_parser_kernel.cpp (see parser_kernel.h): 64 bytes classified with AVX2
// in the Haswell copy, with SSE2 (which every x86-64 has) in the baseline one.

#include "core/io/json/event_parser_kernel.h"

#include <cstdint>
#include <cstring>

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifndef KS_PARSER_KERNEL
#error "KS_PARSER_KERNEL must name the kernel's namespace (core/CMakeLists.txt sets it)"
#endif

namespace ks::core::KS_PARSER_KERNEL {

using json::ScanResult;
using json::ScanStatus;

namespace {

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

} // namespace

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

} // namespace ks::core::KS_PARSER_KERNEL
